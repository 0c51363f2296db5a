"""A secret's value set off after its name's qualifier with no connector word (issue 35):
"das Passwort vom NAS Zaunkönig77!", "il PIN dello smartphone, 5913". After a mark the value has
the name's own shape; with no mark only one word of letters and digits is a value, and it ends
its clause. Facts that only look like it stay as typed."""

from __future__ import annotations

import pytest

from tests.language.secret_cases import assert_kept, assert_withheld

# (language, text, the secret value in it, its kind)
SECRETS = [
    ("en", "the password for the garage router: Kestrel_42, keep it to yourself", "Kestrel_42", "password"),
    ("en", "the PIN of my work phone, 6620, just so you know", "6620", "PIN"),
    ("es", "la contraseña del correo, Gato_2024, no la guardes", "Gato_2024", "password"),
    ("es", "te paso la contraseña del portátil Tortuga88", "Tortuga88", "password"),
    ("de", "das Kennwort vom Router Holunder19 bitte nicht notieren", "Holunder19", "password"),
    ("de", "die PIN der Kreditkarte – 3307 – sofort vergessen", "3307", "PIN"),
    ("fr", "le mot de passe de la box Hibou2023, ne le garde pas", "Hibou2023", "password"),
    ("fr", "le PIN du téléphone, 8142, tu l'oublies", "8142", "PIN"),
    ("pt", "a senha do wifi CasaAzul77", "CasaAzul77", "password"),
    ("pt", "o PIN do cartão: 5531. Não anota", "5531", "PIN"),
    ("it", "la password del modem Girasole_5, non salvarla", "Girasole_5", "password"),
    ("it", "il PIN della carta, 7719, non scriverlo", "7719", "PIN"),
]

# no secret: the qualifier's word after it has no digit, the value does not end its clause,
# a number with no letter after no mark, a code named by no secret's word
CONTROLS = [
    "the password for the router was reset twice last week",
    "the password of user42 expired yesterday",
    "the PIN of card 2 stopped working",
    "la contraseña del banco caduca en 90 días",
    "das Passwort vom Büro ist abgelaufen",
    "le mot de passe du compte expire demain",
    "a senha do banco mudou em 2024 por causa da fraude",
    "la password della posta scade il 12 marzo",
]


@pytest.mark.parametrize("lang,text,value,kind", SECRETS, ids=[f"{s[0]}-{i}" for i, s in enumerate(SECRETS)])
def test_a_value_after_its_names_qualifier_is_withheld(lang: str, text: str, value: str, kind: str) -> None:
    assert_withheld(text, value, kind)


@pytest.mark.parametrize("text", CONTROLS)
def test_a_qualifier_with_no_value_keeps_its_words(text: str) -> None:
    assert_kept(text)
