"""A ``Source:`` line for an answer that used memory but did not cite it (local profile).

Small models answer from the snippets of a ``memory_search`` and mostly drop the citation
the prompt asks for. When citations are on (the results carry a ``citation``), the engine
adds the source of the result the answer draws on most: the one sharing the most words
with it. Pure functions.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from openclaw_tui.memory.stopwords import ALL as STOPWORDS

WORD_RE = re.compile(r"[a-z0-9][a-z0-9'-]{2,}")
# the answer cites already: a "Source:" anywhere (also inline, "(Source: …)", "**Sources:**")
# or a citation-shaped reference, "memory/2023-06-09.md#L1-L8"
CITED_RE = re.compile(r"(?i)\bsources?\**\s*:|[\w./-]+\.md#L\d+")
MIN_SHARED = 2


def _words(text: str) -> set[str]:
    """The content words of ``text``: stopwords ("that", "from", "with") say nothing about
    where an answer came from, and two of them made an unrelated snippet its source."""
    return set(WORD_RE.findall(text.lower())) - STOPWORDS


def best_citation(answer: str, hits: Iterable[dict[str, Any]]) -> str | None:
    """The citation of the hit whose snippet shares the most words with ``answer`` (None if
    none shares at least ``MIN_SHARED`` or no hit has a citation)."""
    said = _words(answer)
    best: tuple[int, str] | None = None
    for hit in hits:
        cite = hit.get("citation") if isinstance(hit, dict) else None
        if not cite:
            continue
        shared = len(said & _words(str(hit.get("snippet", ""))))
        if shared >= MIN_SHARED and (best is None or shared > best[0]):
            best = (shared, str(cite))
    return best[1] if best else None


def source_suffix(answer: str, hits: Iterable[dict[str, Any]]) -> str:
    """``"\\n\\nSource: path#La-Lb"`` to append to ``answer``, or "" when it cites already
    or nothing it says comes from the hits."""
    if not answer.strip() or CITED_RE.search(answer):
        return ""
    cite = best_citation(answer, hits)
    return f"\n\nSource: {cite}" if cite else ""
