"""Reading a reply or a note for a value: does it hold a fact's token (however a number, a
time or a date is written), the value a correction replaced, or which dates does it name?

Dates are read in every supported language (the month names come from the evaluation's
material, ``data/<lang>.json``): ISO (``2026-12-04``), "December 4, 2026", "4 de diciembre
de 2026", "4. Dezember", "le 4 décembre", "4/12/2026". A ``Source:`` line or a reference
(``memory/2026-12-04.md#L3``) is no answer: a daily log's name holds a date.
"""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

from openclaw_tui.evals.conversations import Fact
from openclaw_tui.evals.material import all_month_names
from openclaw_tui.session.reply_check import LINE_REF_RE, SOURCE_LINE_RE

ISO_RE = re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
NUMERIC_RE = re.compile(r"(?<![\d./])(\d{1,2})[./](\d{1,2})[./](\d{4})(?![\d])")
#: a thousands separator between digits ("43,500", "43.500", "43 500")
THOUSANDS_RE = re.compile(r"(?<=\d)[.,\u00a0\u202f ](?=\d{3}(?!\d))")
HTML_COMMENT_RE = re.compile(r"<!--.*?-->", re.DOTALL)
#: the day a redirected append carries in front of a note ("- (2026-12-04) …"): the day it was said
SAID_ON_RE = re.compile(r"^\s*[-*]?\s*\(\d{4}-\d{2}-\d{2}\)\s*")

Day = tuple[int | None, int, int]  # (year or None, month, day)


def normal(text: str) -> str:
    """Lowercase, thousands separators and "p.m." dots dropped, runs of space made one."""
    text = THOUSANDS_RE.sub("", text.lower().replace("\u00a0", " "))
    text = re.sub(r"\b([ap])\.\s?m\.?", r"\1m", text)
    return re.sub(r"\s+", " ", text)


def contains(text: str, token: str) -> bool:
    """Whether ``token`` is in ``text`` as a value of its own ("45" is not in "2045" nor in "45b")."""
    t = normal(token).strip()
    if not t:
        return False
    return re.search(rf"(?<![0-9a-z]){re.escape(t)}(?![0-9a-z])", normal(text)) is not None


def answer_text(reply: str) -> str:
    """A reply without its ``Source:`` lines and references."""
    return LINE_REF_RE.sub(" ", SOURCE_LINE_RE.sub("", reply))


@lru_cache(maxsize=1)
def _spelled() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, int]]:
    months = all_month_names()
    index = {name: i + 1 for i, forms in enumerate(months) for name in forms}
    alt = "|".join(re.escape(n) for n in sorted(index, key=len, reverse=True))
    day, year = r"(?P<day>\d{1,2})(?:st|nd|rd|th|er|º|°|\.)?", r"(?P<year>\d{4})"
    joiner = r"(?:\s+(?:de|of|del|di))?"
    day_first = re.compile(rf"(?<!\d){day}{joiner}\s*(?P<mon>{alt})(?![^\W\d_])\.?(?:,?{joiner}\s+{year})?", re.IGNORECASE)
    month_first = re.compile(rf"(?<![^\W\d_])(?P<mon>{alt})\.?\s+{day}(?!\d)(?:,?\s+{year})?", re.IGNORECASE)
    return day_first, month_first, index


def mentions(text: str) -> list[set[Day]]:
    """Each date ``text`` names, as its possible readings (4/12/2026 is April 12 or 4 December):
    ISO, numeric day/month/year, or with a month's name in any language."""
    out: list[set[Day]] = []
    for m in ISO_RE.finditer(text):
        y, mo, d = (int(g) for g in m.groups())
        if 1 <= mo <= 12 and 1 <= d <= 31:
            out.append({(y, mo, d)})
    for m in NUMERIC_RE.finditer(text):
        a, b, y = (int(g) for g in m.groups())
        readings: set[Day] = {(y, mo, d) for d, mo in ((a, b), (b, a)) if 1 <= mo <= 12 and 1 <= d <= 31}
        if readings:
            out.append(readings)
    day_first, month_first, index = _spelled()
    for pattern in (day_first, month_first):
        for m in pattern.finditer(text):
            d = int(m.group("day"))
            if 1 <= d <= 31:
                out.append({(int(m.group("year")) if m.group("year") else None, index[m.group("mon").lower()], d)})
    return out


def dates_in(text: str) -> set[Day]:
    """Every reading of every date ``text`` names."""
    return {day for readings in mentions(text) for day in readings}


def _is(day: Day, true: date) -> bool:
    y, m, d = day
    return y in (None, true.year) and (m, d) == (true.month, true.day)


def names_day(text: str, day: date) -> bool:
    """Whether ``text`` names ``day`` (a date without a year counts when month and day agree)."""
    return any(_is(found, day) for found in dates_in(text))


def holds(text: str, fact: Fact, *, alt: bool = False) -> bool:
    """Whether ``text`` answers ``fact``: its token or another spelling of it, a date written
    out in any language, or with ``alt`` the user's own words ("yesterday", "am Montag")."""
    text = answer_text(text)
    if any(contains(text, t) for t in (fact.token, *fact.forms)):
        return True
    if alt and any(contains(text, a) for a in fact.alt):
        return True
    iso = ISO_RE.fullmatch(fact.token)
    return iso is not None and names_day(text, date(*(int(g) for g in iso.groups())))


def gives_stale(text: str, fact: Fact) -> bool:
    """Whether ``text`` gives the value a correction replaced."""
    text = answer_text(text)
    return bool(fact.stale) and any(contains(text, s) for s in (fact.stale, *fact.stale_forms))


def current(text: str, fact: Fact, *, alt: bool = False) -> bool:
    """An answer that holds the fact and not the value it replaced."""
    return holds(text, fact, alt=alt) and not gives_stale(text, fact)


def wrong_date(lines: list[str], true_date: date) -> bool:
    """Whether the notes of one relative date name a day other than ``true_date`` (a note
    naming two different days contradicts itself, so names one such). HTML comments
    (``<!-- observed: … -->``) and the said-on day a redirected append carries in front are
    not the note's words."""
    said = [SAID_ON_RE.sub("", HTML_COMMENT_RE.sub(" ", line)) for line in lines]
    return any(not any(_is(r, true_date) for r in readings) for line in said for readings in mentions(line))
