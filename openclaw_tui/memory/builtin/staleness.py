"""Which search hits come from a file that changed since it was indexed (``stale``).

OpenClaw's ``memory search`` says when a result may no longer match its file; here a hit is
stale when its memory file (workspace file or extra path) is gone, or its size or
modification time differ from the index's row and its bytes hash to something else (a touch
that changed nothing is not stale). The line numbers of a stale hit may be off: ``memory_get``
reads the file as it is now. Session transcripts are not checked (they grow during a session
and are re-read on sync). Pure reads: nothing is synced here.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Iterable

from openclaw_tui.memory.builtin.chunk_files import FileRow

#: larger files are judged on size and time alone (not read again to hash)
HASH_LIMIT = 4 * 1024 * 1024


def file_of(workspace: Path, key: str) -> Path:
    """The file an index key names: an absolute key (an extra path outside the workspace)
    as itself, else beneath the workspace."""
    p = Path(key)
    return p if p.is_absolute() else Path(workspace) / key


def is_stale(workspace: Path, key: str, row: FileRow | None) -> bool:
    if row is None:
        return True  # the index no longer holds the file
    path = file_of(workspace, key)
    try:
        st = os.lstat(path)
    except OSError:
        return True  # deleted or renamed since
    if not stat.S_ISREG(st.st_mode):
        return True
    if st.st_mtime_ns == row.mtime_ns and st.st_size == row.size:
        return False
    if not row.hash or st.st_size > HASH_LIMIT:
        return True
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return True
    return digest != row.hash


def stale_keys(workspace: Path, rows: dict[str, FileRow], keys: Iterable[str]) -> set[str]:
    """The keys among ``keys`` whose file changed since it was indexed."""
    return {k for k in set(keys) if is_stale(workspace, k, rows.get(k))}
