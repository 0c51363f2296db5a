"""The vector scan in row blocks (``row_scan``), shared by two threads, gives the whole
product's similarities (on one BLAS thread) to the bit."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from openclaw_tui.memory.builtin import blas_threads
from openclaw_tui.memory.builtin import vector_matrix as vmx
from openclaw_tui.memory.builtin.row_scan import RowScan


@pytest.mark.parametrize("rows", [1, 63, 64, 1000, 20_001])
def test_blocks_shared_by_two_threads_equal_the_whole_product(rows: int):
    rng = np.random.default_rng(rows)
    mat = vmx.normalise_rows(rng.standard_normal((rows, 48)))
    vm = vmx.VectorMatrix("e", np.arange(rows, dtype=np.int64), np.arange(rows, dtype=np.int64) // 3, mat)
    q = rng.standard_normal(48).astype(np.float32)
    with blas_threads.one_thread():  # OpenBLAS's own split over threads may end a slice mid-group
        whole = vm.similarities(q)
    scan = vm.scan(q)
    assert scan is not None and whole is not None
    scan.block_rows = 64  # many blocks, so both threads take some
    scan._blocks = max(1, -(-rows // 64))
    helper = threading.Thread(target=scan.help)
    helper.start()
    got = scan.result()
    helper.join()
    assert np.array_equal(got, whole)
    assert vm.top_chunks(got, 5) == vm.top_chunks(whole, 5)


def test_no_scan_where_similarities_give_none():
    vm = vmx.VectorMatrix("e", np.arange(2, dtype=np.int64), np.arange(2, dtype=np.int64), np.eye(2, dtype=np.float32))
    assert vm.scan(np.zeros(2, np.float32)) is None
    assert vm.scan(np.ones(3, np.float32)) is None
    assert vmx.empty("e", 2).scan(np.ones(2, np.float32)) is None


def test_block_rows_must_keep_rows_whole():
    with pytest.raises(ValueError, match="multiple of 64"):
        RowScan(np.zeros((4, 2), np.float32), np.zeros(2, np.float32), block_rows=100)


def test_an_error_in_a_block_reaches_the_waiting_thread():
    scan = RowScan(np.zeros((10, 2), np.float32), np.zeros(3, np.float32))  # shapes do not fit
    with pytest.raises(ValueError):
        scan.result()
