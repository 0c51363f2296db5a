"""A payment card's expiry date next to its number or its security code (issue 35): "Visa 4111
1111 1111 1111 exp 09/28", "tarjeta …, caduca 03/29", "Prüfziffer 789, gültig bis 08/27", in all
six tabled languages, on one line or the next; the security code under its other names ("CVV
code 914", "CVV-Code 123"). The same dates away from a card (a lease, a passport, a contract)
stay as typed."""

from __future__ import annotations

import pytest

from openclaw_tui.language.secrets import marker, redact_for_disk
from tests.language.secret_cases import assert_kept, assert_withheld

CARD = "4111 1111 1111 1111"

# (language, text, the expiry in it)
EXPIRIES = [
    ("en", f"Visa {CARD} exp 09/28", "09/28"),
    ("en", f"card {CARD}, valid thru 11/27 - don't keep it", "11/27"),
    ("en", "Amex 3782 822463 10005 expires 04/29", "04/29"),
    ("en", f"Here's the card for the hotel:\n{CARD}\nexp 09/28\ndon't store any of it", "09/28"),
    ("es", f"tarjeta {CARD}, caduca 03/29", "03/29"),
    ("es", f"Mi Mastercard es {CARD}, vence 11/27, pero no la guardes", "11/27"),
    ("de", f"Kreditkarte {CARD}, gültig bis 08/27 – bitte nicht speichern", "08/27"),
    ("de", f"Meine Karte {CARD}, Ablauf 03/29", "03/29"),
    ("fr", f"carte {CARD}, expire fin 12/26", "12/26"),
    ("fr", f"Visa {CARD}, date d'expiration 05/28", "05/28"),
    ("pt", f"Cartão: {CARD}, validade 05/28 — não salva", "05/28"),
    ("pt", f"cartão {CARD} vencimento 02/30", "02/30"),
    ("it", f"carta {CARD}, scadenza 04/29", "04/29"),
    ("it", f"La mia carta è {CARD}, scad. 06/28. Dimenticala.", "06/28"),
]

# (language, text, the expiry, the security code): the expiry next to the code
WITH_CODE = [
    ("en", "CVV 123, expiry 10/27", "10/27", "123"),
    ("es", "código de seguridad 456, fecha de caducidad 08/28", "08/28", "456"),
    ("de", "Prüfziffer 789, Ablaufdatum 12/28", "12/28", "789"),
    ("fr", "cryptogramme 321, expiration 11/27", "11/27", "321"),
    ("pt", "código de segurança 377, vencimento 02/30", "02/30", "377"),
    ("it", "codice di sicurezza 552, scade 10/27", "10/27", "552"),
]

# (language, text, the security code in it)
CODES = [
    ("en", "the CVV code 914, keep it off the notes", "914"),
    ("de", "CVV-Code 123, bitte vergessen", "123"),
]

# an expiry word and a date with no card and no security code beside them
CONTROLS = [
    "the lease expires 09/28",
    "my library card expires 09/28",
    f"Card {CARD} is blocked since May. The lease I signed last spring with the landlord expires 09/28.",
    "el contrato vence 11/27",
    "el alquiler caduca 03/29",
    "der Ausweis ist gültig bis 08/27",
    "le bail expire fin 12/26",
    "o passaporte tem validade 05/28",
    "la scadenza del contratto è 04/29",
    "the CVV is on the back of the card",
]


@pytest.mark.parametrize("lang,text,value", EXPIRIES, ids=[f"{s[0]}-{i}" for i, s in enumerate(EXPIRIES)])
def test_an_expiry_next_to_a_card_number_is_withheld(lang: str, text: str, value: str) -> None:
    disk = redact_for_disk(text)
    assert value not in disk.text and CARD not in disk.text
    assert disk.kinds == ("card number", "expiry date") or disk.kinds[-1] == "expiry date"
    assert marker("expiry date") in disk.text
    assert redact_for_disk(disk.text).text == disk.text


@pytest.mark.parametrize("lang,text,value,code", WITH_CODE, ids=[f"{s[0]}-{i}" for i, s in enumerate(WITH_CODE)])
def test_an_expiry_next_to_a_security_code_is_withheld(lang: str, text: str, value: str, code: str) -> None:
    disk = redact_for_disk(text)
    assert disk.text == text.replace(code, marker("security code")).replace(value, marker("expiry date"))
    assert disk.kinds == ("security code", "expiry date")
    assert redact_for_disk(disk.text).text == disk.text


def test_an_expiry_after_a_card_already_withheld_is_withheld() -> None:
    text = f"Visa {marker('card number')}, exp 09/28"
    assert redact_for_disk(text).text == f"Visa {marker('card number')}, exp {marker('expiry date')}"


@pytest.mark.parametrize("lang,text,value", CODES, ids=[f"{s[0]}-{i}" for i, s in enumerate(CODES)])
def test_a_security_code_under_its_other_names_is_withheld(lang: str, text: str, value: str) -> None:
    assert_withheld(text, value, "security code")


@pytest.mark.parametrize("text", CONTROLS)
def test_a_date_away_from_a_card_stays(text: str) -> None:
    disk = redact_for_disk(text)
    assert marker("expiry date") not in disk.text
    if CARD not in text:
        assert_kept(text)
