"""The resident matrix's similarities to a query as one product split in row blocks, which
any thread may take: the search's vector worker starts it, and the caller's thread, once its
FTS5 work is done, takes blocks too instead of waiting (issue 38, item 7).

Each block is ``mat[a:b] @ q`` into its slice of one output array, on one BLAS thread
(``blas_threads``). Blocks start at multiples of ``BLOCK_ROWS`` (a multiple of 64), so every
row's dot product is computed as in the whole product: the output is the same to the bit
(``tests/memory/test_row_scan.py``).
"""

from __future__ import annotations

import threading

import numpy as np

from openclaw_tui.memory.builtin import blas_threads

#: rows per block (~3 MB of float32 at 384 dims); a multiple of 64
BLOCK_ROWS = 8192


class RowScan:
    """``mat @ q`` in blocks; :meth:`help` from any thread, :meth:`result` waits for all."""

    def __init__(self, mat: np.ndarray, q: np.ndarray, block_rows: int = BLOCK_ROWS):
        if block_rows <= 0 or block_rows % 64:
            raise ValueError(f"block_rows must be a positive multiple of 64, not {block_rows}")
        self.mat = mat
        self.q = q
        self.out = np.empty(mat.shape[0], dtype=np.result_type(mat.dtype, q.dtype))
        self.block_rows = block_rows
        self._blocks = max(1, -(-mat.shape[0] // block_rows))
        self._lock = threading.Lock()
        self._next = 0
        self._finished = 0
        self._error: BaseException | None = None
        self._done = threading.Event()

    def _take(self) -> int | None:
        with self._lock:
            if self._next >= self._blocks:
                return None
            i = self._next
            self._next += 1
            return i

    def help(self) -> None:
        """Compute blocks until none is left to take (others may still be computing theirs)."""
        with blas_threads.one_thread():
            while (i := self._take()) is not None:
                a, b = i * self.block_rows, min(self.mat.shape[0], (i + 1) * self.block_rows)
                try:
                    if b > a:
                        np.dot(self.mat[a:b], self.q, out=self.out[a:b])
                except BaseException as exc:  # noqa: BLE001 - reported by result()
                    self._error = exc
                finally:
                    with self._lock:
                        self._finished += 1
                        if self._finished == self._blocks:
                            self._done.set()

    def result(self) -> np.ndarray:
        """The whole product: help until no block is left, then wait for those in progress."""
        self.help()
        self._done.wait()
        if self._error is not None:
            raise self._error
        return self.out
