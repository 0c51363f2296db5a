"""A national identity or tax number named as such (issue 35): "My SSN is 123-45-6789", "mi DNI
es 12345678Z", "Meine Steuer-ID lautet 12345678901", "mon numéro de sécurité sociale est
185057800608436", "Meu CPF é 123.456.789-09", "il mio codice fiscale è RSSMRA85T10A562S", in all
six tabled languages. The same names with no number (a form, a deadline, an office) stay."""

from __future__ import annotations

import pytest

from tests.language.secret_cases import assert_kept, assert_withheld

# (language, text, the secret value in it)
SECRETS = [
    ("en", "My SSN is 123-45-6789, forget I said it", "123-45-6789"),
    ("en", "national insurance number: QQ123456C", "QQ123456C"),
    ("es", "mi DNI es 12345678Z", "12345678Z"),
    ("es", "Mi número de la seguridad social es 281234567840, no lo guardes", "281234567840"),
    ("de", "Meine Steuer-ID lautet 12345678901", "12345678901"),
    ("de", "Sozialversicherungsnummer 65170839J003 – bitte vergessen", "65170839J003"),
    ("fr", "mon numéro de sécurité sociale est 185057800608436", "185057800608436"),
    ("fr", "numéro fiscal : 3023217600053, tu ne le notes pas", "3023217600053"),
    ("pt", "Meu CPF é 123.456.789-09, esquece que eu falei.", "123.456.789-09"),
    ("pt", "o meu NIF é 123456789", "123456789"),
    ("it", "il mio codice fiscale è RSSMRA85T10A562S", "RSSMRA85T10A562S"),
    ("it", "Codice fiscale: BNCLRA90A41F205X, non salvarlo", "BNCLRA90A41F205X"),
]

# the same names with no number in them
CONTROLS = [
    "the SSN is on the tax form",
    "my social security number is private, I never share it",
    "el DNI está en la cartera",
    "mi DNI caduca en 2027",
    "Die Steuer-ID ist wichtig für die Steuererklärung",
    "Die Sozialversicherungsnummer steht auf dem Ausweis",
    "le numéro fiscal est sur l'avis d'imposition",
    "o CPF é obrigatório para abrir conta",
    "o NIF da empresa mudou em 2024",
    "il codice fiscale è obbligatorio",
    "Ich habe nie 123456 gesagt",
]


@pytest.mark.parametrize("lang,text,value", SECRETS, ids=[f"{s[0]}-{i}" for i, s in enumerate(SECRETS)])
def test_an_id_number_named_as_such_is_withheld(lang: str, text: str, value: str) -> None:
    assert_withheld(text, value, "ID number")


@pytest.mark.parametrize("text", CONTROLS)
def test_an_id_name_with_no_number_stays(text: str) -> None:
    assert_kept(text)
