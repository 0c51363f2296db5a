"""The last digits of a card or an account given as its ending (issue 35): "Card ending 4417",
"mi cuenta termina en 4410", "die Karte endet auf 3391", in all six tabled languages. Endings of
a year, a season, a contract or a trip, and a card that ends in some days, stay as typed."""

from __future__ import annotations

import pytest

from tests.language.secret_cases import assert_kept, assert_withheld

# (language, text, the secret value in it, its kind)
SECRETS = [
    ("en", "Card ending 4417 is the one I use for subscriptions", "4417", "card number"),
    ("en", "the account ending in 8830, forget it", "8830", "account number"),
    ("es", "mi cuenta termina en 4410 y no lo guardes", "4410", "account number"),
    ("es", "la tarjeta terminada en 5521 es la del trabajo", "5521", "card number"),
    ("de", "die Karte endet auf 3391, bitte nicht merken", "3391", "card number"),
    ("de", "das Konto mit der Endung 7720", "7720", "account number"),
    ("fr", "la carte qui se termine par 6604, tu l'oublies", "6604", "card number"),
    ("fr", "le compte finissant par 2290", "2290", "account number"),
    ("pt", "o cartão terminado em 1187 é o da empresa", "1187", "card number"),
    ("pt", "a conta que termina em 9043", "9043", "account number"),
    ("it", "la carta che finisce con 3306, non salvarla", "3306", "card number"),
    ("it", "il conto che termina con 5128", "5128", "account number"),
]

CONTROLS = [
    "the year ending 2024 was good",
    "my card ends in 3 days",
    "the trial ending in 2026 is free",
    "my account ends in 2026.",
    "la cuenta termina en 2025, hay que renovarla",
    "el contrato termina en 2026",
    "la temporada termina en 2025 y la tarjeta caduca pronto",
    "Die Saison endet auf Platz 3",
    "le bail se termine par 3 mois de préavis",
    "o contrato termina em 2026",
    "la stagione finisce con 3 partite",
]


@pytest.mark.parametrize("lang,text,value,kind", SECRETS, ids=[f"{s[0]}-{i}" for i, s in enumerate(SECRETS)])
def test_a_cards_or_accounts_ending_is_withheld(lang: str, text: str, value: str, kind: str) -> None:
    assert_withheld(text, value, kind)


@pytest.mark.parametrize("text", CONTROLS)
def test_other_endings_stay(text: str) -> None:
    assert_kept(text)
