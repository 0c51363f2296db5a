"""A snippet as several windows of one chunk, each with its own line range (pure functions).

A result is a chunk of ~1,600 characters; its snippet holds at most 700 (DESIGN §4). One
contiguous run of lines (``snippets.focused_snippet``, the snippet before) loses the evidence
of a question whose lines lie apart in the chunk, or just after the line that matched.
**Ours:** the snippet is a set of whole lines of the chunk, shown as runs of consecutive lines
joined by a line holding only the gap marker ``…`` (also first or last when lines are left out
before the first run or after the last). Lines go in best first while the rendered snippet
fits; a line's worth (:func:`line_worth`, weights :class:`LineWeights`) adds up

- its query terms: the IDF weight of the query terms it holds, as a share of the chunk's best
  line (``snippets.line_scores``' matching rules, porter stems included);
- its vector evidence: the query's cosine with the embedded sub-window holding the line, less
  the chunk's best sub-window cosine (hybrid search only);
- the line before it asking ("?"): in a conversation the answer follows the question;
- its length (up to 400 characters): the lines that hold answers are the longer ones;
- the previous line's query terms;
- its leading bold label (``- **Melanie**: …``, a transcript's speaker or a note's field)
  holding a query term: a question about someone is answered by what they said.

Blank lines and headings never go in on their own worth. The heading that dates the best line
(:func:`heading_above`: of the headings it sits under, the shortest holding a date — a daily
log's ``# 2023-07-12`` — else the nearest) goes in after the ``HEADER_AFTER`` best lines, when
it fits: a line that says "two days ago" or "last weekend" is answerable in time only with its
date, and a small model copies the relative words otherwise (LoCoMo QA, temporal questions).
Then the runs are widened by whole lines, after each run first, then before.

Every run's 1-based file lines make the citation: ``path#L3-L5,L20-L22`` (one ``L`` range per
run, comma-joined, file order; a single run reads exactly as before, ``path#L3-L5``), so every
range cited is a range shown. A chunk that fits is shown whole (its range is the chunk's);
with no query term in any line and no vectors the snippet starts at the chunk's head.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from openclaw_tui.memory.citations import GAP
from openclaw_tui.memory.builtin.query import term_in_tokens, word_tokens
from openclaw_tui.memory.builtin.ranking import SNIPPET_MAX_CHARS, make_snippet

#: the heading that dates the best line goes in after this many lines (0: never), when it fits
HEADER_AFTER = 2
#: a line's length counts up to this many characters
LENGTH_CAP = 400


@dataclass(frozen=True)
class LineWeights:
    """How much each kind of evidence adds to a line's worth (query terms weigh 1).
    Chosen on the LoCoMo dev conversations (``python -m bench.locomo_snippets``)."""

    cosine: float = 1.5
    after_question: float = 0.6
    length: float = 0.5
    previous_terms: float = 0.2
    label: float = 1.0


@dataclass(frozen=True)
class Shown:
    """What a snippet shows: its text and the 1-based, inclusive file line ranges of its runs."""

    text: str
    ranges: tuple[tuple[int, int], ...]


def line_terms(lines: Sequence[str], terms: Sequence[str],
               stems: Callable[[str], list[str]] | None = None) -> list[frozenset[str]]:
    """Per line, the query terms it holds (``snippets.line_scores``' rules: whole token,
    prefix for 4+ letters, CJK substring, or with ``stems`` all of the term's stems)."""
    term_stems = {t: set(stems(t)) for t in terms} if stems is not None else {}
    out = []
    for line in lines:
        toks, low = set(word_tokens(line)), line.lower()
        line_stems = set(stems(line)) if stems is not None and line.strip() else set()
        out.append(frozenset(t for t in terms if term_in_tokens(t, toks, low)
                             or (term_stems.get(t) and term_stems[t] <= line_stems)))
    return out


def line_cosines(lines: Sequence[str], windows: Sequence[tuple[int, int]], cosines: Sequence[float]) -> list[float] | None:
    """Per line, the best cosine of the embedded windows (1-based line spans of the chunk)
    holding it; None when windows and cosines do not pair up or a line has no window."""
    if len(windows) != len(cosines) or not windows:
        return None
    out: list[float | None] = [None] * len(lines)
    for (first, last), cos in zip(windows, cosines):
        for i in range(max(first, 1) - 1, min(last, len(lines))):
            out[i] = float(cos) if out[i] is None else max(out[i], float(cos))  # type: ignore[type-var]
    if any(c is None for c, line in zip(out, lines) if line.strip()):
        return None
    return [c if c is not None else 0.0 for c in out]


def chunk_line_cosines(text: str, window_cosines: Sequence[float], window_tokens: int) -> list[float] | None:
    """Per line of a chunk's ``text``, the query's cosine with its embedded sub-window, given
    the cosines of the chunk's sub-vectors in window order (``chunking.sub_windows``)."""
    from openclaw_tui.memory.builtin.chunking import sub_windows  # noqa: PLC0415

    wins = sub_windows(text, window_tokens)
    return line_cosines(text.split("\n"), [(w.start_line, w.end_line) for w in wins], window_cosines)


def runs(chosen: Sequence[int] | set[int]) -> list[tuple[int, int]]:
    """Sorted line indexes as runs of consecutive indexes, ``[(first, last), ...]``."""
    out: list[tuple[int, int]] = []
    for i in sorted(chosen):
        if out and out[-1][1] == i - 1:
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return out


def render(lines: Sequence[str], chosen: set[int]) -> str:
    """The chosen lines as runs joined by a ``…`` line, ``…`` also first or last when lines
    are left out before the first run or after the last."""
    parts: list[str] = []
    spans = runs(chosen)
    for first, last in spans:
        if first > 0 or parts:
            parts.append(GAP)
        parts.append("\n".join(lines[first : last + 1]))
    if spans and spans[-1][1] < len(lines) - 1:
        parts.append(GAP)
    return "\n".join(parts)


_LABEL_RE = re.compile(r"^\s*(?:[-*+]\s+)?\*\*([^*\n]{1,80})\*\*\s*:")


def label_named(line: str, held: frozenset[str]) -> bool:
    """Whether the line's leading bold label (``- **Name**:``) holds one of the query terms
    ``held`` that the line holds."""
    m = _LABEL_RE.match(line)
    if not m or not held:
        return False
    label = m.group(1)
    toks, low = set(word_tokens(label)), label.lower()
    return any(term_in_tokens(t, toks, low) for t in held)


def is_heading(line: str) -> bool:
    return line.lstrip().startswith("#")


def line_worth(lines: Sequence[str], per_line: Sequence[frozenset[str]], weights: Mapping[str, float],
               cosines: Sequence[float] | None = None, lw: LineWeights = LineWeights()) -> list[float]:
    """Each line's worth (module doc)."""
    gains = [sum(weights.get(t, 1.0) for t in ts) for ts in per_line]
    top = max(gains, default=0.0) or 1.0
    best_cos = max(cosines) if cosines else 0.0
    out = []
    for i, line in enumerate(lines):
        prev = lines[i - 1] if i > 0 else ""
        out.append(gains[i] / top
                   + (lw.cosine * (cosines[i] - best_cos) if cosines else 0.0)
                   + lw.after_question * ("?" in prev)
                   + lw.length * min(len(line), LENGTH_CAP) / 300
                   + lw.previous_terms * (gains[i - 1] / top if i > 0 else 0.0)
                   + lw.label * label_named(line, per_line[i]))
    return out


def choose(lines: Sequence[str], per_line: Sequence[frozenset[str]], weights: Mapping[str, float], limit: int,
           cosines: Sequence[float] | None = None, lw: LineWeights = LineWeights(),
           header: int = HEADER_AFTER) -> set[int]:
    """The line indexes to show (module doc); empty when not even one line fits."""
    chosen: set[int] = set()

    def add(i: int) -> bool:
        if i not in chosen and len(render(lines, chosen | {i})) <= limit:
            chosen.add(i)
        return i in chosen

    if not any(per_line) and not cosines:
        add(0)
        return trim_gap_edges(lines, widen(lines, chosen, limit), limit) if chosen else chosen
    worth = line_worth(lines, per_line, weights, cosines, lw)
    content = [i for i, x in enumerate(lines) if x.strip() and x.strip() != GAP and not is_heading(x)]
    # a chunk of headings and blank lines only: its headings are what it has to show
    pool = content or [i for i, x in enumerate(lines) if x.strip() and x.strip() != GAP]
    order = sorted(pool, key=lambda i: (-worth[i], i))
    if order and not add(order[0]):
        return chosen  # the best line alone is longer than the limit: windowed() shows it cut
    taken: list[int] = []
    for i in order:
        if add(i):
            taken.append(i)
            if len(taken) == header and (head := heading_above(lines, taken[0])) is not None:
                add(head)
    if header and 0 < len(taken) < header and (head := heading_above(lines, taken[0])) is not None:
        add(head)
    return trim_gap_edges(lines, widen(lines, chosen, limit), limit) if chosen else chosen


def trim_gap_edges(lines: Sequence[str], chosen: set[int], limit: int | None = None) -> set[int]:
    """``chosen`` without runs' edge lines that read exactly as the gap marker (a snippet
    starting or ending with ``…`` could not tell such a line from a marker, nor the citation
    which lines it shows) and, with ``limit``, without edge blank lines while the snippet
    still fits (``# 2023-07-12`` then ``…`` then the line, not a blank line on each side)."""
    chosen = set(chosen)
    changed = True
    while changed:
        changed = False
        for first, last in runs(chosen):
            for j in {first, last}:
                if j not in chosen:
                    continue
                if lines[j].strip() == GAP:
                    chosen.discard(j)
                    changed = True
                elif (limit is not None and not lines[j].strip() and len(chosen) > 1
                      and len(render(lines, chosen - {j})) <= limit):
                    chosen.discard(j)
                    changed = True
    return chosen


_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
#: a date in a heading: ISO (``2023-07-12``), ``12 July`` or ``July 12``, ``July 2023``
DATE_RE = re.compile(rf"\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}(?![a-z])"
                      rf"|\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\b|\b{_MONTH},?\s+\d{{4}}\b", re.I)


def heading_level(line: str) -> int:
    stripped = line.lstrip()
    return len(stripped) - len(stripped.lstrip("#"))


def heading_path(lines: Sequence[str], i: int) -> list[int]:
    """The headings line ``i`` sits under, nearest first: the nearest heading at or above it,
    then the nearest one above that of a higher level (fewer ``#``), and so on."""
    out: list[int] = []
    level = 99
    for j in range(i, -1, -1):
        if is_heading(lines[j]) and (lv := heading_level(lines[j])) < level:
            out.append(j)
            level = lv
    return out


def heading_above(lines: Sequence[str], i: int) -> int | None:
    """The heading that dates line ``i``: of the headings it sits under (:func:`heading_path`),
    the shortest holding a date (a daily log's ``# 2023-07-12`` rather than its
    ``## Session 7 — 4:33 pm on 12 July, 2023 (…)``: the same date in a fifth of the
    characters); else the nearest heading; None when none."""
    path = heading_path(lines, i)
    dating = [j for j in path if DATE_RE.search(lines[j])]
    if dating:
        return min(dating, key=lambda j: (len(lines[j]), -j))
    return path[0] if path else None


def widen(lines: Sequence[str], chosen: set[int], limit: int) -> set[int]:
    """``chosen`` grown by whole lines: after each run while any fits, then before each run."""
    for step in (1, -1):
        grew = True
        while grew:
            grew = False
            for first, last in runs(chosen):
                j = last + 1 if step > 0 else first - 1
                if 0 <= j < len(lines) and j not in chosen and len(render(lines, chosen | {j})) <= limit:
                    chosen = chosen | {j}
                    grew = True
    return chosen


def windowed(text: str, start_line: int, end_line: int, terms: Sequence[str],
             weights: Mapping[str, float] | None = None, limit: int = SNIPPET_MAX_CHARS,
             stems: Callable[[str], list[str]] | None = None, *, cosines: Sequence[float] | None = None,
             per_line: Sequence[frozenset[str]] | None = None, lw: LineWeights = LineWeights(),
             header: int = HEADER_AFTER) -> Shown:
    """The snippet of a chunk (``text``, file lines ``start_line..end_line``) for a query;
    ``cosines``: per line of ``text``, the query's cosine (:func:`line_cosines`)."""
    lines = text.split("\n")
    if len(text.strip("\n")) <= limit or len(lines) != end_line - start_line + 1:
        # shown whole, or a piece of a long line (lines do not map one to one): as before
        return Shown(make_snippet(text, limit), ((start_line, end_line),))
    if per_line is None:
        per_line = line_terms(lines, terms, stems) if terms else [frozenset()] * len(lines)
    if cosines is not None and len(cosines) != len(lines):
        cosines = None
    chosen = choose(lines, per_line, weights or {}, limit, cosines, lw, header)
    if not chosen:  # the best line alone is longer than the limit: its head, cut
        worth = line_worth(lines, per_line, weights or {}, cosines, lw)
        pool = [i for i, x in enumerate(lines) if x.strip() and x.strip() != GAP and not is_heading(x)] or [0]
        best = max(pool, key=lambda i: (worth[i], -i)) if any(per_line) or cosines else 0
        before, after = (f"{GAP}\n" if best > 0 else ""), (f"\n{GAP}" if best < len(lines) - 1 else "")
        room = limit - len(before) - len(after)
        line = lines[best] if len(lines[best]) <= room else lines[best][: max(0, room - len(GAP))].rstrip() + GAP
        return Shown(before + line + after,
                     ((start_line + best, start_line + best),))
    return Shown(render(lines, chosen), tuple((start_line + a, start_line + b) for a, b in runs(chosen)))
