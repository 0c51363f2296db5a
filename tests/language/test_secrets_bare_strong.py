"""A password right after its name with no connector when it looks like one (letters, a digit
and a symbol inside it: "mein GitLab-Passwort Edelweiß#31"), and names the tables lacked that
holdout9 and holdout8 showed (fr "code guichet", sv "lösen", ja "PINは") (issue 35). A word of
letters and digits alone after the name stays ("the password field2 is empty")."""

from __future__ import annotations

import pytest

from tests.language.secret_cases import assert_kept, assert_withheld

SECRETS = [
    ("de", "mein GitLab-Passwort Edelweiß#31 gehört nicht in deine Notizen", "Edelweiß#31", "password"),
    ("en", "the login password Tr0ub4dor&3 for the NAS, forget it", "Tr0ub4dor&3", "password"),
    ("es", "la contraseña Río_Bravo9 del router", "Río_Bravo9", "password"),
    ("fr", "le mot de passe Hibou#2023 du wifi", "Hibou#2023", "password"),
    ("pt", "a senha Caju!77 do painel", "Caju!77", "password"),
    ("it", "la password Girasole_5x del modem", "Girasole_5x", "password"),
    ("fr", "Code guichet : 7304, pas dans tes notes", "7304", "PIN"),
    ("sv", "Routerns lösen är Lingon#4418 men skriv inte upp det", "Lingon#4418", "password"),
    ("ja", "カードのPINは8126です", "8126", "PIN"),
]

CONTROLS = [
    "the password field2 is empty",
    "my password manager2 app crashed",
    "das Passwort Feld3 bleibt leer",
    "Passwort vergessen, bitte zurücksetzen",
    "le mot de passe expire demain",
    "la contraseña caduca en 2025",
]


@pytest.mark.parametrize("lang,text,value,kind", SECRETS, ids=[f"{s[0]}-{i}" for i, s in enumerate(SECRETS)])
def test_the_value_is_withheld(lang: str, text: str, value: str, kind: str) -> None:
    assert_withheld(text, value, kind)


@pytest.mark.parametrize("text", CONTROLS)
def test_no_secret_keeps_its_words(text: str) -> None:
    assert_kept(text)
