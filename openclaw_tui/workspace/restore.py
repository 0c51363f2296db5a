"""Bring a memory file version back from the history: ``memory restore`` and ``/undo``.

A restore is itself a change: the content it replaces is recorded first (so a restore can
be undone with another restore), then the file is replaced atomically with the exact
bytes kept in the history (or removed, when the version is "file did not exist").
"""

from __future__ import annotations

import os
from pathlib import Path

from openclaw_tui.workspace.atomic import _fsync_dir, replace_atomically
from openclaw_tui.workspace.guard import PathRefused, normalize_rel, safe_join
from openclaw_tui.workspace.history import ChangeOrigin, HistoryEntry, HistoryError, MemoryChange, MemoryHistory, digest


def target_path(workspace: Path, rel: str) -> tuple[str, Path]:
    rel = normalize_rel(rel)
    safe_join(Path(workspace), rel, allow_missing=True)  # no symlinks, nothing outside
    return rel, Path(workspace) / rel


def _current(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def restore_before(
    workspace: Path, history: MemoryHistory, entry: HistoryEntry, origin: ChangeOrigin, *, tool: str = "restore"
) -> MemoryChange:
    """Put back the content ``entry.path`` had before change ``entry``; record it first."""
    rel, path = target_path(workspace, entry.path)
    wanted = history.content(entry.before)
    current = _current(path)
    recorded = history.record(rel, current, wanted, tool, origin, undoes=entry.id)
    if wanted is None:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        _fsync_dir(path.parent)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_atomically(path, wanted)
    return MemoryChange(rel, tool, current, wanted, recorded)


def latest_for(history: MemoryHistory, raw_path: str) -> HistoryEntry:
    """The newest change of one path (what ``memory restore PATH`` undoes)."""
    rel = normalize_rel(raw_path)
    entries = history.entries(rel)
    if not entries:
        raise HistoryError(f"no history for {rel}: no tool has changed it since history was kept")
    return entries[-1]


def last_undoable(history: MemoryHistory, session_id: str) -> HistoryEntry | None:
    """The newest change the model made in this session that no /undo has reverted yet."""
    entries = history.entries()
    undone = {e.undoes for e in entries if e.tool == "undo"}
    for entry in reversed(entries):
        if entry.session_id == session_id and entry.actor == "model" and entry.id not in undone:
            return entry
    return None


def undo_last(workspace: Path, history: MemoryHistory, session_id: str, origin: ChangeOrigin) -> MemoryChange:
    """Revert this session's last memory change, if the file still holds what it wrote."""
    entry = last_undoable(history, session_id)
    if entry is None:
        raise HistoryError("nothing to undo: this session has not changed a memory file")
    try:
        _rel, path = target_path(workspace, entry.path)
    except PathRefused as exc:
        raise HistoryError(f"cannot undo {entry.path}: {exc.reason}") from None
    current = _current(path)
    if (None if current is None else digest(current)) != entry.after:
        raise HistoryError(
            f"{entry.path} has changed since that change ({entry.id}); nothing was undone — "
            f"use `openclaw-tui memory restore {entry.path} --to {entry.id}` to bring back the earlier version"
        )
    return restore_before(workspace, history, entry, origin, tool="undo")
