"""A PIN or code's digits right after its name's qualifier with no mark and no connector (issue
35): "PIN der Bankomatkarte 7719", "codice del bancomat 5027", in all six tabled languages. The
digits end their clause and the qualifier has a word of its own; a number that numbers the
qualifier's thing (a room, a flight, a version, a year) or runs on into more words stays."""

from __future__ import annotations

import pytest

from tests.language.secret_cases import assert_kept, assert_withheld

# (language, text, the secret value in it, its kind)
SECRETS = [
    ("en", "the PIN of my bank card 4821, forget it", "4821", "PIN"),
    ("en", "Don't save it: code for the bike lock 3307", "3307", "code"),
    ("es", "el PIN de la tarjeta 4821", "4821", "PIN"),
    ("es", "código del candado del gimnasio 5530, no lo guardes", "5530", "code"),
    ("de", "Bitte nirgends festhalten: PIN der Bankomatkarte 7719, danke", "7719", "PIN"),
    ("de", "Code vom Fahrradschloss 2648 – bitte vergessen", "2648", "code"),
    ("fr", "le PIN de ma carte bleue 6203. Tu oublies.", "6203", "PIN"),
    ("fr", "le code du cadenas du vélo 1189", "1189", "code"),
    ("pt", "o PIN do cartão 4821", "4821", "PIN"),
    ("pt", "código do cadeado da mochila 7702, não anota", "7702", "code"),
    ("it", "Guai a te se lo salvi: PIN della carta 6047", "6047", "PIN"),
    ("it", "Questo non va scritto da nessuna parte: codice del bancomat 5027", "5027", "code"),
]

# a number that numbers the qualifier's thing, runs on into more words, or has no word before it
CONTROLS = [
    "the code for room 1204.",
    "the PIN of card 2 stopped working",
    "the code of the 2019 model",
    "the code for flight 4512",
    "el código de la versión 2024.",
    "el PIN de la tarjeta 4821 euros",
    "mi taquilla del club es la 217",
    "la alarma del club es la 217",
    "der Code vom Zimmer 1204",
    "der Code der Version 2024.",
    "le code de la chambre 1204",
    "le code du vol 4512",
    "o código do quarto 1204",
    "o código da linha 2024",
    "il codice del 2019",
    "il codice della camera 1204",
    "il codice del volo 4512",
]


@pytest.mark.parametrize("lang,text,value,kind", SECRETS, ids=[f"{s[0]}-{i}" for i, s in enumerate(SECRETS)])
def test_digits_after_the_names_qualifier_are_withheld(lang: str, text: str, value: str, kind: str) -> None:
    assert_withheld(text, value, kind)


@pytest.mark.parametrize("text", CONTROLS)
def test_a_number_of_the_qualifiers_thing_stays(text: str) -> None:
    assert_kept(text)
