"""The index's sub-vectors as one resident, normalised float32 matrix (exact vector search).

sqlite-vec (``chunks_vec``) and the ``chunk_vectors`` blobs stay the store of record; this is
a read-side copy. A search is one matrix-vector product over every sub-vector plus a partial
sort — the same work as a numpy brute force, so it is exact (recall 1.0) and runs near that
floor, where sqlite-vec's ``vec0`` KNN scan was ~13× slower at 100k chunks
(``bench/search_bench.py`` prints both).

The matrix is kept as a snapshot file beside the index (``<index>.vectors``, owner-only, with a
checksum of its rows), read whole, so a new process does not re-read every blob from SQLite. A snapshot is valid for one index
file (its ``epoch``, a random token the store writes once per database) and records the
``chunk_vectors`` ids it holds. Those ids are never reused and a row's vector never changes,
so any snapshot plus the difference of id sets is the exact current state:
:func:`refresh` drops deleted rows and reads only rows added since. Snapshots are written
atomically (temporary file, then ``os.replace``); a failed write only costs speed.
"""

from __future__ import annotations

import hashlib
import logging
import os
import stat
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from openclaw_tui.memory.builtin.row_scan import RowScan

log = logging.getLogger("openclaw_tui.memory.vector_matrix")

MAGIC = b"OCVM0002"
#: magic, epoch (32 bytes, ASCII hex), rows, dims, then 8 bytes of checksum; the arrays start at HEADER_BYTES
_HEADER = struct.Struct("<8s32sQQ")
HEADER_BYTES = 64
#: a snapshot is rewritten once this fraction of its rows was added or removed since
REWRITE_DRIFT = 0.05
#: sub-vectors fetched per wanted chunk before de-duplicating (widened when chunks repeat)
KNN_FACTOR = 8


def snapshot_path(index_path: Path) -> Path:
    return index_path.with_name(index_path.name + ".vectors")


@dataclass(frozen=True)
class VectorMatrix:
    """``ids[i]`` (chunk_vectors.id) belongs to chunk ``owners[i]``; ``mat[i]`` is its unit vector."""

    epoch: str
    ids: np.ndarray
    owners: np.ndarray
    mat: np.ndarray
    _by_owner: np.ndarray = field(init=False, repr=False, compare=False)
    #: ``owners`` in ``_by_owner`` order (made once, not per lookup: 100k rows take ~1 ms)
    _sorted_owners: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_owner = np.argsort(self.owners, kind="stable")
        object.__setattr__(self, "_by_owner", by_owner)
        object.__setattr__(self, "_sorted_owners", self.owners[by_owner])

    @property
    def rows(self) -> int:
        return int(self.ids.shape[0])

    def similarities(self, query: np.ndarray) -> np.ndarray | None:
        """Cosine of ``query`` with every sub-vector (None for a zero or mis-sized query)."""
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        n = float(np.linalg.norm(q))
        if n == 0 or not self.rows or q.shape[0] != self.mat.shape[1]:
            return None
        sims: np.ndarray = self.mat @ (q / n)
        return sims

    def scan(self, query: np.ndarray) -> RowScan | None:
        """:meth:`similarities` as a product in row blocks that several threads may share
        (``row_scan``; the same values to the bit); None where that gives None."""
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        n = float(np.linalg.norm(q))
        if n == 0 or not self.rows or q.shape[0] != self.mat.shape[1]:
            return None
        return RowScan(self.mat, q / n)

    def top_chunks(self, sims: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The ``k`` chunks with the best max-cosine sub-vector, best first."""
        n = self.rows
        want = min(n, max(k * KNN_FACTOR, k))
        while True:
            top = np.argpartition(-sims, want - 1)[:want] if want < n else np.arange(n)
            top = top[np.argsort(-sims[top], kind="stable")]
            best: dict[int, float] = {}
            for i in top.tolist():
                best.setdefault(int(self.owners[i]), float(sims[i]))
                if len(best) >= k:
                    break
            if len(best) >= k or want >= n:
                return list(best.items())[:k]
            want = min(n, want * 4)

    def chunk_scores(self, sims: np.ndarray, chunk_ids: Iterable[int]) -> dict[int, float]:
        """Max cosine over each given chunk's sub-vectors (chunks without vectors are absent)."""
        wanted = np.unique(np.fromiter((int(c) for c in chunk_ids), dtype=np.int64))
        if not wanted.size or not self.rows:
            return {}
        sorted_owners = self._sorted_owners
        lo = np.searchsorted(sorted_owners, wanted, side="left")
        hi = np.searchsorted(sorted_owners, wanted, side="right")
        out: dict[int, float] = {}
        for cid, a, b in zip(wanted.tolist(), lo.tolist(), hi.tolist()):
            if b > a:
                out[cid] = float(sims[self._by_owner[a:b]].max())
        return out

    def owner_similarities(self, sims: np.ndarray, chunk_id: int) -> np.ndarray:
        """The cosines of one chunk's sub-vectors in the order they were written (its
        windows' order); empty when the chunk has none."""
        sorted_owners = self._sorted_owners
        lo = int(np.searchsorted(sorted_owners, int(chunk_id), side="left"))
        hi = int(np.searchsorted(sorted_owners, int(chunk_id), side="right"))
        rows = self._by_owner[lo:hi]
        picked: np.ndarray = sims[rows[np.argsort(self.ids[rows], kind="stable")]]
        return picked


def normalise_rows(mat: np.ndarray) -> np.ndarray:
    mat = np.asarray(mat, dtype=np.float32)
    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: np.ndarray = mat / norms
    return out


def empty(epoch: str, dims: int = 0) -> VectorMatrix:
    return VectorMatrix(epoch, np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, dims), np.float32))


def _checksum(ids: np.ndarray, owners: np.ndarray, mat: np.ndarray) -> bytes:
    """8 bytes of BLAKE2b over the rows (ids, owners, vectors): shuffled or changed rows fail it."""
    h = hashlib.blake2b(digest_size=8)
    for arr in (ids, owners, mat):
        h.update(np.ascontiguousarray(arr).tobytes())
    return h.digest()


def _read_regular(path: Path, cap: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file (never a FIFO or a link) of at most ``cap``."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > cap:
            return None
        chunks: list[bytes] = []
        total = 0
        while total <= cap:
            piece = os.read(fd, 1 << 22)
            if not piece:
                return b"".join(chunks)
            chunks.append(piece)
            total += len(piece)
        return None
    finally:
        os.close(fd)


def load_snapshot(path: Path, epoch: str) -> VectorMatrix | None:
    """The snapshot at ``path`` read into memory, or None when missing, foreign or damaged
    (a checksum of its rows; opened only as a regular file; a copy, so a later truncation of
    the file cannot fault a search)."""
    try:
        with open(path, "rb", opener=lambda p, f: os.open(p, f | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))) as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return None
            head = fh.read(HEADER_BYTES)
        magic, raw_epoch, rows, dims = _HEADER.unpack(head[: _HEADER.size])
        if magic != MAGIC or raw_epoch.decode("ascii", "replace") != epoch:
            return None
        need = HEADER_BYTES + rows * 16 + rows * dims * 4
        data = _read_regular(path, need)
        if data is None or len(data) != need or data[:HEADER_BYTES] != head:
            return None
        ids = np.frombuffer(data, dtype=np.int64, count=rows, offset=HEADER_BYTES)
        owners = np.frombuffer(data, dtype=np.int64, count=rows, offset=HEADER_BYTES + rows * 8)
        mat = np.frombuffer(data, dtype=np.float32, count=rows * dims, offset=HEADER_BYTES + rows * 16).reshape(rows, dims)
        if _checksum(ids, owners, mat) != head[_HEADER.size : _HEADER.size + 8]:
            log.warning("vector snapshot %s does not match its checksum; rebuilding it", path)
            return None
        return empty(epoch, int(dims)) if rows == 0 else VectorMatrix(epoch, ids, owners, mat)
    except (OSError, ValueError, struct.error) as exc:
        log.debug("vector snapshot %s unreadable: %s", path, exc)
        return None


def write_snapshot(path: Path, vm: VectorMatrix) -> bool:
    """Write ``vm`` atomically to ``path``; False (logged) when the file cannot be written."""
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    rows, dims = vm.rows, int(vm.mat.shape[1]) if vm.mat.ndim == 2 else 0
    try:
        with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600), "wb") as fh:
            head = _HEADER.pack(MAGIC, vm.epoch.encode("ascii")[:32].ljust(32, b"0"), rows, dims)
            head += _checksum(vm.ids.astype(np.int64), vm.owners.astype(np.int64), vm.mat.astype(np.float32))
            fh.write(head.ljust(HEADER_BYTES, b"\0"))
            fh.write(np.ascontiguousarray(vm.ids, dtype=np.int64).tobytes())
            fh.write(np.ascontiguousarray(vm.owners, dtype=np.int64).tobytes())
            fh.write(np.ascontiguousarray(vm.mat, dtype=np.float32).tobytes())
        os.replace(tmp, path)
        return True
    except OSError as exc:
        log.warning("cannot write the vector snapshot %s (%s); searching from memory", path, exc)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False


#: ``(after id) → (ids, owners, vectors)`` of the chunk_vectors rows with a larger id, by id
RowsAfter = Callable[[int], tuple[np.ndarray, np.ndarray, np.ndarray]]


def refresh(vm: VectorMatrix, live_ids: np.ndarray, rows_after: RowsAfter) -> tuple[VectorMatrix, int]:
    """``vm`` brought up to the live id set: deleted rows dropped, newer rows read and appended
    (their dimension must be ``vm``'s). Returns the matrix and how many rows changed."""
    keep = np.isin(vm.ids, live_ids, assume_unique=True)
    newest = int(vm.ids[-1]) if vm.rows else 0
    new_ids, new_owners, new_vecs = rows_after(newest)
    removed = vm.rows - int(keep.sum())
    if not removed and not new_ids.size:
        return vm, 0
    dims = int(vm.mat.shape[1]) if vm.rows else int(new_vecs.shape[1])
    out = VectorMatrix(
        vm.epoch,
        np.concatenate([vm.ids[keep], new_ids]).astype(np.int64),
        np.concatenate([vm.owners[keep], new_owners]).astype(np.int64),
        np.concatenate([vm.mat[keep].reshape(-1, dims), normalise_rows(new_vecs.reshape(-1, dims))]),
    )
    return out, removed + int(new_ids.size)
