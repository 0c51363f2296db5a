"""Sentences of a message, cut where a sentence ends and nowhere else.

A full stop followed by a space ends a sentence unless it closes an abbreviation of the
language ("Dr.", "Sra.", "z. B.", "M.", "Sig.": data, ``abbreviations``), an initial ("J. R.
Tolkien") or dotted initials before a name ("J.P. Morgan", "U.S. Bank"), or, in a language
that writes ordinals with a dot ("am 3. Mai"), a day number before a month. A decimal ("3.5") or a time ("5 p.m.", "9.40") has no space after its dots,
a dot followed by a lower-case word ("… etc. and") ends nothing, and nor does a short lower-case
word's dot before a number ("tlm. 912 447 083", "cell. 347"). ``?``, ``!``, ``;`` and
a line break always end one.

    split("The call is at 5 p.m. with Dr. Moreau. Bring the file.", lexicon("en"))
    # ["The call is at 5 p.m. with Dr. Moreau.", "Bring the file."]
"""

from __future__ import annotations

import re

from openclaw_tui.language.lexicon import Lexicon, fold

#: an end mark (with closing quotes/brackets after it) and the space after it
_END = re.compile(r"(?:[.!?;…]+[\"'”’»)\]]*)(?=\s)|\n")
_OPENS = "\"'“„«(¿¡[-"
#: a day, or a day and month, written with ordinal dots ("3", "28.11")
_DAY = re.compile(r"\d{1,2}(?:\.\d{1,2})?$")
#: a lower-case word of at most this many letters, a dot and a number: a short form no table
#: lists ("tlm.", "cell.", "tfno."), not the end of a sentence
SHORT_FORM = 4
#: letters joined by dots ("J.P", "U.S", "S.A"): the dot after them closes initials
_DOTTED = re.compile(r"(?:[^\W\d_]\.)+[^\W\d_]$")


def _before_dot(text: str, dot: int) -> str:
    """The folded text before the dot at ``dot``, from the start of its line."""
    start = text.rfind("\n", 0, dot) + 1
    return fold(text[start:dot])


def _is_abbreviation(text: str, dot: int, lex: Lexicon) -> bool:
    """Whether the dot at ``dot`` is inside or at the end of one of the language's
    abbreviations ("Dr.", and both dots of "z. B.")."""
    lo = text.rfind("\n", 0, dot) + 1
    window = fold(text[lo: dot + 8])
    at = dot - lo
    for abbr in lex.abbreviations:
        whole = abbr + "."
        i = window.find(whole, max(0, at - len(whole) + 1))
        while 0 <= i <= at:
            if i + len(whole) > at and (i == 0 or not window[i - 1].isalnum()):
                return True
            i = window.find(whole, i + 1)
    return False


def _next_word(text: str, pos: int) -> str:
    m = re.match(r"\s*([^\s]+)", text[pos:])
    return m.group(1) if m else ""


def _keeps_going(text: str, end: re.Match[str], lex: Lexicon) -> bool:
    """Whether the mark at ``end`` does not end the sentence."""
    mark = end.group(0)
    if mark == "\n" or not mark.startswith(".") or mark.startswith("..."):
        return False
    nxt = _next_word(text, end.end())
    if not nxt:
        return False
    if nxt[0].islower():
        return True  # "… etc. and so on", "5 p.m. with"
    if nxt[0] not in _OPENS and not nxt[0].isalnum():
        return False
    if _is_abbreviation(text, end.start(), lex):
        return True
    head = _before_dot(text, end.start())
    word = head.split()[-1] if head.split() else ""
    raw = text[end.start() - len(word): end.start()] if word else ""
    if len(raw) == 1 and raw.isupper():
        return True  # an initial
    if _DOTTED.match(raw) and raw[0].isupper():
        return _not_an_opening(fold(nxt), lex)  # "J.P. Morgan", "U.S. Bank"; "the U.S. Then …" ends
    if word.isalpha() and any(word.endswith(end) and len(word) > len(end) for end in lex.abbreviation_ends):
        return True  # "Hauptstr. 5"
    if word in lex.date_abbreviations and _names_a_date(nxt, lex):
        return True  # "Wed. 22 Jan.", "le mar. 11 févr.", "giov. 6 marzo"
    if lex.ordinal_dot and _DAY.match(word):
        return _not_an_opening(fold(nxt), lex)
    if nxt[0].isdigit() and raw.isalpha() and raw.islower() and len(raw) <= SHORT_FORM and word not in lex.vocabulary:
        return True  # a short form before its number: "tlm. 912 447 083", "cell. 347", "approx. 7pm"
    return False


def _names_a_date(word: str, lex: Lexicon) -> bool:
    """Whether the word after a weekday or month abbreviation carries the date on: a number or
    a weekday or month ("Sat. March 5"), not any word ("la mer. Demain …" ends)."""
    bare = fold(word).strip("\"'“„«(¿¡[-.,")
    return bool(bare) and (bare[0].isdigit() or any(
        bare.startswith(a) and len(a) >= 3 for a in lex.date_abbreviations))


def _not_an_opening(word: str, lex: Lexicon) -> bool:
    """After "am 3." or "am 28.11.": a month ("Mai") or a noun ("Geburtstag") goes on; a word
    that opens sentences (a pronoun, an article, a question word, "bitte") starts a new one."""
    if lex.date_words is not None and lex.date_words.match(word):
        return True
    bare = word.strip("\"'“„«(¿¡[-")
    head = bare.split("'")[0]
    if head in lex.vocabulary or any(p is not None and p.match(bare) for p in (lex.request, lex.polite, lex.small_talk)):
        return False
    return bool(head) and head[0].isalpha()


def spans(text: str, lex: Lexicon) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``, without surrounding white space."""
    out: list[tuple[int, int]] = []
    start = 0
    for end in _END.finditer(text):
        if _keeps_going(text, end, lex):
            continue
        out.append((start, end.end()))
        start = end.end()
    out.append((start, len(text)))
    trimmed = []
    for a, b in out:
        piece = text[a:b]
        lead = len(piece) - len(piece.lstrip())
        piece = piece.strip()
        if piece:
            trimmed.append((a + lead, a + lead + len(piece)))
    return trimmed


def split(text: str, lex: Lexicon) -> list[str]:
    """The sentences of ``text`` as typed."""
    return [text[a:b] for a, b in spans(text, lex)]
