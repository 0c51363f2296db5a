"""One lock discipline for every writer of a workspace file.

Tools (write, edit, append), the memory flush (through the tools), ``memory restore`` and
``/undo``, in this process or another instance on the same workspace, change a file only
inside :func:`writing`: an exclusive ``flock`` on the file's folder (reached beneath the
workspace without following links, so no lock file is left anywhere). Inside it they read
the file, decide, record the history and write; the write itself renames (or appends) only
if the file is still the one they read (``safe_fs`` ``expect=``), so a save by a program
that takes no lock (an editor) is detected: :func:`retrying` reads again, up to
:data:`ATTEMPTS` times, then the caller refuses with a message.

Appending and replacing share the folder lock, so an append is never lost to a rename.
Re-entrant within one process (a restore inside a tool call does not deadlock).
"""

from __future__ import annotations

import fcntl
import os
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, TypeVar

from openclaw_tui.workspace import safe_fs

ATTEMPTS = 3
CHANGED_WHILE_WRITING = (
    "{rel} was changed by another program while this change was being made (tried {n} times); "
    "nothing was changed — read it again and retry"
)
_mutex = threading.RLock()  # writers in this process, one at a time (flock is per open file)
_held: dict[tuple[int, int], int] = {}  # folders this process holds the flock of -> depth

T = TypeVar("T")


@contextmanager
def writing(root: Path, rel: str) -> Iterator[None]:
    """Hold the write lock of ``rel``'s folder beneath ``root`` (created if missing)."""
    with _mutex:
        with safe_fs.parent_dir(Path(root), rel, create=True) as (dfd, _name):
            st = os.fstat(dfd)
            key = (st.st_dev, st.st_ino)
            if key in _held:
                _held[key] += 1
                try:
                    yield
                finally:
                    _held[key] -= 1
                return
            fcntl.flock(dfd, fcntl.LOCK_EX)
            _held[key] = 1
            try:
                yield
            finally:
                del _held[key]  # closing the folder fd releases the flock


def retrying(rel: str, change: Callable[[], T], refuse: Callable[[str], T]) -> T:
    """Run ``change`` (which reads, decides and writes under :func:`writing`) again when the
    file changed under it; after :data:`ATTEMPTS` tries, ``refuse`` with the reason."""
    for _ in range(ATTEMPTS):
        try:
            return change()
        except safe_fs.FileChanged:
            continue
    return refuse(CHANGED_WHILE_WRITING.format(rel=rel, n=ATTEMPTS))
