"""Several vectors per chunk (one per window of whole lines), scored by the best window.

Storage (``chunk_vectors`` + ``chunks_vec`` rows keyed by sub-vector id), max-aggregation,
the sqlite-vec and numpy paths agreeing, the cache per window text, the window size in the
index fingerprint, and the hybrid merge that keeps keyword-only's score.
"""

from __future__ import annotations

import numpy as np
import pytest

from openclaw_tui.config import deep_merge
from openclaw_tui.memory.builtin import embedding_ops
from openclaw_tui.memory.builtin import scoring
from openclaw_tui.memory.builtin.chunking import count_tokens, sub_windows
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.memory.builtin.store import Store

from .conftest import write

DIMS = 8


def unit(*idx: int) -> np.ndarray:
    v = np.zeros(DIMS, dtype=np.float32)
    for i in idx:
        v[i] = 1.0
    return v / np.linalg.norm(v)


def open_store(path, vec: bool) -> Store:
    store = Store(path, vector_enabled=vec)
    if vec:
        assert store.vec_loaded, store.vec_error
    return store


def fill(store: Store) -> dict[str, int]:
    """Three one-chunk files: A has two windows (e0, e1), B one (e0+e2), C one (e3)."""
    store.replace_file("a.md", "memory", "ha", 0, 0, 0, [(1, 2, "ca", "alpha\nbeta")], [np.vstack([unit(0), unit(1)])])
    store.replace_file("b.md", "memory", "hb", 0, 0, 0, [(1, 1, "cb", "gamma")], [np.vstack([unit(0, 2)])])
    store.replace_file("c.md", "memory", "hc", 0, 0, 0, [(1, 1, "cc", "delta")], np.vstack([unit(3)]))
    rows = store.chunk_rows(r[0] for r in store.conn.execute("select id from chunks"))
    return {r.path: cid for cid, r in rows.items()}


@pytest.mark.parametrize("vec", [True, False], ids=["sqlite-vec", "numpy"])
def test_chunk_stores_one_vector_per_window_and_scores_its_best(tmp_path, vec):
    store = open_store(tmp_path / "i.sqlite", vec)
    ids = fill(store)
    n_sub = store.conn.execute("select chunk_id, count(*) from chunk_vectors group by chunk_id").fetchall()
    assert dict(n_sub) == {ids["a.md"]: 2, ids["b.md"]: 1, ids["c.md"]: 1}
    if vec:  # vec0 rows are keyed by sub-vector id
        assert sorted(r[0] for r in store.conn.execute("select rowid from chunks_vec")) == sorted(
            r[0] for r in store.conn.execute("select id from chunk_vectors")
        )
    hits = store.vector_search(unit(0), 3)
    # A's first window equals the query: max cosine 1.0, although A's mean (e0+e1) scores 0.707
    assert [cid for cid, _ in hits] == [ids["a.md"], ids["b.md"], ids["c.md"]]
    assert [s for _, s in hits] == pytest.approx([1.0, 0.70710677, 0.0], abs=1e-5)
    mean_a = store.conn.execute("select embedding from chunks where id = ?", (ids["a.md"],)).fetchone()[0]
    assert float(np.frombuffer(mean_a, dtype=np.float32) @ unit(0)) == pytest.approx(0.70710677, abs=1e-5)
    assert store.vector_scores(unit(1), [ids["a.md"], ids["c.md"]]) == pytest.approx({ids["a.md"]: 1.0, ids["c.md"]: 0.0})
    # replacing / deleting a file removes its windows from both tables
    store.replace_file("a.md", "memory", "ha2", 0, 0, 0, [(1, 1, "ca2", "alpha")], [np.vstack([unit(4)])])
    store.delete_file("c.md")
    assert store.conn.execute("select count(*) from chunk_vectors").fetchone()[0] == 2
    if vec:
        assert store.conn.execute("select count(*) from chunks_vec").fetchone()[0] == 2
    assert [s for _, s in store.vector_search(unit(4), 1)] == pytest.approx([1.0])
    store.close()


def test_sqlite_vec_and_numpy_agree_when_one_chunk_owns_many_close_windows(tmp_path):
    """k distinct chunks come back even when the nearest sub-vectors all belong to one chunk
    (the KNN is widened), and both paths return the same chunks and scores."""
    rng = np.random.default_rng(7)
    stores = [open_store(tmp_path / "v.sqlite", True), open_store(tmp_path / "n.sqlite", False)]
    q = unit(0)
    many = np.vstack([q + 0.05 * rng.standard_normal(DIMS).astype(np.float32) for _ in range(60)])
    many /= np.linalg.norm(many, axis=1, keepdims=True)
    others = rng.standard_normal((12, 2, DIMS)).astype(np.float32)
    others /= np.linalg.norm(others, axis=2, keepdims=True)
    for store in stores:
        store.replace_file("big.md", "memory", "h", 0, 0, 0, [(1, 60, "big", "x")], [many])
        store.replace_file(
            "rest.md", "memory", "h2", 0, 0, 0, [(i + 1, i + 1, f"r{i}", f"r{i}") for i in range(12)], list(others)
        )
    results = []
    for store in stores:
        hits = store.vector_search(q, 5)
        rows = store.chunk_rows(cid for cid, _ in hits)
        results.append(([(rows[c].path, rows[c].start_line) for c, _ in hits], [s for _, s in hits]))
        assert len(hits) == 5 and len({c for c, _ in hits}) == 5
    assert results[0][0] == results[1][0]
    assert results[0][1] == pytest.approx(results[1][1], abs=1e-5)
    expected_rest = sorted(range(12), key=lambda i: -float((others[i] @ q).max()))[:4]
    assert results[0][0] == [("big.md", 1)] + [("rest.md", i + 1) for i in expected_rest]
    assert results[0][1][0] == pytest.approx(float((many @ q).max()), abs=1e-5)
    for store in stores:
        store.close()


def test_sub_windows_hold_whole_lines_within_the_budget():
    text = "\n".join(f"- line {i} about the heron launch and the budget for item {i}" for i in range(30))
    wins = sub_windows(text, 64)
    assert len(wins) > 3
    assert "\n".join(w.text for w in wins) == text  # consecutive, no overlap, nothing lost
    assert all(count_tokens(w.text) <= 64 for w in wins)
    assert sub_windows("short note", 64)[0].text == "short note"
    long_line = "word " * 400
    assert all(count_tokens(w.text) <= 64 for w in sub_windows(long_line, 64))


def long_notes(workspace):
    for day in range(1, 4):
        lines = [f"- day {day} meeting {i}: the heron launch budget, item {i * day}" for i in range(45)]
        write(workspace / "memory" / f"2024-03-0{day}.md", "\n".join(lines) + "\n")


def test_index_embeds_windows_caches_them_and_restart_embeds_nothing(workspace, make_settings, managers, remote_ms, embed_server):
    long_notes(workspace)
    m = MemoryManager(make_settings(memorySearch=remote_ms))
    managers.append(m)
    rep = m.sync()
    assert rep["ok"], rep
    store = m._get_store()
    n_sub = store.vector_count()
    assert n_sub > 2 * rep["chunks"]  # ~400-token chunks, 64-token windows
    assert rep["vectorsEmbedded"] == len(set(embed_server.inputs())) <= n_sub
    assert max(count_tokens(t) for t in embed_server.inputs()) <= embedding_ops.VECTOR_WINDOW_TOKENS
    assert store.conn.execute("select count(*) from chunks_vec").fetchone()[0] == n_sub
    assert m.fingerprint()["vectorWindowTokens"] == embedding_ops.VECTOR_WINDOW_TOKENS
    m.close()
    embed_server.reset_log()
    again = MemoryManager(make_settings(memorySearch=remote_ms))
    managers.append(again)
    rep = again.sync()
    assert rep["chunksEmbedded"] == 0 and rep.get("vectorsEmbedded", 0) == 0 and not rep["fullRebuild"]
    assert embed_server.requests == []
    res = again.search("heron launch budget item 88")
    assert res["mode"] == "hybrid" and res["results"]


def test_window_size_is_in_the_fingerprint_and_a_change_rebuilds(workspace, make_settings, managers, remote_ms, embed_server, monkeypatch):
    long_notes(workspace)
    m = MemoryManager(make_settings(memorySearch=remote_ms))
    managers.append(m)
    assert m.sync()["ok"]
    before = m._get_store().vector_count()
    fp_before = m.fingerprint()
    monkeypatch.setattr(embedding_ops, "VECTOR_WINDOW_TOKENS", 32)
    assert m.fingerprint() != fp_before and m.fingerprint()["vectorWindowTokens"] == 32
    assert m.is_dirty()
    rep = m.sync()
    assert rep["fullRebuild"] and rep["vectorsEmbedded"] > 0
    assert m._get_store().vector_count() > before
    assert not m.sync()["fullRebuild"]  # once


def test_window_is_capped_by_the_provider_input_limit(workspace, make_settings, managers, remote_ms):
    m = MemoryManager(make_settings(memorySearch=remote_ms))
    managers.append(m)
    m.provider.max_input_tokens = 20
    assert m.vector_window_tokens() == 18
    keyword = MemoryManager(make_settings(memorySearch={"provider": "none"}))
    managers.append(keyword)
    assert keyword.vector_window_tokens() is None


def test_numpy_and_sqlite_vec_managers_rank_the_same(workspace, make_settings, managers, remote_ms, embed_server):
    long_notes(workspace)
    vec = MemoryManager(make_settings(memorySearch=remote_ms))
    num = MemoryManager(make_settings(memorySearch=deep_merge(
        remote_ms, {"store": {"vector": {"enabled": False}, "path": "{stateDir}/memory/{agentId}-numpy.sqlite"}})))
    managers.extend([vec, num])
    vec.sync()
    num.sync()
    assert num.status()["vectorBackend"] == "numpy" and vec.status()["vectorBackend"] == "sqlite-vec"
    for q in ["heron launch", "meeting 7 budget", "item 30 on day 2"]:
        ra, rb = vec.search(q), num.search(q)
        assert ra["mode"] == rb["mode"] == "hybrid"
        assert [(r["path"], r["startLine"], r["score"]) for r in ra["results"]] == [
            (r["path"], r["startLine"], r["score"]) for r in rb["results"]
        ]


@pytest.mark.parametrize(
    "kw, v, vw, expected",
    [
        (0.6, 0.5, 0.7, 0.6 + scoring.HYBRID_SEMANTIC_SCALE * 0.7 * 0.5),  # keyword score plus semantic evidence
        (None, 0.8, 0.7, 0.56),  # vector-only hit: vectorWeight · cosine
        (0.1, 0.8, 0.7, 0.56),  # weak keyword hit, strong vector: the larger
        (0.5, -0.3, 0.7, 0.5),  # negative cosine never lowers the keyword score
        (0.5, 0.9, 0.0, 0.5),  # vectorWeight 0: keyword-only
        (None, None, 0.7, 0.0),
    ],
)
def test_hybrid_keyword_score(kw, v, vw, expected):
    assert scoring.hybrid_keyword_score(kw, v, vw) == pytest.approx(expected)


def test_hybrid_keyword_score_stays_below_one_and_ordered():
    a = scoring.hybrid_keyword_score(0.95, 0.9, 0.7)
    b = scoring.hybrid_keyword_score(0.95, 0.8, 0.7)
    assert 0.8 < b < a < 1.0
