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
- a bare weekday ("on Monday") only when the tense of its clause is certain from the language's cue
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

import re
from dataclasses import dataclass
from datetime import date, timedelta
from enum import Enum
from typing import TypeVar

from openclaw_tui.language.date_table import (
    ISO_DATE,
    DateTable,
    Tense,
    date_table,
    fold,
    lower,
    sentence_tense,
    tokens,
)

V = TypeVar("V")

#: how far a weekday + day of month may lie from the day said
WINDOW_DAYS = 183
MAX_COUNT_DAYS = 400

_TIGHT = re.compile(r"[\s'\-]+")  # what may stand between the words of one expression
_SENTENCE_END = re.compile(r"[.!?;\n]+")
_LABELLED_ISO = re.compile(r"\s*\([^()\d]{0,30}" + ISO_DATE)


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

def _shift(day: date, days: int) -> date | None:
    """``day`` moved by ``days``; None past the ends of the calendar."""
    try:
        return day + timedelta(days=days)
    except OverflowError:
        return None

# ---------------------------------------------------------------- finding expressions


class _Scanner:
    def __init__(self, text: str, table: DateTable, said_on: date) -> None:
        self.text, self.table, self.said_on = text, table, said_on
        self.folded = fold(text)
        self.lower = lower(text)
        self.tokens = tokens(text)
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

    def first_at(self, i: int, table: tuple[tuple[tuple[str, ...], V], ...]) -> tuple[int, V] | None:
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
        """The tense of the clause holding ``pos``: a sentence cut at "and", "but", "y", "und" …,
        so "El lunes fui al médico y el martes iré al dentista" does not date Tuesday as past."""
        starts = [0] + [m.end() for m in _SENTENCE_END.finditer(self.folded)]
        start = max(s for s in starts if s <= pos)
        end_m = _SENTENCE_END.search(self.folded, start)
        end = end_m.start() if end_m else len(self.text)
        breaks = self.table.tense.clause_breaks
        cuts = [t.start for t in self.tokens if start <= t.start < end and t.lower in breaks]
        clause_start = max([start] + [c for c in cuts if c <= pos])
        clause_end = min([end] + [c for c in cuts if c > pos])
        if clause_start not in self._tenses:
            clause = [t for t in self.tokens if clause_start <= t.start < clause_end]
            self._tenses[clause_start] = sentence_tense(clause, self.table.tense)
        return self._tenses[clause_start]

    def negated(self, start: int) -> bool:
        """The words at ``start`` are the day the user says it is not ("não é para amanhã"): a
        negation stands a few words before them in their clause, and nothing between lifts it
        ("not until tomorrow")."""
        neg = self.table.negation
        if neg is None:
            return False
        head = max(0, start - 160)
        clause = max((m.end() for m in neg.cuts.finditer(self.lower, head, start)), default=head)
        last = None
        for last in neg.words.finditer(self.lower, clause, start):
            pass
        if last is None:
            return False
        between = [t.folded for t in self.tokens if last.end() <= t.start and t.end <= start]
        return len(between) <= neg.max_words and not any(w in neg.lifted_by for w in between)

    def beside_absolute(self, start: int, end: int) -> bool:
        after = self.folded[end:end + 80]
        before = self.folded[max(0, start - 60):start]
        return bool(_LABELLED_ISO.match(after) or self.table.absolute_after.match(after)
                    or self.table.absolute_before.search(before))

    # -- expressions (each returns (end token index, mention) or None)

    def relative_day(self, i: int) -> tuple[int, DateMention | None] | None:
        hit = self.first_at(i, self.table.relative_days)
        if hit is None:
            return None
        end, offset = hit
        if offset is None:  # "guten Morgen", "hoy en día": not a date
            return end, None
        return end, self.mention(i, end, Kind.DAY, _shift(self.said_on, offset))

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
                hit = self.first_at(end, self.table.count_after)
                if hit is None:
                    continue
                end, value = hit
                sign = value
            days = n * (7 if unit in self.table.week_units else 1)
            if not 0 < days <= MAX_COUNT_DAYS:
                return end, None
            certain = sign < 0 or self.tense_at(self.tokens[i].start) is not Tense.PAST
            return end, self.mention(i, end, Kind.COUNT, _shift(self.said_on, sign * days) if certain else None)
        return None

    def _count_leads(self, i: int) -> list[tuple[int, int, bool]]:
        leads = [(j, s, True) for words, s in self.table.count_before
                 if (j := self.phrase_at(i, words)) is not None and j + 1 < len(self.tokens)]
        return leads + ([(i, 0, False)] if i + 1 < len(self.tokens) else [])

    def modifier_before(self, i: int) -> tuple[int, str] | None:
        hit = self.first_at(i, self.table.modifiers_before)
        if hit is None or self.word(i - 1) in self.table.modifier_blocked_before:
            return None
        return hit

    def modifier_after(self, k: int) -> tuple[int, str] | None:
        hit = self.first_at(k, self.table.modifiers_after)
        return hit

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
        hit = self.first_at(j, self.table.weekdays)
        short = hit is None  # "Thu the 12th": an abbreviation counts only with its day of month
        if hit is None and (hit := self.first_at(j, self.table.weekday_abbreviations)) is None:
            return None
        k, wd = hit
        direction = before[1] if before else ""
        end = k
        if not before and (after := self.modifier_after(k)) is not None:
            end, direction = after
        char_end = self.tokens[end - 1].end
        day = None
        if not self.table.absolute_after.match(self.folded[char_end:char_end + 80]):
            dot = 1 if short and self.folded.startswith(".", char_end) else 0
            dom = self.table.day_of_month.match(self.folded, char_end + dot)
            if dom:
                day, char_end = int(dom.group("day")), dom.end()
                while end < len(self.tokens) and self.tokens[end].start < char_end:
                    end += 1
        if short and day is None:
            return None
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
        if when is not None and (self.beside_absolute(start, stop) or self.negated(start)):
            when = None  # already dated, or the day it is not ("não é amanhã")
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
