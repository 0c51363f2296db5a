"""Citations: ``path#L3`` / ``path#L3-L5`` / ``path#L3-L5,L20`` for the lines a result shows,
whether a session gets them (``memory.citations``: on, off, auto = direct sessions only),
and reading one back into the file lines a snippet's text shows. Shared by both backends
and the session's quoting (pure functions)."""

from __future__ import annotations

import re
from typing import Sequence

#: the line a snippet shows where lines of its chunk are left out
GAP = "…"


def citation_for(path: str, start: int, end: int) -> str:
    return f"{path}#L{start}" if start == end else f"{path}#L{start}-L{end}"


def citations_enabled(mode: str, direct: bool) -> bool:
    if mode == "on":
        return True
    if mode == "off":
        return False
    return direct


def cite(path: str, ranges: Sequence[tuple[int, int]]) -> str:
    """``path#L3-L5,L20`` for the runs ``(3, 5), (20, 20)``."""
    return f"{path}#" + ",".join(f"L{a}" if a == b else f"L{a}-L{b}" for a, b in ranges)


_RANGES_RE = re.compile(r"L(\d+)(?:-L?(\d+))?")


def parse_ranges(fragment: str) -> tuple[tuple[int, int], ...] | None:
    """``"L3-L5,L20"`` (a citation's part after ``#``) as ``((3, 5), (20, 20))``; None when
    it is not that shape."""
    out = []
    for part in fragment.split(","):
        m = _RANGES_RE.fullmatch(part.strip())
        if not m:
            return None
        a = int(m.group(1))
        out.append((a, int(m.group(2) or a)))
    return tuple(out) or None


def line_numbers(lines: Sequence[str], ranges: Sequence[tuple[int, int]]) -> list[int | None] | None:
    """Per line of a snippet's text (without its ``Source:`` footer), the file line it shows,
    None for a gap marker; None when the text does not have the runs ``ranges`` name (a
    snippet cut inside a long line, or shown whole with edge blank lines stripped)."""
    sizes = [b - a + 1 for a, b in ranges]
    extra = len(lines) - sum(sizes) - (len(ranges) - 1)  # gap markers before the first / after the last run
    if extra not in (0, 1, 2) or any(n < 1 for n in sizes):
        return None
    out: list[int | None] = []
    at = 0
    if extra and lines[0] == GAP and (extra == 2 or lines[-1] != GAP):
        out.append(None)
        at = 1
    for k, (a, b) in enumerate(ranges):
        if k:
            if lines[at] != GAP:
                return None
            out.append(None)
            at += 1
        out.extend(range(a, b + 1))
        at += b - a + 1
    if at < len(lines):
        if at != len(lines) - 1 or lines[at] != GAP:
            return None
        out.append(None)
    return out if len(out) == len(lines) else None
