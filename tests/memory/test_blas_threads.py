"""The search worker's BLAS calls use one thread (``blas_threads``), and the similarities
they give are the same to the bit as numpy's default threads give."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from openclaw_tui.memory.builtin import blas_threads


def test_a_limited_thread_computes_the_same_similarities_to_the_bit():
    if blas_threads.thread_count_setter() is None:
        pytest.skip("numpy's BLAS here is not an OpenBLAS with thread-local counts")
    rng = np.random.default_rng(4)
    mat = rng.standard_normal((60_000, 96)).astype(np.float32)  # split by OpenBLAS, in slices of whole groups
    qs = rng.standard_normal((5, 96)).astype(np.float32)
    default = [mat @ q for q in qs]
    got: dict[str, object] = {}

    def worker() -> None:
        got["limited"] = blas_threads.limit_to_one()
        got["sims"] = [mat @ q for q in qs]
        setter = blas_threads.thread_count_setter()
        assert setter is not None
        got["count"] = setter(1)  # returns this thread's count before the call

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert got["limited"] is True
    assert got["count"] == 1
    assert all(np.array_equal(a, b) for a, b in zip(default, got["sims"]))  # type: ignore[arg-type]


def test_without_openblas_nothing_is_changed(monkeypatch):
    monkeypatch.setattr(blas_threads, "_SETTER", [])
    monkeypatch.setattr(blas_threads, "_loaded_openblas", lambda: [])
    assert blas_threads.limit_to_one() is False
    assert blas_threads.thread_count_setter() is None
