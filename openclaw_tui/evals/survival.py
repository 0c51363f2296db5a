"""The fact-survival evaluation: do facts a user states survive flushes and compactions?

Each seeded conversation (``conversations.py``) runs through the real engine with a window
small enough for compactions; then every fact is asked (a) in the same session and (b) in a
new session, where only the memory files can answer. Measured per run: facts on disk (exact
token), facts answered (a)/(b), junk lines written (no fact in them, or a duplicate), replies
to statements that echo the prompt or say they could not answer, compaction summaries with
lines the turns do not support, ``Source:`` lines naming lines that do not exist, save claims
with no note, appends outside today's log, and seconds per turn and per flush.

    report = asyncio.run(run_survival(SurvivalOptions(model="offline", conversations=20)))
"""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from openclaw_tui import events
from openclaw_tui.evals.conversations import Fact
from openclaw_tui.session.reply_check import LINE_REF_RE, REF_RE, SOURCE_LINE_RE

TEMPLATE = Path(__file__).resolve().parents[2] / "workspace_template"
NOT_STORED = "Nothing was stored"


@dataclass(frozen=True)
class SurvivalOptions:
    model: str | None = None  # any litellm model string, "offline", or None for the default resolution
    conversations: int = 20
    seed: int = 1
    facts: int = 6
    flush: bool = True
    flush_mode: str = "auto"
    context_tokens: int = 3200
    reserve_floor: int = 800
    soft_threshold: int = 600
    keep_recent: int = 400
    api_base: str | None = None
    api_key: str | None = None


@dataclass
class Tally:
    facts: int = 0
    stored: int = 0
    answered_same: int = 0
    answered_new: int = 0
    lines_written: int = 0
    junk_lines: int = 0
    statements: int = 0
    echoes: int = 0
    unanswerable_statements: int = 0
    compactions: int = 0
    summaries_invented: int = 0
    flushes: int = 0
    flush_seconds: float = 0.0
    turns: int = 0
    turn_seconds: float = 0.0
    sources: int = 0
    sources_unfound: int = 0
    save_claims_unflagged: int = 0
    appends_elsewhere: int = 0
    examples: list[dict[str, Any]] = field(default_factory=list)

    def add(self, other: "Tally") -> None:
        for name, value in asdict(other).items():
            if isinstance(value, (int, float)):
                setattr(self, name, getattr(self, name) + value)
        self.examples.extend(other.examples[:2])

    def summary(self) -> dict[str, Any]:
        pct = lambda n, d: round(100.0 * n / d, 1) if d else 0.0  # noqa: E731
        return {
            "facts": self.facts,
            "storedPct": pct(self.stored, self.facts),
            "answeredSamePct": pct(self.answered_same, self.facts),
            "answeredNewPct": pct(self.answered_new, self.facts),
            "linesWritten": self.lines_written,
            "junkPct": pct(self.junk_lines, self.lines_written),
            "statements": self.statements,
            "echoes": self.echoes,
            "unanswerableStatements": self.unanswerable_statements,
            "compactions": self.compactions,
            "summariesInvented": self.summaries_invented,
            "flushes": self.flushes,
            "secondsPerFlush": round(self.flush_seconds / self.flushes, 2) if self.flushes else 0.0,
            "secondsPerTurn": round(self.turn_seconds / self.turns, 2) if self.turns else 0.0,
            "sourceLines": self.sources,
            "sourceLinesUnfound": self.sources_unfound,
            "saveClaimsUnflagged": self.save_claims_unflagged,
            "appendsOutsideToday": self.appends_elsewhere,
        }


def _flat(text: str) -> str:
    return re.sub(r"[\s,.]+", "", text.lower()).replace("p.m", "pm")


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = r"(?P<mon>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(?P<year>\d{4}))?"
#: "December 4, 2026", "Dec. 4th", "4 December 2026", "the 4th of December"
SPELLED_DATE_RES = (re.compile(rf"\b{_MONTH}\s+{_DAY}\b{_YEAR}", re.IGNORECASE),
                    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}(?![a-z]){_YEAR}", re.IGNORECASE))
ISO_DATE_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


def spelled_dates(text: str) -> set[tuple[int | None, int, int]]:
    """The dates ``text`` writes out with a month name, as (year or None, month, day)."""
    out = set()
    for pattern in SPELLED_DATE_RES:
        for m in pattern.finditer(text):
            day = int(m.group("day"))
            if 1 <= day <= 31:
                out.add((int(m.group("year")) if m.group("year") else None, _MONTHS.index(m.group("mon").lower()) + 1, day))
    return out


def answer_text(reply: str) -> str:
    """A reply without its ``Source:`` lines and references: a daily log's path holds a date."""
    return LINE_REF_RE.sub(" ", SOURCE_LINE_RE.sub("", reply))


def holds(text: str, fact: Fact, *, alt: bool = False) -> bool:
    """Whether ``text`` contains the fact's token (or, with ``alt``, the phrase the user typed);
    a date token (``2026-12-04``) also as written out ("December 4, 2026", "4th December",
    "December 4" without a year). Source lines and references do not count."""
    text = answer_text(text)
    flat = _flat(text)
    if _flat(fact.token) in flat or alt and any(_flat(a) in flat for a in fact.alt):
        return True
    iso = ISO_DATE_RE.match(fact.token)
    if not iso:
        return False
    year, month, day = (int(x) for x in iso.groups())
    return any(y in (None, year) and (m, d) == (month, day) for y, m, d in spelled_dates(text))


def memory_lines(workspace: Path) -> list[str]:
    """The note lines of the workspace's memory files (headings and blank lines aside)."""
    files = [workspace / "MEMORY.md", *sorted((workspace / "memory").glob("*.md"))]
    out: list[str] = []
    for path in files:
        if path.is_file():
            out += [ln.strip() for ln in path.read_text(encoding="utf-8", errors="replace").splitlines()
                    if ln.strip() and not ln.lstrip().startswith("#")]
    return out


def score_memory(workspace: Path, facts: list[Fact], baseline: set[str], tally: Tally) -> None:
    written = [ln for ln in memory_lines(workspace) if ln not in baseline]
    text = "\n".join(written)
    tally.stored += sum(1 for f in facts if holds(text, f))
    seen: set[str] = set()
    for line in written:
        dup = _flat(line) in seen
        seen.add(_flat(line))
        tally.lines_written += 1
        if dup or not any(holds(line, f) for f in facts):
            tally.junk_lines += 1


def source_refs_unfound(reply: str, workspace: Path) -> tuple[int, int]:
    """(Source references in ``reply``, those naming a file or lines that do not exist); a
    reference the engine marked "(unverified)" is flagged already and not counted."""
    refs = [r for r in REF_RE.finditer(reply) if not reply[r.end():].lstrip().startswith("(unverified)")]
    spans = {r.span("path") for r in refs}
    for line in SOURCE_LINE_RE.finditer(reply):  # on a Source: line a host or bare name counts as a reference too
        base = line.start()
        refs += [r for r in LINE_REF_RE.finditer(line.group(0)) if (base + r.start("path"), base + r.end("path")) not in spans
                 and not any(a <= base + r.start("path") < b for a, b in spans)]
    bad = 0
    for ref in refs:
        path = workspace / ref.group("path")
        if not ref.group("path").endswith(".md") or not path.is_file():
            bad += 1
            continue
        n = len(path.read_text(encoding="utf-8", errors="replace").splitlines())
        if int(ref.group("a")) > n:
            bad += 1
    return len(refs), bad


class Watch:
    """An event sink that keeps what the evaluation scores."""

    def __init__(self) -> None:
        self.events: list[events.Event] = []
        self.flush_started: float | None = None
        self.flush_seconds: list[float] = []

    def __call__(self, ev: events.Event) -> None:
        self.events.append(ev)
        if isinstance(ev, events.FlushStarted):
            self.flush_started = time.monotonic()
        elif isinstance(ev, events.FlushFinished) and self.flush_started is not None:
            self.flush_seconds.append(time.monotonic() - self.flush_started)
            self.flush_started = None

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]
