"""Secrets never go to disk in plain text: tables of secrets in six languages, numbers that are
no secret, the Luhn and mod-97 checks, and properties (idempotent, never raises, nothing
detected survives, text without a secret unchanged)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openclaw_tui.language.secrets import (
    DiskText,
    find_secrets,
    iban_ok,
    luhn_ok,
    marker,
    redact_for_disk,
    redact_new_lines,
    withheld_phrase,
)

# (language, text, the secret value in it, its kind)
SECRETS = [
    # keys and tokens: the same in every language
    ("en", "My OpenAI key is sk-proj-4fR9xQ2mLp7Vz1Kc8Ty3.", "sk-proj-4fR9xQ2mLp7Vz1Kc8Ty3", "api key"),
    ("es", "Usa esta clave: sk-ant-api03-Zx8Yq1Lm4Np7Rs2T.", "sk-ant-api03-Zx8Yq1Lm4Np7Rs2T", "api key"),
    ("en", "token ghp_16C7e42F292c6912E7710c838347Ae178B4a for the CI", "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "token"),
    ("de", "Der Token github_pat_11ABCDEFG0123456789_abcdefghijKLM gilt ein Jahr.", "github_pat_11ABCDEFG0123456789_abcdefghijKLM", "token"),
    ("fr", "Le bot Slack utilise xoxb-1234567890-0987654321-AbCdEfGhIjKl.", "xoxb-1234567890-0987654321-AbCdEfGhIjKl", "token"),
    ("en", "AWS id AKIAIOSFODNN7EXAMPLE in us-east-1", "AKIAIOSFODNN7EXAMPLE", "api key"),
    ("pt", "A chave do Maps é AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW.", "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW", "api key"),
    ("en", "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U done",
     "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "token"),
    ("it", "Header: Authorization: Bearer abc123DEF456ghi789JKL", "abc123DEF456ghi789JKL", "token"),
    ("en", "clone https://ana:Tr0ub4dor@git.example.com/repo.git", "Tr0ub4dor", "password"),
    ("en", "the api key is 9f8a7b6c5d4e3f2a1b0c", "9f8a7b6c5d4e3f2a1b0c", "api key"),
    # passwords named as such
    ("en", "The wifi password is hunter2.", "hunter2", "password"),
    ("en", "The password for the router is Admin-2024!", "Admin-2024", "password"),
    ("en", 'My password is "correct horse battery staple".', "correct horse battery staple", "password"),
    ("es", "Mi contraseña es Gato123.", "Gato123", "password"),
    ("es", "La clave del wifi es perrito77", "perrito77", "password"),
    ("de", "Mein Passwort ist Sonne42.", "Sonne42", "password"),
    ("de", "Das WLAN-Kennwort lautet Tannenbaum!", "Tannenbaum", "password"),
    ("de", "Das Bankpasswort ist Kiel1999", "Kiel1999", "password"),
    ("fr", "Mon mot de passe est soleil42.", "soleil42", "password"),
    ("fr", "Mot de passe : Lune-bleue", "Lune-bleue", "password"),
    ("pt", "A minha senha é abacaxi9.", "abacaxi9", "password"),
    ("pt", "A palavra-passe do router é Porto2020", "Porto2020", "password"),
    ("it", "La mia password è ciao123.", "ciao123", "password"),
    ("it", "La parola d'ordine è girasole", "girasole", "password"),
    # PINs and codes named as such
    ("en", "My PIN is 4821, don't write that down.", "4821", "PIN"),
    ("en", "Bank PIN 7395", "7395", "PIN"),
    ("en", "The door code is 4B21#", "4B21#", "access code"),
    ("en", "CVV: 123", "123", "security code"),
    ("es", "El PIN de la tarjeta es 5590.", "5590", "PIN"),
    ("es", "El código de la puerta es 2468", "2468", "access code"),
    ("de", "Meine Geheimzahl ist 9876.", "9876", "PIN"),
    ("de", "Die Karten-PIN lautet 1357", "1357", "PIN"),
    ("de", "Der Türcode ist 8080", "8080", "access code"),
    ("fr", "Le code secret de ma carte est 1234.", "1234", "PIN"),
    ("fr", "Le digicode est 42B17", "42B17", "access code"),
    ("pt", "O PIN do cartão é 6543.", "6543", "PIN"),
    ("pt", "O código de acesso é 7788", "7788", "access code"),
    ("it", "Il codice PIN è 2580.", "2580", "PIN"),
    ("it", "Il codice del cancello è 1122", "1122", "access code"),
    # card numbers (Luhn, 13 to 19 digits, spaces or dashes)
    ("en", "Card 4111 1111 1111 1111 was declined.", "4111 1111 1111 1111", "card number"),  # its expiry: test_secrets_card_expiry
    ("es", "Mi tarjeta es 5555-5555-5555-4444.", "5555-5555-5555-4444", "card number"),
    ("de", "Kreditkarte 378282246310005 (Amex)", "378282246310005", "card number"),
    ("fr", "Carte 3782 822463 10005, merci", "3782 822463 10005", "card number"),
    ("pt", "O cartão 4222222222222 é antigo.", "4222222222222", "card number"),
    ("it", "La carta 6304 0000 0000 0000 018 è nuova", "6304 0000 0000 0000 018", "card number"),
    ("en", "numbers 12 4111111111111111 ok", "4111111111111111", "card number"),
    # IBANs (mod 97), compact and grouped
    ("de", "Meine IBAN ist DE89 3704 0044 0532 0130 00.", "DE89 3704 0044 0532 0130 00", "IBAN"),
    ("en", "Pay GB82WEST12345698765432 today", "GB82WEST12345698765432", "IBAN"),
    ("fr", "IBAN : FR14 2004 1010 0505 0001 3M02 606", "FR14 2004 1010 0505 0001 3M02 606", "IBAN"),
    ("es", "Mi IBAN es ES9121000418450200051332.", "ES9121000418450200051332", "IBAN"),
    ("it", "L'IBAN è IT60 X054 2811 1010 0000 0123 456", "IT60 X054 2811 1010 0000 0123 456", "IBAN"),
    ("pt", "O IBAN é PT50 0002 0123 1234 5678 9015 4.", "PT50 0002 0123 1234 5678 9015 4", "IBAN"),
]

# text with no secret: returned exactly as it came
NOT_SECRETS = [
    ("en", "My password is wrong, I need a new one."),
    ("en", "What is my wifi password?"),
    ("en", "Is the PIN correct?"),
    ("en", "The password is in the drawer."),
    ("en", "Call me at +1 415 555 2671 or +49 170 1234567."),
    ("en", "Order 1234567890123 ships on 2026-12-06."),
    ("en", "Invoice 4111111111111112 was paid."),  # fails Luhn
    ("en", "Tracking 9999999999999995 arrives Friday."),  # Luhn, but no card network starts with 9
    ("en", "The total was $4,111,111.11 and 1 234 567,89 EUR."),
    ("en", "We met on 12/05/2026 at 10:30 in room 4821."),
    ("en", "The secret ingredient is cinnamon."),
    ("en", "The API key is stored in the vault."),
    ("es", "Mi contraseña es incorrecta."),
    ("es", "¿Cuál es la contraseña del wifi?"),
    ("es", "La clave es que llegues temprano."),
    ("es", "Llámame al 612 345 678 el 6 de diciembre."),
    ("de", "Mein Passwort ist falsch."),
    ("de", "Wie lautet das Passwort?"),
    ("de", "Die Bestellung 20261206-4421 kommt morgen."),
    ("fr", "Mon mot de passe est trop court."),
    ("fr", "Quel est le mot de passe ?"),
    ("fr", "Rendez-vous le 06/12/2026, tél. 06 12 34 56 78."),
    ("pt", "A minha senha é muito fraca."),
    ("pt", "Qual é a senha do wifi?"),
    ("it", "La mia password è sbagliata."),
    ("it", "Qual è la password del wifi?"),
    ("it", "Il totale è 1.234,56 euro, ordine n. 556677."),
    ("en", "Account DE89 3704 0044 0532 0130 01 is closed."),  # IBAN with a wrong check
    ("en", "Already stored: [secret withheld: card number] and [secret withheld: PIN]."),
]


@pytest.mark.parametrize("lang,text,value,kind", SECRETS, ids=[f"{c[0]}:{c[3]}:{i}" for i, c in enumerate(SECRETS)])
def test_secret_becomes_a_marker(lang: str, text: str, value: str, kind: str) -> None:
    disk = redact_for_disk(text)
    assert value not in disk.text
    assert disk.text == text.replace(value, marker(kind), 1)
    assert disk.kinds == (kind,)
    (found,) = disk.found
    assert text[found.start : found.end] == value
    assert value not in repr(disk.found)  # a find names the kind and the place, never the value


@pytest.mark.parametrize("lang,text", NOT_SECRETS, ids=[f"{c[0]}:{i}" for i, c in enumerate(NOT_SECRETS)])
def test_no_secret_unchanged(lang: str, text: str) -> None:
    assert redact_for_disk(text) == DiskText(text)


def test_several_secrets_in_one_note() -> None:
    text = "PIN 4821, card 4111-1111-1111-1111 and key sk-abcdefghijklmnopqrstu; IBAN NL91ABNA0417164300."
    disk = redact_for_disk(text)
    assert disk.kinds == ("PIN", "card number", "api key", "IBAN")
    for value in ("4821", "4111-1111-1111-1111", "sk-abcdefghijklmnopqrstu", "NL91ABNA0417164300"):
        assert value not in disk.text
    assert disk.text.startswith("PIN [secret withheld: PIN], card [secret withheld: card number] and key")


@pytest.mark.parametrize("number,ok", [
    ("4111111111111111", True), ("5555555555554444", True), ("378282246310005", True), ("6011111111111117", True),
    ("4222222222222", True), ("6304000000000000018", True), ("4111111111111112", False), ("1234567890123456", False),
    ("0", True), ("", False),
])
def test_luhn(number: str, ok: bool) -> None:
    assert luhn_ok(number) is ok


@pytest.mark.parametrize("iban,ok", [
    ("DE89370400440532013000", True), ("GB82WEST12345698765432", True), ("gb82west12345698765432", True),
    ("BE68539007547034", True), ("CH9300762011623852957", True), ("NL91ABNA0417164300", True),
    ("DE89370400440532013001", False), ("GB82WEST12345698765433", False), ("DE", False), ("DE89 3704", False),
])
def test_iban_mod97(iban: str, ok: bool) -> None:
    assert iban_ok(iban) is ok


def test_grouped_and_compact_iban_both_found() -> None:
    for text in ("BE68 5390 0754 7034", "BE68539007547034", "be68 5390 0754 7034"):
        assert redact_for_disk(f"account {text} ok").kinds == ("IBAN",)
    # one character more or less than the country's length is no IBAN
    assert redact_for_disk("account BE68 5390 0754 70341 ok").found == ()


def test_card_lengths_13_to_19() -> None:
    assert redact_for_disk("card 4222222222222").kinds == ("card number",)  # 13
    assert redact_for_disk("card 6304000000000000018").kinds == ("card number",)  # 19
    assert redact_for_disk("id 411111111111").found == ()  # 12 digits
    assert redact_for_disk("id 40001234123412341230").found == ()  # 20 digits pass Luhn, no card


def test_mixed_separators_are_no_card() -> None:
    assert redact_for_disk("ref 4111 1111-1111 1111").found == ()


def test_rewrite_keeps_the_users_own_lines() -> None:
    existing = "# Memory\n- wifi password: hunter2\n"
    new = "# Memory\n- wifi password: hunter2\n- door code is 4B21\n"
    disk = redact_new_lines(new, existing)
    assert disk.text == "# Memory\n- wifi password: hunter2\n- door code is [secret withheld: access code]\n"
    assert disk.kinds == ("access code",)
    assert new[disk.found[0].start : disk.found[0].end] == "4B21"
    assert redact_new_lines(new, None).kinds == ("password", "access code")


def test_withheld_phrase() -> None:
    assert withheld_phrase(["card number"]) == "the card number"
    assert withheld_phrase(["card number", "PIN", "card number", "IBAN"]) == "the card number, the PIN and the IBAN"
    assert withheld_phrase([]) == ""


def test_find_secrets_on_nothing() -> None:
    assert find_secrets("") == ()
    assert redact_for_disk("") == DiskText("")


# ------------------------------------------------------------------ properties

CARDS = ["4111111111111111", "5555555555554444", "378282246310005", "6011111111111117", "3530111333300000"]
IBANS = ["DE89370400440532013000", "GB82WEST12345698765432", "ES9121000418450200051332", "CH9300762011623852957"]
KEY_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _grouped(digits: str, sep: str) -> str:
    return sep.join(digits[i : i + 4] for i in range(0, len(digits), 4)) if sep else digits


secret_values = st.one_of(
    st.builds(lambda c, s: _grouped(c, s), st.sampled_from(CARDS), st.sampled_from(["", " ", "-"])),
    st.builds(lambda i, g: _grouped(i, " ") if g else i, st.sampled_from(IBANS), st.booleans()),
    st.text(KEY_CHARS, min_size=20, max_size=40).map(lambda s: "sk-" + s),
    st.text(KEY_CHARS, min_size=36, max_size=40).map(lambda s: "ghp_" + s),
)
named = st.builds(lambda name, conn, v: f"{name}{conn}{v}",
                  st.sampled_from(["My PIN", "Die Geheimzahl", "El PIN", "Il codice PIN", "le code secret"]),
                  st.sampled_from([" is ", " ist ", " es ", " è ", ": ", " = ", " est "]),
                  st.integers(1000, 99999999).map(str))
filler = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
part = st.one_of(filler, secret_values.map(lambda v: ("S", v)), named.map(lambda v: ("N", v)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(part, max_size=8))
def test_planted_secrets_never_survive_and_redaction_is_idempotent(parts: list[object]) -> None:
    pieces, planted = [], []
    for p in parts:
        if isinstance(p, tuple):
            pieces.append(p[1])
            if p[0] == "S":
                planted.append(p[1])
        else:
            pieces.append(str(p))
    text = "\n".join(pieces)
    disk = redact_for_disk(text)
    for value in planted:
        assert value not in disk.text
    for f in disk.found:
        assert 0 <= f.start < f.end <= len(text)
    again = redact_for_disk(disk.text)
    assert again.text == disk.text and again.found == ()


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_never_raises_and_is_idempotent(text: str) -> None:
    disk = redact_for_disk(text)
    assert redact_for_disk(disk.text).text == disk.text
    if not disk.found:
        assert disk.text == text
    pieces = [text[: disk.found[0].start]] if disk.found else [text]
    for a, b in zip(disk.found, disk.found[1:]):
        assert a.end <= b.start
        pieces.append(text[a.end : b.start])
    if disk.found:
        pieces.append(text[disk.found[-1].end :])
    for piece in pieces:  # everything between the secrets is kept as it was
        assert piece in disk.text


PLAIN_WORDS = ["the", "meeting", "is", "on", "Monday", "at", "room", "with", "Ana", "and", "el", "lunes", "mañana", "café",
               "Termin", "ist", "am", "rendez-vous", "est", "reunião", "é", "riunione", "è", "order", "flight", "euros",
               "total", ",", ".", "?", "2026-12-06", "10:30", "+34 612 345 678", "12/05", "4,50", "1.234,56"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PLAIN_WORDS), st.integers(0, 10**12 - 1).map(str)), max_size=30))
def test_text_without_a_secret_is_returned_unchanged(words: list[str]) -> None:
    # numbers of at most 12 digits, each followed by a word: no card number can form
    text = " ".join(f"{w} x" if w.isdigit() else w for w in words)
    assert redact_for_disk(text) == DiskText(text)
