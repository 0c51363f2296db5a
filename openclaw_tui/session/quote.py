"""Quoting a memory snippet: the lines of a hit that best match a query, with their
``Source: path#Lx-Ly`` line.

The offline agent answers with such a quote, and so does the tool loop when a local model
gave no answer of its own after a search (it printed its call again although no tools were
offered): the user then sees the best note instead of "could not answer".

    quote_lines(snippet, "memory/2026-01-02.md", 10, "budget euros", lead="From memory:")
"""

from __future__ import annotations

import re
from typing import Any

from openclaw_tui.memory.citations import cite, line_numbers, parse_ranges
from openclaw_tui.session.cite_lines import runs as cite_runs
from openclaw_tui.workspace.supersede import hidden_lines


def best_lines(text: str, query: str, start_line: int | str | None, limit: int = 2) -> list[tuple[str, Any]]:
    """Up to ``limit`` lines sharing the most words with the query (file order), with line numbers;
    a superseded note (``workspace/supersede.py``) is never one: what a correction replaced is
    not an answer."""
    footer = re.search(r"\n\nSource: \S+#(L[\dL,-]+)\s*$", text)
    text = re.sub(r"\n\nSource: \S+\s*$", "", text)
    terms = {w for w in re.findall(r"[\w'-]+", query.lower()) if len(w) > 1}
    lines = text.splitlines()
    try:
        first = int(start_line) if start_line is not None else 1
    except (TypeError, ValueError):
        first = 1
    # a snippet of several runs ("…" between them) is numbered by its citation's ranges
    ranges = parse_ranges(footer.group(1)) if footer else None
    numbers = (line_numbers(lines, ranges) if ranges else None) or [first + i for i in range(len(lines))]
    hidden = hidden_lines(lines)
    scored = []
    for i, line in enumerate(lines):
        if not line.strip() or numbers[i] is None or i in hidden:
            continue
        words = set(re.findall(r"[\w'-]+", line.lower()))
        score = sum(1 for t in terms if t in words or (len(t) >= 5 and any(w.startswith(t[:5]) for w in words)))
        scored.append((score, -i, i))
    if not scored:
        return [("(empty)", first)]
    scored.sort(reverse=True)
    top = scored[0][0]
    chosen = [scored[0][2]] + [i for sc, _neg, i in scored[1:limit] if sc > 0 and sc >= top - 1]
    return [(lines[i].strip(), numbers[i]) for i in sorted(chosen)]


def quote_lines(text: str, path: str, start_line: int | str | None, query: str, *, lead: str) -> str:
    """``lead``, the best lines of ``text`` quoted with ``> ``, then their Source: line."""
    picked = best_lines(text, query, start_line)
    quoted = "\n".join(f"> {line}" for line, _n in picked)
    nums = sorted({int(n) for _line, n in picked if isinstance(n, int)})
    if not nums:
        return f"{lead}\n{quoted}\n\nSource: {path}"
    # two lines apart cite both and nothing between ("#L3,L9", not "#L3-L9": the lines between are other notes)
    return f"{lead}\n{quoted}\n\nSource: {cite(path, cite_runs(nums))}"


def quote_best_hit(hits: list[dict[str, Any]], query: str, *, lead: str) -> str | None:
    """The quote of the first hit with a snippet, or None when there is none."""
    for hit in hits:
        snippet = str(hit.get("snippet") or "").strip()
        if snippet and hit.get("path"):
            return quote_lines(snippet, hit["path"], hit.get("startLine"), query, lead=lead)
    return None
