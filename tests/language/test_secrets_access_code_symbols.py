"""An access code with a symbol in it, as a password (issue 35): "Zugangscode für den Router:
Hagebutte!77", "código de acceso: Sol_2024!", in all six tabled languages; an access code's
words with no code (a place, a state, an instruction) stay."""

from __future__ import annotations

import pytest

from tests.language.secret_cases import assert_kept, assert_withheld

# (language, text, the secret value in it)
SECRETS = [
    ("en", "the access code for the router: Heron_2024, don't keep it", "Heron_2024"),
    ("es", "el código de acceso del portal es Sol_2024!", "Sol_2024"),
    ("de", "Zugangscode für den Router: Hagebutte!77 – bitte nirgends festhalten.", "Hagebutte!77"),
    ("fr", "le code d'accès du routeur est Marmotte#31", "Marmotte#31"),
    ("pt", "o código de acesso do painel é Caju@2023", "Caju@2023"),
    ("it", "il codice di accesso del router è Pino$88, non salvarlo", "Pino$88"),
]

CONTROLS = [
    "the access code is on the back of the router",
    "door code: see the e-mail from Anna",
    "el código de acceso es nuevo",
    "Zugangscode: steht im Vertrag",
    "le code d'accès est sur la facture",
    "o código de acesso é pessoal",
    "il codice di accesso è scaduto",
]


@pytest.mark.parametrize("lang,text,value", SECRETS, ids=[f"{s[0]}-{i}" for i, s in enumerate(SECRETS)])
def test_an_access_code_with_a_symbol_is_withheld(lang: str, text: str, value: str) -> None:
    assert_withheld(text, value, "access code")


@pytest.mark.parametrize("text", CONTROLS)
def test_an_access_codes_words_with_no_code_stay(text: str) -> None:
    assert_kept(text)
