"""The order of scored candidates (pure functions, no I/O): MMR diversity, the minScore
floor with its keyword-only relaxation, each retriever's best kept, adjacent chunks merged,
the deterministic sort, and the snippet cut.

Table-tested in ``tests/memory/test_pipeline.py``.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Iterable, Sequence

from openclaw_tui.memory.builtin.query import CJK_RE, CJK_RUN_RE, cjk_terms, word_tokens
from openclaw_tui.memory.builtin.scoring import Candidate

SNIPPET_MAX_CHARS = 700


def similarity_tokens(text: str) -> set[str]:
    """Token set MMR compares: lowercase word tokens, with every CJK run (kanji, kana, hangul)
    as its single characters plus its bigrams, so two Chinese snippets sharing words overlap
    (``今天讨论`` → 今 天 讨 论 今天 天讨 讨论)."""
    out: set[str] = set()
    for tok in word_tokens(text):
        if not CJK_RE.search(tok):
            out.add(tok)
            continue
        for part in CJK_RUN_RE.split(tok):
            if not part:
                continue
            if CJK_RE.match(part):
                out.update(part)
                out.update(cjk_terms(part))
            else:
                out.add(part)
    return out


def jaccard(a: set[str], b: set[str]) -> float:
    if not a and not b:
        return 0.0
    inter = len(a & b)
    union = len(a | b)
    return inter / union if union else 0.0


def mmr_order(cands: Sequence[Candidate], lam: float, limit: int | None = None) -> list[Candidate]:
    """Greedy MMR: pick ``argmax λ·rel − (1−λ)·max Jaccard(selected)`` repeatedly.

    ``rel`` is the score min-max normalised over the candidates; similarity is Jaccard over
    ``similarity_tokens`` sets. Ties keep the incoming order.
    """
    items = list(cands)
    if len(items) <= 1:
        return items
    scores = [c.score for c in items]
    lo, hi = min(scores), max(scores)
    rel = [(s - lo) / (hi - lo) if hi > lo else 1.0 for s in scores]
    toks = [similarity_tokens(c.text) for c in items]
    remaining = list(range(len(items)))
    chosen: list[int] = []
    limit = len(items) if limit is None else min(limit, len(items))
    while remaining and len(chosen) < limit:
        best_i, best_v = remaining[0], -math.inf
        for i in remaining:
            sim = max((jaccard(toks[i], toks[j]) for j in chosen), default=0.0)
            v = lam * rel[i] - (1 - lam) * sim
            if v > best_v + 1e-12:
                best_i, best_v = i, v
        chosen.append(best_i)
        remaining.remove(best_i)
    return [items[i] for i in chosen]


def apply_min_score(
    cands: Sequence[Candidate], min_score: float, text_weight: float, max_results: int
) -> tuple[list[Candidate], bool]:
    """Drop candidates below ``min_score``; keep the top ``max_results``.

    When that leaves nothing but keyword hits exist, return the keyword hits with the floor
    lowered to ``min(min_score, text_weight)`` (text weight normalised). Returns
    ``(results, relaxed)``.
    """
    kept = [c for c in cands if c.score >= min_score]
    if kept:
        return kept[:max_results], False
    keyword = [c for c in cands if (c.text_score or 0.0) > 0.0]
    if not keyword:
        return [], False
    floor = min(min_score, text_weight)
    relaxed = [c for c in keyword if c.score >= floor or (c.text_score or 0.0) >= floor]
    return relaxed[:max_results], bool(relaxed)


#: **ours, measured and left at 0:** the vector side's nominee of :func:`keep_each_best` could
#: keep its reserved place only when its cosine beats the best cosine among the results
#: already in by this much (a hair of cosine is no reason to give a slot to a chunk the fusion
#: ranked far lower). Margins 0.02 / 0.05 / 0.1 on LoCoMo at k 3–6 and on the end-to-end QA
#: sample were a wash under leave-one-out, so 0 (always nominated) stays (docs/memory.md,
#: "The vector nominee's margin").
VECTOR_NOMINEE_MARGIN = 0.0


def keep_each_best(cands: Sequence[Candidate], limit: int, vector_margin: float | None = None) -> list[Candidate]:
    """**Ours:** ``cands`` (best first) reordered so that the best vector hit and the best
    keyword hit are among the first ``limit``; the other places go to the best of the rest,
    and the first ``limit`` keep their incoming order. In hybrid mode a chunk that only the
    vector side finds scores ``vectorWeight · cosine`` and can lose to every weak keyword
    hit even when it is the closest chunk by meaning ("martial arts" → a line about
    kickboxing); likewise the strongest BM25 hit can lose to semantic near-misses. Each
    retriever's single best hit now keeps a place: LoCoMo hybrid evidence-all-found@6
    321 → 324 of 383, chosen on/off by leave-one-out (docs/memory.md). The vector hit only
    when its cosine beats the first ``limit``'s best by ``vector_margin`` (default
    :data:`VECTOR_NOMINEE_MARGIN`). Ties go to the earlier candidate. Inputs are not
    modified."""
    items = list(cands)
    if len(items) <= limit:
        return items
    margin = VECTOR_NOMINEE_MARGIN if vector_margin is None else vector_margin
    best = [top for top in (_vector_nominee(items, limit, margin), _side_best(items, "text_score")) if top is not None]
    if len(best) == 2 and best[0] is best[1]:
        best.pop()
    others = [c for c in items if all(c is not b for b in best)]
    head = {id(c) for c in others[: max(0, limit - len(best))]} | {id(b) for b in best}
    return [c for c in items if id(c) in head] + [c for c in items if id(c) not in head]


def _side_best(items: Sequence[Candidate], side: str) -> Candidate | None:
    scored = [c for c in items if getattr(c, side) is not None]
    return max(scored, key=lambda c: getattr(c, side)) if scored else None


def _vector_nominee(items: Sequence[Candidate], limit: int, margin: float) -> Candidate | None:
    """The best vector hit, when it is already among the first ``limit`` or its cosine
    beats theirs by ``margin``."""
    top = _side_best(items, "vector_score")
    if top is None or margin <= 0.0 or any(top is c for c in items[:limit]):
        return top
    shown = [c.vector_score for c in items[:limit] if c.vector_score is not None]
    assert top.vector_score is not None  # _side_best only picks a candidate that has one
    return top if not shown or top.vector_score >= max(shown) + margin else None


#: **ours, measured off:** :func:`merge_adjacent` widens a result's line range, but its snippet
#: still shows at most 700 characters, so on LoCoMo the merged-in lines were mostly not
#: shown: evidence shown in the snippets 267/383 without merging vs 247/383 with it
#: (docs/memory.md); results are the best ``maxResults`` chunks, each with its own snippet.
MERGE_ADJACENT = False


def merge_adjacent(cands: Sequence[Candidate], limit: int) -> list[Candidate]:
    """**Ours:** the first ``limit`` results of ``cands`` (best first), where a chunk that
    touches or overlaps a result already taken from the same file widens that result (its
    lines joined in, the better score kept) instead of taking a slot of its own. A question
    whose evidence spans neighbouring chunks then leaves room for evidence elsewhere:
    hybrid LoCoMo evidence-all-found@6 316 → 321 of 383, better on each of the three
    conversations (docs/memory.md). Inputs are not modified."""
    out: list[Candidate] = []
    for c in cands:
        host = next((o for o in out if o.path == c.path and c.start_line <= o.end_line + 1 and c.end_line >= o.start_line - 1), None)
        if host is not None:
            host.text = _joined_lines(host, c)
            host.start_line, host.end_line = min(host.start_line, c.start_line), max(host.end_line, c.end_line)
            continue
        if len(out) == limit:
            break
        out.append(replace(c))
    return out


def _joined_lines(a: Candidate, b: Candidate) -> str:
    """The text of two overlapping or adjacent chunks of one file, each line once, in order
    (``a`` first, then ``b``, when a chunk's text does not map one line per line number)."""
    lines: dict[int, str] = {}
    for c in sorted((a, b), key=lambda x: x.start_line):
        parts = c.text.split("\n")
        if len(parts) != c.end_line - c.start_line + 1:
            return f"{a.text}\n{b.text}"
        for i, line in enumerate(parts):
            lines.setdefault(c.start_line + i, line)
    return "\n".join(lines[n] for n in sorted(lines))


def sort_candidates(cands: Iterable[Candidate]) -> list[Candidate]:
    """Score descending; ties by path then start line so output is deterministic."""
    return sorted(cands, key=lambda c: (-c.score, c.path, c.start_line, c.id))


def make_snippet(text: str, limit: int = SNIPPET_MAX_CHARS) -> str:
    text = text.strip("\n")
    if len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"
