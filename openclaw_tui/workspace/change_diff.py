"""Line diffs of a file change: counts for the one-line summary, a bounded unified diff to show."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from openclaw_tui.events import MemoryChanged
    from openclaw_tui.workspace.history import MemoryChange

MAX_DIFF_CHARS = 6000


def _lines(data: bytes | None) -> list[str]:
    return [] if not data else data.decode("utf-8", "replace").splitlines()


def line_counts(before: bytes | None, after: bytes | None) -> tuple[int, int]:
    """(lines added, lines removed) between two versions (None = file absent)."""
    added = removed = 0
    for line in difflib.unified_diff(_lines(before), _lines(after), lineterm="", n=0):
        if line.startswith("+") and not line.startswith("+++"):
            added += 1
        elif line.startswith("-") and not line.startswith("---"):
            removed += 1
    return added, removed


def unified(path: str, before: bytes | None, after: bytes | None, *, limit: int = MAX_DIFF_CHARS) -> str:
    """A unified diff with 1 line of context, cut at ``limit`` characters."""
    rows = difflib.unified_diff(_lines(before), _lines(after), fromfile=f"a/{path}", tofile=f"b/{path}", lineterm="", n=1)
    text = "\n".join(rows)
    if len(text) > limit:
        text = text[:limit] + "\n… (diff cut)"
    return text


def first_change(before: bytes | None, after: bytes | None, width: int = 60) -> str:
    """The first added (else removed) line, for a one-line timeline summary."""
    sign_line = ""
    for line in difflib.unified_diff(_lines(before), _lines(after), lineterm="", n=0):
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
