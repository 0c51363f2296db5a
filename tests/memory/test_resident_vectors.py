"""Exact vector search over the resident matrix, its snapshot beside the index, and the FTS
OR query that leaves out terms found in more than half the chunks.

The snapshot must follow writes made through another connection (another process) and a
rebuilt index file, and the resident search must return what sqlite-vec's KNN returns.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from openclaw_tui.memory.builtin import query as qry, scoring
from openclaw_tui.memory.builtin import vector_matrix as vmx
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.memory.builtin.search import text_hits
from openclaw_tui.memory.builtin.store import Store

DIMS = 16


def vectors(rng: np.random.Generator, n: int) -> np.ndarray:
    v = rng.standard_normal((n, DIMS)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def add_file(store: Store, name: str, vecs: np.ndarray) -> None:
    rows = [(i + 1, i + 1, f"{name}-{i}", f"text {name} {i}") for i in range(len(vecs))]
    store.replace_file(name, "memory", name, 0, 0, 0, rows, vecs)


def exact_top(store: Store, q: np.ndarray, k: int) -> list[int]:
    ids, vecs = [], []
    for cid, blob in store.conn.execute("select chunk_id, embedding from chunk_vectors"):
        ids.append(cid)
        vecs.append(np.frombuffer(blob, dtype=np.float32))
    sims = np.vstack(vecs) @ q
    return [ids[i] for i in np.argsort(-sims, kind="stable")[:k]]


def test_resident_search_is_exact_and_matches_vec0(tmp_path):
    rng = np.random.default_rng(3)
    store = Store(tmp_path / "i.sqlite")
    assert store.vec_loaded, store.vec_error
    for f in range(5):
        add_file(store, f"f{f}.md", vectors(rng, 40))
    for q in vectors(rng, 10):
        got = store.vector_search(q, 10)
        assert [c for c, _ in got] == exact_top(store, q, 10)
        ref = store.vec0_search(q, 10)
        assert [c for c, _ in got] == [c for c, _ in ref]
        assert [s for _, s in got] == pytest.approx([s for _, s in ref], abs=1e-5)
    store.close()


def test_snapshot_is_written_beside_the_index_and_reused(tmp_path):
    rng = np.random.default_rng(4)
    path = tmp_path / "i.sqlite"
    store = Store(path)
    add_file(store, "a.md", vectors(rng, 30))
    q = vectors(rng, 1)[0]
    first = store.vector_search(q, 5)
    snap = vmx.snapshot_path(path)
    assert snap.is_file()
    store.close()
    mtime = os.stat(snap).st_mtime_ns
    again = Store(path)
    assert again.vector_search(q, 5) == first
    base = again.resident_matrix().mat
    while isinstance(base, np.ndarray):
        base = base.base
    assert isinstance(base, bytes)  # read from the snapshot file (checked, copied in), not rebuilt
    assert os.stat(snap).st_mtime_ns == mtime
    again.close()


def test_writes_through_another_connection_are_seen(tmp_path):
    """Another process edits the index: the next search drops deleted rows and reads new ones."""
    rng = np.random.default_rng(5)
    path = tmp_path / "i.sqlite"
    reader, writer = Store(path), Store(path)
    add_file(writer, "a.md", vectors(rng, 20))
    add_file(writer, "b.md", vectors(rng, 20))
    q = vectors(rng, 1)[0]
    reader.vector_search(q, 5)
    target = q.reshape(1, -1)
    add_file(writer, "c.md", target)  # a chunk equal to the query
    writer.delete_file("a.md")
    hits = reader.vector_search(q, 5)
    rows = reader.chunk_rows(c for c, _ in hits)
    assert rows[hits[0][0]].path == "c.md" and hits[0][1] == pytest.approx(1.0, abs=1e-5)
    assert all(r.path != "a.md" for r in rows.values())
    assert [c for c, _ in hits] == exact_top(reader, q, 5)
    reader.close()
    writer.close()


def test_snapshot_of_another_index_file_is_not_used(tmp_path):
    """A rebuilt index (new database file, ids start again at 1) gets its own snapshot."""
    rng = np.random.default_rng(6)
    path = tmp_path / "i.sqlite"
    old = Store(path)
    add_file(old, "a.md", vectors(rng, 10))
    q = vectors(rng, 1)[0]
    old.vector_search(q, 3)
    old.close()
    os.unlink(path)
    new = Store(path)
    add_file(new, "b.md", vectors(rng, 10))
    hits = new.vector_search(q, 3)
    assert {r.path for r in new.chunk_rows(c for c, _ in hits).values()} == {"b.md"}
    assert [c for c, _ in hits] == exact_top(new, q, 3)
    new.close()


def test_common_terms_are_those_in_more_than_half_the_chunks(tmp_path):
    store = Store(tmp_path / "i.sqlite")
    rows = [(i + 1, i + 1, f"h{i}", f"meeting notes {'budget' if i < 3 else 'garden'} item{i}") for i in range(10)]
    store.replace_file("a.md", "memory", "a", 0, 0, 0, rows, None)
    # "meeting"/"notes" in all 10 chunks, "garden" in 7 (porter: "gardens" is the same term), "budget" in 3
    assert store.common_terms(["meeting", "notes", "gardens", "budget", "item1"]) == {"meeting", "notes", "gardens"}
    store.replace_file("b.md", "memory", "b", 0, 0, 0, [(1, 1, f"g{i}", f"budget {i}") for i in range(12)], None)
    assert store.common_terms(["meeting", "budget"]) == {"budget"}  # the cache follows writes
    store.close()


def test_text_hits_equal_the_full_or_query(tmp_path):
    """Leaving out the ~0-weight terms keeps the candidates when the rarer terms fill them, and
    falls back to the full query when they do not (a small workspace)."""
    store = Store(tmp_path / "i.sqlite")
    rows = [(i + 1, i + 1, f"h{i}", f"lunch with sam {'noodle' if i % 3 == 0 else 'park'} {'bar' * (i % 2)}")
            for i in range(40)]
    store.replace_file("a.md", "memory", "a", 0, 0, 0, rows, None)
    assert store.common_terms(qry.query_terms("lunch with Sam at the noodle bar")) == {"lunch", "sam"}
    for query, limit in (("lunch with Sam at the noodle bar", 8), ("lunch sam noodle", 30), ("lunch sam", 5)):
        pruned = text_hits(store, query, qry.query_terms(query), "or", limit)
        full = store.fts_search(qry.build_fts_query(query, "or"), limit)
        assert len(pruned) == len(full) == min(limit, 40)
        assert sorted(pruned.values()) == pytest.approx(sorted(scoring.bm25_rank_to_score(r) for _, r in full), abs=1e-4)
    store.close()
