"""Line diffs of a file change: counts for the one-line summary, a bounded unified diff to show."""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from openclaw_tui.events import MemoryChanged
    from openclaw_tui.records.history import MemoryChange

MAX_DIFF_CHARS = 6000


def _lines(data: bytes | None) -> list[str]:
    return [] if not data else data.decode("utf-8", "replace").splitlines()


def _trimmed(a: list[str], b: list[str], keep: int) -> tuple[list[str], list[str], int]:
    """``a`` and ``b`` without their common first and last lines (``keep`` of them stay as
    context), and how many lines were cut from the front: an append to a 4 MB log is diffed
    as the lines it added, not 80,000 lines through difflib."""
    limit = min(len(a), len(b))
    head = 0
    while head < limit and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < limit - head and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]:
        tail += 1
    cut_head, cut_tail = max(0, head - keep), max(0, tail - keep)
    return a[cut_head : len(a) - cut_tail], b[cut_head : len(b) - cut_tail], cut_head


def _appended_from(before: bytes | None, after: bytes | None, n: int) -> int:
    """Where the last ``n`` whole lines of ``before`` start, when ``after`` is ``before`` plus
    more lines; 0 otherwise (then the general path runs)."""
    if not before or not after or not before.endswith(b"\n") or not after.startswith(before):
        return 0
    pos = len(before) - 1
    for _ in range(n):
        j = before.rfind(b"\n", 0, pos)
        if j < 0:
            return 0
        pos = j
    return pos + 1


_HUNK_RE = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def _diff(before: bytes | None, after: bytes | None, n: int, **kw: str) -> list[str]:
    """``difflib.unified_diff`` rows of the two versions, hunk line numbers as in the whole files."""
    start = _appended_from(before, after, n)
    if start:  # an append: only the new bytes (and n lines before them) are split and diffed
        a, b, shift = _lines(before[start:]), _lines(after[start:]), before.count(b"\n", 0, start)  # type: ignore[union-attr,index]
    else:
        a, b, shift = _trimmed(_lines(before), _lines(after), n)
    rows = list(difflib.unified_diff(a, b, lineterm="", n=n, **kw))
    if not shift:
        return rows

    def moved(m: re.Match[str]) -> str:
        return f"@@ -{int(m.group(1)) + shift}{m.group(2) or ''} +{int(m.group(3)) + shift}{m.group(4) or ''} @@"
    return [_HUNK_RE.sub(moved, r) if r.startswith("@@") else r for r in rows]


def line_counts(before: bytes | None, after: bytes | None) -> tuple[int, int]:
    """(lines added, lines removed) between two versions (None = file absent)."""
    added = removed = 0
    for line in _diff(before, after, 0):
        if line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return added, removed


def unified(path: str, before: bytes | None, after: bytes | None, *, limit: int = MAX_DIFF_CHARS) -> str:
    """A unified diff with 1 line of context, cut at ``limit`` characters."""
    text = "\n".join(_diff(before, after, 1, fromfile=f"a/{path}", tofile=f"b/{path}"))
    if len(text) > limit:
        text = text[:limit] + "\n… (diff cut)"
    return text


def first_change(before: bytes | None, after: bytes | None, width: int = 60) -> str:
    """The first added (else removed) line, for a one-line timeline summary."""
    sign_line = ""
    for line in _diff(before, after, 0):
        if line.startswith(("+++", "---", "@@")):
            continue
        if line.startswith("+"):
            sign_line = line
            break
        if line.startswith("-") and not sign_line:
            sign_line = line
    text = " ".join(sign_line.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def change_event(change: "MemoryChange", *, call_id: str = "", actor: str = "model") -> "MemoryChanged":
    """The event the core emits for one memory change (one-line summary + bounded diff)."""
    from openclaw_tui.events import MemoryChanged  # noqa: PLC0415

    added, removed = line_counts(change.before, change.after)
    first = first_change(change.before, change.after)
    summary = f"+{added} −{removed}" + (f" · {first}" if first else "")
    return MemoryChanged(
        path=change.path,
        tool=change.tool,
        summary=summary,
        diff=unified(change.path, change.before, change.after),
        entry_id=change.entry.id if change.entry else "",
        call_id=call_id,
        actor=actor,
    )
