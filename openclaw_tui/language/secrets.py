"""Secrets never reach a memory file in plain text: each becomes a marker before the bytes do.

What counts as a secret is data (``data/secrets.json``): key and token shapes that mean a
secret in any language (``sk-…``, ``ghp_…``, ``AKIA…``, JWTs, ``Bearer …``), payment card
numbers that pass the Luhn check, IBANs that pass the mod-97 check, and a value that a word
of one of the six tables names as a secret ("my PIN is 4821", "mi contraseña es Gato123",
"Mein WLAN-Passwort lautet Sonne42", "le code de la porte est 4B21", a bare "code" a short
phrase before its digits: "the code for the side gate: 2741"; a PIN ten words before: "the PIN
for the card I use at the bank on Fridays is 4821"; a value before its name: "4821 is my PIN";
a code given to an unlock verb: "sblocco il telefono con 5817"; the PIN, password, code and key
words of fifteen languages without a table: Czech "Heslo k wifi je Knedlik_42", Turkish "kart
şifrem 9027", "暗証番号は4826"), while codes that are no secret (postal, QR, source, status,
order codes, the code of a page or file) stay as typed. The value alone is
replaced by ``[secret withheld: <kind>]``; the words around it stay, so the note still says
what the user said ("My PIN is [secret withheld: PIN].").

    disk = redact_for_disk("Card 4111 1111 1111 1111, PIN 4821.")
    disk.text   # "Card [secret withheld: card number], PIN [secret withheld: PIN]."
    disk.kinds  # ("card number", "PIN")

The kind words in markers are English in every language (one form the next pass recognises
and leaves alone: redaction is idempotent). A :class:`SecretFound` names the kind and where the
value was, never the value. Nothing here raises on any text.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable

from openclaw_tui.language.lexicon import TABLES, fold, lexicon, lower, tokens

DATA = "secrets.json"


@dataclass(frozen=True)
class SecretFound:
    """One secret withheld: its kind ("card number", "PIN", …) and the span its value had in
    the text that was redacted (``start``, ``end``); the value itself is never kept."""

    kind: str
    start: int
    end: int


@dataclass(frozen=True)
class DiskText:
    """Text as it may be written to disk, and what was withheld from it."""

    text: str
    found: tuple[SecretFound, ...] = ()

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds withheld, each once, in the order they appear."""
        return tuple(dict.fromkeys(f.kind for f in self.found))


@dataclass(frozen=True)
class _Named:
    kind: str
    value: re.Pattern[str]  # the value's shape, matched on lower-cased text
    bare: bool  # may follow the name with no connector ("PIN 4821")
    free: bool  # any word: checked against the function words and not_values
    gap_starts: frozenset[str] = frozenset()  # when set, the words between name and connector
    #                                          start with one of these ("code for the gate: …")
    ends_clause: bool = False  # the value ends its clause ("… is 2741." but not "is 300 lines")
    connectors: re.Pattern[str] | None = None  # its own connectors (a language without a table)
    max_gap: int | None = None  # words that may stand between name and connector (else the table's)
    bare_value: re.Pattern[str] | None = None  # the shape of a value right after the name, when
    #                                            it differs (Turkish "şifrem Kedi1234": a digit)
    not_in_gap: frozenset[str] = frozenset()  # folded words that make it no secret when they stand
    #                                          between name and value ("the code for the login page")
    before: bool = True  # the value may also stand before the name ("4471 is de code van de kluis")
    then: frozenset[str] = frozenset()  # folded words that may follow a value that ends its clause
    #                                    (a verb's last part: "das Tor lässt sich mit 5582 öffnen")


@dataclass(frozen=True)
class _Card:
    kind: str
    min_digits: int
    max_digits: int
    first_digits: str
    separators: str
    min_group: int
    max_group: int


@dataclass(frozen=True)
class _Apposition:
    """A value set off after its name's qualifier with no connector ("das Passwort vom NAS
    Zaunkönig77!", "il PIN dello smartphone, 5913")."""

    starts: frozenset[str]  # lower-cased words a qualifier starts with (a rule's gap_starts win)
    max_words: int
    marks: re.Pattern[str]  # a mark that sets the value off (",", ":", a dash)
    marked: re.Pattern[str]  # a password's shape after a mark (one with a digit)
    mixed: re.Pattern[str]  # the only shape with no mark: letters and digits in one word
    digits_kinds: frozenset[str] = frozenset()  # kinds whose own shape may also follow with no
    #                                              mark when it ends its clause ("PIN der Karte 7719")
    numbered: frozenset[str] = frozenset()  # folded words a number after numbers ("room 1204")


@dataclass(frozen=True)
class _Asked:
    """A secret's name after a verb that asks for it, its value right after the name with no
    connector ("o banco pede a senha 739104 ao entrar", "die App verlangt das Passwort 739104")."""

    verb: re.Pattern[str]  # a verb and up to max_words words, ending where the name starts (folded)
    value: re.Pattern[str]  # the value's shape right after the name (digits)
    reach: int  # the characters before the name the verb is looked for in
    then: frozenset[str] = frozenset()  # folded words besides the function words that may follow
    #                                    the value ("… 582913 when I log in", "… all'accesso")


@dataclass(frozen=True)
class _Beside:
    """A value that is a secret only beside another one: a card's expiry date next to its number
    or its security code ("Visa 4111 …, exp 09/28"), not a date elsewhere ("the lease expires
    09/28")."""

    kind: str
    anchors: frozenset[str]  # the kinds it must stand beside
    found: re.Pattern[str]  # a name and its value (group 1), on folded text
    bare: re.Pattern[str]  # the value alone right after an anchor ("4111 … 09/28")
    max_words: int  # function words that may stand between it and its anchor
    max_chars: int


@dataclass(frozen=True)
class _Table:
    marker: str
    marked: re.Pattern[str]  # a marker already in the text (of a kind we write)
    shapes: tuple[tuple[str, re.Pattern[str], int], ...]  # (kind, pattern, group)
    card: _Card
    runs: re.Pattern[str]  # digits in groups, a card number's candidates
    iban_kind: str
    iban_lengths: dict[str, int]
    names: re.Pattern[str]  # every language's names, on folded text
    not_names: re.Pattern[str] | None  # phrases holding a name that name no secret ("zip code")
    named: dict[str, _Named]  # folded name → its rule
    connectors: re.Pattern[str]  # on lower-cased text
    gap_word: re.Pattern[str]
    max_gap: int
    not_values: frozenset[str]  # folded
    clause_words: frozenset[str]  # folded function words: one may follow a value that ends its clause
    before_words: int  # function words that may stand between a value before its name and the name
    before_free: re.Pattern[str]  # the shape of a password standing before its name ("Limoncello_7 è …")
    apposition: _Apposition | None
    beside: tuple[_Beside, ...] = ()
    asked: _Asked | None = None


_GROUP = re.compile(r"\d+")
_IBAN_START = re.compile(r"(?<![A-Za-z0-9])([A-Za-z]{2})(\d{2})")
_QUOTES = {'"': '"', "'": "'", "“": "”", "„": "“", "«": "»", "‘": "’", "`": "`"}
_TRAILING = ".,;:!?)]}»\"'”’"
_TWO_WORDS = re.compile(r"\w[\s-]\w")


def _name_regex(name: str) -> str:
    """A name as a pattern on folded text: its words joined by any spaces or a hyphen."""
    words = re.split(r"[\s-]+", fold(name.strip()))
    return r"[\s-]*".join(re.escape(w) for w in words if w)


def _rules(entry: Any, values: dict[str, re.Pattern[str]], kind: str,
           connectors: re.Pattern[str] | None, gaps: dict[str, int]) -> tuple[list[str], _Named]:
    if isinstance(entry, list):
        entry = {"words": entry}
    shape = str(entry.get("value", "any"))
    bare_value = entry.get("bare_value")
    gap = entry.get("max_gap", gaps.get(kind))
    rule = _Named(kind, values[shape], bare=bool(entry.get("bare", shape != "any" or bare_value is not None)),
                  free=shape == "any",
                  gap_starts=frozenset(lower(str(w)) for w in entry.get("gap_starts", ())),
                  ends_clause=bool(entry.get("ends_clause", False)), connectors=connectors,
                  max_gap=None if gap is None else int(gap),
                  bare_value=None if bare_value is None else values[str(bare_value)],
                  not_in_gap=frozenset(fold(str(w)) for w in entry.get("not_in_gap", ())),
                  before=bool(entry.get("before", True)))
    return [str(w) for w in entry.get("words", [])], rule


def _unlock_rule(entry: Any, values: dict[str, re.Pattern[str]], open_text: bool) -> tuple[list[str], _Named]:
    """A verb that opens or disarms something with a code ("the gate opens with 1357#", "sblocco
    il telefono con 5817"), a device that takes or has one ("the keypad wants 7391", "die
    Alarmanlage hat den Code 6120"), or what opens it ("pra abrir o cadeado é 3851"): the verb,
    device or purpose is the name, its "with" words its own connectors, its "then" words the
    last part of a verb that may follow the value ("das Tor lässt sich mit 5582 öffnen")."""
    rule = _Named(str(entry.get("kind", "code")), values[str(entry.get("value", "pin"))], bare=False, free=False,
                  ends_clause=True, connectors=_connector_regex((str(w) for w in entry["with"]), open_text),
                  max_gap=int(entry.get("max_gap", 3)),
                  not_in_gap=frozenset(fold(str(w)) for w in entry.get("not_in_gap", ())), before=False,
                  then=frozenset(fold(str(w)) for w in entry.get("then", ())))
    return [str(w) for w in entry.get("words", [])], rule


def _connector_regex(connectors: Iterable[str], open_text: bool = False) -> re.Pattern[str]:
    """The connectors as a pattern on lower-cased text; in a language written without spaces
    (``open_text``: ja, zh, ko) a connector may touch its value ("暗証番号は4826")."""
    by_len = sorted(set(connectors), key=len, reverse=True)
    ends = lambda c: not open_text and (c[-1:].isalnum() or c.endswith("'"))  # noqa: E731
    conn = "|".join(re.escape(lower(c)) + (r"(?!\w)" if ends(c) else "") for c in by_len)
    return re.compile(r"(?:[ \t]*,?[ \t]*(?:" + conn + r"))+")  # "Mon code de carte, c'est 2817"


def _merge(old: _Named, new: _Named) -> _Named:
    """One name in two languages ("code" in en and fr, "koden" in sv and da): the words that may
    start its gap are both's, and so are its own connectors when both have their own (a name of
    the six tables keeps the shared ones: Polish "to" never follows English "PIN")."""
    if old.kind != new.kind:
        return old
    connectors = old.connectors
    if old.connectors is not None and new.connectors is not None:
        connectors = re.compile(f"(?:{old.connectors.pattern})|(?:{new.connectors.pattern})")
    return _Named(old.kind, old.value, old.bare, old.free, old.gap_starts | new.gap_starts, old.ends_clause, connectors,
                  old.max_gap, old.bare_value, old.not_in_gap | new.not_in_gap, old.before and new.before,
                  old.then | new.then)


@lru_cache(maxsize=1)
def table() -> _Table:
    """``data/secrets.json``, compiled once."""
    raw = json.loads(resources.files("openclaw_tui.language.data").joinpath(DATA).read_text(encoding="utf-8"))
    values = {k: re.compile(v) for k, v in raw["values"].items()}
    named: dict[str, _Named] = {}
    plain: list[str] = []
    compound: list[str] = []
    open_names: list[str] = []  # languages written without spaces: a name touches its neighbours
    gaps = {str(k): int(v) for k, v in raw.get("max_gap_by_kind", {}).items()}
    connectors: list[str] = []
    not_values: set[str] = set()
    not_names: list[str] = []
    clause_words: set[str] = set()
    # the six tables' names share their connectors; a language without a table (Czech "heslo
    # … je") keeps its own, so its connectors ("je", "to", "on") never join another's names
    groups: list[tuple[str, Any, re.Pattern[str] | None]] = [(c, lang, None) for c, lang in raw["languages"].items()]
    groups += [(code, lang, _connector_regex((str(c) for c in lang["connectors"]), bool(lang.get("open"))))
               for code, lang in raw.get("other_languages", {}).items()]
    for code, lang, own in groups:
        rules = [_rules(entry, values, kind, own, gaps) for kind, entry in lang["names"].items()]
        rules += [_unlock_rule(entry, values, bool(lang.get("open"))) for entry in lang.get("unlock", ())]
        for words, rule in rules:
            for word in words:
                key = " ".join(tokens(fold(word))) or fold(word)
                named[key] = _merge(named[key], rule) if key in named else rule
                pattern = _name_regex(word)
                if lang.get("open"):  # only a Latin letter or digit bounds a Latin end ("PINコード")
                    head = r"(?<![a-z0-9])" if fold(word)[:1].isascii() else ""
                    tail = r"(?![a-z0-9])" if fold(word)[-1:].isascii() else ""
                    open_names.append(head + pattern + tail)
                else:  # a name of two words ("WLAN-Passwort") stands whole, before a word of it ("WLAN")
                    whole = compound if lang.get("compound") and len(fold(word)) >= 5 and not _TWO_WORDS.search(word) else plain
                    whole.append(pattern)
        if own is None:
            connectors += [str(c) for c in lang["connectors"]]
        not_values |= {fold(w) for w in lang.get("not_values", ())}
        not_names += [_name_regex(str(w)) for w in lang.get("not_names", ())]
        clause_words |= {str(w) for w in lang.get("articles", ())}
        if code in TABLES:
            not_values |= lexicon(code).vocabulary
            clause_words |= lexicon(code).function_words
    by_len = lambda items: sorted(set(items), key=len, reverse=True)  # noqa: E731
    names = r"(?:(?<!\w)(?:" + "|".join(by_len(plain)) + r")(?!\w)"
    if compound:
        names += r"|(?:" + "|".join(by_len(compound)) + r")(?!\w)"
    if open_names:
        names += r"|(?:" + "|".join(by_len(open_names)) + r")"
    names += ")"
    marker = str(raw["marker"])
    head, _, tail = marker.partition("{kind}")
    card = raw["card"]
    kinds = {str(s["kind"]) for s in raw["shapes"]} | {str(card["kind"]), str(raw["iban"]["kind"])}
    kinds |= {rule.kind for rule in named.values()}
    return _Table(
        marker=marker,
        marked=re.compile(re.escape(head) + "(?:" + "|".join(re.escape(k) for k in by_len(kinds)) + ")" + re.escape(tail)),
        shapes=tuple((str(s["kind"]), re.compile(s["pattern"]), int(s.get("group", 0))) for s in raw["shapes"]),
        card=_Card(str(card["kind"]), int(card["min_digits"]), int(card["max_digits"]), str(card["first_digits"]),
                   str(card["separators"]), int(card["min_group"]), int(card["max_group"])),
        runs=re.compile(r"\+?\d+(?:[" + re.escape(str(card["separators"])) + r"]\d+)*"),
        iban_kind=str(raw["iban"]["kind"]),
        iban_lengths={str(k): int(v) for k, v in raw["iban_lengths"].items()},
        names=re.compile(names),
        not_names=re.compile(r"(?<!\w)(?:" + "|".join(by_len(not_names)) + r")(?!\w)") if not_names else None,
        named=named,
        connectors=_connector_regex(connectors),
        gap_word=re.compile(r"[ \t]+[^\W_][\w'’-]{0,39}"),
        max_gap=int(raw.get("max_gap_words", 4)),
        not_values=frozenset(not_values),
        clause_words=frozenset(fold(w) for w in clause_words),
        before_words=int(raw.get("value_before_name", {}).get("max_words", 2)),
        before_free=values[str(raw.get("value_before_name", {}).get("password_value", "any"))],
        apposition=_apposition_rule(raw.get("apposition"), values),
        beside=tuple(_beside_rule(b, raw["values"]) for b in raw.get("beside", ())),
        asked=_asked_rule(raw.get("asked_by"), values),
    )


def _beside_rule(raw: Any, values: dict[str, str]) -> _Beside:
    words = [_name_regex(str(w)) for names in raw["names"].values() for w in names]
    names = "|".join(sorted(set(words), key=len, reverse=True))
    value = values[str(raw["value"])]
    return _Beside(str(raw["kind"]), frozenset(str(k) for k in raw["anchors"]),
                   re.compile(r"(?<!\w)(?:" + names + r")\.?[ \t]*:?[ \t]*(" + value + ")"),
                   re.compile(r"[ \t]*(" + value + ")"), int(raw.get("max_words", 3)), int(raw.get("max_chars", 40)))


def _apposition_rule(raw: Any, values: dict[str, re.Pattern[str]]) -> _Apposition | None:
    if not raw:
        return None
    starts = frozenset(lower(str(w)) for words in raw.get("starts", {}).values() for w in words)
    marks = re.compile(r"[ \t]*[" + re.escape(str(raw.get("marks", ",:"))) + r"]")
    return _Apposition(starts, int(raw.get("max_words", 4)), marks,
                       values[str(raw.get("marked_value", "marked"))], values[str(raw.get("bare_value", "mixed"))],
                       frozenset(str(k) for k in raw.get("digits_kinds", ())),
                       frozenset(fold(str(w)) for words in raw.get("numbered", {}).values() for w in words))


def _asked_rule(raw: Any, values: dict[str, re.Pattern[str]]) -> _Asked | None:
    if not raw:
        return None
    verbs = sorted({_name_regex(str(v)) for vs in raw.get("verbs", {}).values() for v in vs}, key=len, reverse=True)
    words = int(raw.get("max_words", 4))
    verb = re.compile(r"(?<!\w)(?:" + "|".join(verbs) + r")((?:[ \t]+[^\W\d_][\w'’-]*){0," + str(words) + r"})[ \t]+\Z")
    then = frozenset(fold(str(w)) for ws in raw.get("then", {}).values() for w in ws)
    return _Asked(verb, values[str(raw.get("value", "pin"))], 40 * (words + 3), then)


def _asked_for(folded: str, low: str, start: int, end: int, t: _Table) -> tuple[int, int] | None:
    """The value right after a name a verb asks for ("the app asks for the password 739104"):
    the asked-for shape (digits), ending its clause ("… 739104 ao entrar")."""
    a = t.asked
    if a is None or a.verb.search(folded, max(0, start - a.reach), start) is None:
        return None
    found = _value(low, end, _ASKED_RULE, t, a.value)
    if found is None:
        return None
    word = _CLAUSE_WORD.match(low, found[1])
    elided = fold(word.group(1)).split("'")[0] + "'" if word is not None and "'" in fold(word.group(1)) else ""
    return found if _ends_clause(low, found[1], t, a.then) or elided in a.then else None


_ASKED_RULE = _Named("", re.compile(r"(?!)"), bare=True, free=False)


def marker(kind: str) -> str:
    """What stands in a file where a secret of ``kind`` was: ``[secret withheld: card number]``."""
    return table().marker.replace("{kind}", kind)


# ---------------------------------------------------------------------------------- checks


def luhn_ok(digits: str) -> bool:
    """The Luhn check of a payment card number (digits only)."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = ord(ch) - 48
        if i % 2:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return bool(digits) and total % 10 == 0


def iban_ok(iban: str) -> bool:
    """The ISO 13616 mod-97 check of a compact IBAN (letters any case)."""
    s = iban.upper()
    if len(s) < 5 or not s.isascii() or not s.isalnum():
        return False
    moved = s[4:] + s[:4]
    return int("".join(str(int(ch, 36)) for ch in moved)) % 97 == 1


# ---------------------------------------------------------------------------------- finders

_Span = tuple[int, int, str, int]  # start, end, kind, rank (lower wins the kind of merged spans)


def _shapes(text: str, t: _Table) -> Iterable[_Span]:
    for kind, pattern, group in t.shapes:
        for m in pattern.finditer(text):
            if m.end(group) > m.start(group):
                yield m.start(group), m.end(group), kind, 0


def _cards(text: str, t: _Table) -> Iterable[_Span]:
    c = t.card
    for run in t.runs.finditer(text):
        if run.group().startswith("+"):
            continue  # a phone number
        groups = [(g.start() + run.start(), g.end() + run.start()) for g in _GROUP.finditer(run.group())]
        if run.start() and (text[run.start() - 1].isalnum() or text[run.start() - 1] == "_"):
            groups = groups[1:]  # the first digits belong to a word ("DE89", "v2")
        end = run.end()
        if groups and end < len(text) and (text[end].isalnum() or text[end] == "_"):
            groups = groups[:-1]  # the last digits belong to a word ("4821abc")
        for i in range(len(groups)):
            digits = ""
            for j in range(i, len(groups)):
                a, b = groups[j]
                if j > i and (text[groups[j - 1][1]] not in c.separators or text[groups[j - 1][1]] != text[groups[i][1]]):
                    break  # one kind of separator in a number
                if j > i and not all(c.min_group <= g[1] - g[0] <= c.max_group for g in (groups[i], groups[j])):
                    break  # grouped digits come in groups of 3 to 8
                digits += text[a:b]
                if len(digits) > c.max_digits:
                    break
                if len(digits) >= c.min_digits and digits[0] in c.first_digits and luhn_ok(digits):
                    yield groups[i][0], b, c.kind, 1


def _ibans(text: str, t: _Table) -> Iterable[_Span]:
    for m in _IBAN_START.finditer(text):
        length = t.iban_lengths.get(m.group(1).upper())
        if length is None:
            continue
        chars: list[str] = []
        pos, need = m.end(), length - 4
        while len(chars) < need and pos < len(text):
            ch = text[pos]
            if ch.isascii() and ch.isalnum():
                chars.append(ch)
                pos += 1
            elif ch == " " and text[pos + 1 : pos + 2].isascii() and text[pos + 1 : pos + 2].isalnum():
                pos += 1  # grouped by spaces
            else:
                break
        if len(chars) != need or (pos < len(text) and text[pos].isalnum()):
            continue
        if iban_ok(m.group(1) + m.group(2) + "".join(chars)):
            yield m.start(), pos, t.iban_kind, 1


def _value(low: str, pos: int, rule: _Named, t: _Table, shape: re.Pattern[str] | None = None) -> tuple[int, int] | None:
    """The span of a named secret's value starting at ``pos`` (after spaces), or None; ``shape``
    when the value's shape is not the rule's own (a value right after the name)."""
    while pos < len(low) and low[pos] in " \t":
        pos += 1
    if pos >= len(low):
        return None
    close = _QUOTES.get(low[pos])
    if close is not None:
        end = low.find(close, pos + 1, pos + 202)
        inside = low[pos + 1 : end] if end > pos + 1 else ""
        # a quoted password may hold spaces; any other value keeps its shape inside the quotes
        # ("Code: `openclaw_tui/x.py`" is a path, "`apiKey`, `headers`" holds no value)
        if (inside and not any(ch in inside for ch in "\n[]") and any(ch.isalnum() for ch in inside)
                and (rule.free and shape is None or (shape or rule.value).fullmatch(inside))):
            return pos + 1, end
        pos += 1  # no closing quote: the value's shape after the opening one
    m = (shape or rule.value).match(low, pos)
    if m is None:
        return None
    start, end = m.start(), m.end()
    while end > start and low[end - 1] in _TRAILING:
        end -= 1
    if end <= start:
        return None
    word = low[start:end]
    if (rule.free and shape is None) and (fold(word).strip("'’-") in t.not_values or not any(ch.isalnum() for ch in word)):
        return None
    return start, end


_CLAUSE_WORD = re.compile(r"[ \t]+([^\W\d_][\w'’]*)")


def _ends_clause(low: str, end: int, t: _Table, then: frozenset[str] = frozenset()) -> bool:
    """Nothing, a mark or a function word after a value ("… is 2741." / "… 2741 so come in"),
    or one of ``then`` (a verb's last part: "… mit 5582 öffnen"), not a word of its own ("… is
    300 lines")."""
    rest = low[end:]
    if not rest.strip(" \t") or not rest.lstrip(" \t")[0].isalnum():
        return True
    m = _CLAUSE_WORD.match(low, end)
    return m is not None and (fold(m.group(1)).strip("'’") in t.clause_words or fold(m.group(1)).strip("'’") in then)


def _starts(word: str, starts: frozenset[str]) -> bool:
    """``word`` is one of ``starts`` or begins with an elided one ("dell'allarme", "d'entrée")."""
    return word in starts or any(s.endswith("'") and word.startswith(s) for s in starts)


_NEAR_WORD = re.compile(r"[^\W_][\w'’-]*")


def _near(between: str, b: _Beside, t: _Table) -> bool:
    """Only marks, line breaks and at most a few function words between a value and its anchor."""
    if len(between) > b.max_chars or any(ch in between for ch in "!?[]"):
        return False
    words = _NEAR_WORD.findall(between)
    return len(words) <= b.max_words and all(fold(w) in t.clause_words for w in words)


def _beside(text: str, t: _Table, anchors: list[tuple[int, int, str]]) -> Iterable[_Span]:
    """The values of ``t.beside`` that stand next to one of their anchors (found or already a
    marker): after a name ("…, exp 09/28", "Prüfziffer 789, gültig bis 08/27") or, right after
    the anchor, alone ("4111 1111 1111 1111 09/28")."""
    folded = fold(text)
    for b in t.beside:
        near = sorted((s, e) for s, e, kind in anchors if kind in b.anchors)
        if not near:
            continue
        starts, ends = [s for s, _e in near], sorted(e for _s, e in near)
        for m in b.found.finditer(folded):
            # only the anchors that end or start within max_chars of it: linear in the text
            before = ends[bisect_left(ends, m.start() - b.max_chars) : bisect_right(ends, m.start())]
            after = starts[bisect_left(starts, m.end(1)) : bisect_right(starts, m.end(1) + b.max_chars)]
            if any(_near(folded[e : m.start()], b, t) for e in before) or any(
                _near(folded[m.end(1) : s], b, t) for s in after
            ):
                yield m.start(1), m.end(1), b.kind, 2
        for s, e in near:
            after_anchor = b.bare.match(folded, e + 1 if folded[e : e + 1] in ",;:" else e)
            if after_anchor is not None and after_anchor.start(1) > e:
                yield after_anchor.start(1), after_anchor.end(1), b.kind, 2


def _named(text: str, t: _Table, kept: list[tuple[int, int]]) -> Iterable[_Span]:
    folded, low = fold(text), lower(text)
    skip = list(kept)
    if t.not_names is not None:
        skip += [(n.start(), n.end()) for n in t.not_names.finditer(folded)]
    for m in t.names.finditer(folded):
        if any(a <= m.start() < b for a, b in skip):
            continue  # a kind word inside a marker, or a name inside a phrase that names no secret
        rule = t.named.get(" ".join(tokens(m.group())) or m.group())
        if rule is None:
            rule = next((r for name, r in t.named.items() if m.group().replace("-", " ").endswith(name)), None)
        if rule is None:
            continue
        found = _after(low, m.end(), rule, t)
        if found is None:  # "o banco pede a senha 739104": asked for, no connector
            found = _asked_for(folded, low, m.start(), m.end(), t)
        if found is None and rule.before and not _withheld_after(low, m.end(), rule, t):
            found = _before(low, m.start(), m.end(), rule, t)
        if found is not None:
            yield found[0], found[1], rule.kind, 2


def _after(low: str, pos: int, rule: _Named, t: _Table) -> tuple[int, int] | None:
    """The value after its name: right after it ("PIN 4821"), or after a connector up to the
    rule's gap of words ("the PIN for the card I use at the bank on Fridays is 4821")."""
    found = None
    connectors = rule.connectors or t.connectors
    if rule.bare and connectors.match(low, pos) is None:  # "password=Hx7kq9": "=" joins, it is no part
        found = _value(low, pos, rule, t, rule.bare_value)
    between: list[str] = []
    name_end = pos
    for i in range((t.max_gap if rule.max_gap is None else rule.max_gap) + 1):
        if found is not None:
            break
        conn = connectors.match(low, pos)
        if conn is not None:
            found = _value(low, conn.end(), rule, t)
            if found is not None or rule.free:
                break
            # "the PIN for the card that is in my wallet is 4821": a value with a digit may
            # follow a later connector; the first one's words count as the gap's
        gap = t.gap_word.match(low, pos)
        if gap is None or (i == 0 and rule.gap_starts and not _starts(gap.group().strip(), rule.gap_starts)):
            break
        between.append(fold(gap.group().strip()))
        pos = gap.end()
    if found is None and t.apposition is not None:
        found, between = _apposition(low, name_end, rule, t, t.apposition)
    if found is not None and _names_a_thing(between, rule.not_in_gap):
        return None  # "the code for the login page is 2000": a page's code is source code
    if found is not None and rule.ends_clause and not _ends_clause(low, found[1], t, rule.then):
        return None
    return found


def _apposition(low: str, pos: int, rule: _Named, t: _Table,
                a: _Apposition) -> tuple[tuple[int, int] | None, list[str]]:
    """The value after the name's qualifier with no connector, and the qualifier's folded words:
    after a mark in the name's own shape ("il PIN dello smartphone, 5913"), with no mark only a
    word of letters and digits that also has that shape ("das Passwort vom NAS Zaunkönig77!");
    either way the value ends its clause ("the password of user42 expired" keeps its words)."""
    between: list[str] = []
    for i in range(a.max_words):
        gap = t.gap_word.match(low, pos)
        if gap is None or (i == 0 and not _starts(gap.group().strip(), rule.gap_starts or a.starts)):
            break
        between.append(fold(gap.group().strip()))
        pos = gap.end()
        mark = a.marks.match(low, pos)
        if mark is not None:
            found = _value(low, mark.end(), rule, t, a.marked if rule.free else None)
        else:
            found = _value(low, pos, rule, t, a.mixed)
            if found is not None and not (rule.free or rule.value.fullmatch(low, *found)):
                found = None
            if found is None and rule.connectors is None and rule.kind in a.digits_kinds and _qualifies_digits(between, a, t):
                found = _value(low, pos, rule, t)  # "PIN der Bankomatkarte 7719"
                rest = low[found[1]:].lstrip(" \t") if found is not None else ""
                if rest and rest[0].isalnum():
                    found = None  # "el PIN de la tarjeta 4821 euros": more words run on
        if found is not None and _ends_clause(low, found[1], t):
            return found, between
        if mark is not None:
            break
    return None, between


def _qualifies_digits(between: list[str], a: _Apposition, t: _Table) -> bool:
    """A qualifier digits may follow with no mark: none of its words has a digit, and its last
    word is a word of its own ("PIN der Bankomatkarte 7719"), not a function word ("… es la 217")
    nor a thing a number numbers ("the code for room 1204")."""
    return (bool(between) and between[-1] not in a.numbered and between[-1] not in t.clause_words
            and not any(ch.isdigit() for w in between for ch in w))


def _names_a_thing(words: list[str], things: frozenset[str]) -> bool:
    """One of ``words`` (folded), or a part of one joined by hyphens ("login-seite"), is in
    ``things``."""
    return bool(things) and any(w in things or any(p in things for p in w.split("-")) for w in words)


def _withheld_after(low: str, pos: int, rule: _Named, t: _Table) -> bool:
    """A marker stands where the name's value would ("PIN is [secret withheld: PIN]"): the
    value was found after the name once, so none is looked for before it (a second pass
    changes nothing)."""
    head = t.marker.partition("{kind}")[0].lower()
    conn = (rule.connectors or t.connectors).match(low, pos)
    ends = [pos] + ([conn.end()] if conn is not None else [])
    return any(low[e:].lstrip(" \t").startswith(head) for e in ends)


_CLAUSE_START = "\n.!?;:,—–-(\"'«„“*>"


@lru_cache(maxsize=64)
def _before_regex(connectors: str, words: int) -> re.Pattern[str]:
    return re.compile(r"([^\s\[\]]+)(?:" + connectors + r")((?:[ \t]+[^\W\d_][\w'’]*){0," + str(words) + r"})[ \t]+\Z")


def _before(low: str, start: int, end: int, rule: _Named, t: _Table) -> tuple[int, int] | None:
    """The value before its name at a clause's start, a connector and at most a few function
    words between ("4471 is de code van de kluis", "Limoncello_7 è la password del Wi-Fi")."""
    lo = max(0, start - 160)
    m = _before_regex((rule.connectors or t.connectors).pattern, t.before_words).search(low, lo, start)
    if m is None or any(fold(w) not in t.clause_words for w in m.group(2).split()):
        return None
    if not any(ch.isalnum() for ch in low[m.end(1) : m.start(2)]):
        return None  # a word joins them ("4821 is my PIN"), not a mark ("2019: password reset")
    a = m.start(1)
    while a > 0 and low[a - 1] in " \t":
        a -= 1
    if a > 0 and low[a - 1] not in _CLAUSE_START:
        return None  # the value starts its clause
    b = m.end(1)
    while b > m.start(1) and low[b - 1] in _TRAILING:
        b -= 1
    value = low[m.start(1) : b]
    shape = t.before_free if rule.free else rule.value
    if not value or shape.fullmatch(value) is None or fold(value) in t.not_values:
        return None
    after = [fold(w.group().strip()) for w in _words_after(low, end, t)]
    if rule.gap_starts and not (after and _starts(after[0], rule.gap_starts)):
        return None  # a bare "code" names a secret only as "the code of/for …"
    if _names_a_thing(after, rule.not_in_gap):
        return None
    return m.start(1), b


def _words_after(low: str, pos: int, t: _Table) -> Iterable[re.Match[str]]:
    """The words after a name up to the next mark, at most the table's gap."""
    for _ in range(t.max_gap):
        gap = t.gap_word.match(low, pos)
        if gap is None:
            return
        yield gap
        pos = gap.end()


# ---------------------------------------------------------------------------------- redaction


def find_secrets(text: str) -> tuple[SecretFound, ...]:
    """The secrets in ``text`` (overlapping finds merged), markers already there left alone."""
    if not isinstance(text, str) or not text:
        return ()
    t = table()
    kept = [(m.start(), m.end()) for m in t.marked.finditer(text)]
    spans: list[_Span] = []
    finds = (*_shapes(text, t), *_cards(text, t), *_ibans(text, t), *_named(text, t, kept))
    for start, end, kind, rank in finds:
        if not any(a < end and start < b for a, b in kept):
            spans.append((start, end, kind, rank))
    if t.beside:
        markers = {marker(k): k for b in t.beside for k in b.anchors}
        anchors = [(s, e, k) for s, e, k, _rank in spans] + [(a, b, markers[text[a:b]]) for a, b in kept if text[a:b] in markers]
        spans += [span for span in _beside(text, t, anchors) if not any(a < span[1] and span[0] < b for a, b in kept)]
    spans.sort()
    merged: list[_Span] = []
    for span in spans:
        if merged and span[0] < merged[-1][1]:
            last = merged[-1]
            best = last if last[3] <= span[3] else span
            merged[-1] = (last[0], max(last[1], span[1]), best[2], min(last[3], span[3]))
        else:
            merged.append(span)
    return tuple(SecretFound(kind, start, end) for start, end, kind, _rank in merged)


def redact_for_disk(text: str) -> DiskText:
    """``text`` with each secret's value replaced by its marker; unchanged when it has none."""
    found = find_secrets(text)
    if not found:
        return DiskText(text)
    out, last = [], 0
    for f in found:
        out += [text[last : f.start], marker(f.kind)]
        last = f.end
    out.append(text[last:])
    return DiskText("".join(out), found)


def redact_new_lines(text: str, existing: str | bytes | None) -> DiskText:
    """``text`` redacted except its lines that ``existing`` (the file as it is) already holds
    word for word: a rewrite of a file never changes what the user wrote there by hand."""
    if isinstance(existing, bytes):
        existing = existing.decode("utf-8", "replace")
    old = set((existing or "").splitlines())
    if not old:
        return redact_for_disk(text)
    out: list[str] = []
    found: list[SecretFound] = []
    offset = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        if body in old:
            out.append(line)
        else:
            disk = redact_for_disk(body)
            out.append(disk.text + line[len(body):])
            found += [SecretFound(f.kind, f.start + offset, f.end + offset) for f in disk.found]
        offset += len(line)
    return DiskText("".join(out), tuple(found)) if found else DiskText(text)


def withheld_phrase(kinds: Iterable[str]) -> str:
    """"the card number and the PIN": what was not kept, for a line to the user or the model."""
    items = [f"the {k}" for k in dict.fromkeys(kinds)]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
