"""Every file holding memory text is owner-only (issue 30, points 6 and 8): the index, its
vector snapshot (checksummed, opened only as a regular file), the history, transcripts."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import numpy as np

from openclaw_tui.memory.builtin import vector_matrix as vmx
from openclaw_tui.memory.builtin.store import Store
from openclaw_tui.records.transcript import TranscriptWriter
from openclaw_tui.records.history import ChangeOrigin, MemoryHistory


def _mode(p: Path) -> int:
    return stat.S_IMODE(os.stat(p).st_mode)


def test_index_history_and_transcripts_are_created_owner_only(state_dir: Path) -> None:
    old = os.umask(0o022)
    try:
        index = state_dir / "memory" / "main.sqlite"
        store = Store(index)
        store.close()
        hist = MemoryHistory(state_dir / "agents" / "main" / "memory-history")
        hist.record("MEMORY.md", None, b"secret\n", "write", ChangeOrigin())
        w = TranscriptWriter(state_dir / "agents" / "main" / "sessions" / "s1.jsonl")
        w.write_header("s1", agentId="main", sessionKey="agent:main:main")
        w.close()
    finally:
        os.umask(old)
    assert _mode(index) == 0o600 and _mode(index.parent) == 0o700
    assert _mode(hist.root) == 0o700 and _mode(hist.objects) == 0o700 and _mode(hist.journal) == 0o600
    assert all(_mode(p) == 0o600 for p in hist.objects.iterdir())
    assert _mode(w.path) == 0o600 and _mode(w.path.parent) == 0o700


def _vm(rows: int = 50, dims: int = 8) -> vmx.VectorMatrix:
    rng = np.random.default_rng(1)
    mat = rng.normal(size=(rows, dims)).astype(np.float32)
    return vmx.VectorMatrix("e" * 32, np.arange(1, rows + 1, dtype=np.int64), np.arange(rows, dtype=np.int64) // 2, mat)


def test_a_vector_snapshot_with_shuffled_or_truncated_rows_is_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "index.sqlite.vectors"
    vm = _vm()
    assert vmx.write_snapshot(path, vm) and _mode(path) == 0o600
    loaded = vmx.load_snapshot(path, vm.epoch)
    assert loaded is not None and np.array_equal(loaded.mat, vm.mat)
    data = bytearray(path.read_bytes())
    row = 8 * 4
    start = vmx.HEADER_BYTES + vm.rows * 16
    data[start : start + row], data[start + row : start + 2 * row] = data[start + row : start + 2 * row], data[start : start + row]
    path.write_bytes(bytes(data))  # two vectors swapped in place: same size, other results
    assert vmx.load_snapshot(path, vm.epoch) is None
    assert vmx.write_snapshot(path, vm)
    with open(path, "r+b") as fh:
        fh.truncate(path.stat().st_size - 4)
    assert vmx.load_snapshot(path, vm.epoch) is None


def test_a_fifo_at_the_snapshot_path_never_hangs(tmp_path: Path) -> None:
    path = tmp_path / "index.sqlite.vectors"
    os.mkfifo(path)
    out: list[object] = []
    t = threading.Thread(target=lambda: out.append(vmx.load_snapshot(path, "e" * 32)), daemon=True)
    t.start()
    t.join(5)
    assert not t.is_alive() and out == [None]
