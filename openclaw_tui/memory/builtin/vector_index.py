"""The vector side of the index: the ``chunk_vectors`` blobs (the store of record), sqlite-vec's
``chunks_vec`` (``vec0`` with cosine distance, rowid = ``chunk_vectors.id``, created once the
dimension is known) and the resident matrix searched.

Vector search scores each chunk by its best sub-vector (max cosine) over a resident,
memory-mapped copy of the sub-vectors (:mod:`openclaw_tui.memory.builtin.vector_matrix`): exact, and
~10× faster than sqlite-vec's KNN scan at 100k chunks; ``vec0_search`` keeps the KNN path.
Every write stamps a new ``vector_generation`` in ``meta``, so a search in any process
notices the change and refreshes its copy by id difference.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from openclaw_tui.memory.builtin import vector_matrix as vmx
from openclaw_tui.memory.builtin.index_db import IndexDb, count_rows, vec_to_blob
from openclaw_tui.memory.builtin.row_scan import RowScan

log = logging.getLogger("openclaw_tui.memory.store")

#: sub-vectors fetched per wanted chunk in the first KNN round (widened when chunks repeat)
SUBVECTOR_KNN_FACTOR = vmx.KNN_FACTOR
#: sqlite-vec's largest k
VEC0_MAX_K = 4096


class VectorIndex:
    """The sub-vectors of one index file; numpy cosine when sqlite-vec does not load."""

    def __init__(self, db: IndexDb, *, vector_enabled: bool = True, extension_path: str | None = None):
        self.db = db
        self.conn = db.conn
        self.lock = db.lock
        self.path: Path = db.path
        self.vector_requested = vector_enabled
        self.vec_loaded = False
        self.vec_error: str | None = None
        self._vm: vmx.VectorMatrix | None = None
        self._vm_generation: str | None = None
        self._vm_drift = 0
        self._sims_memo: tuple[vmx.VectorMatrix, bytes, np.ndarray | None] | None = None
        if vector_enabled:
            self._load_vec(extension_path)
        else:
            self.vec_error = "disabled by memorySearch.store.vector.enabled=false"

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

    @property
    def vector_backend(self) -> str:
        return "sqlite-vec" if self.vec_loaded else "numpy"

    def vec_dims(self) -> int | None:
        raw = self.db.get_meta("vector_dims")
        return int(raw) if raw else None

    def ensure_vec_table(self, dims: int) -> None:
        current = self.vec_dims()
        if current is not None and current != dims:
            raise ValueError(f"vector dimension changed ({current} → {dims}); a full rebuild is needed")
        if current is None:
            self.db.set_meta("vector_dims", str(dims))
        if self.vec_loaded:
            self.conn.execute(
                f"create virtual table if not exists chunks_vec using vec0(embedding float[{dims}] distance_metric=cosine)"
            )

    def has_vec_table(self) -> bool:
        row = self.conn.execute("select 1 from sqlite_master where name = 'chunks_vec'").fetchone()
        return row is not None

    def vector_count(self) -> int:
        with self.lock:
            return count_rows(self.conn.execute("select count(*) from chunk_vectors"))

    def vector_search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """``[(chunk id, cosine similarity)]`` best first: the ``k`` chunks whose best
        sub-vector is closest to ``query`` (a chunk scores its max cosine). Exact."""
        q = np.asarray(query, dtype=np.float32)
        if self.vec_dims() is None or q.shape[-1] != self.vec_dims() or k <= 0:
            return []
        return self.search_matrix(self.resident_matrix(), q, k)

    def search_matrix(self, vm: vmx.VectorMatrix, query: np.ndarray, k: int,
                      scan: RowScan | None = None) -> list[tuple[int, float]]:
        """:meth:`vector_search` over a matrix the caller got from :meth:`resident_matrix`:
        no SQL and no lock, so a worker thread scans while the caller's thread runs FTS5
        (the scan used to wait for the store's lock, held through each FTS5 statement).
        ``scan``: ``vm.scan(query)``, shared with another thread that takes blocks of it."""
        q = np.asarray(query, dtype=np.float32)
        if not vm.rows or q.shape[-1] != vm.mat.shape[1] or k <= 0:
            return []
        _, sims = self._similarities(q, vm, scan)
        return vm.top_chunks(sims, k) if sims is not None else []

    def vector_scores(self, query: np.ndarray, chunk_ids: Iterable[int]) -> dict[int, float]:
        """Max cosine over each given chunk's sub-vectors (chunks without vectors are absent)."""
        q = np.asarray(query, dtype=np.float32)
        if self.vec_dims() is None or q.shape[-1] != self.vec_dims():
            return {}
        vm, sims = self._similarities(q)
        return vm.chunk_scores(sims, chunk_ids) if sims is not None else {}

    def _similarities(self, q: np.ndarray, vm: vmx.VectorMatrix | None = None,
                      scan: RowScan | None = None) -> tuple[vmx.VectorMatrix, np.ndarray | None]:
        """Cosines of ``q`` with every sub-vector (of ``vm``, else of the resident matrix);
        the last query's are kept, since a hybrid search asks for its top chunks and then
        for the keyword hits' scores."""
        vm = vm if vm is not None else self.resident_matrix()
        key = q.tobytes()
        memo = self._sims_memo
        if memo is not None and memo[0] is vm and memo[1] == key:
            return vm, memo[2]
        sims = scan.result() if scan is not None else vm.similarities(q)
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
            generation = self.db.get_meta("vector_generation")
            vm = self._vm
            if vm is not None and generation == self._vm_generation:
                return vm
            epoch = self.db.get_meta("vector_epoch") or ""
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

    def window_cosines(self, query: np.ndarray, chunk_id: int) -> np.ndarray | None:
        """The query's cosine with each of a chunk's sub-window vectors, in window order (None
        without vectors of the query's size; reuses the store's cosines of the last query)."""
        q = np.asarray(query, dtype=np.float32)
        if self.vec_dims() is None or q.shape[-1] != self.vec_dims():
            return None
        vm, sims = self._similarities(q)
        return vm.owner_similarities(sims, chunk_id) if sims is not None else None
