"""Append-only daily logs ``memory/YYYY-MM-DD.md`` (local date).

Writers take an exclusive ``flock`` on the file for the whole append, so two processes
never interleave lines; each append ends with a newline and is fsynced.
"""

from __future__ import annotations

import fcntl
import os
import re
from datetime import date, datetime, timedelta
from pathlib import Path

from openclaw_tui.workspace.guard import normalize_rel, safe_join


def today(now: datetime | None = None) -> date:
    return (now or datetime.now()).date()


_DAILY_REL_RE = re.compile(r"memory/\d{4}-\d{2}-\d{2}\.md")


def daily_rel(day: date | None = None) -> str:
    return f"memory/{(day or today()).isoformat()}.md"


def is_daily_rel(rel: str) -> bool:
    """True for a daily log path ``memory/YYYY-MM-DD.md`` (already normalised)."""
    return bool(_DAILY_REL_RE.fullmatch(rel))


def append_text(workspace: Path, rel: str, text: str) -> int:
    """Append ``text`` to workspace-relative ``rel`` under an exclusive lock; return lines written.

    The path goes through the path guard (no symlinks, no escapes). A missing trailing
    newline in the file is repaired first so the new text starts on its own line.
    """
    rel = normalize_rel(rel)
    safe_join(Path(workspace), rel, allow_missing=True)  # stops at the first missing component
    path = Path(workspace) / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    body = text if text.endswith("\n") else text + "\n"
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            size = os.fstat(fd).st_size
            prefix = b""
            if size:
                last = os.pread(fd, 1, size - 1)
                if last != b"\n":
                    prefix = b"\n"
            data = prefix + body.encode("utf-8")
            view = memoryview(data)
            try:
                while view:
                    n = os.write(fd, view)
                    view = view[n:]
                os.fsync(fd)
            except OSError:
                os.ftruncate(fd, size)  # disk full mid-write: no torn half-line stays behind
                raise
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
    return body.count("\n")


def append_daily(workspace: Path, text: str, *, day: date | None = None) -> tuple[str, int]:
    rel = daily_rel(day)
    return rel, append_text(workspace, rel, text)


def recent_daily_rels(day: date | None = None) -> list[str]:
    """Today's and yesterday's logs, today first."""
    d = day or today()
    return [daily_rel(d), daily_rel(d - timedelta(days=1))]
