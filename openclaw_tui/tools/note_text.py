"""What an appended memory note keeps: facts, not the citation lines of an answer.

A small model asked to "remember" a fact answers in the shape it has just seen — the fact
and a ``Source: memory/2026-12-03.md#L1-1`` line — and sends that whole answer as the note
(Qwen2.5-Coder-1.5B did). The citation then sits in the daily log, points at nothing, and
shows up in every later snippet of that note. Lines that are only a citation of a memory
file are dropped from what ``append`` writes to a memory file. Pure functions.
"""

from __future__ import annotations

import re

# a whole line that is just a citation: "Source: memory/x.md#L1-L8", "(Sources: MEMORY.md#L3)",
# "**Source:** memory/x.md#L1-1", "Source: memory/x.md#L3-L5,L20" (a snippet's several runs);
# text around a citation keeps the line
CITATION_LINE_RE = re.compile(
    r"^[\s>*_(-]*sources?[*_]*\s*:[*_]*\s*[\w./-]+\.md#L\d+(?:-L?\d+)?(?:,L\d+(?:-L?\d+)?)*[\s*_).]*$",
    re.IGNORECASE,
)


def drop_citation_lines(text: str) -> str:
    """``text`` without the lines that are only a memory citation (trailing blank lines
    those leave are dropped too)."""
    kept = [line for line in text.splitlines() if not CITATION_LINE_RE.match(line)]
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join(kept) + ("\n" if kept and text.endswith("\n") else "")


def dated_note(content: str, day: str) -> str:
    """A note the model meant for another day's log, kept under today with its date in the text."""
    if day in content:
        return content
    lines = content.splitlines() or [content]
    first = lines[0]
    bullet = re.match(r"^(\s*[-*]\s+)", first)
    lead = bullet.group(1) if bullet else ""
    lines[0] = f"{lead}({day}) {first[len(lead):]}"
    return "\n".join(lines) + ("\n" if content.endswith("\n") else "")
