"""The part of a result's text that its snippet shows (pure functions, no I/O).

A result is one chunk (~400 tokens, ~1,600 characters) or several merged neighbours, but its
snippet holds at most 700 characters (DESIGN §4). The head of the chunk is often not the
part that matched: **ours**, the snippet is the run of whole lines, within the limit, whose
lines hold the most query-term weight (each line scores the summed weight of the distinct
query terms it contains, rare terms weighing more, a term also found by the keyword index's
porter stems), widened with the lines around it while they fit. Lines left out before or after are marked with ``…``. A text that fits, or where
no line holds a query term, is shown from its head exactly as before
(``ranking.make_snippet``).
"""

from __future__ import annotations

import math
from typing import Callable, Mapping, Sequence

from openclaw_tui.memory.builtin.query import term_in_tokens, word_tokens
from openclaw_tui.memory.builtin.ranking import SNIPPET_MAX_CHARS, make_snippet

ELLIPSIS = "…"


def idf_weights(total: int, doc_freqs: Mapping[str, int | None]) -> dict[str, float]:
    """BM25's IDF, ``ln(1 + (N − df + 0.5) / (df + 0.5))``, per term (> 0; an unknown
    document frequency counts as 0)."""
    return {t: math.log(1.0 + (total - (df or 0) + 0.5) / ((df or 0) + 0.5)) for t, df in doc_freqs.items()}


def line_scores(lines: Sequence[str], terms: Sequence[str], weights: Mapping[str, float] | None = None,
                stems: Callable[[str], list[str]] | None = None) -> list[float]:
    """Per line, the summed weight (default 1) of the distinct query terms it contains (the
    coverage rules of ``scoring.coverage``: whole token, prefix for 4+ letters, CJK
    substring; with ``stems``, the keyword index's tokenizer, also a term whose stems all
    occur among the line's: "camping" in "we camped")."""
    term_stems = {t: set(stems(t)) for t in terms} if stems is not None else {}
    out = []
    for line in lines:
        toks, low = set(word_tokens(line)), line.lower()
        line_stems = set(stems(line)) if stems is not None else set()
        out.append(sum((weights or {}).get(t, 1.0) for t in terms
                       if term_in_tokens(t, toks, low) or (term_stems.get(t) and term_stems[t] <= line_stems)))
    return out


def best_window(lengths: Sequence[int], scores: Sequence[float], limit: int) -> tuple[int, int]:
    """``(first, last)`` line indexes of the contiguous run whose joined length (lines plus
    one newline between each) is at most ``limit`` and whose score sum is largest; ties go
    to the earlier run. A line longer than ``limit`` on its own is a run of one line."""
    best, best_sum = (0, 0), -math.inf
    for i in range(len(lengths)):
        last, size, acc = i, lengths[i], scores[i]
        while last + 1 < len(lengths) and size + 1 + lengths[last + 1] <= limit:
            last += 1
            size += 1 + lengths[last]
            acc += scores[last]
        if acc > best_sum + 1e-12:
            best, best_sum = (i, last), acc
    return best


def trim(scores: Sequence[float], first: int, last: int) -> tuple[int, int]:
    """The run narrowed to its first and last lines that score above 0."""
    while first < last and scores[first] <= 0:
        first += 1
    while last > first and scores[last] <= 0:
        last -= 1
    return first, last


#: **ours:** a line also holds a query term when the keyword index's tokenizer (porter stems)
#: finds all of the term's stems in it, as BM25 did when it ranked the chunk
STEMMED_LINES = True

def widen(lengths: Sequence[int], first: int, last: int, limit: int) -> tuple[int, int]:
    """The run grown by whole lines, one after it then one before it in turn, while the
    joined length fits (so the matching lines sit near the middle)."""
    size = sum(lengths[first : last + 1]) + (last - first)
    grew = True
    while grew:
        grew = False
        if last + 1 < len(lengths) and size + 1 + lengths[last + 1] <= limit:
            last += 1
            size += 1 + lengths[last]
            grew = True
        if first > 0 and size + 1 + lengths[first - 1] <= limit:
            first -= 1
            size += 1 + lengths[first]
            grew = True
    return first, last


def focused_snippet(text: str, terms: Sequence[str], weights: Mapping[str, float] | None = None,
                    limit: int = SNIPPET_MAX_CHARS, stems: Callable[[str], list[str]] | None = None) -> str:
    """At most ``limit`` characters of ``text``: the best-matching run of whole lines
    (:func:`best_window`, widened), ``…`` marking lines left out before or after; the head
    of the text (``make_snippet``) when it fits or no line holds a query term."""
    body = text.strip("\n")
    lines = body.split("\n")
    if len(body) <= limit or not terms or len(lines) < 2:
        return make_snippet(text, limit)
    scores = line_scores(lines, terms, weights, stems)
    if max(scores) <= 0:
        return make_snippet(text, limit)
    room = limit - 2 * (len(ELLIPSIS) + 1)  # "…\n" before and "\n…" after, when needed
    lengths = [len(x) for x in lines]
    first, last = widen(lengths, *trim(scores, *best_window(lengths, scores, room)), room)
    shown = "\n".join(lines[first : last + 1])
    if len(shown) > room:
        shown = shown[: room - len(ELLIPSIS)].rstrip() + ELLIPSIS
    before = f"{ELLIPSIS}\n" if first > 0 else ""
    after = f"\n{ELLIPSIS}" if last < len(lines) - 1 else ""
    return before + shown + after
