"""Files and their chunks in the index: the ``files`` rows, the ``chunks`` rows with their FTS
and vector rows written and deleted together, and the row types read back."""

from __future__ import annotations

import time
import uuid
from dataclasses import astuple, dataclass
from typing import Any, Iterable, Sequence, cast

import numpy as np

from openclaw_tui.memory.builtin.fts_index import FtsIndex
from openclaw_tui.memory.builtin.index_db import ForeignIndex, IndexDb, count_rows, vec_to_blob
from openclaw_tui.memory.builtin.vector_index import VectorIndex

_ROW_TYPES = (int, str, str, int, int, str, str)  # ChunkRow fields, in order
_INSERT_CHUNK = ("insert into chunks(path, source, start_line, end_line, hash, model, text, embedding, updated_at)"
                 " values(?, ?, ?, ?, ?, ?, ?, ?, ?)")
_INSERT_FILE = "insert or replace into files(path, source, hash, mtime, mtime_ns, size) values(?, ?, ?, ?, ?, ?)"


@dataclass
class ChunkRow:
    id: int
    path: str
    source: str
    start_line: int
    end_line: int
    hash: str
    text: str


#: one chunk to write: ``(start, end, hash, text)`` or ``(start, end, hash, text, context)``
ChunkSpec = tuple[int, int, str, str] | tuple[int, int, str, str, str]


@dataclass
class FileRow:
    path: str
    source: str
    hash: str
    mtime: float
    mtime_ns: int
    size: int


@dataclass(frozen=True)
class FileWrite:
    """One file's rows for ``Store.replace_files``: its ``files`` row, chunks and vectors
    (one 2-D array per chunk of its sub-window vectors, one vector per chunk, or None)."""

    file: FileRow
    chunks: Sequence[ChunkSpec]
    embeddings: Any = None


def _per_chunk_vectors(embeddings: np.ndarray | Sequence[np.ndarray | None] | None, n: int) -> list[np.ndarray | None]:
    """Normalise ``replace_file``'s ``embeddings`` to one 2-D array (or None) per chunk."""
    if embeddings is None:
        return [None] * n
    if isinstance(embeddings, np.ndarray) and embeddings.ndim == 2:
        return [np.asarray(embeddings[i : i + 1], dtype=np.float32) for i in range(n)]
    out: list[np.ndarray | None] = []
    for i in range(n):
        v = embeddings[i] if i < len(embeddings) else None
        if v is None:
            out.append(None)
            continue
        arr = np.asarray(v, dtype=np.float32)
        out.append(arr.reshape(1, -1) if arr.ndim == 1 else arr)
    return out


def _mean_blob(subs: np.ndarray | None, dims: int | None) -> bytes | None:
    """A chunk's ``embedding`` column: the normalised mean of its sub-vectors (None without)."""
    if subs is None or not subs.size:
        return None
    if int(subs.shape[1]) != dims:
        raise ValueError(f"vector dimension changed ({dims} → {int(subs.shape[1])}); a full rebuild is needed")
    mean = subs.mean(axis=0)
    norm = float(np.linalg.norm(mean))
    return vec_to_blob(mean / norm if norm > 0 else mean)


class ChunkFiles:
    """The ``files`` and ``chunks`` rows of one index file; a write keeps the FTS and vector
    rows of its chunks in step and stamps a new ``vector_generation``."""

    def __init__(self, db: IndexDb, fts: FtsIndex, vectors: VectorIndex):
        self.conn = db.conn
        self.lock = db.lock
        self.fts = fts
        self.vectors = vectors

    def files(self, source: str | None = None, paths: Iterable[str] | None = None) -> dict[str, FileRow]:
        """The ``files`` rows (of one source; of the given ``paths`` only: a search's hits
        need their few rows, not the whole table)."""
        where: list[str] = []
        args: list[Any] = []
        if source:
            where.append("source = ?")
            args.append(source)
        if paths is not None:
            keys = sorted(set(paths))
            if not keys:
                return {}
            where.append(f"path in ({','.join('?' * len(keys))})")
            args.extend(keys)
        sql = "select path, source, hash, mtime, mtime_ns, size from files"
        with self.lock:
            rows: list[tuple[Any, ...]] = self.conn.execute(sql + (" where " + " and ".join(where) if where else ""), args).fetchall()
        if not all(isinstance(r[0], str) and isinstance(r[1], str) for r in rows):
            raise ForeignIndex("a files row does not decode (wrong column types)")
        return {r[0]: FileRow(*r) for r in rows}

    def counts(self) -> tuple[int, int]:
        with self.lock:
            files = count_rows(self.conn.execute("select count(*) from files"))
            chunks = count_rows(self.conn.execute("select count(*) from chunks"))
        return files, chunks

    def replace_file(
        self,
        path: str,
        source: str,
        file_hash: str,
        mtime: float,
        mtime_ns: int,
        size: int,
        chunks: Sequence[ChunkSpec],
        embeddings: np.ndarray | Sequence[np.ndarray | None] | None,
        model: str = "",
    ) -> None:
        """Atomically replace every row of one file. ``chunks`` is ``[(start, end, hash, text)]``
        or ``[(start, end, hash, text, context)]``: a non-empty ``context`` (the chunk's
        heading context) is indexed for FTS before the text, never stored as the chunk's text.

        ``embeddings`` is one vector per chunk (a 2-D array) or, per chunk, a 2-D array of
        its sub-window vectors (``chunk_vectors``); the chunk's row keeps their normalised mean."""
        self.replace_files([FileWrite(FileRow(path, source, file_hash, mtime, mtime_ns, size), chunks, embeddings)], model=model)

    def replace_files(self, files: Sequence[FileWrite], model: str = "") -> None:
        """``replace_file`` for several files in one savepoint with one generation stamp: FTS5
        flushes its pending terms into a new segment at every savepoint, so a savepoint per
        file made the FTS writes of a full index ~4× slower."""
        now = time.time()
        with self.lock, self.conn:
            for f in files:
                self._write_file(f, model, now)
            self._bump_generation()

    def _write_file(self, f: FileWrite, model: str, now: float) -> None:
        per_chunk = _per_chunk_vectors(f.embeddings, len(f.chunks))
        self._delete_path_rows(f.file.path)
        dims = next((int(v.shape[1]) for v in per_chunk if v is not None and v.size), None)
        if dims is not None:
            self.vectors.ensure_vec_table(dims)
        for row, subs in zip(f.chunks, per_chunk):
            start, end, chash, text = row[:4]
            context = row[4] if len(row) > 4 else ""
            blob = _mean_blob(subs, dims)
            self.conn.execute(_INSERT_CHUNK, (f.file.path, f.file.source, start, end, chash, model, text, blob, now))
            cid = self.conn.last_insert_rowid()
            if self.fts.fts_available:
                fts_body = f"{context}\n{text}" if context else text
                self.conn.execute("insert into chunks_fts(rowid, text) values(?, ?)", (cid, self.fts.prepare(fts_body)))
            if blob is not None and subs is not None:  # a blob is the mean of subs
                self._write_sub_vectors(cid, subs)
        self.conn.execute(_INSERT_FILE, astuple(f.file))

    def _write_sub_vectors(self, cid: int, subs: np.ndarray) -> None:
        for vec in subs:
            sub_blob = vec_to_blob(vec)
            self.conn.execute("insert into chunk_vectors(chunk_id, embedding) values(?, ?)", (cid, sub_blob))
            if self.vectors.vec_loaded:
                sid = self.conn.last_insert_rowid()
                self.conn.execute("insert into chunks_vec(rowid, embedding) values(?, ?)", (sid, sub_blob))

    def touch_file(self, path: str, mtime: float, mtime_ns: int, size: int) -> None:
        with self.lock:
            self.conn.execute(
                "update files set mtime = ?, mtime_ns = ?, size = ? where path = ?", (mtime, mtime_ns, size, path)
            )

    def _delete_path_rows(self, path: str) -> None:
        ids = [r[0] for r in self.conn.execute("select id from chunks where path = ?", (path,))]
        if ids:
            marks = ",".join("?" * len(ids))
            if self.fts.fts_available:
                self.conn.execute(f"delete from chunks_fts where rowid in ({marks})", ids)
            if self.vectors.vec_loaded and self.vectors.has_vec_table():
                self.conn.execute(
                    f"delete from chunks_vec where rowid in (select id from chunk_vectors where chunk_id in ({marks}))", ids
                )
            self.conn.execute(f"delete from chunk_vectors where chunk_id in ({marks})", ids)
            self.conn.execute("delete from chunks where path = ?", (path,))

    def delete_file(self, path: str) -> None:
        with self.lock, self.conn:
            self._delete_path_rows(path)
            self.conn.execute("delete from files where path = ?", (path,))
            self._bump_generation()

    def _bump_generation(self) -> None:
        """Mark the vectors changed (inside the writing transaction) for every process's copy."""
        self.conn.execute("insert or replace into meta(key, value) values('vector_generation', ?)", (uuid.uuid4().hex,))

    def orphan_paths(self) -> list:
        """Chunk paths without a ``files`` row (written by something else): a sync prunes them."""
        with self.lock:
            sql = "select distinct path from chunks where path not in (select path from files)"
            return [r[0] for r in self.conn.execute(sql)]

    def chunk_rows(self, ids: Iterable[int]) -> dict[int, ChunkRow]:
        ids = list(ids)
        if not ids:
            return {}
        out: dict[int, ChunkRow] = {}
        with self.lock:
            for start in range(0, len(ids), 500):
                part = ids[start : start + 500]
                marks = ",".join("?" * len(part))
                for r in self.conn.execute(
                    f"select id, path, source, start_line, end_line, hash, text from chunks where id in ({marks})", part
                ):
                    if not all(isinstance(v, t) for v, t in zip(r, _ROW_TYPES)):
                        raise ForeignIndex(f"chunk row {r[0]!r} does not decode (wrong column types)")
                    out[r[0]] = ChunkRow(*r)
        return out

    def file_mtimes(self, paths: Iterable[str]) -> dict[str, float]:
        paths = list(set(paths))
        if not paths:
            return {}
        with self.lock:
            marks = ",".join("?" * len(paths))
            return dict(cast("list[tuple[str, float]]", self.conn.execute(f"select path, mtime from files where path in ({marks})", paths).fetchall()))
