"""Files that hold memory text are created owner-only, like MEMORY.md (0600 files, 0700 folders).

The index (chunk text), its vector snapshot, the memory history, transcripts and their QMD
exports all hold what MEMORY.md holds; another local user must not read them. New folders
are made 0700 and new files 0600; an existing file or folder of ours that is more open is
narrowed (``tighten``). Errors are ignored: a mode we cannot set never stops a write.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

FILE_MODE = 0o600
DIR_MODE = 0o700


def private_dir(path: Path) -> Path:
    """``path`` (and missing parents) created 0700; an existing one narrowed to 0700 when it
    lies in our state directory (a folder the user chose elsewhere keeps its mode)."""
    path = Path(path)
    missing = []
    p = path
    while not p.exists() and p != p.parent:
        missing.append(p)
        p = p.parent
    for d in reversed(missing):
        try:
            d.mkdir(mode=DIR_MODE)
        except FileExistsError:
            pass
    if missing or _in_state_dir(path):
        tighten(path, DIR_MODE)
    return path


def _in_state_dir(path: Path) -> bool:
    from openclaw_tui.config.loader import state_dir  # noqa: PLC0415 - config imports nothing of ours

    try:
        return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(state_dir()))
    except (OSError, ValueError):
        return False


def private_file(path: Path) -> Path:
    """``path`` created empty 0600 when missing (never through a link); narrowed when more open."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
        os.close(fd)
    except OSError:
        pass
    tighten(path, FILE_MODE)
    return path


def tighten(path: Path, mode: int) -> None:
    """Drop group/other bits of a file or folder we own (no link is followed)."""
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode) or st.st_uid != os.getuid():
            return
        if stat.S_IMODE(st.st_mode) & 0o077:
            os.chmod(path, stat.S_IMODE(st.st_mode) & mode)
    except OSError:
        pass


def private_db(path: Path | str) -> str:
    """An SQLite file about to be opened: its folder and the file made owner-only (SQLite
    gives its journal files the database file's mode); returns the path as a string."""
    if str(path) == ":memory:" or str(path).startswith("file:"):
        return str(path)
    private_dir(Path(path).parent)
    private_file(Path(path))
    return str(path)
