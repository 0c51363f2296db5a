"""Append-only daily logs ``memory/YYYY-MM-DD.md`` (local date).

Writers take an exclusive ``flock`` on the file for the whole append, so two processes
never interleave lines; each append ends with a newline and is fsynced.
"""

from __future__ import annotations

import os
import re
from datetime import date, datetime, timedelta
from pathlib import Path

from openclaw_tui.workspace import safe_fs
from openclaw_tui.workspace.guard import normalize_rel


def today(now: datetime | None = None) -> date:
    """The local date; ``OPENCLAW_TODAY=YYYY-MM-DD`` pins it (evaluations that say "yesterday"
    on a fixed day: ``eval survival``)."""
    if now is None:
        pinned = os.environ.get("OPENCLAW_TODAY", "").strip()
        if pinned:
            try:
                return date.fromisoformat(pinned)
            except ValueError:
                pass
    return (now or datetime.now()).date()


_DAILY_REL_RE = re.compile(r"memory/(?:shared/)?\d{4}-\d{2}-\d{2}\.md")


def daily_rel(day: date | None = None) -> str:
    return f"memory/{(day or today()).isoformat()}.md"


def is_daily_rel(rel: str) -> bool:
    """True for a daily log path ``memory/YYYY-MM-DD.md`` or, in the shared tier,
    ``memory/shared/YYYY-MM-DD.md`` (already normalised)."""
    return bool(_DAILY_REL_RE.fullmatch(rel))


def append_text(workspace: Path, rel: str, text: str, *, expect: safe_fs.Ident | None | bool = False, mode: int = 0o644) -> int:
    """Append ``text`` to workspace-relative ``rel`` under an exclusive lock; return lines written.

    The file is opened beneath the workspace without following any link (``safe_fs``). A
    missing trailing newline in the file is repaired first so the new text starts on its own
    line. A new file gets ``mode`` (0600 for memory files: owner-only, like the index).
    """
    rel = normalize_rel(rel)
    body = text if text.endswith("\n") else text + "\n"
    encoded = body.encode("utf-8")

    def data_for(size: int, last: bytes) -> bytes:
        return (b"\n" if size and last != b"\n" else b"") + encoded

    safe_fs.append_bytes(Path(workspace), rel, data_for, expect=expect, mode=mode)
    return body.count("\n")


def append_daily(workspace: Path, text: str, *, day: date | None = None) -> tuple[str, int]:
    rel = daily_rel(day)
    return rel, append_text(workspace, rel, text)


def recent_daily_rels(day: date | None = None) -> list[str]:
    """Today's and yesterday's logs, today first."""
    d = day or today()
    return [daily_rel(d), daily_rel(d - timedelta(days=1))]
