"""The agent's index file: opened on demand, followed across swaps, set aside when corrupt.

A corrupt or foreign file is moved to ``<name>.corrupt-<ms>`` (never deleted) and a fresh
one is opened. A full rebuild writes ``<name>.rebuild-<pid>-<ms>`` and swaps it in with
``os.replace``: a crash mid-rebuild leaves the old index usable, and the leftovers of dead
processes are removed the next time the index is opened.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path

import apsw

from openclaw_tui.memory.builtin.store import Store

log = logging.getLogger("openclaw_tui.memory")


class IndexUnavailable(Exception):
    """The index file cannot be opened or created (missing/read-only state dir, bad store.path)."""


class IndexFile:
    """The live ``Store`` at ``path`` (thread-safe); ``store()`` opens or reopens it."""

    def __init__(self, path: Path, *, vector_enabled: bool, extension_path: str | None,
                 fts_tokenizer: str = "unicode61") -> None:
        self.path = path
        self.fts_tokenizer = fts_tokenizer
        self._vector_enabled = vector_enabled
        self._extension_path = extension_path
        self._store: Store | None = None
        self._ino: int | None = None
        self.lock = threading.RLock()
        self.closed = False

    @property
    def current(self) -> Store | None:
        """The store if it is open (nothing is opened)."""
        return self._store

    def open_at(self, path: Path) -> Store:
        return Store(path, vector_enabled=self._vector_enabled, extension_path=self._extension_path,
                     fts_tokenizer=self.fts_tokenizer)

    def open_rebuild(self, path: Path) -> Store:
        """A store for a full rebuild at ``path``, a temp file no one reads yet: its rollback
        journal in memory and no fsync per commit; ``swap_in`` syncs the file once before it
        replaces the live index, so a crash leaves the old index as before."""
        store = self.open_at(path)
        with store.lock:
            store.conn.execute("pragma journal_mode=memory").fetchall()
            store.conn.execute("pragma synchronous=off").fetchall()
        return store

    def store(self) -> Store:
        """The live index; reopened when another process swapped in a rebuilt file."""
        if self.closed:
            raise RuntimeError("memory manager is closed")
        with self.lock:
            if self._store is not None:
                try:
                    ino = os.stat(self.path).st_ino
                except OSError:
                    ino = None
                if ino == self._ino:
                    return self._store
                self._drop()
            self._store = self._open_live()
            self._ino = os.stat(self.path).st_ino
            return self._store

    def _open_live(self) -> Store:
        path = self.path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise IndexUnavailable(f"cannot open the memory index {path}: {exc.strerror or exc}") from None
        cleanup_temp_files(path)
        try:
            store = self.open_at(path)
            store.counts()
            return store
        except apsw.CantOpenError as exc:
            raise IndexUnavailable(f"cannot open the memory index {path}: {exc}") from None
        except (apsw.CorruptError, apsw.NotADBError) as exc:
            # corrupt or foreign index: keep it aside (never delete), start fresh. A full disk,
            # a read-only state dir or a lock held elsewhere is not corruption: it propagates to
            # sync/search/status, which report it.
            set_aside(path, exc)
            return self.open_at(path)

    def _drop(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    def repair(self, exc: BaseException) -> None:
        """A row that does not decode: set the file aside like a corrupt one; the next
        ``store()`` opens a fresh file and the next search or sync rebuilds it."""
        with self.lock:
            self._drop()
            set_aside(self.path, exc)

    def rebuild_path(self) -> Path:
        return self.path.with_name(f"{self.path.name}.rebuild-{os.getpid()}-{int(time.time() * 1000)}")

    def swap_in(self, tmp: Path) -> None:
        """Atomically replace the live file with the (closed) rebuilt one at ``tmp``."""
        _fsync(tmp)  # written without fsyncs (``open_rebuild``): durable before it goes live
        with self.lock:
            self._drop()
            os.replace(tmp, self.path)
            for suffix in ("-journal", "-wal", "-shm"):
                try:
                    os.unlink(str(self.path) + suffix)
                except OSError:
                    pass
        self.store()

    def close(self) -> None:
        with self.lock:
            self._drop()
            self.closed = True


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def discard(tmp: Path) -> None:
    """Remove an abandoned rebuild file."""
    for suffix in ("", "-journal"):
        try:
            os.unlink(str(tmp) + suffix)
        except OSError:
            pass


def set_aside(path: Path, exc: BaseException) -> None:
    aside = path.with_name(f"{path.name}.corrupt-{int(time.time() * 1000)}")
    log.warning("index %s is unreadable (%s); moved to %s and rebuilding", path, exc, aside.name)
    try:
        os.replace(path, aside)
    except OSError:
        pass


def cleanup_temp_files(path: Path) -> None:
    """Delete rebuild files left by dead processes (a live one may still be rebuilding)."""
    prefix = f"{path.name}.rebuild-"
    try:
        for entry in os.scandir(path.parent):
            if entry.name.startswith(prefix):
                pid_part = entry.name[len(prefix) :].split("-")[0].split(".")[0]
                if pid_part.isdigit() and int(pid_part) != os.getpid() and _pid_alive(int(pid_part)):
                    continue  # another live process is rebuilding
                try:
                    os.unlink(entry.path)
                except OSError:
                    pass
    except OSError:
        pass


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it runs, as another user
    return True
