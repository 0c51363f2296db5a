"""The words of dates in one language, read from ``language/data/<lang>.dates.json``, and the
tense a sentence's cue words signal. Text is compared folded (lowercase, accents optional) for
dates and lowercase with accents for tense ("llegó" is past, "llego" is not)."""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from importlib import resources
from typing import TypeVar, cast

_WORD = re.compile(r"\w+")
V = TypeVar("V")
ISO_DATE = r"\d{4}-\d{1,2}-\d{1,2}"


class Tense(str, Enum):
    PAST = "past"
    FUTURE = "future"
    UNKNOWN = "unknown"


# ---------------------------------------------------------------- text


def _lower(text: str) -> str:
    """``text`` lowercased char by char (same length, so spans stay valid); ’ read as '."""
    out = []
    for ch in text:
        low = ch.lower()
        out.append("'" if ch == "\u2019" else low if len(low) == 1 else ch)
    return "".join(out)


def fold(text: str) -> str:
    """``text`` lowercased without accents, char by char (same length as ``text``)."""
    out = []
    for ch in _lower(text):
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        out.append(base if len(base) == 1 else ch)
    return "".join(out)


def _words(phrase: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(fold(phrase)))


def _lower_words(phrase: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(_lower(phrase)))


@dataclass(frozen=True)
class Token:
    start: int
    end: int
    folded: str  # matched against dates and modifiers (accents optional)
    lower: str  # matched against tense cues (accents matter: "llegó" is past, "llego" is not)
    cased: bool  # written in lowercase (a capitalised German noun is no participle)


def tokens(text: str) -> list[Token]:
    folded, lower = fold(text), _lower(text)
    return [Token(m.start(), m.end(), m.group(), lower[m.start():m.end()], text[m.start():m.end()] == lower[m.start():m.end()])
            for m in _WORD.finditer(folded)]


# ---------------------------------------------------------------- the table


@dataclass(frozen=True)
class TenseCues:
    past_words: tuple[tuple[str, ...], ...]
    future_words: tuple[tuple[str, ...], ...]
    uncertain_words: tuple[tuple[str, ...], ...]
    past_suffixes: tuple[str, ...]
    future_suffixes: tuple[str, ...]
    suffix_min_length: int
    suffix_except: frozenset[str]
    past_circumfixes: tuple[tuple[str, str], ...]
    past_auxiliaries: frozenset[str]
    participle_suffixes: tuple[str, ...]
    clause_breaks: frozenset[str]  # "and", "but": each side of one has its own tense


@dataclass(frozen=True)
class Negation:
    """What makes a day word the day the user says it is not ("not tomorrow", "não é amanhã"):
    a negation at most ``max_words`` words before it in its clause, with no word between that
    lifts it ("not until tomorrow", "nicht vor morgen" name the day)."""

    words: re.Pattern[str]  # the negations, on lower-cased text (``lower``)
    cuts: re.Pattern[str]  # where a clause starts: a mark or a clause break ("but", "sino")
    max_words: int
    lifted_by: frozenset[str]  # folded


@dataclass(frozen=True)
class DateTable:
    language: str
    weekdays: tuple[tuple[tuple[str, ...], int], ...]  # (words, weekday), longest first
    weekday_abbreviations: tuple[tuple[tuple[str, ...], int], ...]  # only before a day of month
    ambiguous_weekdays: frozenset[tuple[str, ...]]  # need a lead word, a modifier or a day of month
    weekday_leads: frozenset[str]
    month_pattern: str  # alternation of month names and abbreviations (folded, escaped)
    relative_days: tuple[tuple[tuple[str, ...], int | None], ...]  # None: words that only look like one
    modifiers_before: tuple[tuple[tuple[str, ...], str], ...]  # (words, "next" | "last" | "this")
    modifiers_after: tuple[tuple[tuple[str, ...], str], ...]
    modifier_blocked_before: frozenset[str]
    blocked_before: frozenset[str]
    blocked_after: frozenset[str]
    week_words: frozenset[str]
    week_label: str
    count_before: tuple[tuple[tuple[str, ...], int], ...]  # (words, +1 future | -1 past)
    count_after: tuple[tuple[tuple[str, ...], int], ...]
    day_units: frozenset[str]
    week_units: frozenset[str]
    numbers: dict[str, int]
    day_of_month: re.Pattern[str]
    absolute_after: re.Pattern[str]
    absolute_before: re.Pattern[str]
    tense: TenseCues
    negation: Negation | None = None


def _strs(raw: object) -> tuple[str, ...]:
    return tuple(str(x) for x in cast(list[object], raw or []))


def _alternation(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(fold(w)) for w in sorted(set(words), key=len, reverse=True) if w)


def _longest_first(pairs: list[tuple[tuple[str, ...], V]]) -> tuple[tuple[tuple[str, ...], V], ...]:
    return tuple(sorted(pairs, key=lambda p: -len(p[0])))


def _folded(raw: object) -> frozenset[str]:
    return frozenset(fold(w) for w in _strs(raw))


def _forms(raw: object) -> list[list[str]]:
    return cast(list[list[str]], raw or [])


def _day_of_month(dom: dict[str, object], time_after: str, joiners: str, suffixes: str) -> re.Pattern[str]:
    """", the 12th", " 12", ", den 12." after a weekday; not "10 am", "12:30", "12/3"."""
    return re.compile(
        r"[\s,]*" + (rf"(?:(?:{joiners})\s+)?" if joiners else "") + r"(?P<day>\d{1,2})"
        + (rf"(?:{suffixes})?" if suffixes else "") + r"(?!\w)" + (r"\.?" if dom.get("dot") else "")
        + r"(?!\s*(?:[:.h]\d|\d|/" + (rf"|(?:{time_after})(?!\w)" if time_after else "") + "))")


def _absolute(month_pattern: str, glue: str, suffixes: str) -> str:
    """An absolute date: ISO, 11/12, "11 de diciembre", "11. Dezember", "December 11, 2026"."""
    ordinal = rf"(?:{suffixes})?\.?" if suffixes else r"\.?"
    return (rf"(?:{ISO_DATE}|\d{{1,2}}[./]\d{{1,2}}(?:[./]\d{{2,4}})?(?!\d)"
            rf"|\d{{1,2}}{ordinal}\s*{glue}(?:{month_pattern})(?!\w)\.?(?:,?\s*{glue}\d{{4}})?"
            rf"|(?:{month_pattern})\.?\s+\d{{1,2}}(?!\d)(?:st|nd|rd|th)?(?:,?\s*\d{{4}})?)")


def _cues(tense: dict[str, object]) -> TenseCues:
    return TenseCues(
        past_words=tuple(_lower_words(w) for w in _strs(tense.get("past_words"))),
        future_words=tuple(_lower_words(w) for w in _strs(tense.get("future_words"))),
        uncertain_words=tuple(_lower_words(w) for w in _strs(tense.get("uncertain_words"))),
        past_suffixes=_strs(tense.get("past_suffixes")),
        future_suffixes=_strs(tense.get("future_suffixes")),
        suffix_min_length=int(cast(int, tense.get("suffix_min_length", 4))),
        suffix_except=frozenset(_strs(tense.get("suffix_except"))),
        past_circumfixes=tuple((str(p[0]), str(p[1])) for p in _forms(tense.get("past_circumfixes"))),
        past_auxiliaries=frozenset(_strs(tense.get("past_auxiliaries"))),
        participle_suffixes=_strs(tense.get("participle_suffixes")),
        clause_breaks=frozenset(_strs(tense.get("clause_breaks"))),
    )


def _build(data: dict[str, object]) -> DateTable:
    months = tuple(m for forms in _forms(data["months"]) + _forms(data["month_abbreviations"]) for m in forms)
    month_pattern = _alternation(months)
    mods = cast(dict[str, dict[str, list[str]]], data["modifiers"])
    count = cast(dict[str, list[str]], data["count"])
    dom = cast(dict[str, object], data["day_of_month"])
    suffixes = _alternation(_strs(dom.get("suffixes")))
    date_joiners = _alternation(_strs(data.get("date_joiners")))
    glue = rf"(?:(?:{date_joiners})\s+)?" if date_joiners else ""
    absolute = _absolute(month_pattern, glue, suffixes)
    days = cast(list[dict[str, object]], data["relative_days"])
    return DateTable(
        language=str(data["language"]),
        weekdays=_longest_first([(_words(f), i) for i, forms in enumerate(_forms(data["weekdays"])) for f in forms]),
        weekday_abbreviations=_longest_first([(_words(f), i) for i, forms in enumerate(_forms(data["weekday_abbreviations"]))
                                              for f in forms]),
        ambiguous_weekdays=frozenset(_words(w) for w in _strs(data.get("ambiguous_weekdays"))),
        weekday_leads=_folded(data.get("weekday_leads")),
        month_pattern=month_pattern,
        relative_days=_longest_first([(_words(str(r["words"])), None if r["offset"] is None else int(cast(int, r["offset"])))
                                      for r in days]),
        modifiers_before=_longest_first([(_words(w), d) for d, at in mods.items() for w in at.get("before", [])]),
        modifiers_after=_longest_first([(_words(w), d) for d, at in mods.items() for w in at.get("after", [])]),
        modifier_blocked_before=_folded(data.get("modifier_blocked_before")),
        blocked_before=_folded(data.get("blocked_before")),
        blocked_after=_folded(data.get("blocked_after")),
        week_words=_folded(data.get("week_words")),
        week_label=str(data.get("week_label", "")),
        count_before=_longest_first([(_words(w), 1) for w in count.get("future_before", [])]
                                    + [(_words(w), -1) for w in count.get("past_before", [])]),
        count_after=_longest_first([(_words(w), 1) for w in count.get("future_after", [])]
                                   + [(_words(w), -1) for w in count.get("past_after", [])]),
        day_units=_folded(count.get("day_units")),
        week_units=_folded(count.get("week_units")),
        numbers={fold(k): int(v) for k, v in cast(dict[str, int], data.get("numbers", {})).items()},
        day_of_month=_day_of_month(dom, _alternation(_strs(data.get("time_after"))),
                                   _alternation(_strs(dom.get("joiners"))), suffixes),
        absolute_after=re.compile(r"[\s,;:(\[]*" + glue + absolute),
        absolute_before=re.compile(absolute + r"\)?[\s,;:(\[]*" + glue + r"$"),
        tense=_cues(cast(dict[str, object], data["tense"])),
        negation=_negation(cast(dict[str, object], data.get("negation") or {}),
                           _strs(cast(dict[str, object], data["tense"]).get("clause_breaks"))),
    )


def _lower_alternation(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(_lower(w)) for w in sorted(set(words), key=len, reverse=True) if w)


def lower(text: str) -> str:
    """``text`` lower-cased, same length (what :class:`Negation` patterns are matched on)."""
    return _lower(text)


def _negation(raw: dict[str, object], clause_breaks: tuple[str, ...]) -> Negation | None:
    # on lower-cased text, accents kept: Portuguese "é" (is) is no "e" (and), Italian "né" no "ne"
    words = _lower_alternation(_strs(raw.get("words")))
    if not words:
        return None
    breaks = _lower_alternation(clause_breaks + _strs(raw.get("breaks")))
    return Negation(re.compile(rf"(?<!\w)(?:{words})(?!\w)"),
                    re.compile(r"[,;:.!?¿¡()\[\]\n—–]" + (rf"|(?<!\w)(?:{breaks})(?!\w)" if breaks else "")),
                    int(cast(int, raw.get("max_words", 3))), _folded(raw.get("lifted_by")))


def date_table(lang: str) -> DateTable | None:
    """The table of ``lang`` ("es", "pt-BR" → "pt"), None for a language without one."""
    code = (lang or "").lower().replace("_", "-").split("-")[0]
    return _load(code) if code.isascii() and code.isalpha() else None


@lru_cache(maxsize=None)
def _load(code: str) -> DateTable | None:
    source = resources.files("openclaw_tui.language").joinpath("data", f"{code}.dates.json")
    if not source.is_file():
        return None
    return _build(cast(dict[str, object], json.loads(source.read_text(encoding="utf-8"))))


# ---------------------------------------------------------------- tense


def _has_phrase(tokens: list[Token], phrases: tuple[tuple[str, ...], ...]) -> bool:
    words = [t.lower for t in tokens]
    return any(p and any(tuple(words[i:i + len(p)]) == p for i in range(len(words) - len(p) + 1)) for p in phrases)


def _affix_tense(tok: Token, cues: TenseCues) -> Tense:
    word = tok.lower
    if len(word) < cues.suffix_min_length or word in cues.suffix_except:
        return Tense.UNKNOWN
    best, tense = 0, Tense.UNKNOWN
    for suffixes, which in ((cues.past_suffixes, Tense.PAST), (cues.future_suffixes, Tense.FUTURE)):
        for s in suffixes:
            if word.endswith(s) and len(s) > best:
                best, tense = len(s), which
    if tense is Tense.UNKNOWN and tok.cased and any(word.startswith(p) and word.endswith(s) for p, s in cues.past_circumfixes):
        return Tense.PAST
    return tense


def sentence_tense(tokens: list[Token], cues: TenseCues) -> Tense:
    """Past or future when the cue words of one sentence agree; unknown when none, both, or a
    word that makes the time uncertain (reported, planned, conditional) is there."""
    if _has_phrase(tokens, cues.uncertain_words):
        return Tense.UNKNOWN
    past = _has_phrase(tokens, cues.past_words)
    future = _has_phrase(tokens, cues.future_words)
    for i, tok in enumerate(tokens):
        found = _affix_tense(tok, cues)
        past = past or found is Tense.PAST
        future = future or found is Tense.FUTURE
        if tok.lower in cues.past_auxiliaries and i + 1 < len(tokens):
            nxt = tokens[i + 1].lower
            if len(nxt) >= cues.suffix_min_length and nxt not in cues.suffix_except and nxt.endswith(cues.participle_suffixes):
                past = True
    if past == future:
        return Tense.UNKNOWN
    return Tense.PAST if past else Tense.FUTURE
