"""Replace a file's whole content so that a crash leaves either the old or the new bytes."""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def replace_atomically(path: Path, text: str | bytes, *, default_mode: int = 0o644) -> None:
    """Replace ``path`` with ``text`` through a temp file in the same folder (see ``replace_at``)."""
    path = Path(path)
    dfd = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
    try:
        replace_at(dfd, path.name, text, default_mode=default_mode)
    finally:
        os.close(dfd)


def replace_at(dir_fd: int, name: str, text: str | bytes, *, default_mode: int = 0o644) -> None:
    """Write ``text`` (str as UTF-8, bytes exactly) to a fresh temp file in the directory ``dir_fd`` (``O_EXCL|O_NOFOLLOW``,
    so it never follows a planted symlink), fsync it, rename it over ``name`` within the same
    directory fd and fsync the folder.

    An existing file keeps its permission bits; a new one gets ``default_mode``.
    """
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        mode = stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else default_mode
    except FileNotFoundError:
        mode = default_mode
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
    for _ in range(100):
        tmp = f".{name[:200]}.{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(tmp, flags, 0o600, dir_fd=dir_fd)
            break
        except FileExistsError:
            continue
    else:  # pragma: no cover - 100 collisions of 48 random bits
        raise FileExistsError(f"cannot create a temp file for {name}")
    try:
        os.fchmod(fd, mode)
        data = text.encode("utf-8") if isinstance(text, str) else text
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=dir_fd)
        except OSError:
            pass
        raise
    try:
        os.fsync(dir_fd)
    except OSError:
        pass


def _fsync_dir(folder: Path) -> None:
    try:
        dfd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
