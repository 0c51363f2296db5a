"""The best ``k`` chunks of an OR query by FTS5's ``bm25()``, without scoring every match.

FTS5 scores every row matching the query before it sorts: at 100k chunks a query holding
one frequent term (in 10–40 % of the chunks) spends most of its time there. BM25 is a sum
over the query's phrases, each part ``idf · f·(k1+1) / (f + k1·(1 − b + b·D/avgdl))``, and
a part never exceeds ``idf · (k1+1)``. So (max-score pruning):

1. the ``common`` terms (the most frequent) are left out and FTS5 ranks the chunks holding
   the others (``rare``): few rows; it keeps the ``depth`` best;
2. those chunks get their exact full score here (their text tokenized by the table's own
   tokenizer: each phrase's count ``f`` and the row's token count ``D``), with FTS5's own
   arithmetic in FTS5's order, so the values are the same doubles ``bm25()`` returns;
3. any chunk not among them scores at most ``(the depth-th rare score) + Σ idf·(k1+1)``
   over the common terms; when the ``k``-th full score is above that bound, the ``k``
   best are those of the full query, ties in row order as SQLite's sorter keeps them.

Otherwise (bound not met, a phrase of several tokens, too few chunks) the caller runs the
full query. Pure functions: the SQL lives in ``fts_index.FtsIndex.top_k``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

#: FTS5's bm25() constants (fts5_aux.c)
K1 = 1.2
B = 0.75


@dataclass(frozen=True)
class Totals:
    """What ``bm25()`` reads of the whole table: rows and tokens (``%_data`` averages record)."""

    rows: int
    tokens: int

    @property
    def avgdl(self) -> float:
        return float(self.tokens) / float(self.rows)


def idf(rows: int, hits: int) -> float:
    """FTS5's IDF of a phrase found in ``hits`` of ``rows`` rows (clamped to 1e-6)."""
    value = math.log((rows - hits + 0.5) / (hits + 0.5))
    return value if value > 0.0 else 1e-6


def part(idf_value: float, freq: float, size: float, avgdl: float) -> float:
    """One phrase's share of a row's score, as fts5Bm25Function computes it."""
    return idf_value * ((freq * (K1 + 1.0)) / (freq + K1 * (1 - B + B * size / avgdl)))


def rank(idfs: Sequence[float], freqs: Sequence[int], size: int, avgdl: float) -> float:
    """A row's ``bm25()`` value (negative: lower is better), the phrases summed in query order."""
    score = 0.0
    d = float(size)
    for w, f in zip(idfs, freqs):
        score += part(w, float(f), d, avgdl)
    return -1.0 * score


def part_bound(idf_value: float) -> float:
    """The most one phrase can add to a row's score (its count growing without limit)."""
    return idf_value * (K1 + 1.0)


def split_common(dfs: Sequence[int], idfs: Sequence[float], rows: int) -> list[bool]:
    """Which phrases the first pass leaves out: the most frequent ones (each in at least 5 %
    of the rows), while the most they can add stays below what the rarest phrase gives one
    row (so the ``k``-th best score likely exceeds it); none for one phrase."""
    order = sorted(range(len(dfs)), key=lambda i: -dfs[i])
    common = [False] * len(dfs)
    room = COMMON_ROOM * max(idfs)
    added = 0.0
    for i in order[:-1]:
        added += part_bound(idfs[i])
        if dfs[i] * 20 < rows or added > room:
            break
        common[i] = True
    return common


#: how far the common phrases' bound may reach, in units of the rarest phrase's IDF
COMMON_ROOM = 1.3


def best(scored: dict[int, float], k: int) -> list[tuple[int, float]]:
    """The ``k`` lowest ranks, ties by rowid (SQLite's sorter keeps the earlier row)."""
    return sorted(scored.items(), key=lambda item: (item[1], item[0]))[:k]


def proven(top: list[tuple[int, float]], k: int, bound: float) -> bool:
    """Whether no row outside ``top`` can rank among the ``k`` best: ``k`` rows, the last one
    scoring more than ``bound`` (a relative margin absorbs rounding in the bound)."""
    return len(top) >= k and -top[k - 1][1] > bound * (1.0 + 1e-9) + 1e-12
