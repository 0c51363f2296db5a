"""An attack on the disk redactor (issue 35, item 3): whatever ordinary text of the six tabled
languages surrounds them, a Luhn-valid card number, a mod-97 IBAN and the known key shapes
(sk-, sk-ant-, ghp_, AKIA, xoxb-, AIza, glpat-) never reach its output; and text with no digit,
no key shape and no password word comes back unchanged. The checks on the output are written
here anew (digits in groups, the IBAN check, the key prefixes), not the redactor's own finders."""

from __future__ import annotations

import json
import re
import string
from importlib import resources

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openclaw_tui.language.secrets import redact_for_disk

# ordinary words of the six tables, with the words around secrets (names, connectors, refusals)
WORDS = {
    "en": "the meeting is on Monday with Ana my card and bank account PIN code number is for at please don't save this".split(),
    "es": "la reunión es el lunes con mi tarjeta y cuenta del banco el PIN código número es para no lo guardes".split(),
    "de": "das Treffen ist am Montag mit meiner Karte und dem Konto der Bank PIN Code Nummer ist für nicht speichern".split(),
    "fr": "la réunion est lundi avec ma carte et le compte de la banque PIN code numéro est pour ne le note pas".split(),
    "pt": "a reunião é na segunda com o meu cartão e a conta do banco PIN código número é para não guardes".split(),
    "it": "la riunione è lunedì con la mia carta e il conto della banca PIN codice numero è per non salvarla".split(),
}
CARDS = ["4111111111111111", "5555555555554444", "378282246310005", "6011111111111117", "3530111333300000",
         "4222222222222", "6304000000000000018", "2223003122003222"]
IBANS = ["DE89370400440532013000", "GB82WEST12345698765432", "ES9121000418450200051332", "CH9300762011623852957",
         "FR1420041010050500013M02606", "IT60X0542811101000000123456", "PT50000201231234567890154", "NL91ABNA0417164300"]
BODY = string.ascii_letters + string.digits
SEPARATORS = [" ", "\n", ", ", ": ", " — ", " (", ") ", "; ", ". ", " « ", " » ", "\t"]


def _grouped(value: str, sep: str, size: int = 4) -> str:
    return sep.join(value[i : i + size] for i in range(0, len(value), size)) if sep else value


def _body(n: int, alphabet: str = BODY) -> st.SearchStrategy[str]:
    return st.text(alphabet, min_size=n, max_size=n + 12)


KEYS = st.one_of(
    _body(20).map(lambda b: "sk-" + b),
    _body(24).map(lambda b: "sk-ant-api03-" + b),
    _body(36).map(lambda b: "ghp_" + b),
    st.text(string.ascii_uppercase + string.digits, min_size=16, max_size=16).map(lambda b: "AKIA" + b),
    _body(12).map(lambda b: "xoxb-" + b),
    st.text(BODY + "_-", min_size=35, max_size=35).map(lambda b: "AIza" + b),
    _body(20).map(lambda b: "glpat-" + b),
)
#: how cards are printed and typed: 4-4-4-4, Amex 4-6-5, 13 digits 4-4-5, 19 digits 4-4-4-4-3
GROUPS = {13: (4, 4, 5), 15: (4, 6, 5), 16: (4, 4, 4, 4), 19: (4, 4, 4, 4, 3)}


def _card(digits: str, sep: str) -> str:
    out, at = [], 0
    for n in GROUPS[len(digits)]:
        out.append(digits[at : at + n])
        at += n
    return sep.join(out)


CARD_TEXT = st.builds(_card, st.sampled_from(CARDS), st.sampled_from(["", " ", "-"]))
IBAN_TEXT = st.builds(lambda i, sep, low: _grouped(i.lower() if low else i, sep), st.sampled_from(IBANS),
                      st.sampled_from(["", " "]), st.booleans())
SECRET = st.one_of(CARD_TEXT, IBAN_TEXT, KEYS)
LANG = st.sampled_from(sorted(WORDS))


@st.composite
def surrounded(draw: st.DrawFn) -> tuple[str, list[str]]:
    """Words of one language with secrets planted among them, each between separators."""
    words = WORDS[draw(LANG)]
    pieces: list[str] = []
    planted: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        pieces += draw(st.lists(st.sampled_from(words), max_size=8))
        secret = draw(SECRET)
        planted.append(secret)
        pieces.append(draw(st.sampled_from(SEPARATORS)) + secret + draw(st.sampled_from(SEPARATORS)))
    pieces += draw(st.lists(st.sampled_from(words), max_size=8))
    return " ".join(pieces), planted


_DIGIT_RUN = re.compile(r"\d(?:[ -]?\d){12,}")
_IBAN = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]){10,30}")
_KEY = re.compile(r"(?:sk-|ghp_|AKIA|xoxb-|AIza|glpat-)[A-Za-z0-9_-]{10,}")


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch) * (2 if i % 2 else 1)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


def _mod97(candidate: str) -> bool:
    s = candidate.replace(" ", "").upper()
    return int("".join(str(int(ch, 36)) for ch in s[4:] + s[:4])) % 97 == 1


def _cards_left(text: str) -> list[str]:
    """Every 13- to 19-digit stretch of a digit run that passes Luhn."""
    left = []
    for run in _DIGIT_RUN.finditer(text):
        digits = re.sub(r"\D", "", run.group())
        for a in range(len(digits)):
            for b in range(a + 13, min(len(digits), a + 19) + 1):
                if _luhn(digits[a:b]):
                    left.append(digits[a:b])
    return left


def _ibans_left(text: str) -> list[str]:
    left = []
    for m in _IBAN.finditer(text):
        chars = m.group().replace(" ", "")
        for n in range(15, len(chars) + 1):
            if _mod97(chars[:n]):
                left.append(chars[:n])
    return left


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(surrounded())
def test_no_card_iban_or_key_survives_any_surrounding_text(case: tuple[str, list[str]]) -> None:
    text, planted = case
    out = redact_for_disk(text).text
    for value in planted:
        assert value not in out
    assert _cards_left(out) == []
    assert _ibans_left(out) == []
    assert _KEY.findall(out) == []


# words with no digit: names of secrets that need a digit (PIN, code, account number…),
# connectors, refusals, ordinary words, and no password word (a password may be a plain word)
PLAIN = sorted({w for words in WORDS.values() for w in words} | {
    "combination", "combinación", "Kombination", "combinaison", "combinação", "combinazione", "CVV",
    "Geheimzahl", "código de acceso", "door code", "token", "secret", "IBAN", "card", "Türcode", "digicode",
    "unlock", "opens", "with", "con", "mit", "avec", "com", ":", "=", "-", "—", "#", "*", ",", ".", "?", "!",
    "c'est", "lautet", "isch", "PIN do karty", "to", "暗証番号は", "인증번호는", "код", "PIN kodum",
})
LETTERS = st.text(st.characters(whitelist_categories=("Ll", "Lu", "Lo"), max_codepoint=0x2FFF), min_size=1, max_size=15)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PLAIN), LETTERS), max_size=30), st.sampled_from([" ", "\n", " — "]))
def test_text_with_no_digit_and_no_key_shape_is_unchanged(words: list[str], sep: str) -> None:
    text = sep.join(words)
    assert redact_for_disk(text).text == text


def _table_words() -> list[str]:
    """Every name, connector, unlock verb and "with" word of ``data/secrets.json``."""
    raw = json.loads(resources.files("openclaw_tui.language.data").joinpath("secrets.json").read_text(encoding="utf-8"))
    words: set[str] = set()
    for lang in [*raw["languages"].values(), *raw["other_languages"].values()]:
        for entry in lang["names"].values():
            words |= set(entry if isinstance(entry, list) else entry["words"])
        words |= set(lang["connectors"]) | set(lang.get("articles", ()))
        for unlock in lang.get("unlock", ()):
            words |= set(unlock["words"]) | set(unlock["with"])
    return sorted(words)


TABLE_WORDS = _table_words()
VALUES = st.one_of(st.integers(0, 10**9).map(str), st.sampled_from(["Kedi1234", "hunter2", "12-34-56", "*8813#", "`x`", '"a b"', "de", "the"]))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(TABLE_WORDS), VALUES), max_size=14),
       st.sampled_from([" ", "", ", ", ": ", "\n", " — "]))
def test_never_raises_on_the_tables_own_words(words: list[str], sep: str) -> None:
    """Names of every language (merged ones too: "koden" of sv, da and no), connectors and
    values in any order: no error, and a second pass changes nothing."""
    text = sep.join(words)
    disk = redact_for_disk(text)
    assert redact_for_disk(disk.text).text == disk.text


def test_a_value_before_a_name_with_merged_connectors() -> None:
    """"Det er koden" raised once: the merged connectors of "koden" (sv, da, no) split the
    pattern that looks for a value before its name."""
    assert redact_for_disk("Det er koden").text == "Det er koden"
    assert redact_for_disk("1234 er koden til døren").text == "[secret withheld: code] er koden til døren"


def test_a_value_before_its_name_and_a_second_pass() -> None:
    """Found by the test above: "100: 2fa code: 2fa code" took "100" on the second pass, once
    the first had withheld the value after the name. A mark alone never joins a value before
    its name ("2019: password reset" is a date)."""
    once = redact_for_disk("100: 2fa code: 2fa code").text
    assert redact_for_disk(once).text == once
    assert redact_for_disk("2019: password reset").text == "2019: password reset"
    assert redact_for_disk("- 2023: PIN changed at the bank").text == "- 2023: PIN changed at the bank"
