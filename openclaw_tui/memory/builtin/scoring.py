"""A candidate's score (pure functions, no I/O): BM25 rank → score, the weighted and the
keyword-first hybrid fusion with their coverage, path and date boosts, and temporal decay.

Table-tested in ``tests/memory/test_pipeline.py``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timezone
from typing import Iterable, Sequence

from openclaw_tui.memory.builtin.query import term_in_tokens, word_tokens
from openclaw_tui.workspace.session_keys import ROOT_MEMORY_FILES

def bm25_rank_to_score(rank: float) -> float:
    """FTS5 ``bm25()`` rank (negative = better) → score in (0, 1).

    r < 0: ``-r / (1 - r)``; otherwise ``1 / (1 + r)``. Monotone: a better rank never scores lower.
    """
    if not math.isfinite(rank):
        return 0.0
    if rank < 0:
        return -rank / (1.0 - rank)
    return 1.0 / (1.0 + rank)


def normalized_weights(vector_weight: float, text_weight: float) -> tuple[float, float]:
    total = vector_weight + text_weight
    if total <= 0:
        return 0.5, 0.5
    return vector_weight / total, text_weight / total


@dataclass
class Candidate:
    id: int
    path: str
    source: str
    start_line: int
    end_line: int
    text: str
    vector_score: float | None = None
    text_score: float | None = None
    score: float = 0.0
    mtime: float | None = None
    extra: dict = field(default_factory=dict)


def merge_hybrid(
    vector_hits: Iterable[Candidate],
    text_hits: Iterable[Candidate],
    vector_weight: float,
    text_weight: float,
) -> list[Candidate]:
    """Merge by chunk id: ``vw·v + tw·t`` with weights normalised to sum 1; a missing side is 0."""
    vw, tw = normalized_weights(vector_weight, text_weight)
    by_id: dict[int, Candidate] = {}
    for c in vector_hits:
        by_id[c.id] = replace(c, text_score=None)
    for c in text_hits:
        if c.id in by_id:
            by_id[c.id].text_score = c.text_score
        else:
            by_id[c.id] = replace(c, vector_score=None)
    out = []
    for c in by_id.values():
        c.score = vw * (c.vector_score or 0.0) + tw * (c.text_score or 0.0)
        out.append(c)
    return out


def coverage(terms: Sequence[str], text: str) -> float:
    """Fraction of distinct query terms found among the text's word tokens (prefix match
    for terms of 4+ characters, so "paint" covers "painting")."""
    if not terms:
        return 0.0
    toks = set(word_tokens(text))
    low = text.lower()
    return sum(term_in_tokens(term, toks, low) for term in terms) / len(terms)


def path_match(terms: Sequence[str], path: str) -> float:
    if not terms:
        return 0.0
    ptoks = set(word_tokens(path.replace("/", " ").replace(".", " ")))
    return sum(1 for t in terms if t in ptoks) / len(terms)


KEYWORD_COVERAGE_BOOST = 0.15
KEYWORD_PATH_BOOST = 0.05

#: BM25 depends on corpus size: in a workspace of two files every term is "common" and
#: FTS5 clamps its IDF to ~0, so a chunk holding every query term still scores ~0. The
#: coverage floor keeps such a hit at ``0.5 · coverage`` before the boosts.
KEYWORD_COVERAGE_FLOOR = 0.5

#: a query naming a day ("on October 13, 2023") and the daily log of that day
KEYWORD_DATE_BOOST = 0.1


def keyword_only_score(text_score: float, cov: float, path_hit: float, date_hit: bool = False) -> float:
    """Keyword-only score: BM25 score (floored by ``0.5 · coverage``) plus small boosts for
    query-term coverage, path matches and a named day matching the daily log's date,
    squashed below 1 so strong hits stay ordered."""
    base = max(text_score, KEYWORD_COVERAGE_FLOOR * cov)
    boosted = base + KEYWORD_COVERAGE_BOOST * cov + KEYWORD_PATH_BOOST * path_hit
    if date_hit:
        boosted += KEYWORD_DATE_BOOST
    # squash into (0, 1): identity below 0.8, compressed above, never reaches 1
    if boosted <= 0.8:
        return max(0.0, boosted)
    return 0.8 + 0.2 * (1.0 - math.exp(-(boosted - 0.8) / 0.2))


#: **ours:** in hybrid mode the text side is the keyword-only score (with its boosts) and
#: the vector side adds ``HYBRID_SEMANTIC_SCALE · vectorWeight · cosine`` to it; a chunk only
#: the vector side found scores ``vectorWeight · cosine`` as in the plain weighted merge.
HYBRID_SEMANTIC_SCALE = 0.5


def squash_score(x: float) -> float:
    """Identity up to 0.8, compressed above, never reaching 1 (keeps strong hits ordered)."""
    if x <= 0.8:
        return max(0.0, x)
    return 0.8 + 0.2 * (1.0 - math.exp(-(x - 0.8) / 0.2))


def hybrid_keyword_score(keyword_score: float | None, vector_score: float | None, vector_weight: float) -> float:
    """Hybrid score of one chunk: ``max(kw + s·vw·v, vw·v)`` (``s`` = HYBRID_SEMANTIC_SCALE,
    ``vw`` the normalised vector weight, ``kw`` the keyword-only score, a missing side 0,
    negative cosines 0), squashed below 1. Keyword evidence is never weakened by the vector
    side, and semantic evidence breaks ties between keyword hits."""
    v = max(0.0, vector_score or 0.0)
    kw = max(0.0, keyword_score or 0.0)
    return squash_score(max(kw + HYBRID_SEMANTIC_SCALE * vector_weight * v, vector_weight * v))


# --------------------------------------------------------------------------- dates and temporal decay

def date_path_match(dates: Sequence[tuple[int | None, int, int]], path: str) -> bool:
    """True when ``path`` is the daily log (``memory/…/YYYY-MM-DD.md``) of a day in ``dates``."""
    if not dates:
        return False
    d = date_from_memory_path(path)
    if d is None:
        return False
    return any(mo == d.month and day == d.day and (y is None or y == d.year) for y, mo, day in dates)


_DATED_RE = re.compile(r"(?:^|/)(\d{4})-(\d{2})-(\d{2})\.md$", re.IGNORECASE)


def _name_date(path: str) -> date | None:
    m = _DATED_RE.search(path)
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def date_from_memory_path(path: str) -> date | None:
    """The date of ``memory/…/YYYY-MM-DD.md``; None for undated or invalid dates."""
    if not path.startswith("memory/"):
        return None
    return _name_date(path)


def daily_note_date(path: str) -> date | None:
    """The date of a daily note anywhere: a ``YYYY-MM-DD.md`` below a ``memory/`` folder
    (the workspace's own, or one inside an extra path, as upstream's decay reads it)."""
    low = path.replace("\\", "/")
    if not (low.startswith("memory/") or "/memory/" in low):
        return None
    return _name_date(low)


def is_evergreen(path: str, source: str) -> bool:
    return source == "memory" and (path in ROOT_MEMORY_FILES or path.startswith("memory/"))


def age_days(path: str, source: str, mtime: float | None, now: datetime) -> float | None:
    """Age used for decay; None means the item never decays (upstream's rules, its
    ``temporal-decay.ts``):

    - a daily note ``…memory/[…/]YYYY-MM-DD.md`` → days since that date (UTC midnight);
    - ``MEMORY.md``, ``USER.md`` and undated ``memory/*.md`` (evergreen) never decay;
    - session transcripts never decay (upstream keys them ``sessions/<file>``, a path its
      decay cannot stat, so they keep their score);
    - any other file (an extra path's notes) by its modification time.
    """
    if source != "memory":
        return None
    d = daily_note_date(path)
    if d is not None:
        start = datetime(d.year, d.month, d.day, tzinfo=timezone.utc)
        return max(0.0, (now - start).total_seconds() / 86400.0)
    if is_evergreen(path, source) or mtime is None:
        return None
    return max(0.0, (now.timestamp() - mtime) / 86400.0)


def decay_factor(age: float | None, half_life_days: float) -> float:
    """``exp(-ln2 / halfLife · ageDays)``; 1 when age is None."""
    if age is None or half_life_days <= 0:
        return 1.0
    return math.exp(-math.log(2) / half_life_days * age)


def apply_decay(cands: list[Candidate], half_life_days: float, now: datetime) -> list[Candidate]:
    for c in cands:
        c.score *= decay_factor(age_days(c.path, c.source, c.mtime, now), half_life_days)
    return cands
