"""A key, token, secret or password set in a configuration line (issue 35): "MISTRAL_API_KEY=mk-…",
"DB_PASSWORD: Hx7!kq9Lm", "export GITHUB_TOKEN=…", a shape of its own in any language, as the
provider key shapes are. The value goes; the variable's name stays. Limits, placeholders and
references to another variable stay as typed."""

from __future__ import annotations

import pytest

from tests.language.secret_cases import assert_kept, assert_withheld

# (language, text, the secret value in it, its kind)
SECRETS = [
    ("en", "for the script: MISTRAL_API_KEY=mk-8Hq2RzT5vWx9LnP3dBc7Ks1F", "mk-8Hq2RzT5vWx9LnP3dBc7Ks1F", "api key"),
    ("es", "pon esto en el .env: DB_PASSWORD=Hx7kq9Lmw2 y no lo guardes", "Hx7kq9Lmw2", "password"),
    ("de", "Nur für den Befehl: export SLACK_TOKEN='q8Zr2LmP0xWv7Ty1'", "q8Zr2LmP0xWv7Ty1", "token"),
    ("fr", "Pas dans tes notes : CLIENT_SECRET: 9fK2pQ7rT4wX1zL8", "9fK2pQ7rT4wX1zL8", "secret"),
    ("pt", "no .env fica STRIPE_SECRET_KEY=Zx81kLm02PqRt7Vw, não guarda", "Zx81kLm02PqRt7Vw", "api key"),
    ("it", "Solo per il comando: API_KEY = \"a81f2c99e07b4d6e\"", "a81f2c99e07b4d6e", "api key"),
]

# limits, placeholders, another variable, no value
CONTROLS = [
    "MAX_TOKENS=4096 and TOKEN_LIMIT=8000",
    "export OPENAI_API_KEY=$OPENAI_API_KEY",
    "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
    "API_KEY=<your key here>",
    "PASSWORD_MIN_LENGTH=12",
    "el campo PASSWORD= está vacío",
    "Die Variable API_KEY muss gesetzt sein",
    "la variable SECRET_KEY est requise",
    "a variável DB_PASSWORD é obrigatória",
    "la variabile TOKEN: obbligatoria",
]


@pytest.mark.parametrize("lang,text,value,kind", SECRETS, ids=[f"{s[0]}-{i}" for i, s in enumerate(SECRETS)])
def test_a_value_set_in_a_configuration_line_is_withheld(lang: str, text: str, value: str, kind: str) -> None:
    assert_withheld(text, value, kind)


@pytest.mark.parametrize("text", CONTROLS)
def test_a_limit_placeholder_or_reference_stays(text: str) -> None:
    assert_kept(text)
