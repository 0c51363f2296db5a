"""Memory history: every tool change to a memory file keeps the content it replaced.

Per agent, under ``<stateDir>/agents/<agentId>/memory-history/``:

- ``objects/<sha256>``: content-addressed file versions (exact bytes), written once
  (temp file, fsync, rename), so an object is either complete or absent;
- ``journal.jsonl``: one JSON line per change, appended under an exclusive ``flock`` and
  fsynced. A torn last line (crash mid-append) is skipped on read.

The caller records *before* it writes the file (both versions are stored first, then the
journal line), and the file write itself is an atomic rename: a crash at any point leaves
either the old or the new content, with its history entry already on disk.

An append stores only what it added: ``objects/<sha256>.delta`` holds the key of the
version it extends and the appended bytes (a chain is cut by a full copy every
:data:`MAX_CHAIN` links), so a one-line note to a 4 MB log costs a line, not 4 MB.

Bounded: entries older than ``max_age_days`` go (except each file's newest), then the
oldest entries while the stored objects exceed ``max_bytes``; objects no entry refers to
are deleted. The latest :data:`KEEP_VERSIONS` entries of MEMORY.md and of each bootstrap
file are never dropped, whatever other files grew. A journal line that is not a JSON
object is skipped with a warning (``skipped`` counts them).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import time
import uuid
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterator

from openclaw_tui.owner_only import private_dir
from openclaw_tui.workspace import temp_sweep
from openclaw_tui.workspace.atomic import _fsync_dir, replace_atomically
from openclaw_tui.records.change_diff import line_counts

DEFAULT_MAX_BYTES = 64 * 1024 * 1024
DEFAULT_MAX_AGE_DAYS = 90
PRUNE_EVERY = 32  # records between two prune passes
KEEP_VERSIONS = 20  # latest entries of each protected file that no bound removes
PROTECTED = ("MEMORY.md", "memory.md", "AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "TOOLS.md", "HEARTBEAT.md", "BOOTSTRAP.md")
DELTA_MIN = 4096  # appends to files smaller than this keep a full copy
MAX_CHAIN = 64  # appended deltas in a row before a full copy
DELTA = ".delta"
log = logging.getLogger(__name__)


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
    writer: str = ""  # who wrote it, as ``memory history`` says: engine note | model | flush | user ("": the actor)


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
    before_size: int | None = None  # byte sizes of the two versions (None: absent, or an older entry)
    after_size: int | None = None
    writer: str = ""  # engine note | model | flush | user ("" in an older entry: the actor)

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
        self.skipped = 0  # journal lines that were not entries, at the last read
        self._prepared = False

    @classmethod
    def for_agent(cls, agent_dir: Path, **kw: Any) -> "MemoryHistory":
        return cls(Path(agent_dir) / "memory-history", **kw)

    @property
    def journal(self) -> Path:
        return self.root / "journal.jsonl"

    @property
    def objects(self) -> Path:
        return self.root / "objects"

    def sweep_temp(self, now: float | None = None) -> int:
        """Remove the temp copies a crash left in the store (``.<name>.<hex>.tmp`` in the
        store and ``objects/``, older than ``temp_sweep.MIN_AGE_S``); return how many."""
        if not self.root.is_dir():
            return 0
        return temp_sweep.sweep_flat(self.root, now=now) + temp_sweep.sweep_flat(self.objects, now=now)

    # ------------------------------------------------------------------ writing

    @contextmanager
    def _locked(self) -> Iterator[None]:
        if not self._prepared:  # once per instance: owner-only folders
            private_dir(self.objects)
            self._prepared = True
        fd = os.open(self.root / "lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _store(self, data: bytes | None, base: bytes | None = None, base_key: str | None = None) -> str | None:
        """Keep ``data`` by its sha256: whole, or as bytes appended to ``base`` (kept as ``base_key``)."""
        if data is None:
            return None
        key = digest(data)
        if self._has(key):
            return key
        if base is not None and base_key and len(base) >= DELTA_MIN and data.startswith(base) and len(data) > len(base):
            depth = self._chain(base_key)
            if depth < MAX_CHAIN:
                head = f"{base_key} {depth + 1}\n".encode()
                replace_atomically(self.objects / (key + DELTA), head + data[len(base) :], default_mode=0o600)
                return key
        replace_atomically(self.objects / key, data, default_mode=0o600)
        return key

    def _has(self, key: str) -> bool:
        return (self.objects / key).exists() or (self.objects / (key + DELTA)).exists()

    def _chain(self, key: str) -> int:
        """How many appended deltas lead to ``key`` (0: a whole copy)."""
        try:
            with open(self.objects / (key + DELTA), "rb") as fh:
                return int(fh.readline().split()[1])
        except (OSError, IndexError, ValueError):
            return 0

    def _delta_base(self, key: str) -> str | None:
        try:
            with open(self.objects / (key + DELTA), "rb") as fh:
                return fh.readline().split()[0].decode("ascii")
        except (OSError, IndexError, UnicodeDecodeError):
            return None

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
            before_key = self._store(before)
            entry = HistoryEntry(
                id=uuid.uuid4().hex[:10],
                ts=time.time(),
                path=path,
                tool=tool,
                before=before_key,
                after=self._store(after, before, before_key),
                actor=origin.actor,
                session_id=origin.session_id,
                turn=origin.turn,
                added=added,
                removed=removed,
                undoes=undoes,
                before_size=None if before is None else len(before),
                after_size=None if after is None else len(after),
                writer=origin.writer or origin.actor,
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
        skipped = 0
        for line in raw.splitlines():
            entry = _parse_line(line)
            if entry is None:
                skipped += line.strip() != b""  # a torn last line after a crash, or a damaged one
                continue
            if path is None or entry.path == path:
                out.append(entry)
        if skipped and skipped != self.skipped:
            log.warning("memory history: skipped %d unreadable journal line(s) in %s", skipped, self.journal)
        self.skipped = skipped
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
        tails: list[bytes] = []
        at = key
        for _ in range(MAX_CHAIN + 2):
            try:
                data = (self.objects / at).read_bytes()
                break
            except FileNotFoundError:
                pass
            try:
                raw = (self.objects / (at + DELTA)).read_bytes()
            except FileNotFoundError:
                raise HistoryError(f"version {key[:12]} is no longer kept (pruned)") from None
            head, _, tail = raw.partition(b"\n")
            tails.append(tail)
            at = head.split(b" ")[0].decode("ascii", "replace")
        else:
            raise HistoryError(f"version {key[:12]} is damaged in the history store")
        data = data + b"".join(reversed(tails))
        if digest(data) != key:
            raise HistoryError(f"version {key[:12]} is damaged in the history store")
        return data

    def size_of(self, entry: HistoryEntry, which: str) -> int | None:
        """The byte size of an entry's ``before`` or ``after`` version (None: the file was absent
        or the version is gone)."""
        size = entry.before_size if which == "before" else entry.after_size
        if size is not None:
            return size
        try:
            data = self.content(entry.before if which == "before" else entry.after)
        except HistoryError:
            return None
        return None if data is None else len(data)

    # ------------------------------------------------------------------ bounds

    def prune(self, now: float | None = None) -> int:
        """Apply the age and size bounds now; return how many entries were dropped."""
        with self._locked():
            return self._prune_locked(time.time() if now is None else now)

    def _prune_locked(self, now: float) -> int:
        entries = self.entries()
        newest = {e.path: e.id for e in entries}  # the last change of each file outlives the age bound
        kept = _protected_ids(entries)
        keep = [e for e in entries if now - e.ts <= self.max_age_s or newest[e.path] == e.id or e.id in kept]
        keep = self._within_size(keep, kept)
        dropped = len(entries) - len(keep)
        if dropped:
            text = "".join(json.dumps(e.to_dict(), ensure_ascii=False) + "\n" for e in keep)
            replace_atomically(self.journal, text, default_mode=0o600)
        live = self._live_names(keep)
        for obj in self.objects.iterdir():
            if obj.name not in live and not obj.name.startswith("."):
                obj.unlink(missing_ok=True)
        return dropped

    def _within_size(self, keep: list[HistoryEntry], kept: set[str]) -> list[HistoryEntry]:
        """Drop the oldest entries (never a protected one) until the objects they need fit."""
        sizes = self._object_sizes()
        chains: dict[str, set[str]] = {}
        needs = {e.id: set().union(*(self._chain_names(k, chains) for k in (e.before, e.after) if k)) for e in keep}
        refs: dict[str, int] = {}
        for e in keep:
            for name in needs[e.id]:
                refs[name] = refs.get(name, 0) + 1
        total = sum(sizes.get(name, 0) for name in refs)
        out: list[HistoryEntry] = []
        for i, e in enumerate(keep):
            if total <= self.max_bytes or e.id in kept or i == len(keep) - 1:
                out.append(e)  # a protected file's latest versions are never dropped for size
                continue
            for name in needs[e.id]:
                refs[name] -= 1
                if not refs[name]:
                    total -= sizes.get(name, 0)
        return out

    def _chain_names(self, key: str, memo: dict[str, set[str]]) -> set[str]:
        """Object file names version ``key`` needs (itself, and its delta bases), memoised."""
        if key not in memo:
            memo[key] = self._live_names_of(key, memo)
        return memo[key]

    def _live_names_of(self, key: str, memo: dict[str, set[str]]) -> set[str]:
        names: set[str] = set()
        at: str | None = key
        seen: list[str] = []
        while at and at not in memo and at not in seen:
            seen.append(at)
            if (self.objects / at).exists():
                names.add(at)
                at = None
            elif (self.objects / (at + DELTA)).exists():
                names.add(at + DELTA)
                at = self._delta_base(at)
            else:
                at = None
        if at and at in memo:
            names |= memo[at]
        return names

    def _object_sizes(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for obj in self.objects.iterdir():
            try:
                out[obj.name] = obj.stat().st_size
            except FileNotFoundError:
                pass
        return out

    def _live_names(self, entries: list[HistoryEntry]) -> set[str]:
        """Object file names the entries need: their versions and every delta's base, transitively."""
        todo = [k for e in entries for k in (e.before, e.after) if k]
        live: set[str] = set()
        while todo:
            key = todo.pop()
            if key in live or key + DELTA in live:
                continue
            if (self.objects / key).exists():
                live.add(key)
            elif (self.objects / (key + DELTA)).exists():
                live.add(key + DELTA)
                base = self._delta_base(key)
                if base:
                    todo.append(base)
        return live

    def _bytes_of(self, entries: list[HistoryEntry], sizes: dict[str, int] | None = None) -> int:
        sizes = self._object_sizes() if sizes is None else sizes
        return sum(sizes.get(name, 0) for name in self._live_names(entries))


def _parse_line(line: bytes) -> HistoryEntry | None:
    """One journal line as an entry, or None (torn, not JSON, not an object, wrong fields)."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    try:
        entry = HistoryEntry.from_dict(data)
    except TypeError:
        return None
    if not isinstance(entry.id, str) or not isinstance(entry.path, str) or not isinstance(entry.ts, (int, float)):
        return None
    return entry


def _protected_ids(entries: list[HistoryEntry]) -> set[str]:
    """Ids of the latest KEEP_VERSIONS entries of each protected file."""
    out: set[str] = set()
    counts: dict[str, int] = {}
    for e in reversed(entries):
        if e.path in PROTECTED and counts.get(e.path, 0) < KEEP_VERSIONS:
            counts[e.path] = counts.get(e.path, 0) + 1
            out.add(e.id)
    return out


@dataclass(frozen=True)
class MemoryChange:
    """A change a tool made to a memory file (both versions, and its history entry if kept)."""

    path: str
    tool: str
    before: bytes | None
    after: bytes | None
    entry: HistoryEntry | None = None
