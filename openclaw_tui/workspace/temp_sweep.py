"""Temp files left by a crash are removed when a session starts.

An atomic replace (``workspace/atomic.py``) writes ``.<name>.<12 hex>.tmp`` next to the file
and renames it; a kill -9 between the two leaves the temp copy (a full copy of, say,
MEMORY.md) in the workspace. :func:`sweep` removes such files from the workspace folder and
its ``memory/`` tree (reached without following links) once they are older than
:data:`MIN_AGE_S`, so a writer that is busy right now keeps its own. :func:`sweep_flat` does
the same for one folder: the memory history keeps whole copies of MEMORY.md in ``objects/``
through the same atomic replace, and a kill -9 there left them for good (issue 36).
"""

from __future__ import annotations

import logging
import os
import re
import stat
import time
from pathlib import Path

TEMP_RE = re.compile(r"^\..{1,200}\.[0-9a-f]{12}\.tmp$", re.S)
MIN_AGE_S = 30.0
MAX_DEPTH = 8
log = logging.getLogger(__name__)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIR = getattr(os, "O_DIRECTORY", 0)


def sweep(workspace: Path, *, now: float | None = None) -> int:
    """Remove stale temp files of atomic replaces; return how many were removed."""
    now = time.time() if now is None else now
    try:
        root = os.open(workspace, os.O_RDONLY | _DIR)
    except OSError:
        return 0
    try:
        return _sweep_dir(root, now, 0, top=True)
    finally:
        os.close(root)


def sweep_flat(folder: Path, *, now: float | None = None) -> int:
    """Remove stale temp files of atomic replaces directly in ``folder`` (no subfolder is
    entered): the memory history's store and its ``objects/``."""
    now = time.time() if now is None else now
    try:
        fd = os.open(folder, os.O_RDONLY | _DIR | _NOFOLLOW)
    except OSError:
        return 0
    try:
        return _sweep_dir(fd, now, MAX_DEPTH)
    finally:
        os.close(fd)


def _sweep_dir(dfd: int, now: float, depth: int, *, top: bool = False) -> int:
    removed = 0
    try:
        names = os.listdir(dfd)
    except OSError:
        return 0
    for name in names:
        try:
            st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode) and depth < MAX_DEPTH and (not top or name == "memory"):
            removed += _sweep_sub(dfd, name, now, depth)
        elif stat.S_ISREG(st.st_mode) and TEMP_RE.match(name) and now - st.st_mtime > MIN_AGE_S:
            try:
                os.unlink(name, dir_fd=dfd)
                removed += 1
            except OSError as exc:
                log.warning("cannot remove the stale temp file %s: %s", name, exc.strerror or exc)
    return removed


def _sweep_sub(dfd: int, name: str, now: float, depth: int) -> int:
    try:
        sub = os.open(name, os.O_RDONLY | _DIR | _NOFOLLOW, dir_fd=dfd)
    except OSError:
        return 0
    try:
        return _sweep_dir(sub, now, depth + 1)
    finally:
        os.close(sub)
