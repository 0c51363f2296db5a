"""A daily log's notes as hits of their own (pure functions).

A day's log is a list of separate facts, one note a line (``- User: My cat Pixel is 7 years
old.``). Its chunk is small, so it was shown whole as one hit citing every line of the day
(``#L1-L13``): a model answering from it named a neighbouring note's line, or the whole day
(issue 37). **Ours:** when a result is a daily log's chunk and every content line
of it is a note (a list item that is not a transcript's ``**Speaker**:`` line), each note that
holds a query term becomes a hit of its own, citing its own line; the notes holding none are
left out. A chunk where no note holds a query term (a hit by meaning only) stays one hit.

    note_lines(["# 2026-12-06", "", "- User: Pixel is 7.", "- User: Tea, no sugar."], ["pixel"])
    # [(2, ["pixel"])]: index 2 of the chunk, the terms it holds
"""

from __future__ import annotations

import re
from typing import Callable, Mapping, Sequence

from openclaw_tui.memory.builtin.snippet_windows import line_terms
from openclaw_tui.workspace.daily import is_daily_rel

#: a note: a Markdown list item ("- ", "* ", "+ ", "1. ")
NOTE_RE = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+\S")
#: a transcript line (``- **Melanie**: …``): a turn of a dialogue, not a note standing alone
SPEAKER_RE = re.compile(r"^\s*(?:[-*+]\s+)?\*\*[^*\n]{1,80}\*\*\s*:")
#: at most this many notes of one chunk become hits
NOTES_PER_CHUNK = 3


def is_heading(line: str) -> bool:
    return line.lstrip().startswith("#")


def notes_only(lines: Sequence[str]) -> bool:
    """Whether every content line (not blank, not a heading) is a note, and there are two or more."""
    content = [x for x in lines if x.strip() and not is_heading(x)]
    return len(content) >= 2 and all(NOTE_RE.match(x) and not SPEAKER_RE.match(x) for x in content)


def note_lines(lines: Sequence[str], terms: Sequence[str], weights: Mapping[str, float] | None = None,
               stems: Callable[[str], list[str]] | None = None,
               limit: int = NOTES_PER_CHUNK) -> list[int]:
    """Indexes into ``lines`` of the notes holding a query term, the most query weight first
    (file order on a tie), at most ``limit``; [] when the lines are not notes only or none
    holds a term."""
    if not terms or not notes_only(lines):
        return []
    held = line_terms(lines, terms, stems)
    scored = [(sum((weights or {}).get(t, 1.0) for t in held[i]), i) for i, x in enumerate(lines)
              if held[i] and x.strip() and not is_heading(x)]
    scored.sort(key=lambda s: (-s[0], s[1]))
    return [i for _score, i in scored[:limit]]


def splits(path: str, text: str, start_line: int, end_line: int) -> bool:
    """Whether a result of ``path`` may be split into its notes: a daily log's chunk whose
    lines map one to one onto the file's."""
    return is_daily_rel(path.replace("\\", "/")) and len(text.split("\n")) == end_line - start_line + 1
