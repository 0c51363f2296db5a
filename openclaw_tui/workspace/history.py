"""Memory history: every tool change to a memory file keeps the content it replaced.

Per agent, under ``<stateDir>/agents/<agentId>/memory-history/``:

- ``objects/<sha256>``: content-addressed file versions (exact bytes), written once
  (temp file, fsync, rename), so an object is either complete or absent;
- ``journal.jsonl``: one JSON line per change, appended under an exclusive ``flock`` and
  fsynced. A torn last line (crash mid-append) is skipped on read.

The caller records *before* it writes the file (both versions are stored first, then the
journal line), and the file write itself is an atomic rename: a crash at any point leaves
either the old or the new content, with its history entry already on disk.

Bounded: entries older than ``max_age_days`` go (except each file's newest), then the
oldest entries while the stored objects exceed ``max_bytes``; objects no entry refers to
are deleted.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import time
import uuid
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterator

from openclaw_tui.workspace.atomic import _fsync_dir, replace_atomically
from openclaw_tui.workspace.change_diff import line_counts

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
DEFAULT_MAX_AGE_DAYS = 90
PRUNE_EVERY = 32  # records between two prune passes


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class HistoryError(Exception):
    """A history lookup that cannot be answered (unknown id, missing object)."""


@dataclass(frozen=True)
class ChangeOrigin:
    """Who made a change: the model in a session turn, or the user (restore, /undo)."""

    actor: str = "model"  # model | user
    session_id: str = ""
    turn: int = 0


@dataclass(frozen=True)
class HistoryEntry:
    id: str
    ts: float
    path: str  # workspace-relative
    tool: str  # write | edit | append | restore | undo | forget
    before: str | None  # sha256 of the previous bytes; None when the file did not exist
    after: str | None  # sha256 of the new bytes; None when the change removed the file
    actor: str
    session_id: str
    turn: int
    added: int  # lines added / removed by the change
    removed: int
    undoes: str | None = None  # for restore/undo: the entry whose previous content came back

    @property
    def summary(self) -> str:
        return f"+{self.added} −{self.removed}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "HistoryEntry":
        fields = cls.__dataclass_fields__
        return cls(**{k: v for k, v in data.items() if k in fields})


class MemoryHistory:
    def __init__(self, root: Path, *, max_bytes: int = DEFAULT_MAX_BYTES, max_age_days: float = DEFAULT_MAX_AGE_DAYS):
        self.root = Path(root)
        self.max_bytes = max_bytes
        self.max_age_s = max_age_days * 86400
        self._records = 0

    @classmethod
    def for_agent(cls, agent_dir: Path, **kw: Any) -> "MemoryHistory":
        return cls(Path(agent_dir) / "memory-history", **kw)

    @property
    def journal(self) -> Path:
        return self.root / "journal.jsonl"

    @property
    def objects(self) -> Path:
        return self.root / "objects"

    # ------------------------------------------------------------------ writing

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.objects.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.root / "lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _store(self, data: bytes | None) -> str | None:
        if data is None:
            return None
        key = digest(data)
        target = self.objects / key
        if not target.exists():
            replace_atomically(target, data, default_mode=0o600)
        return key

    def record(
        self,
        path: str,
        before: bytes | None,
        after: bytes | None,
        tool: str,
        origin: ChangeOrigin,
        *,
        undoes: str | None = None,
    ) -> HistoryEntry:
        """Keep both versions and journal the change; call this *before* writing the file."""
        added, removed = line_counts(before, after)
        with self._locked():
            entry = HistoryEntry(
                id=uuid.uuid4().hex[:10],
                ts=time.time(),
                path=path,
                tool=tool,
                before=self._store(before),
                after=self._store(after),
                actor=origin.actor,
                session_id=origin.session_id,
                turn=origin.turn,
                added=added,
                removed=removed,
                undoes=undoes,
            )
            self._append(entry)
            self._records += 1
            if self._records % PRUNE_EVERY == 0:
                self._prune_locked(time.time())
        return entry

    def _append(self, entry: HistoryEntry) -> None:
        line = (json.dumps(entry.to_dict(), ensure_ascii=False) + "\n").encode("utf-8")
        fd = os.open(self.journal, os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                line = b"\n" + line  # a torn line from a crash stays on its own (skipped) line
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)
        _fsync_dir(self.root)

    # ------------------------------------------------------------------ reading

    def entries(self, path: str | None = None) -> list[HistoryEntry]:
        """All entries, oldest first (optionally only those of one workspace path)."""
        try:
            raw = self.journal.read_bytes()
        except FileNotFoundError:
            return []
        out: list[HistoryEntry] = []
        for line in raw.splitlines():
            try:
                entry = HistoryEntry.from_dict(json.loads(line))
            except (ValueError, TypeError):
                continue  # a torn last line after a crash
            if path is None or entry.path == path:
                out.append(entry)
        return out

    def find(self, entry_id: str, path: str | None = None) -> HistoryEntry:
        """The entry whose id starts with ``entry_id`` (unique prefix)."""
        hits = [e for e in self.entries(path) if e.id.startswith(entry_id.strip().lower())]
        if not hits:
            where = f" for {path}" if path else ""
            raise HistoryError(f"no history entry {entry_id!r}{where}; list them with `memory history`")
        if len({e.id for e in hits}) > 1:
            raise HistoryError(f"history id {entry_id!r} is ambiguous; give more characters")
        return hits[0]

    def content(self, key: str | None) -> bytes | None:
        """The stored bytes of a version; None for "the file did not exist"."""
        if key is None:
            return None
        try:
            data = (self.objects / key).read_bytes()
        except FileNotFoundError:
            raise HistoryError(f"version {key[:12]} is no longer kept (pruned)") from None
        if digest(data) != key:
            raise HistoryError(f"version {key[:12]} is damaged in the history store")
        return data

    # ------------------------------------------------------------------ bounds

    def prune(self, now: float | None = None) -> int:
        """Apply the age and size bounds now; return how many entries were dropped."""
        with self._locked():
            return self._prune_locked(time.time() if now is None else now)

    def _prune_locked(self, now: float) -> int:
        entries = self.entries()
        newest = {e.path: e.id for e in entries}  # the last change of each file outlives the age bound
        keep = [e for e in entries if now - e.ts <= self.max_age_s or newest[e.path] == e.id]
        while len(keep) > 1 and self._bytes_of(keep) > self.max_bytes:
            keep.pop(0)
        dropped = len(entries) - len(keep)
        if dropped:
            text = "".join(json.dumps(e.to_dict(), ensure_ascii=False) + "\n" for e in keep)
            replace_atomically(self.journal, text, default_mode=0o600)
        live = {k for e in keep for k in (e.before, e.after) if k}
        for obj in self.objects.iterdir():
            if obj.name not in live and not obj.name.startswith("."):
                obj.unlink(missing_ok=True)
        return dropped

    def _bytes_of(self, entries: list[HistoryEntry]) -> int:
        keys = {k for e in entries for k in (e.before, e.after) if k}
        total = 0
        for key in keys:
            try:
                total += (self.objects / key).stat().st_size
            except FileNotFoundError:
                pass
        return total


@dataclass(frozen=True)
class MemoryChange:
    """A change a tool made to a memory file (both versions, and its history entry if kept)."""

    path: str
    tool: str
    before: bytes | None
    after: bytes | None
    entry: HistoryEntry | None = None
