"""Ranking levers measured by ``bench.locomo_fusion`` and not taken (issue 16, docs/memory.md).

- **Query-term coverage re-rank** (:func:`coverage_rerank`): a greedy set cover over the
  query's terms among the first ``n`` candidates — each next result is the one whose score
  plus ``w ·`` (IDF share of the query terms it holds that no earlier pick held) is largest.
  Multi-hop questions need evidence from several sessions, each with other query terms.
- **Keyword score from the best line** (:func:`best_line_text_hits`): a chunk's BM25 score
  is averaged with the BM25 score of its best-matching line, computed over a line table of
  the same index (line document frequencies and lengths), so a chunk whose terms are
  scattered over many lines ranks below one line holding them together.

Both are benchmark patches (restored on exit by ``locomo_fusion._variant``); the pure parts
take plain values.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Callable, Mapping, Sequence

#: coverage re-rank: candidates re-ordered and the bonus weight of the uncovered terms' IDF share
COVER_N, COVER_WEIGHTS = 20, (0.1, 0.2, 0.3)
#: BM25 parameters of the line table
K1, B = 1.2, 0.75


def coverage_rerank(items: Sequence, scores: Sequence[float], covers: Sequence[set[str]],
                    weights: Mapping[str, float], w: float, n: int) -> list[int]:
    """Indexes of ``items`` in the greedy order over the first ``n``: each step takes the item
    maximising ``score + w · Σ weight(new terms) / Σ weight(all terms)`` (new: in its
    ``covers`` set and in no earlier pick's); ties to the earlier item; the rest follow as given."""
    total = sum(weights.values()) or 1.0
    pool, seen, order = list(range(min(n, len(items)))), set(), []
    while pool:
        best = max(pool, key=lambda i: (scores[i] + w * sum(weights.get(t, 1.0) for t in covers[i] - seen) / total, -i))
        order.append(best)
        pool.remove(best)
        seen |= covers[best]
    return order + list(range(len(order), len(items)))


def covered_terms(text: str, terms: Sequence[str], term_stems: Mapping[str, set[str]], text_stems: set[str]) -> set[str]:
    """The query terms a text holds: as ``query.term_in_tokens`` finds them, or all of a
    term's porter stems among the text's."""
    from openclaw_tui.memory.builtin.query import term_in_tokens, word_tokens  # noqa: PLC0415

    toks, low = set(word_tokens(text)), text.lower()
    return {t for t in terms if term_in_tokens(t, toks, low) or (term_stems.get(t) and term_stems[t] <= text_stems)}


def line_bm25(query_stems: set[str], line: Sequence[str], df: Mapping[str, int], lines: int, avg_len: float) -> float:
    """BM25 of one line (its stems) against the query stems, over a table of ``lines`` lines."""
    tf, dl, score = Counter(line), max(1, len(line)), 0.0
    for q in query_stems:
        if tf[q]:
            idf = math.log(1 + (lines - df.get(q, 0) + 0.5) / (df.get(q, 0) + 0.5))
            score += idf * tf[q] * (K1 + 1) / (tf[q] + K1 * (1 - B + B * dl / avg_len))
    return score


class LineTable:
    """Stems of every line of an index's chunks (each file line once), with document
    frequencies and the mean length: the line-level corpus of :func:`line_bm25`."""

    def __init__(self, store) -> None:
        rows = store.conn.execute("select id, path, start_line, text from chunks").fetchall()
        by_line: dict[tuple[str, int], list[str]] = {}
        self.chunk_lines: dict[int, list[tuple[str, int]]] = {}
        for cid, path, start, text in rows:
            keys = []
            for i, line in enumerate(text.split("\n")):
                by_line.setdefault((path, start + i), store.index_tokens(line))
                keys.append((path, start + i))
            self.chunk_lines[cid] = keys
        self.stems = by_line
        self.df: Counter = Counter()
        for stems in by_line.values():
            self.df.update(set(stems))
        self.lines = max(1, len(by_line))
        self.avg_len = max(1.0, sum(len(s) for s in by_line.values()) / self.lines)

    def best_line(self, cid: int, query_stems: set[str]) -> float:
        return max((line_bm25(query_stems, self.stems[k], self.df, self.lines, self.avg_len)
                    for k in self.chunk_lines.get(cid, [])), default=0.0)


def best_line_text_hits(text_hits: Callable) -> Callable:
    """``search.text_hits`` whose scores are ``(chunk score + L / (1 + L)) / 2``, ``L`` the
    chunk's best line's BM25 (:class:`LineTable`, built once per store)."""
    tables: dict[int, LineTable] = {}

    def hits(store, q, terms, mode, limit):
        first = text_hits(store, q, terms, mode, limit)
        table = tables.setdefault(id(store), LineTable(store))
        stems = {s for t in terms for s in store.index_tokens(t)}
        out = {}
        for cid, score in first.items():
            best = table.best_line(cid, stems)
            out[cid] = 0.5 * (score + best / (1.0 + best))
        return out
    return hits


def coverage_patches(run: Callable, keep_each_best: Callable, w: float, n: int = COVER_N) -> tuple[Callable, Callable]:
    """``Searcher.run`` and ``ranking.keep_each_best`` replacements: the run notes the query's
    terms, IDF weights and the store; ``keep_each_best`` first re-orders the candidates by
    :func:`coverage_rerank` (chunk-level coverage, stems included)."""
    from openclaw_tui.memory.builtin import query as qry, ranking  # noqa: PLC0415
    from openclaw_tui.memory.builtin.snippets import idf_weights  # noqa: PLC0415

    query: dict = {}

    def patched_run(self, store, req, started):
        terms = qry.query_terms(req.query)
        query.update(store=store, terms=terms, weights=idf_weights(*store.doc_frequencies(terms)),
                     stems={t: set(store.index_tokens(t)) for t in terms})
        return run(self, store, req, started)

    def patched_keep(cands, limit):
        items = list(cands)
        if query.get("terms"):
            store = query["store"]
            covers = [covered_terms(c.text, query["terms"], query["stems"], set(store.index_tokens(c.text))) for c in items[:n]]
            covers += [set()] * (len(items) - len(covers))
            items = [items[i] for i in coverage_rerank(items, [c.score for c in items], covers, query["weights"], w, n)]
        return keep_each_best(items, limit)
    return patched_run, patched_keep


#: the vector nominee margins measured (``ranking.VECTOR_NOMINEE_MARGIN``; 0 nominates it always)
NOMINEE_MARGINS = (0.0, 0.02, 0.05, 0.1)


def margin_keep_each_best(margin: float) -> Callable:
    """``ranking.keep_each_best`` with the vector nominee's margin fixed at ``margin``."""


    keep = ranking.keep_each_best
    return lambda cands, limit: keep(cands, limit, vector_margin=margin)
