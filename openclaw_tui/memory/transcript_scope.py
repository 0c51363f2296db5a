"""Which session transcripts a session may find in memory search.

With transcripts as a memory source (``memory/builtin/session_source.py``, or QMD's sessions collection), every session's
transcript is indexed as ``sessions/<file>.jsonl``. A direct session (the user's own) may
find any of them; any other session (a group, a channel) finds only the transcripts of its
own session key, read from each transcript's header line. A transcript whose owner cannot
be read counts as private. Like the MEMORY.md rule (``workspace/privacy.py``), this holds
on every route: search results and the CLI.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Sequence, TypeVar

from openclaw_tui.workspace.privacy import hidden_for

#: the key prefix of a transcript among memory results (``sessions/<file>.jsonl``)
PREFIX = "sessions/"
HEADER_CAP = 64 * 1024
T = TypeVar("T")


def owner_key(sessions_dir: Path, name: str) -> str | None:
    """The ``sessionKey`` in a transcript's header line (None when unreadable)."""
    if "/" in name or name.startswith("."):
        return None
    try:
        fd = os.open(Path(sessions_dir) / name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        head = os.read(fd, HEADER_CAP).split(b"\n", 1)[0]
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        header = json.loads(head)
    except ValueError:
        return None
    key = header.get("sessionKey") if isinstance(header, dict) else None
    return key if isinstance(key, str) else None


def visible(path: str, sessions_dir: Path, session_key: str) -> bool:
    """Whether the result at ``path`` may be shown to ``session_key``."""
    if not path.startswith(PREFIX) or not hidden_for(session_key):
        return True
    return owner_key(sessions_dir, path[len(PREFIX) :]) == session_key


def drop_foreign_transcripts(items: Sequence[T], sessions_dir: Path, session_key: str, path_of: Any = None) -> list[T]:
    """``items`` without other sessions' transcripts, for a session that is not direct."""
    if not hidden_for(session_key):
        return list(items)
    get = path_of or (lambda item: getattr(item, "path", ""))
    return [item for item in items if visible(str(get(item)), sessions_dir, session_key)]
