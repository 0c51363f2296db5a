"""Corrections supersede (issue 35 item 6): the note a correction replaces is marked
``<!-- status: superseded -->`` in place, so prompt loading, search and trigger recall show
only the new fact; the line stays (``memory_get`` and the history still show what was said).

Which note: the newest line, not superseded yet, holding every word of the reading's
``replaces`` (``workspace/supersede.find_replaced``), looked for in the session's own tier
only: the log the new note goes to, then the tier's earlier daily logs, newest first. The mark
is a change like any tool's: kept in the memory history first (``/undo`` reverts it), made
under the folder's write lock, and listed in the file tools' ``changes`` so the turn announces it.

    old = supersede(files, ("offsite",), target="memory/2026-12-06.md")
    old.path, old.line, old.text  # "memory/2026-12-04.md", 3, "- User: The offsite is on Thursday."
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from openclaw_tui.records.history import MemoryChange
from openclaw_tui.tools.files import FileTools, WriteRecord
from openclaw_tui.workspace import file_lock, safe_fs
from openclaw_tui.workspace.guard import PathRefused
from openclaw_tui.workspace.supersede import find_replaced, superseded_line

#: how many earlier daily logs of the tier are looked through (newest first)
LOGS_LOOKED_AT = 60
#: the tool name the memory history records for the mark
TOOL = "supersede"
_DAY_NAME = re.compile(r"\d{4}-\d{2}-\d{2}\.md")


@dataclass(frozen=True)
class Superseded:
    path: str  # workspace-relative
    line: int  # 1-based
    text: str  # the note as it read before the mark


def tier_logs(workspace: Path, target: str) -> list[str]:
    """``target`` and the daily logs of its folder (its tier) dated before it, newest first."""
    folder, _, name = target.rpartition("/")
    try:
        names = [p.name for p in (Path(workspace) / folder).iterdir() if _DAY_NAME.fullmatch(p.name) and p.name < name]
    except OSError:
        names = []
    return [target] + [f"{folder}/{n}" for n in sorted(names, reverse=True)[:LOGS_LOOKED_AT]]


def _lines(workspace: Path, rel: str) -> list[str]:
    try:
        data = safe_fs.current_bytes(workspace, rel)
    except (OSError, PathRefused):
        return []
    return (data or b"").decode("utf-8", "replace").splitlines()


def find_note(workspace: Path, replaces: Sequence[str], target: str) -> Superseded | None:
    """The note ``replaces`` names, in ``target``'s tier, newest log first (None: no such note)."""
    if not any(w.strip() for w in replaces):
        return None
    for rel in tier_logs(workspace, target):
        lines = _lines(workspace, rel)
        n = find_replaced(lines, replaces)
        if n is not None:
            return Superseded(rel, n, lines[n - 1])
    return None


def mark(files: FileTools, note: Superseded) -> MemoryChange | None:
    """Mark ``note`` superseded in place, through the history; None when the line changed
    meanwhile, is superseded already, or the workspace is not writable (nothing written)."""
    if files.access != "rw":
        return None
    ws, rel = Path(files.workspace), note.path

    def change() -> MemoryChange | None:
        with file_lock.writing(ws, rel):
            data, seen = safe_fs.current_state(ws, rel)
            if data is None:
                return None
            lines = data.decode("utf-8", errors="surrogateescape").splitlines(keepends=True)
            if not 1 <= note.line <= len(lines) or lines[note.line - 1].rstrip("\r\n") != note.text:
                return None
            line = lines[note.line - 1]
            marked = superseded_line(note.text)
            if marked is None:
                return None
            lines[note.line - 1] = marked + line[len(note.text):]
            after = "".join(lines).encode("utf-8", errors="surrogateescape")
            entry = files.history.record(rel, data, after, TOOL, files.origin()) if files.history else None
            safe_fs.replace_text(ws, rel, after, expect=seen)
        return MemoryChange(rel, TOOL, data, after, entry)

    try:
        done = file_lock.retrying(rel, change, lambda _why: None)
    except (OSError, PathRefused):
        return None
    if done is not None:
        files.changes.append(done)
        files.writes.append(WriteRecord("edit", rel, 1, note.text))
    return done


def supersede(files: FileTools, replaces: Sequence[str], *, target: str) -> Superseded | None:
    """Find the note ``replaces`` names in ``target``'s tier and mark it; what was marked."""
    note = find_note(Path(files.workspace), replaces, target)
    if note is None or mark(files, note) is None:
        return None
    return note
