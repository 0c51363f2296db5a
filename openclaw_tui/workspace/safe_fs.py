"""The one way to touch a file beneath a root: ``openat`` walks with ``O_NOFOLLOW``.

Every component below ``root`` is opened relative to the directory fd of its parent, with
``O_NOFOLLOW`` (and ``O_DIRECTORY`` for folders), so a symlink swapped in after any textual
check still cannot be followed: the open fails with ``ELOOP``/``ENOTDIR`` and becomes a
``PathRefused``. Files must be regular, checked with ``fstat`` on the
opened descriptor (the identity that was actually reached beneath the root); a file with other
hard links outside the root is a plain file (no link is followed to reach it) and is never
written through: writes replace a file through a temp file created in the same directory fd
and renamed within it, and an append to a hard-linked file is made the same way.

``rel`` is always a normalised workspace-relative path (``guard.normalize_rel``).
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import stat
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable, Iterator

from openclaw_tui.workspace.atomic import replace_at
from openclaw_tui.workspace.guard import PathRefused, check_file

#: Whole-file reads refuse files above this size (the indexer's cap).
MAX_FILE_BYTES = 64 * 1024 * 1024
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)

#: ``(current size, last byte or b"")`` -> the bytes to append
AppendFn = Callable[[int, bytes], bytes]


class FileTooLarge(PathRefused):
    """A whole-file read of a file above the cap."""

    def __init__(self, path: str, size: int, cap: int):
        super().__init__(path, f"file too large ({size / 2**20:.0f} MB, cap {cap // 2**20} MB)")
        self.size = size
        self.cap = cap


@dataclass(frozen=True)
class Lines:
    """A line range read from a file: ``lines`` without their newlines."""

    lines: list[str]
    start: int  # 1-based
    truncated: bool  # the character cap stopped the read
    open_end: bool = False  # the last line is the file's last and has no newline

    def text(self) -> str:
        """The lines joined with ``\n``, each ended by one unless the file's last has none."""
        body = "\n".join(self.lines)
        return body if not self.lines or self.open_end or self.truncated else body + "\n"


def _refusal(rel: str, exc: OSError) -> PathRefused:
    if exc.errno in (errno.ELOOP, errno.EMLINK):
        return PathRefused(rel, "symlinks are refused")
    if exc.errno == errno.ENOTDIR:
        return PathRefused(rel, "a path component is a symlink or not a directory")
    if exc.errno == errno.EISDIR:
        return PathRefused(rel, "path is a directory, not a file")
    return PathRefused(rel, f"cannot open path: {exc.strerror or exc}")


def _open_dir(root: Path, parts: list[str], rel: str, *, create: bool) -> int:
    """A directory fd for ``root/parts`` reached with ``O_NOFOLLOW`` at every step.

    With ``create`` a missing root is made first: the workspace itself is configured by the
    user (trusted), and the first note creates it, as the engine's warning promises."""
    if create:
        root.mkdir(parents=True, exist_ok=True)
    fd = os.open(root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    try:
        for part in parts:
            try:
                nxt = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    os.mkdir(part, 0o755, dir_fd=fd)
                except FileExistsError:
                    pass
                nxt = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=fd)
            os.close(fd)
            fd = nxt
        return fd
    except FileNotFoundError:
        os.close(fd)
        raise
    except OSError as exc:
        os.close(fd)
        raise _refusal(rel, exc) from None


@contextmanager
def parent_dir(root: Path, rel: str, *, create: bool = False) -> Iterator[tuple[int, str]]:
    """``(directory fd, final name)`` of ``rel`` beneath ``root``; the fd is closed after."""
    parts = rel.split("/")
    fd = _open_dir(Path(root), parts[:-1], rel, create=create)
    try:
        yield fd, parts[-1]
    finally:
        os.close(fd)


def open_file(root: Path, rel: str) -> tuple[int, os.stat_result]:
    """Open ``root/rel`` read-only beneath ``root``; ``(fd, fstat)`` of a checked file.

    Raises ``FileNotFoundError`` when it does not exist and ``PathRefused`` otherwise."""
    with parent_dir(root, rel) as (dfd, name):
        try:
            fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC, dir_fd=dfd)
        except FileNotFoundError:
            raise  # missing is not a refusal: the caller says "does not exist"
        except OSError as exc:
            raise _refusal(rel, exc) from None
    try:
        st = os.fstat(fd)
        check_file(rel, st)
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def read_bytes(fd: int, st: os.stat_result, rel: str, cap: int = MAX_FILE_BYTES) -> bytes:
    """The whole content of an opened file, refused above ``cap`` bytes."""
    if st.st_size > cap:
        raise FileTooLarge(rel, st.st_size, cap)
    chunks: list[bytes] = []
    total = 0
    while True:
        piece = os.read(fd, 1 << 20)
        if not piece:
            return b"".join(chunks)
        total += len(piece)
        if total > cap:  # grew while we read
            raise FileTooLarge(rel, total, cap)
        chunks.append(piece)


Ident = tuple[int, int, int, int]  # inode, size, mtime_ns, ctime_ns: "the same file, unchanged"


class FileChanged(Exception):
    """The file is not what it was when it was read (another program saved it meanwhile)."""

    def __init__(self, rel: str):
        super().__init__(f"{rel} changed while it was being written")
        self.rel = rel


def ident(st: os.stat_result) -> Ident:
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def current_state(root: Path, rel: str) -> tuple[bytes | None, Ident | None]:
    """The file's bytes now and its identity (for "rename only if unchanged"); (None, None)
    when it does not exist."""
    try:
        fd, st = open_file(root, rel)
    except FileNotFoundError:
        return None, None
    try:
        return read_bytes(fd, st, rel), ident(st)
    finally:
        os.close(fd)


def _expect(dfd: int, name: str, rel: str, expect: Ident | None | bool) -> None:
    """Raise ``FileChanged`` unless ``name`` still has identity ``expect`` (None: absent;
    False: no expectation)."""
    if expect is False:
        return
    try:
        now: Ident | None = ident(os.stat(name, dir_fd=dfd, follow_symlinks=False))
    except FileNotFoundError:
        now = None
    if now != expect:
        raise FileChanged(rel)


def read_prefix(fd: int, limit: int) -> bytes:
    """At most ``limit`` bytes from the start of an opened file (never more in memory)."""
    chunks: list[bytes] = []
    total = 0
    while total < limit:
        piece = os.read(fd, min(1 << 20, limit - total))
        if not piece:
            break
        chunks.append(piece)
        total += len(piece)
    return b"".join(chunks)


def current_bytes(root: Path, rel: str) -> bytes | None:
    """The file's bytes now (read beneath ``root``, size-capped), or None when it does not
    exist. Raises ``PathRefused`` for a link, a special file or a file over the cap."""
    try:
        fd, st = open_file(root, rel)
    except FileNotFoundError:
        return None
    try:
        return read_bytes(fd, st, rel)
    finally:
        os.close(fd)


def remove_file(root: Path, rel: str, *, expect: Ident | None | bool = False) -> None:
    """Unlink ``root/rel`` (a checked regular file, never through a link); missing is fine."""
    with parent_dir(root, rel) as (dfd, name):
        _expect(dfd, name, rel, expect)
        try:
            st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
        except FileNotFoundError:
            return
        if stat.S_ISLNK(st.st_mode):
            raise PathRefused(rel, "symlinks are refused")
        check_file(rel, st)
        os.unlink(name, dir_fd=dfd)
        os.fsync(dfd)


def read_text(root: Path, rel: str, cap: int = MAX_FILE_BYTES) -> tuple[str, os.stat_result]:
    """Whole file as text (invalid UTF-8 replaced) plus the fstat of what was read."""
    fd, st = open_file(root, rel)
    try:
        return read_bytes(fd, st, rel, cap).decode("utf-8", errors="replace"), st
    finally:
        os.close(fd)


def read_lines(fd: int, start: int, count: int | None, max_chars: int) -> Lines:
    """Lines ``start``..``start+count-1`` (1-based; ``\n``, ``\r\n`` and ``\r`` end a line)
    read incrementally from an opened file.

    Memory stays within ``max_chars`` (plus one buffer) whatever the file size: earlier lines
    stream by unkept, a line longer than the cap is cut, and the read stops as soon as the
    count or the cap is reached."""
    out: list[str] = []
    used = 0
    truncated = open_end = False
    with os.fdopen(os.dup(fd), "rb", buffering=0) as fh:
        os.lseek(fh.fileno(), 0, os.SEEK_SET)
        for n, (raw, cut, ended) in enumerate(_iter_lines(fh, max_chars * 4 + 4), 1):
            if n < start:
                continue
            text = raw.decode("utf-8", errors="replace")
            if cut or used + len(text) > max_chars:
                out.append(text[: max(0, max_chars - used)])
                truncated = True
                break
            out.append(text)
            open_end = not ended
            used += len(text) + 1
            if count is not None and len(out) >= count:
                break
    return Lines(out, start, truncated, open_end)


_EOL = re.compile(rb"\r\n|\r|\n")


def _iter_lines(fh: BinaryIO, limit: int) -> Iterator[tuple[bytes, bool, bool]]:
    """``(line bytes, cut, ended by a newline)`` per line; a line over ``limit`` bytes is
    yielded cut at once and the rest of it is consumed unkept."""
    head, skipping, cr = b"", False, False
    while piece := fh.read(1 << 16):
        if cr and piece.startswith(b"\n"):
            piece = piece[1:]
        cr = piece.endswith(b"\r")
        parts = _EOL.split(piece)
        for i, seg in enumerate(parts):
            ended = i < len(parts) - 1
            if not skipping:
                head += seg
                if len(head) > limit:
                    yield head[:limit], True, False
                    head, skipping = b"", True
                elif ended:
                    yield head, False, True
            if ended:
                head, skipping = b"", False
    if head and not skipping:
        yield head, False, False


def replace_text(root: Path, rel: str, text: str | bytes, *, default_mode: int = 0o644, expect: Ident | None | bool = False) -> None:
    """Atomically replace ``root/rel`` with ``text`` (str as UTF-8, bytes exactly): the temp file is created in the parent's
    directory fd (reached without following links) and renamed within that same fd. With
    ``expect`` (an identity from ``current_state``, None for "absent"), ``FileChanged`` is
    raised instead when the file is no longer the one that was read."""
    with parent_dir(root, rel, create=True) as (dfd, name):
        _expect(dfd, name, rel, expect)
        try:
            st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
        except FileNotFoundError:
            st = None
        if st is not None:
            if stat.S_ISLNK(st.st_mode):
                raise PathRefused(rel, "symlinks are refused")
            check_file(rel, st)
        replace_at(dfd, name, text, default_mode=default_mode)


def append_bytes(root: Path, rel: str, data_for: AppendFn, *, expect: Ident | None | bool = False, mode: int = 0o644) -> int:
    """Append under an exclusive ``flock`` to ``root/rel`` (created ``mode`` when missing; with an
    owner-only ``mode``, an existing file of ours open to others is narrowed through the descriptor).

    ``data_for(size, last_byte)`` builds the bytes to write from the current size and last
    byte; on a failed write the file is truncated back so no torn half-line stays. A file with
    other hard links (a snapshot made with ``cp -al``) is not written through: the appended
    whole replaces this name by a rename, and the other names keep their bytes."""
    with parent_dir(root, rel, create=True) as (dfd, name):
        try:
            fd = os.open(name, os.O_RDWR | os.O_APPEND | os.O_CREAT | _NOFOLLOW | _NONBLOCK | _CLOEXEC, mode, dir_fd=dfd)
        except OSError as exc:
            raise _refusal(rel, exc) from None
        try:
            check_file(rel, os.fstat(fd))
            fcntl.flock(fd, fcntl.LOCK_EX)
            if expect is not False and ident(os.fstat(fd)) != expect and not (expect is None and os.fstat(fd).st_size == 0):
                raise FileChanged(rel)
            st = os.fstat(fd)
            size = st.st_size
            if st.st_nlink > 1:  # copy on write: the other names are not ours to change
                before = read_bytes(fd, st, rel)
                data = data_for(len(before), before[-1:])
                replace_at(dfd, name, before + data, default_mode=stat.S_IMODE(st.st_mode) & (mode | 0o700))
                return len(data)
            if not mode & 0o077:
                _narrow(fd, mode)  # an owner-only file stays owner-only (after the identity check: it changes ctime)
            data = data_for(size, os.pread(fd, 1, size - 1) if size else b"")
            view = memoryview(data)
            try:
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            except OSError:
                os.ftruncate(fd, size)  # disk full mid-write: no torn half-line stays behind
                raise
            return len(data)
        finally:
            os.close(fd)  # closing releases the flock


def _narrow(fd: int, mode: int) -> None:
    """The open file's group/other bits cut to ``mode``'s (a file we own; errors ignored)."""
    try:
        st = os.fstat(fd)
        if st.st_uid == os.getuid() and stat.S_IMODE(st.st_mode) & 0o077 & ~mode:
            os.fchmod(fd, stat.S_IMODE(st.st_mode) & (mode | 0o700))
    except OSError:
        pass
