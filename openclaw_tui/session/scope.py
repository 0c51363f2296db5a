"""Which saved sessions belong to this workspace and session key (``/resume``, ``--continue``).

A session remembers the workspace it ran in (``workspace`` in sessions.json; older entries
only in their transcript's header line). Sessions of other workspaces or keys are listed
only on request (``/resume --all``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def entry_workspace(entry: dict[str, Any]) -> str | None:
    """The workspace a session ran in: its sessions.json field, else its transcript header."""
    ws = entry.get("workspace")
    if ws:
        return str(ws)
    path = entry.get("transcript")
    if not path:
        return None
    try:
        with open(path, "rb") as fh:
            first = fh.readline(64 * 1024)
        header = json.loads(first)
    except (OSError, ValueError):
        return None
    if isinstance(header, dict) and header.get("type") == "session" and header.get("workspace"):
        return str(header["workspace"])
    return None


def same_workspace(a: str | Path, b: str | Path) -> bool:
    return os.path.normpath(os.path.abspath(os.path.expanduser(str(a)))) == os.path.normpath(
        os.path.abspath(os.path.expanduser(str(b)))
    )


def in_scope(entry: dict[str, Any], workspace: str | Path, session_key: str) -> bool:
    """Same session key (or none recorded) and same workspace (or none recorded)."""
    key = entry.get("sessionKey")
    if key and key != session_key:
        return False
    ws = entry_workspace(entry)
    return ws is None or same_workspace(ws, workspace)


def scoped_sessions(
    entries: list[dict[str, Any]], workspace: str | Path, session_key: str, *, everything: bool = False
) -> list[dict[str, Any]]:
    """``entries`` (newest first) of this workspace and key; all of them with ``everything``.
    Each keeps its order and gains ``workspace`` when only the transcript knew it."""
    out = []
    for entry in entries:
        ws = entry_workspace(entry)
        item = {**entry, "workspace": ws} if ws else dict(entry)
        if everything or in_scope(item, workspace, session_key):
            out.append(item)
    return out
