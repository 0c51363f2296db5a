"""Relative dates in the user's words, with the absolute date added beside them only when certain.

A note keeps what the user said. :func:`annotate_dates` adds ``" (2026-12-05)"`` right after a
relative expression ("yesterday", "el próximo lunes", "vor 3 Tagen") when its day is certain from
the day it was said, and adds nothing otherwise; it never replaces or removes a character, so the
day the note was written (its daily log) still dates the words.

Certain means:

- a relative day word ("yesterday", "ayer", "gestern", "hier", "ontem", "ieri") or a count
  ("in 3 days", "hace 3 días", "il y a 3 jours", "3 giorni fa"); "in N days" only when the
  sentence is not in the past ("I did it in 3 days" is a duration);
- "next X" is the first X after the day said (on Sunday "next Tuesday" is two days later),
  "last X" the most recent X before it;
- a bare weekday ("on Monday") only when the sentence's tense is certain from the language's cue
  words: past → the most recent X before the day said, future → the next one; mixed, reported or
  planned ("I booked it for Monday") → nothing;
- a weekday with a day of month ("Thursday the 12th", "el jueves 12", "Donnerstag, den 12.")
  only when exactly one date within ±6 months has that weekday on that day, in the direction the
  sentence allows (past tense → before the day said; otherwise that day or later);
- "next week" → ``(week of <Monday>)``, the label in the user's language.

An expression already beside an absolute date ("Friday 2026-12-11", "el viernes 11 de
diciembre", "(2026-12-05)") is never annotated, which also makes :func:`annotate_dates`
idempotent. The words of each language are data: ``language/data/<lang>.dates.json``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from datetime import date, timedelta
from enum import Enum
from functools import lru_cache
from importlib import resources
from typing import cast

#: how far a weekday + day of month may lie from the day said
WINDOW_DAYS = 183
MAX_COUNT_DAYS = 400

_WORD = re.compile(r"\w+")
_TIGHT = re.compile(r"[\s'\-]+")  # what may stand between the words of one expression
_SENTENCE_END = re.compile(r"[.!?;\n]+")
_ISO = r"\d{4}-\d{1,2}-\d{1,2}"
_LABELLED_ISO = re.compile(r"\s*\([^()\d]{0,30}" + _ISO)


class Tense(str, Enum):
    PAST = "past"
    FUTURE = "future"
    UNKNOWN = "unknown"


class Kind(str, Enum):
    DAY = "day"  # yesterday, mañana, vorgestern
    COUNT = "count"  # in 3 days, hace 2 semanas
    WEEK = "week"  # next week, la semana pasada
    WEEKDAY = "weekday"  # next Monday, el jueves 12, on Friday


@dataclass(frozen=True)
class DateMention:
    start: int  # span of the expression in the text
    end: int
    words: str  # the expression as written
    kind: Kind
    #: the date to add beside the words (the Monday for a week); None when not certain or an
    #: absolute date already stands beside them
    when: date | None = None
    weekday: int | None = None  # the weekday named (0 = Monday), if any

    def note(self, table: DateTable) -> str:
        """What goes in the parentheses: ``2026-12-05`` or ``week of 2026-12-07``."""
        if self.when is None:
            return ""
        iso = self.when.isoformat()
        return f"{table.week_label} {iso}" if self.kind is Kind.WEEK else iso


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


def _tokens(text: str) -> list[Token]:
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


@dataclass(frozen=True)
class DateTable:
    language: str
    weekdays: tuple[tuple[tuple[str, ...], int], ...]  # (words, weekday), longest first
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


def _strs(raw: object) -> tuple[str, ...]:
    return tuple(str(x) for x in cast(list[object], raw or []))


def _alternation(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(fold(w)) for w in sorted(set(words), key=len, reverse=True) if w)


def _phrases(raw: object, label: object) -> tuple[tuple[tuple[str, ...], object], ...]:
    pairs = [(_words(w), label) for w in _strs(raw)]
    return tuple(sorted(pairs, key=lambda p: -len(p[0])))


def _build(data: dict[str, object]) -> DateTable:
    lang = str(data["language"])
    weekday_forms = cast(list[list[str]], data["weekdays"])
    weekdays = sorted(((_words(f), i) for i, forms in enumerate(weekday_forms) for f in forms), key=lambda p: -len(p[0]))
    months = tuple(m for forms in cast(list[list[str]], data["months"]) + cast(list[list[str]], data["month_abbreviations"]) for m in forms)
    month_pattern = _alternation(months)
    mods = cast(dict[str, dict[str, list[str]]], data["modifiers"])
    before = sorted(((_words(w), d) for d, where in mods.items() for w in where.get("before", [])), key=lambda p: -len(p[0]))
    after = sorted(((_words(w), d) for d, where in mods.items() for w in where.get("after", [])), key=lambda p: -len(p[0]))
    count = cast(dict[str, list[str]], data["count"])
    count_before = sorted([(_words(w), 1) for w in count.get("future_before", [])] + [(_words(w), -1) for w in count.get("past_before", [])], key=lambda p: -len(p[0]))
    count_after = sorted([(_words(w), 1) for w in count.get("future_after", [])] + [(_words(w), -1) for w in count.get("past_after", [])], key=lambda p: -len(p[0]))
    dom = cast(dict[str, object], data["day_of_month"])
    joiners = _alternation(_strs(dom.get("joiners")))
    suffixes = _alternation(_strs(dom.get("suffixes")))
    time_after = _alternation(_strs(data.get("time_after")))
    day_of_month = re.compile(
        r"[\s,]*" + (rf"(?:(?:{joiners})\s+)?" if joiners else "") + r"(?P<day>\d{1,2})"
        + (rf"(?:{suffixes})?" if suffixes else "") + r"(?![\w])" + (r"\.?" if dom.get("dot") else "")
        + r"(?!\s*(?:[:.h]\d|\d|/" + (rf"|(?:{time_after})(?!\w)" if time_after else "") + "))")
    date_joiners = _alternation(_strs(data.get("date_joiners")))
    ordinal = rf"(?:{suffixes})?\.?" if suffixes else r"\.?"
    glue = rf"(?:(?:{date_joiners})\s+)?" if date_joiners else ""
    absolute = (rf"(?:{_ISO}|\d{{1,2}}[./]\d{{1,2}}(?:[./]\d{{2,4}})?(?!\d)"
                rf"|\d{{1,2}}{ordinal}\s*{glue}(?:{month_pattern})(?!\w)\.?(?:,?\s*{glue}\d{{4}})?"
                rf"|(?:{month_pattern})\.?\s+\d{{1,2}}(?!\d)(?:st|nd|rd|th)?(?:,?\s*\d{{4}})?)")
    tense = cast(dict[str, object], data["tense"])
    cues = TenseCues(
        past_words=tuple(_lower_words(w) for w in _strs(tense.get("past_words"))),
        future_words=tuple(_lower_words(w) for w in _strs(tense.get("future_words"))),
        uncertain_words=tuple(_lower_words(w) for w in _strs(tense.get("uncertain_words"))),
        past_suffixes=_strs(tense.get("past_suffixes")),
        future_suffixes=_strs(tense.get("future_suffixes")),
        suffix_min_length=int(cast(int, tense.get("suffix_min_length", 4))),
        suffix_except=frozenset(_strs(tense.get("suffix_except"))),
        past_circumfixes=tuple((str(p[0]), str(p[1])) for p in cast(list[list[str]], tense.get("past_circumfixes", []))),
        past_auxiliaries=frozenset(_strs(tense.get("past_auxiliaries"))),
        participle_suffixes=_strs(tense.get("participle_suffixes")),
    )
    return DateTable(
        language=lang,
        weekdays=tuple(weekdays),
        ambiguous_weekdays=frozenset(_words(w) for w in _strs(data.get("ambiguous_weekdays"))),
        weekday_leads=frozenset(fold(w) for w in _strs(data.get("weekday_leads"))),
        month_pattern=month_pattern,
        relative_days=tuple(sorted(((_words(str(r["words"])), None if r["offset"] is None else int(cast(int, r["offset"])))
                                    for r in cast(list[dict[str, object]], data["relative_days"])), key=lambda p: -len(p[0]))),
        modifiers_before=tuple(before),
        modifiers_after=tuple(after),
        modifier_blocked_before=frozenset(fold(w) for w in _strs(data.get("modifier_blocked_before"))),
        blocked_before=frozenset(fold(w) for w in _strs(data.get("blocked_before"))),
        blocked_after=frozenset(fold(w) for w in _strs(data.get("blocked_after"))),
        week_words=frozenset(fold(w) for w in _strs(data.get("week_words"))),
        week_label=str(data.get("week_label", "")),
        count_before=tuple(count_before),
        count_after=tuple(count_after),
        day_units=frozenset(fold(w) for w in count.get("day_units", [])),
        week_units=frozenset(fold(w) for w in count.get("week_units", [])),
        numbers={fold(k): int(v) for k, v in cast(dict[str, int], data.get("numbers", {})).items()},
        day_of_month=day_of_month,
        absolute_after=re.compile(r"[\s,;:(\[]*" + glue + absolute),
        absolute_before=re.compile(absolute + r"\)?[\s,;:(\[]*" + glue + r"$"),
        tense=cues,
    )


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


def _shift(day: date, days: int) -> date | None:
    """``day`` moved by ``days``; None past the ends of the calendar."""
    try:
        return day + timedelta(days=days)
    except OverflowError:
        return None


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


# ---------------------------------------------------------------- finding expressions


class _Scanner:
    def __init__(self, text: str, table: DateTable, said_on: date) -> None:
        self.text, self.table, self.said_on = text, table, said_on
        self.folded = fold(text)
        self.tokens = _tokens(text)
        self._tenses: dict[int, Tense] = {}

    # -- words

    def phrase_at(self, i: int, words: tuple[str, ...]) -> int | None:
        """The token index after ``words`` when they start at token ``i`` (one expression)."""
        if not words or i + len(words) > len(self.tokens):
            return None
        for k, w in enumerate(words):
            if self.tokens[i + k].folded != w:
                return None
            if k and not _TIGHT.fullmatch(self.text[self.tokens[i + k - 1].end:self.tokens[i + k].start]):
                return None
        return i + len(words)

    def first_at(self, i: int, table: tuple[tuple[tuple[str, ...], object], ...]) -> tuple[int, object] | None:
        for words, value in table:  # longest first
            end = self.phrase_at(i, words)
            if end is not None:
                return end, value
        return None

    def word(self, i: int) -> str:
        return self.tokens[i].folded if 0 <= i < len(self.tokens) else ""

    def number(self, i: int) -> int | None:
        w = self.word(i)
        if w.isdigit() and len(w) <= 3:
            return int(w)
        return self.table.numbers.get(w)

    # -- context

    def tense_at(self, pos: int) -> Tense:
        starts = [0] + [m.end() for m in _SENTENCE_END.finditer(self.folded)]
        start = max(s for s in starts if s <= pos)
        if start not in self._tenses:
            end_m = _SENTENCE_END.search(self.folded, start)
            end = end_m.start() if end_m else len(self.text)
            sentence = [t for t in self.tokens if start <= t.start < end]
            self._tenses[start] = sentence_tense(sentence, self.table.tense)
        return self._tenses[start]

    def beside_absolute(self, start: int, end: int) -> bool:
        after = self.folded[end:end + 80]
        before = self.folded[max(0, start - 60):start]
        return bool(_LABELLED_ISO.match(after) or self.table.absolute_after.match(after)
                    or self.table.absolute_before.search(before))

    # -- expressions (each returns (end token index, mention) or None)

    def relative_day(self, i: int) -> tuple[int, DateMention | None] | None:
        hit = self.first_at(i, cast(tuple[tuple[tuple[str, ...], object], ...], self.table.relative_days))
        if hit is None:
            return None
        end, offset = hit
        if offset is None:  # "guten Morgen", "hoy en día": not a date
            return end, None
        return end, self.mention(i, end, Kind.DAY, _shift(self.said_on, cast(int, offset)))

    def count(self, i: int) -> tuple[int, DateMention | None] | None:
        for j, sign, lead in self._count_leads(i):
            n = self.number(j)
            unit = self.word(j + 1)
            if n is None or not (unit in self.table.day_units or unit in self.table.week_units):
                continue
            if not _TIGHT.fullmatch(self.text[self.tokens[j].end:self.tokens[j + 1].start]):
                continue
            end = j + 2
            if not lead:
                hit = self.first_at(end, cast(tuple[tuple[tuple[str, ...], object], ...], self.table.count_after))
                if hit is None:
                    continue
                end, value = hit
                sign = cast(int, value)
            days = n * (7 if unit in self.table.week_units else 1)
            if not 0 < days <= MAX_COUNT_DAYS:
                return end, None
            certain = sign < 0 or self.tense_at(self.tokens[i].start) is not Tense.PAST
            return end, self.mention(i, end, Kind.COUNT, _shift(self.said_on, sign * days) if certain else None)
        return None

    def _count_leads(self, i: int) -> list[tuple[int, int, bool]]:
        leads = [(j, cast(int, s), True) for words, s in self.table.count_before
                 if (j := self.phrase_at(i, words)) is not None and j + 1 < len(self.tokens)]
        return leads + ([(i, 0, False)] if i + 1 < len(self.tokens) else [])

    def modifier_before(self, i: int) -> tuple[int, str] | None:
        hit = self.first_at(i, cast(tuple[tuple[tuple[str, ...], object], ...], self.table.modifiers_before))
        if hit is None or self.word(i - 1) in self.table.modifier_blocked_before:
            return None
        return hit[0], cast(str, hit[1])

    def modifier_after(self, k: int) -> tuple[int, str] | None:
        hit = self.first_at(k, cast(tuple[tuple[tuple[str, ...], object], ...], self.table.modifiers_after))
        return None if hit is None else (hit[0], cast(str, hit[1]))

    def week(self, i: int) -> tuple[int, DateMention | None] | None:
        before = self.modifier_before(i)
        j = before[0] if before else i
        if self.word(j) not in self.table.week_words:
            return None
        end, direction = j + 1, before[1] if before else ""
        if not before:
            after = self.modifier_after(end)
            if after is None:
                return None
            end, direction = after
        shift = {"next": 7, "last": -7}.get(direction, 0)
        return end, self.mention(i, end, Kind.WEEK, _shift(self.said_on, shift - self.said_on.weekday()))

    def weekday(self, i: int) -> tuple[int, DateMention | None] | None:
        before = self.modifier_before(i)
        j = before[0] if before else i
        hit = self.first_at(j, cast(tuple[tuple[tuple[str, ...], object], ...], self.table.weekdays))
        if hit is None:
            return None
        k, value = hit
        wd = cast(int, value)
        direction = before[1] if before else ""
        end = k
        if not before and (after := self.modifier_after(k)) is not None:
            end, direction = after
        char_end = self.tokens[end - 1].end
        day = None
        if not self.table.absolute_after.match(self.folded[char_end:char_end + 80]):
            dom = self.table.day_of_month.match(self.folded, char_end)
            if dom:
                day, char_end = int(dom.group("day")), dom.end()
                while end < len(self.tokens) and self.tokens[end].start < char_end:
                    end += 1
        named = tuple(t.folded for t in self.tokens[j:k])
        if (named in self.table.ambiguous_weekdays and not direction and day is None
                and self.word(i - 1) not in self.table.weekday_leads):
            return None  # "segunda" as "second", not Monday
        mention = self.mention(i, end, Kind.WEEKDAY, self.resolve_weekday(i, end, wd, direction, day), wd, char_end)
        return end, mention

    def resolve_weekday(self, i: int, end: int, wd: int, direction: str, day: int | None) -> date | None:
        today = self.said_on
        if day is None and (self.word(end) in self.table.blocked_after
                            or not direction and self.word(i - 1) in self.table.blocked_before):
            return None
        tense = self.tense_at(self.tokens[i].start)
        if direction == "next" or direction != "last" and tense is Tense.FUTURE:
            allowed = "after"
        elif direction == "last" or tense is Tense.PAST:
            allowed = "before"
        else:
            allowed = "any"
        if day is not None:
            if allowed == "any":
                allowed = "today on" if direction != "this" else "any"
            found = [d for n in range(-WINDOW_DAYS, WINDOW_DAYS + 1)
                     if (d := _shift(today, n)) is not None and d.day == day and d.weekday() == wd
                     and (allowed == "any" or (n < 0 if allowed == "before" else n > 0 if allowed == "after" else n >= 0))]
            return found[0] if len(found) == 1 else None
        ahead = (wd - today.weekday()) % 7
        if direction == "this" and ahead == 0:
            return today
        if direction in ("next", "last"):
            return _shift(today, ahead or 7) if direction == "next" else _shift(today, -((7 - ahead) % 7 or 7))
        if ahead == 0 or allowed == "any":
            return None  # "on Sunday" said on a Sunday, or the tense is not certain
        return _shift(today, ahead if allowed == "after" else ahead - 7)

    def mention(self, i: int, end: int, kind: Kind, when: date | None, weekday: int | None = None,
                char_end: int | None = None) -> DateMention:
        start, stop = self.tokens[i].start, char_end if char_end is not None else self.tokens[end - 1].end
        if when is not None and self.beside_absolute(start, stop):
            when = None
        return DateMention(start, stop, self.text[start:stop], kind, when, weekday)

    def scan(self) -> list[DateMention]:
        found: list[DateMention] = []
        i = 0
        while i < len(self.tokens):
            best: tuple[int, DateMention | None] | None = None
            for matcher in (self.relative_day, self.count, self.week, self.weekday):
                hit = matcher(i)
                if hit is not None and (best is None or hit[0] > best[0]):
                    best = hit
            if best is None:
                i += 1
                continue
            if best[1] is not None:
                found.append(best[1])
            i = max(best[0], i + 1)
        return found


def date_mentions(text: str, *, said_on: date, lang: str) -> tuple[DateMention, ...]:
    """The relative date expressions of ``text`` (in order, not overlapping), each with the date
    to add beside it when certain. Empty for a language without a table."""
    table = date_table(lang)
    if table is None or not text:
        return ()
    return tuple(_Scanner(text, table, date(said_on.year, said_on.month, said_on.day)).scan())


def relative_expressions(text: str, lang: str) -> tuple[str, ...]:
    """The relative date expressions of ``text`` as written ("yesterday", "el lunes que viene")."""
    return tuple(m.words for m in date_mentions(text, said_on=date(2000, 1, 3), lang=lang))


def annotate_dates(text: str, *, said_on: date, lang: str) -> str:
    """``text`` unchanged except that ``" (YYYY-MM-DD)"`` follows each relative expression whose
    day is certain: "I met Ana yesterday." → "I met Ana yesterday (2026-12-05)."."""
    table = date_table(lang)
    if table is None:
        return text
    out, last = [], 0
    for m in date_mentions(text, said_on=said_on, lang=lang):
        if m.when is None:
            continue
        out.append(text[last:m.end])
        out.append(f" ({m.note(table)})")
        last = m.end
    out.append(text[last:])
    return "".join(out)
