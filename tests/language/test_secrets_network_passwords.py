"""A network's password given as the network itself (issue 35): "The wifi at the cabin is
PineCone_77", "das WLAN im Ferienhaus ist Sonne#42", in all six tabled languages, when the value
has letters, a digit and a symbol; a lock's combination under the colloquial "combo" ("Locker
combo 2-19-33"). A network's speed, band, standard or state stays as typed."""

from __future__ import annotations

import pytest

from tests.language.secret_cases import assert_kept, assert_withheld

# (language, text, the secret value in it, its kind)
SECRETS = [
    ("en", "The wifi at the cabin is PineCone_77 — forget it as soon as we're through", "PineCone_77", "password"),
    ("en", "the router's wifi: Kestrel#42", "Kestrel#42", "password"),
    ("es", "el wifi de la casa es Gato_2024, no lo guardes", "Gato_2024", "password"),
    ("de", "das WLAN im Ferienhaus ist Sonne#42", "Sonne#42", "password"),
    ("fr", "le wifi du chalet c'est Hibou_2023", "Hibou_2023", "password"),
    ("pt", "o wifi da casa é Casa_Azul77", "Casa_Azul77", "password"),
    ("it", "il wifi della baita è Girasole_5, non salvarlo", "Girasole_5", "password"),
    ("en", "Locker combo 2-19-33, don't keep it", "2-19-33", "access code"),
    ("es", "combinación del candado 12-04-33", "12-04-33", "code"),
    ("it", "combinazione del lucchetto 07-21-40", "07-21-40", "code"),
]

CONTROLS = [
    "the wifi is 2.4GHz",
    "the wifi is down again",
    "The wifi at the cabin is slow, 20Mbps at most",
    "el wifi es lento",
    "das WLAN ist 5GHz",
    "le wifi c'est WPA2-PSK",
    "o wifi é 100Mbps",
    "il wifi è ottimo",
    "the combo meal 12 is good",
    "a combo of 3 moves",
]


@pytest.mark.parametrize("lang,text,value,kind", SECRETS, ids=[f"{s[0]}-{i}" for i, s in enumerate(SECRETS)])
def test_a_networks_password_or_a_combo_is_withheld(lang: str, text: str, value: str, kind: str) -> None:
    assert_withheld(text, value, kind)


@pytest.mark.parametrize("text", CONTROLS)
def test_a_networks_speed_band_or_state_stays(text: str) -> None:
    assert_kept(text)
