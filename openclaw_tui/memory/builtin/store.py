"""SQLite storage for the memory index through apsw: files, chunks, FTS5, sqlite-vec, cache.

Tables: ``meta``, ``files(path, source, hash, mtime, size)``,
``chunks(id, path, source, start_line, end_line, hash, model, text, embedding, updated_at)``,
``chunks_fts`` (FTS5, unicode61, rowid = chunk id), ``chunk_vectors(id, chunk_id, embedding)``
(**ours:** several vectors per chunk, one per sub-window of whole lines), ``chunks_vec``
(sqlite-vec ``vec0`` with cosine distance, rowid = ``chunk_vectors.id``, created once the
dimension is known) and ``embedding_cache(provider, model, provider_key, hash → embedding)``.
``chunks.embedding`` keeps the normalised mean of a chunk's sub-vectors.

Vector search scores each chunk by its best sub-vector (max cosine) over a resident,
memory-mapped copy of the sub-vectors (:mod:`openclaw_tui.memory.builtin.vector_matrix`): exact, and
~10× faster than sqlite-vec's KNN scan at 100k chunks. sqlite-vec (``chunks_vec``, when the
extension loads) and the ``chunk_vectors`` blobs stay the store of record; ``vec0_search``
keeps the KNN path. Every write stamps a new ``vector_generation`` in ``meta``, so a search
in any process notices the change and refreshes its copy by id difference.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence, cast

import apsw
import numpy as np

from openclaw_tui.owner_only import private_db
from openclaw_tui.memory.builtin import vector_matrix as vmx
from openclaw_tui.memory.builtin.query import fts_text

log = logging.getLogger("openclaw_tui.memory.store")

#: 2: several vectors per chunk (chunk_vectors; chunks_vec rows keyed by sub-vector id)
SCHEMA_VERSION = 2
MMAP_BYTES = 1 << 30
# porter over unicode61: measured +4 points evidence-all-found@6 on LoCoMo (bench/locomo_eval.py)
FTS_TOKENIZER = "porter unicode61 remove_diacritics 2"
#: how text is prepared for FTS (part of the index fingerprint): CJK characters spaced apart;
#: **ours:** each chunk's FTS row is its heading context (the Markdown headings above it)
#: followed by its text, so changing this string rebuilds old indexes once
FTS_CONTENT = "cjk-chars; heading-context"

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
_ROW_TYPES = (int, str, str, int, int, str, str)  # ChunkRow fields, in order
_INSERT_CHUNK = ("insert into chunks(path, source, start_line, end_line, hash, model, text, embedding, updated_at)"
                 " values(?, ?, ?, ?, ?, ?, ?, ?, ?)")
_INSERT_FILE = "insert or replace into files(path, source, hash, mtime, mtime_ns, size) values(?, ?, ?, ?, ?, ?)"


def _tokenizer_args() -> tuple[str, list[str]]:
    """``FTS_TOKENIZER`` as (name, arguments) for ``Connection.fts5_tokenizer``."""
    name, *args = FTS_TOKENIZER.split()
    return name, args


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


#: sub-vectors fetched per wanted chunk in the first KNN round (widened when chunks repeat)
SUBVECTOR_KNN_FACTOR = vmx.KNN_FACTOR
#: sqlite-vec's largest k
VEC0_MAX_K = 4096


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


def _count(cursor: apsw.Cursor) -> int:
    """The number a ``select count(*)`` cursor yields."""
    row = cursor.fetchone()
    return int(row[0]) if row is not None else 0


def _mean_blob(subs: np.ndarray | None, dims: int | None) -> bytes | None:
    """A chunk's ``embedding`` column: the normalised mean of its sub-vectors (None without)."""
    if subs is None or not subs.size:
        return None
    if int(subs.shape[1]) != dims:
        raise ValueError(f"vector dimension changed ({dims} → {int(subs.shape[1])}); a full rebuild is needed")
    mean = subs.mean(axis=0)
    norm = float(np.linalg.norm(mean))
    return vec_to_blob(mean / norm if norm > 0 else mean)


def vec_to_blob(vec: np.ndarray) -> bytes:
    return np.asarray(vec, dtype=np.float32).tobytes()


def blob_to_vec(blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype=np.float32)


class Store:
    """One SQLite index file. Thread-safe: every call holds ``self.lock``."""

    def __init__(self, path: Path, *, vector_enabled: bool = True, extension_path: str | None = None):
        self.path = Path(path)
        self.lock = threading.RLock()
        self.vector_requested = vector_enabled
        self.vec_loaded = False
        self.vec_error: str | None = None
        self.fts_available = False
        self.fts_error: str | None = None
        self._vm: vmx.VectorMatrix | None = None
        self._vm_generation: str | None = None
        self._vm_drift = 0
        self._sims_memo: tuple[vmx.VectorMatrix, bytes, np.ndarray | None] | None = None
        # (vector_generation it is valid for — "" never is one, chunk count, term → doc count)
        self._df_cache: tuple[str | None, int, dict[str, int | None]] = ("", 0, {})
        self._tokenize: Any = None  # apsw.FTS5Tokenizer, made on first use
        self.conn = apsw.Connection(private_db(self.path))  # memory text: owner-only, like MEMORY.md
        self.conn.set_busy_timeout(10_000)
        self.conn.execute("pragma journal_mode=delete").fetchall()
        self.conn.execute("pragma synchronous=normal").fetchall()
        # reading vectors through mmap instead of the page cache makes vec0 KNN scans ~40% faster
        self.conn.execute(f"pragma mmap_size={MMAP_BYTES}").fetchall()
        if vector_enabled:
            self._load_vec(extension_path)
        else:
            self.vec_error = "disabled by memorySearch.store.vector.enabled=false"
        self._check_schema()
        self.conn.execute(_SCHEMA)
        self._ensure_fts()
        if self.get_meta("schema_version") is None:
            self.set_meta("schema_version", str(SCHEMA_VERSION))
        if self.get_meta("vector_epoch") is None:
            self.set_meta("vector_epoch", uuid.uuid4().hex)

    # ------------------------------------------------------------------ setup

    def _load_vec(self, extension_path: str | None) -> None:
        try:
            if extension_path:
                path = extension_path
            else:
                import sqlite_vec  # noqa: PLC0415

                path = sqlite_vec.loadable_path()
            self.conn.enable_load_extension(True)
            self.conn.load_extension(path)
            self.conn.enable_load_extension(False)
            self.vec_loaded = True
        except Exception as exc:  # any failure → numpy fallback
            self.vec_loaded = False
            self.vec_error = f"sqlite-vec unavailable: {exc}"
            log.warning("sqlite-vec could not be loaded; using numpy cosine (%s)", exc)

    def _check_schema(self) -> None:
        """Raise ``ForeignIndex`` when a table lacks one of our columns (another program's file)."""
        for table, wanted in _REQUIRED_COLUMNS.items():
            have = {row[1] for row in self.conn.execute(f"pragma table_info({table})")}
            missing = wanted - have
            if have and missing:  # an absent table is created; one with other columns is not ours
                self.close()
                raise ForeignIndex(f"not an openclaw-tui index: table {table} lacks {', '.join(sorted(missing))}")

    def _ensure_fts(self) -> None:
        try:
            self.conn.execute(
                f"create virtual table if not exists chunks_fts using fts5(text, tokenize='{FTS_TOKENIZER}')"
            )
            # per-connection (temp schema): document frequencies of indexed terms
            self.conn.execute("create virtual table if not exists temp.chunks_fts_vocab using fts5vocab(main, chunks_fts, row)")
            self.fts_available = True
        except apsw.Error as exc:
            self.fts_available = False
            self.fts_error = str(exc)
            log.warning("FTS5 unavailable; search is vector-only (%s)", exc)

    @property
    def vector_backend(self) -> str:
        return "sqlite-vec" if self.vec_loaded else "numpy"

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

    # ------------------------------------------------------------------ files

    def files(self, source: str | None = None) -> dict[str, FileRow]:
        with self.lock:
            sql = "select path, source, hash, mtime, mtime_ns, size from files"
            rows: list[tuple[Any, ...]] = self.conn.execute(sql + (" where source = ?" if source else ""), (source,) if source else ()).fetchall()
        if not all(isinstance(r[0], str) and isinstance(r[1], str) for r in rows):
            raise ForeignIndex("a files row does not decode (wrong column types)")
        return {r[0]: FileRow(*r) for r in rows}

    def counts(self) -> tuple[int, int]:
        with self.lock:
            files = _count(self.conn.execute("select count(*) from files"))
            chunks = _count(self.conn.execute("select count(*) from chunks"))
        return files, chunks

    def vec_dims(self) -> int | None:
        raw = self.get_meta("vector_dims")
        return int(raw) if raw else None

    def _ensure_vec_table(self, dims: int) -> None:
        current = self.vec_dims()
        if current is not None and current != dims:
            raise ValueError(f"vector dimension changed ({current} → {dims}); a full rebuild is needed")
        if current is None:
            self.set_meta("vector_dims", str(dims))
        if self.vec_loaded:
            self.conn.execute(
                f"create virtual table if not exists chunks_vec using vec0(embedding float[{dims}] distance_metric=cosine)"
            )

    def has_vec_table(self) -> bool:
        row = self.conn.execute("select 1 from sqlite_master where name = 'chunks_vec'").fetchone()
        return row is not None

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
            self._ensure_vec_table(dims)
        for row, subs in zip(f.chunks, per_chunk):
            start, end, chash, text = row[:4]
            context = row[4] if len(row) > 4 else ""
            blob = _mean_blob(subs, dims)
            self.conn.execute(_INSERT_CHUNK, (f.file.path, f.file.source, start, end, chash, model, text, blob, now))
            cid = self.conn.last_insert_rowid()
            if self.fts_available:
                fts_body = f"{context}\n{text}" if context else text
                self.conn.execute("insert into chunks_fts(rowid, text) values(?, ?)", (cid, fts_text(fts_body)))
            if blob is not None and subs is not None:  # a blob is the mean of subs
                self._write_sub_vectors(cid, subs)
        self.conn.execute(_INSERT_FILE, astuple(f.file))

    def _write_sub_vectors(self, cid: int, subs: np.ndarray) -> None:
        for vec in subs:
            sub_blob = vec_to_blob(vec)
            self.conn.execute("insert into chunk_vectors(chunk_id, embedding) values(?, ?)", (cid, sub_blob))
            if self.vec_loaded:
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
            if self.fts_available:
                self.conn.execute(f"delete from chunks_fts where rowid in ({marks})", ids)
            if self.vec_loaded and self.has_vec_table():
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

    # ------------------------------------------------------------------ reads

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

    def fts_search(self, match: str | None, limit: int) -> list[tuple[int, float]]:
        """``[(chunk id, bm25 rank)]`` best first; empty on a bad expression."""
        if not self.fts_available or not match:
            return []
        with self.lock:
            try:
                rows: list[tuple[Any, ...]] = self.conn.execute(
                    "select rowid, bm25(chunks_fts) as r from chunks_fts where chunks_fts match ? order by r limit ?",
                    (match, int(limit)),
                ).fetchall()
            except apsw.Error as exc:
                log.warning("FTS query failed (%s): %s", match, exc)
                return []
        return [(int(r[0]), float(r[1])) for r in rows]

    def common_terms(self, terms: Iterable[str]) -> set[str]:
        """The query terms found in more than half of the indexed chunks. FTS5's BM25 clamps
        such a term's IDF to 1e-6, so in an OR query it changes no ranking, yet FTS5 walks its
        whole doclist (at 100k chunks: ~120 ms of a ~145 ms query for four terms). A term the
        tokenizer splits in several tokens (a CJK phrase) is never reported."""
        total, dfs = self.doc_frequencies(terms)
        return {t for t, df in dfs.items() if (df or 0) * 2 > total}

    def doc_frequencies(self, terms: Iterable[str]) -> tuple[int, dict[str, int | None]]:
        """``(chunks, {term: chunks holding it})`` from ``fts5vocab``, cached until the next
        write; None for a term the tokenizer splits (a CJK phrase); ``(0, {})`` without FTS5."""
        terms = list(terms)
        if not self.fts_available or not terms:
            return 0, {}
        with self.lock:
            generation = self.get_meta("vector_generation")
            cached_gen, total, dfs = self._df_cache
            if cached_gen != generation:
                total = _count(self.conn.execute("select count(*) from chunks"))
                dfs = {}
                self._df_cache = (generation, total, dfs)
            for term in terms:
                if term not in dfs:
                    tokens = self._tokens(term, apsw.FTS5_TOKENIZE_QUERY)
                    row = self.conn.execute("select doc from temp.chunks_fts_vocab where term = ?",
                                            tokens[:1]).fetchone() if len(tokens) == 1 else None
                    dfs[term] = None if len(tokens) != 1 else int(row[0]) if row else 0
            return total, {t: dfs[t] for t in terms}

    def index_tokens(self, text: str) -> list[str]:
        """``text`` as the keyword index sees it (lowercase, porter stems: "camped" → "camp")."""
        with self.lock:
            return self._tokens(text, apsw.FTS5_TOKENIZE_DOCUMENT) if self.fts_available and text else []

    def _tokens(self, text: str, flag: int) -> list[str]:
        if self._tokenize is None:
            self._tokenize = self.conn.fts5_tokenizer(*_tokenizer_args())
        return [t[2] for t in self._tokenize(fts_text(text).encode("utf-8"), flag, None)]

    def vector_count(self) -> int:
        with self.lock:
            return _count(self.conn.execute("select count(*) from chunk_vectors"))

    def vector_search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """``[(chunk id, cosine similarity)]`` best first: the ``k`` chunks whose best
        sub-vector is closest to ``query`` (a chunk scores its max cosine). Exact."""
        q = np.asarray(query, dtype=np.float32)
        if self.vec_dims() is None or q.shape[-1] != self.vec_dims() or k <= 0:
            return []
        vm, sims = self._similarities(q)
        return vm.top_chunks(sims, k) if sims is not None else []

    def vector_scores(self, query: np.ndarray, chunk_ids: Iterable[int]) -> dict[int, float]:
        """Max cosine over each given chunk's sub-vectors (chunks without vectors are absent)."""
        q = np.asarray(query, dtype=np.float32)
        if self.vec_dims() is None or q.shape[-1] != self.vec_dims():
            return {}
        vm, sims = self._similarities(q)
        return vm.chunk_scores(sims, chunk_ids) if sims is not None else {}

    def _similarities(self, q: np.ndarray) -> tuple[vmx.VectorMatrix, np.ndarray | None]:
        """Cosines of ``q`` with every sub-vector; the last query's are kept, since a hybrid
        search asks for its top chunks and then for the keyword hits' scores."""
        vm = self.resident_matrix()
        key = q.tobytes()
        memo = self._sims_memo
        if memo is not None and memo[0] is vm and memo[1] == key:
            return vm, memo[2]
        sims = vm.similarities(q)
        self._sims_memo = (vm, key, sims)
        return vm, sims

    def vec0_search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """:meth:`vector_search` through sqlite-vec's ``vec0`` KNN (the store of record), for
        checks and benchmarks; [] without the extension."""
        q = np.asarray(query, dtype=np.float32)
        dims = self.vec_dims()
        if not self.vec_loaded or dims is None or q.shape[-1] != dims or k <= 0:
            return []
        with self.lock:
            if not self.has_vec_table():
                return []
            total = self.vector_count()
            # KNN over sub-vectors, widened until k distinct chunks are found (or all are seen)
            k_sub = min(total, max(k * SUBVECTOR_KNN_FACTOR, k))
            while True:
                rows: list[tuple[Any, ...]] = self.conn.execute(
                    "select v.rowid, v.distance, c.chunk_id from chunks_vec v join chunk_vectors c on c.id = v.rowid"
                    " where v.embedding match ? and k = ? order by v.distance",
                    (vec_to_blob(q), int(k_sub)),
                ).fetchall() if k_sub > 0 else []
                best: dict[int, float] = {}
                for _sid, dist, cid in rows:
                    best.setdefault(int(cid), 1.0 - float(dist))
                if len(best) >= k or k_sub >= min(total, VEC0_MAX_K):
                    break
                k_sub = min(total, VEC0_MAX_K, k_sub * 4)
        return sorted(best.items(), key=lambda x: -x[1])[:k]

    def resident_matrix(self) -> vmx.VectorMatrix:
        """The current sub-vectors as a resident matrix: loaded from the snapshot beside the
        index, refreshed by id difference when another write happened, and re-snapshotted
        once enough rows changed."""
        with self.lock:
            generation = self.get_meta("vector_generation")
            vm = self._vm
            if vm is not None and generation == self._vm_generation:
                return vm
            epoch = self.get_meta("vector_epoch") or ""
            snap = vmx.snapshot_path(self.path)
            if vm is None or vm.epoch != epoch:
                vm = vmx.load_snapshot(snap, epoch) or vmx.empty(epoch)
                self._vm_drift = 0 if vm.rows else -1
            live = self.conn.execute("select id from chunk_vectors order by id").fetchall()
            live_ids = np.fromiter((r[0] for r in live), dtype=np.int64, count=len(live))
            vm, changed = vmx.refresh(vm, live_ids, self._vector_rows_after)
            self._vm_drift = -1 if self._vm_drift < 0 else self._vm_drift + changed
            if self._vm_drift < 0 or self._vm_drift > vmx.REWRITE_DRIFT * max(vm.rows, 1):
                if vmx.write_snapshot(snap, vm):
                    vm = vmx.load_snapshot(snap, epoch) or vm
                self._vm_drift = 0
            self._vm, self._vm_generation = vm, generation
            return vm

    def _vector_rows_after(self, after: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rows: list[tuple[Any, ...]] = self.conn.execute(
            "select id, chunk_id, embedding from chunk_vectors where id > ? order by id", (int(after),)
        ).fetchall()
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        owners = np.fromiter((r[1] for r in rows), dtype=np.int64, count=len(rows))
        blob = b"".join(r[2] for r in rows)
        return ids, owners, np.frombuffer(blob, dtype=np.float32).reshape(len(rows), -1) if rows else np.zeros((0, 0), np.float32)

    # ------------------------------------------------------------------ embedding cache

    def cache_get(self, provider: str, model: str, key: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        if not hashes:
            return out
        with self.lock:
            uniq = list(dict.fromkeys(hashes))
            for start in range(0, len(uniq), 500):
                part = uniq[start : start + 500]
                marks = ",".join("?" * len(part))
                for h, blob in self.conn.execute(
                    f"select hash, embedding from embedding_cache where provider = ? and model = ? and provider_key = ?"
                    f" and hash in ({marks})",
                    (provider, model, key, *part),
                ):
                    out[h] = blob_to_vec(blob)
            if out:
                now = time.time()
                with self.conn:
                    for h in out:
                        self.conn.execute(
                            "update embedding_cache set updated_at = ? where provider = ? and model = ? and provider_key = ? and hash = ?",
                            (now, provider, model, key, h),
                        )
        return out

    def cache_put(self, provider: str, model: str, key: str, items: dict[str, np.ndarray]) -> None:
        if not items:
            return
        now = time.time()
        with self.lock, self.conn:
            for h, vec in items.items():
                v = np.asarray(vec, dtype=np.float32)
                self.conn.execute(
                    "insert or replace into embedding_cache(provider, model, provider_key, hash, dims, embedding, updated_at)"
                    " values(?, ?, ?, ?, ?, ?, ?)",
                    (provider, model, key, h, int(v.shape[-1]), vec_to_blob(v), now),
                )

    def cache_prune(self, max_entries: int) -> int:
        with self.lock:
            total = _count(self.conn.execute("select count(*) from embedding_cache"))
            excess = total - max(0, max_entries)
            if excess <= 0:
                return 0
            with self.conn:
                self.conn.execute(
                    "delete from embedding_cache where rowid in (select rowid from embedding_cache order by updated_at, rowid limit ?)",
                    (excess,),
                )
            return excess

    def cache_count(self) -> int:
        with self.lock:
            return _count(self.conn.execute("select count(*) from embedding_cache"))

    def copy_cache_from(self, other_path: Path) -> int:
        """Copy another index file's embedding cache into this one (used by full rebuilds)."""
        if not Path(other_path).exists():
            return 0
        with self.lock:
            try:
                self.conn.execute("attach database ? as old", (str(other_path),))
            except apsw.Error as exc:
                log.warning("cannot read the old index's embedding cache: %s", exc)
                return 0
            try:
                has = self.conn.execute(
                    "select 1 from old.sqlite_master where type = 'table' and name = 'embedding_cache'"
                ).fetchone()
                if not has:
                    return 0
                with self.conn:
                    self.conn.execute(
                        "insert or ignore into main.embedding_cache select provider, model, provider_key, hash, dims,"
                        " embedding, updated_at from old.embedding_cache"
                    )
                return self.conn.changes()
            except apsw.Error as exc:
                log.warning("cannot copy the old index's embedding cache: %s", exc)
                return 0
            finally:
                try:
                    self.conn.execute("detach database old")
                except apsw.Error:
                    pass


def window_cosines(store: Store, query: np.ndarray, chunk_id: int) -> np.ndarray | None:
    """The query's cosine with each of a chunk's sub-window vectors, in window order (None
    without vectors of the query's size; reuses the store's cosines of the last query)."""
    q = np.asarray(query, dtype=np.float32)
    if store.vec_dims() is None or q.shape[-1] != store.vec_dims():
        return None
    vm, sims = store._similarities(q)
    return vm.owner_similarities(sims, chunk_id) if sims is not None else None
