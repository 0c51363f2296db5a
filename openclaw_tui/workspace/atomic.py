"""Replace a file's whole content so that a crash leaves either the old or the new bytes."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def replace_atomically(path: Path, text: str | bytes, *, default_mode: int = 0o644) -> None:
    """Write ``text`` (str as UTF-8, bytes exactly) to a fresh temp file beside ``path`` (``mkstemp`` is O_EXCL, so it never
    follows a planted symlink), fsync it, rename it over ``path`` and fsync the folder.

    An existing file keeps its permission bits; a new one gets ``default_mode``.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        try:
            os.fchmod(fd, os.lstat(path).st_mode & 0o777)
        except FileNotFoundError:
            os.fchmod(fd, default_mode)
        data = text.encode("utf-8") if isinstance(text, str) else text
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        dfd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
