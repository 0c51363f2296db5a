"""The memory tiers: where a session's notes go and which daily logs it loads (docs/memory.md#tiers).

* **Private** — everything a direct session (``agent:<id>:main``, a dm key) writes stays
  where OpenClaw keeps it: ``memory/YYYY-MM-DD.md`` and the rest of ``memory/``, with
  ``MEMORY.md`` and ``USER.md``. Group and channel keys never load, search or get it.
* **Shared** — a group or channel session's notes go to ``memory/shared/YYYY-MM-DD.md``;
  every session sees it.

Nothing moves: a workspace written before the tiers keeps its files, all of them private.
Which *file* is private is decided in ``workspace/privacy.py`` (by identity, on every route);
this module only names the files.
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from openclaw_tui.workspace.session_keys import is_direct_session

MEMORY_DIR = "memory"
#: the shared tier, relative to the workspace
SHARED_DIR = "memory/shared"


def daily_log_rel(day: date, session_key: str) -> str:
    """The daily log a session writes on ``day``: ``memory/<day>.md`` for a direct session,
    ``memory/shared/<day>.md`` for a group or channel session."""
    folder = MEMORY_DIR if is_direct_session(session_key) else SHARED_DIR
    return f"{folder}/{day.isoformat()}.md"


def daily_log_path(workspace: Path, day: date, session_key: str) -> Path:
    """:func:`daily_log_rel` beneath ``workspace``."""
    return Path(workspace) / daily_log_rel(day, session_key)


def is_shared_rel(rel: str) -> bool:
    """True for a (normalised, workspace-relative) path in the shared tier."""
    return rel.startswith(SHARED_DIR + "/")


def loaded_daily_rels(day: date, session_key: str) -> list[str]:
    """The daily logs a session's prompt loads, newest first: today's and yesterday's of the
    shared tier for a group or channel session; of both tiers (private first) for a direct one."""
    days = (day, day - timedelta(days=1))
    shared = [f"{SHARED_DIR}/{d.isoformat()}.md" for d in days]
    if not is_direct_session(session_key):
        return shared
    return [f"{MEMORY_DIR}/{d.isoformat()}.md" for d in days] + shared
