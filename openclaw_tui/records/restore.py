"""Bring a memory file version back from the history: ``memory restore`` and ``/undo``.

A restore is itself a change: the content it replaces is recorded first (so a restore can
be undone with another restore), then the file is replaced atomically with the exact
bytes kept in the history (or removed, when the version is "file did not exist").
"""

from __future__ import annotations

from pathlib import Path

from openclaw_tui.workspace import file_lock, safe_fs
from openclaw_tui.workspace.guard import PathRefused, normalize_rel
from openclaw_tui.records.history import ChangeOrigin, HistoryEntry, HistoryError, MemoryChange, MemoryHistory, digest


def current(workspace: Path, raw_path: str) -> tuple[str, bytes | None]:
    """(normalised path, its bytes now or None) — read beneath the workspace, never via a link."""
    rel = normalize_rel(raw_path)
    return rel, safe_fs.current_bytes(Path(workspace), rel)


def restore_before(
    workspace: Path, history: MemoryHistory, entry: HistoryEntry, origin: ChangeOrigin, *, tool: str = "restore"
) -> MemoryChange:
    """Put back the content ``entry.path`` had before change ``entry``; record it first."""
    rel = normalize_rel(entry.path)
    wanted = history.content(entry.before)

    def change() -> MemoryChange:
        with file_lock.writing(Path(workspace), rel):  # the one lock discipline of every writer
            now, seen = safe_fs.current_state(Path(workspace), rel)
            recorded = history.record(rel, now, wanted, tool, origin, undoes=entry.id)
            if wanted is None:
                safe_fs.remove_file(Path(workspace), rel, expect=seen)
            else:
                safe_fs.replace_text(Path(workspace), rel, wanted, expect=seen, default_mode=0o600)
        return MemoryChange(rel, tool, now, wanted, recorded)

    def refuse(why: str) -> MemoryChange:
        raise HistoryError(why)

    return file_lock.retrying(rel, change, refuse)


def latest_for(history: MemoryHistory, raw_path: str) -> HistoryEntry:
    """The newest change of one path (what ``memory restore PATH`` undoes)."""
    rel = normalize_rel(raw_path)
    entries = history.entries(rel)
    if not entries:
        raise HistoryError(f"no history for {rel}: no tool has changed it since history was kept")
    return entries[-1]


def last_undoable(history: MemoryHistory, session_id: str) -> HistoryEntry | None:
    """The newest change the model made in this session, or a restore the user made in it,
    that no /undo has reverted yet (``/undo`` right after ``/memory restore`` said "nothing to
    undo", issue 37)."""
    entries = history.entries()
    undone = {e.undoes for e in entries if e.tool == "undo"}
    for entry in reversed(entries):
        if entry.session_id == session_id and (entry.actor == "model" or entry.tool == "restore") and entry.id not in undone:
            return entry
    return None


def undo_last(workspace: Path, history: MemoryHistory, session_id: str, origin: ChangeOrigin) -> MemoryChange:
    """Revert this session's last memory change, if the file still holds what it wrote."""
    entry = last_undoable(history, session_id)
    if entry is None:
        raise HistoryError("nothing to undo: this session has not changed a memory file")
    try:
        _rel, now = current(workspace, entry.path)
    except PathRefused as exc:
        raise HistoryError(f"cannot undo {entry.path}: {exc.reason}") from None
    if (None if now is None else digest(now)) != entry.after:
        raise HistoryError(
            f"{entry.path} has changed since that change ({entry.id}); nothing was undone — "
            f"use `openclaw-tui memory restore {entry.path} --to {entry.id}` to bring back the earlier version"
        )
    return restore_before(workspace, history, entry, origin, tool="undo")
