"""Which part of the memory history a session may list and restore.

The history keeps every version of every memory file, the private tier included. A group
or channel session never reads the private tier (``workspace/privacy.py``), so it may not
list those versions nor restore them either: ``memory history`` leaves them out (and
refuses a private path named outright), ``memory restore`` of a private file is refused
with the privacy rule's reason, from the CLI and the TUI alike.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from openclaw_tui.records.history import HistoryEntry
from openclaw_tui.workspace.guard import PathRefused
from openclaw_tui.workspace.privacy import PRIVATE_REFUSAL, hidden_for, is_private_key, private_identities


def refuse_private(workspace: Path, session_key: str, rel: str) -> None:
    """Raise PathRefused when ``session_key`` is a group session and ``rel`` is private."""
    if hidden_for(session_key) and is_private_key(workspace, rel):
        raise PathRefused(rel, f"{rel}: {PRIVATE_REFUSAL}; its history is not shown nor restored here")


def visible(workspace: Path, session_key: str, entries: Iterable[HistoryEntry]) -> list[HistoryEntry]:
    """``entries`` a session may see: all in a direct session, no private file's in a group."""
    items = list(entries)
    if not hidden_for(session_key):
        return items
    ids = private_identities(workspace)
    return [e for e in items if not is_private_key(workspace, e.path, ids)]
