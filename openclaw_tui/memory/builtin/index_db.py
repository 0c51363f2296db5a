"""One open index file: the apsw connection and its lock, the tables, and the ``meta`` table.

Tables: ``meta``, ``files(path, source, hash, mtime, size)``,
``chunks(id, path, source, start_line, end_line, hash, model, text, embedding, updated_at)``,
``chunk_vectors(id, chunk_id, embedding)`` (**ours:** several vectors per chunk, one per
sub-window of whole lines) and ``embedding_cache(provider, model, provider_key, hash →
embedding)``; the FTS5 and sqlite-vec tables are made by ``fts_index`` and ``vector_index``.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import apsw
import numpy as np

from openclaw_tui.owner_only import private_db

#: 2: several vectors per chunk (chunk_vectors; chunks_vec rows keyed by sub-vector id)
SCHEMA_VERSION = 2
MMAP_BYTES = 1 << 30

_SCHEMA = """
create table if not exists meta(key text primary key, value text not null);
create table if not exists files(
    path text primary key,
    source text not null default 'memory',
    hash text not null,
    mtime real not null default 0,
    mtime_ns integer not null default 0,
    size integer not null default 0
);
create table if not exists chunks(
    id integer primary key autoincrement,
    path text not null,
    source text not null default 'memory',
    start_line integer not null,
    end_line integer not null,
    hash text not null,
    model text not null default '',
    text text not null,
    embedding blob,
    updated_at real not null
);
create index if not exists chunks_path on chunks(path);
create table if not exists chunk_vectors(
    id integer primary key autoincrement,
    chunk_id integer not null,
    embedding blob not null
);
create index if not exists chunk_vectors_chunk on chunk_vectors(chunk_id);
create table if not exists embedding_cache(
    provider text not null,
    model text not null,
    provider_key text not null,
    hash text not null,
    dims integer not null,
    embedding blob not null,
    updated_at real not null,
    primary key(provider, model, provider_key, hash)
);
create index if not exists embedding_cache_age on embedding_cache(updated_at);
"""


class ForeignIndex(apsw.CorruptError):
    """The file is a valid SQLite database that is not our index (another schema), or one of
    its rows does not decode: it is set aside and rebuilt like a corrupt one."""


#: the columns each of our tables must have (a file without them is not our index)
_REQUIRED_COLUMNS = {
    "meta": {"key", "value"},
    "files": {"path", "source", "hash", "mtime", "mtime_ns", "size"},
    "chunks": {"id", "path", "source", "start_line", "end_line", "hash", "model", "text", "embedding", "updated_at"},
    "chunk_vectors": {"id", "chunk_id", "embedding"},
    "embedding_cache": {"provider", "model", "provider_key", "hash", "dims", "embedding", "updated_at"},
}


class IndexDb:
    """The connection every part of a ``Store`` shares. Thread-safe: every call holds ``self.lock``."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.lock = threading.RLock()
        self.conn = apsw.Connection(private_db(self.path))  # memory text: owner-only, like MEMORY.md
        self.conn.set_busy_timeout(10_000)
        self.conn.execute("pragma journal_mode=delete").fetchall()
        self.conn.execute("pragma synchronous=normal").fetchall()
        # reading vectors through mmap instead of the page cache makes vec0 KNN scans ~40% faster
        self.conn.execute(f"pragma mmap_size={MMAP_BYTES}").fetchall()

    def check_schema(self) -> None:
        """Raise ``ForeignIndex`` when a table lacks one of our columns (another program's file)."""
        for table, wanted in _REQUIRED_COLUMNS.items():
            have = {row[1] for row in self.conn.execute(f"pragma table_info({table})")}
            missing = wanted - have
            if have and missing:  # an absent table is created; one with other columns is not ours
                self.close()
                raise ForeignIndex(f"not an openclaw-tui index: table {table} lacks {', '.join(sorted(missing))}")

    def create_tables(self) -> None:
        self.conn.execute(_SCHEMA)

    def close(self) -> None:
        with self.lock:
            try:
                self.conn.close()
            except apsw.Error:
                pass

    # ------------------------------------------------------------------ meta

    def get_meta(self, key: str) -> str | None:
        with self.lock:
            row = self.conn.execute("select value from meta where key = ?", (key,)).fetchone()
            return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.lock:
            self.conn.execute("insert or replace into meta(key, value) values(?, ?)", (key, value))

    def get_meta_json(self, key: str) -> Any:
        raw = self.get_meta(key)
        if raw is None:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return None

    def set_meta_json(self, key: str, value: Any) -> None:
        self.set_meta(key, json.dumps(value, sort_keys=True))


def count_rows(cursor: apsw.Cursor) -> int:
    """The number a ``select count(*)`` cursor yields."""
    row = cursor.fetchone()
    return int(row[0]) if row is not None else 0


def vec_to_blob(vec: np.ndarray) -> bytes:
    return np.asarray(vec, dtype=np.float32).tobytes()


def blob_to_vec(blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype=np.float32)
