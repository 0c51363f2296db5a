"""Hybrid search through litellm against a real loopback embedding server.

The server (tests/fakes/embed_server.py) returns deterministic hashed bag-of-words
vectors; litellm makes real HTTP requests to it.
"""

from __future__ import annotations

import numpy as np
import pytest

from openclaw_tui.config import deep_merge
from openclaw_tui.events import ProviderError
from openclaw_tui.memory.builtin.manager import MemoryManager

from .conftest import write

NOTES = {
    "MEMORY.md": "# Memory\n\n- Prefers green tea over coffee.\n- Allergic to peanuts.\n",
    "memory/2026-01-03.md": "- Planned the garden: tomatoes, basil and peppers.\n- Fixed the bike chain.\n",
    "memory/2026-01-09.md": "- Kubernetes cluster upgrade to 1.30 went fine.\n- Rotated the database passwords.\n",
    "memory/2026-01-15.md": "- Dinner with Ana at the Thai place; she recommended the green curry.\n",
    "memory/2026-01-21.md": "- Read about sourdough starters and hydration ratios.\n- Baked bread.\n",
    "memory/trips/lisbon.md": "- Lisbon trip in March: tram 28, pastel de nata, Alfama.\n",
}
QUERIES = ["green tea coffee", "garden tomatoes basil", "kubernetes upgrade", "sourdough bread", "lisbon tram", "peanuts allergy"]


@pytest.fixture
def notes(workspace):
    for rel, text in NOTES.items():
        write(workspace / rel, text)
    return workspace


def manager(make_settings, managers, ms: dict, **extra) -> MemoryManager:
    m = MemoryManager(make_settings(memorySearch=ms, **extra))
    managers.append(m)
    return m


def test_hybrid_search_end_to_end(notes, make_settings, managers, remote_ms, embed_server):
    m = manager(make_settings, managers, remote_ms)
    rep = m.sync()
    assert rep["ok"], rep
    assert rep["chunksEmbedded"] == rep["chunks"] == len(NOTES)
    assert rep["cacheMisses"] == len(NOTES) and rep["cacheHits"] == 0
    req = embed_server.requests[0]
    assert req["path"].endswith("/embeddings")
    assert req["headers"]["authorization"] == "Bearer sk-test-123456789"
    assert req["json"]["model"] == "fake-embed"
    res = m.search("kubernetes upgrade")
    assert res["mode"] == "hybrid" and res["provider"] == "openai" and res["model"] == "fake-embed"
    assert res["results"][0]["path"] == "memory/2026-01-09.md"
    assert embed_server.inputs()[-1] == "kubernetes upgrade"  # the query itself was embedded
    st = m.status()
    assert st["vectorDims"] == 64 and st["searchMode"] == "hybrid" and st["cacheEntries"] == len(NOTES)


def test_sqlite_vec_and_numpy_give_the_same_ranking(notes, make_settings, managers, remote_ms, embed_server):
    vec = manager(make_settings, managers, remote_ms)
    num = manager(make_settings, managers, deep_merge(remote_ms, {"store": {"vector": {"enabled": False}, "path": "{stateDir}/memory/{agentId}-numpy.sqlite"}}))
    vec.sync()
    num.sync()
    assert vec.status()["vectorBackend"] == "sqlite-vec"
    assert num.status()["vectorBackend"] == "numpy"
    vstore, nstore = vec._get_store(), num._get_store()
    for q in QUERIES + ["bread and tea", "database passwords rotated"]:
        qv = np.asarray(embed_server.vector(q), dtype=np.float32)
        a = vstore.vector_search(qv, 6)
        b = nstore.vector_search(qv, 6)
        # same chunk order (by path/line, ids may differ) and the same similarities
        rows_a = vstore.chunk_rows([i for i, _ in a])
        rows_b = nstore.chunk_rows([i for i, _ in b])
        assert [s for _, s in a] == pytest.approx([s for _, s in b], abs=1e-5)
        # same chunks in the same order; exact ties (equal similarity) may come in either order
        keys_a = [(rows_a[i].path, rows_a[i].start_line) for i, _ in a]
        keys_b = [(rows_b[i].path, rows_b[i].start_line) for i, _ in b]
        assert_same_order(keys_a, keys_b, [s for _, s in a])
        ra, rb = vec.search(q), num.search(q)
        assert_same_order(
            [r["path"] for r in ra["results"]], [r["path"] for r in rb["results"]], [r["score"] for r in ra["results"]]
        )
        assert [r["score"] for r in ra["results"]] == pytest.approx([r["score"] for r in rb["results"]], abs=2e-4)


def assert_same_order(a: list, b: list, sims: list[float], tol: float = 1e-4) -> None:
    assert len(a) == len(b)
    i = 0
    while i < len(a):
        j = i
        while j + 1 < len(a) and abs(sims[j + 1] - sims[i]) < tol:
            j += 1
        assert sorted(a[i : j + 1]) == sorted(b[i : j + 1]), (a, b)
        i = j + 1


def test_vector_similarity_matches_numpy_cosine(notes, make_settings, managers, remote_ms, embed_server):
    m = manager(make_settings, managers, remote_ms)
    m.sync()
    store = m._get_store()
    qv = np.asarray(embed_server.vector("green curry with Ana"), dtype=np.float32)
    hits = store.vector_search(qv, 3)
    rows = store.chunk_rows([i for i, _ in hits])
    for cid, sim in hits:
        doc = np.asarray(embed_server.vector(rows[cid].text), dtype=np.float32)
        assert sim == pytest.approx(float(doc @ qv) / (np.linalg.norm(doc) * np.linalg.norm(qv)), abs=1e-5)


def test_unchanged_restart_reembeds_nothing_and_rename_hits_cache(notes, make_settings, managers, remote_ms, embed_server):
    m1 = manager(make_settings, managers, remote_ms)
    m1.sync()
    m1.close()
    embed_server.reset_log()
    m2 = manager(make_settings, managers, remote_ms)
    rep = m2.sync()
    assert rep["filesIndexed"] == 0 and rep["chunksEmbedded"] == 0
    assert embed_server.requests == []
    (notes / "memory/2026-01-21.md").rename(notes / "memory/baking.md")
    rep = m2.sync()
    assert rep["filesIndexed"] == 1 and rep["cacheHits"] == 1 and rep["chunksEmbedded"] == 0
    assert embed_server.requests == []
    rep = m2.sync(force=True)  # full rebuild: every vector comes from the surviving cache
    assert rep["fullRebuild"] and rep["chunksEmbedded"] == 0 and rep["cacheHits"] == len(NOTES)
    assert embed_server.requests == []
    assert m2.search("sourdough bread")["results"][0]["path"] == "memory/baking.md"


def test_model_change_rebuilds_with_new_vectors(notes, make_settings, managers, remote_ms, embed_server):
    embed_server.model_dims["big-embed"] = 96
    m1 = manager(make_settings, managers, remote_ms)
    m1.sync()
    m1.close()
    embed_server.reset_log()
    m2 = manager(make_settings, managers, deep_merge(remote_ms, {"model": "big-embed"}))
    assert m2.is_dirty()
    rep = m2.sync()
    assert rep["fullRebuild"] and rep["ok"]
    assert rep["chunksEmbedded"] == len(NOTES)
    assert {r["json"]["model"] for r in embed_server.requests} == {"big-embed"}
    assert m2.status()["vectorDims"] == 96
    assert m2.search("lisbon tram")["results"][0]["path"] == "memory/trips/lisbon.md"


def test_401_on_query_returns_disabled_result(notes, make_settings, managers, remote_ms, embed_server):
    m = manager(make_settings, managers, remote_ms)
    m.sync()
    events = []
    m.sink = events.append
    embed_server.reset_log()
    embed_server.fail_always(401)
    res = m.search("green tea")
    assert res["results"] == [] and res["disabled"] is True
    assert "401" in res["error"] and "memorySearch.remote.apiKey" in res["error"]
    assert "sk-test-123456789" not in str(res)
    assert res["warning"] and res["action"]
    assert len(embed_server.requests) == 1  # a 401 is not retried
    assert any(isinstance(e, ProviderError) and e.status == 401 for e in events)


def test_429_is_retried_then_succeeds(notes, make_settings, managers, remote_ms, embed_server):
    m = manager(make_settings, managers, remote_ms)
    embed_server.fail_next(429)
    rep = m.sync()
    assert rep["ok"] and rep["chunksEmbedded"] == len(NOTES)
    assert len(embed_server.requests) == 2


def test_provider_failure_mid_rebuild_keeps_old_index(notes, make_settings, managers, remote_ms, embed_server):
    m = manager(make_settings, managers, deep_merge(remote_ms, {"cache": {"enabled": False}}))
    m.sync()
    before = m.search("garden tomatoes")["results"][0]["path"]
    events = []
    m.sink = events.append
    embed_server.fail_always(500)
    rep = m.sync(force=True)
    assert not rep["ok"] and rep["errors"]
    assert any(isinstance(e, ProviderError) for e in events)
    assert not [p for p in m.index_path.parent.iterdir() if ".rebuild-" in p.name]
    embed_server.clear_errors()
    res = m.search("garden tomatoes")
    assert res["results"][0]["path"] == before and res["mode"] == "hybrid"
    assert m.status()["files"] == len(NOTES)


def test_failed_file_is_retried_on_next_sync(notes, make_settings, managers, remote_ms, embed_server):
    m = manager(make_settings, managers, remote_ms)
    m.sync()
    write(notes / "memory/2026-02-01.md", "- New entry about pottery class.\n")
    embed_server.fail_always(500)
    rep = m.sync()
    assert not rep["ok"] and rep["filesIndexed"] == 0
    assert m.is_dirty()
    embed_server.clear_errors()
    rep = m.sync()
    assert rep["ok"] and rep["filesIndexed"] == 1
    assert m.search("pottery class")["results"][0]["path"] == "memory/2026-02-01.md"


def test_cache_max_entries_prunes_oldest(notes, make_settings, managers, remote_ms, embed_server):
    m = manager(make_settings, managers, deep_merge(remote_ms, {"cache": {"maxEntries": 3}}))
    rep = m.sync()
    assert rep["cachePruned"] == len(NOTES) - 3
    assert m.status()["cacheEntries"] == 3


def test_vectors_from_another_model_are_not_mixed(notes, make_settings, managers, remote_ms, embed_server):
    m1 = manager(make_settings, managers, remote_ms)
    m1.sync()
    m1.close()
    # same dimension, different model: the stored vectors are not comparable to the query's
    # onSearch off: the only background sync is the one the stale-vector check starts, so the
    # first answer is deterministically computed against the stale index (no race under load)
    m2 = manager(make_settings, managers, deep_merge(remote_ms, {"model": "other-embed", "sync": {"onSearch": False}}))
    m2.indexer.searched_once = True  # skip the first-search sync to look at the stale index
    res = m2.search("lisbon tram")
    assert res["mode"] == "keyword" and res["results"][0]["path"] == "memory/trips/lisbon.md"
    m2.wait_background_sync(timeout=60)
    assert m2.search("lisbon tram")["mode"] == "hybrid"
    assert m2._get_store().get_meta_json("fingerprint")["model"] == "other-embed"


def test_provider_failure_pauses_search_triggered_syncs(notes, make_settings, managers, remote_ms, embed_server):
    m = manager(make_settings, managers, remote_ms)
    m.sync()
    write(notes / "memory/2026-02-02.md", "- New note about kites.\n")
    embed_server.fail_always(500)
    rep = m.sync(reason="cli")
    assert not rep["ok"]
    embed_server.reset_log()
    embed_server.clear_errors()
    for _ in range(3):
        m._bg_checked = -1e9  # no burst throttling: only the cooldown holds syncs back
        m.search("kites")
        m.wait_background_sync(timeout=30)
    # only the query embeddings reached the server: no sync retried the failed file
    assert embed_server.inputs() == ["kites"] * 3
    assert m.is_dirty()
    assert m.sync()["ok"]  # an explicit sync still runs and clears the pause
    assert not m.is_dirty()


def test_extension_load_failure_falls_back_to_numpy(notes, make_settings, managers, remote_ms, embed_server, tmp_path):
    bogus = write(tmp_path / "not-an-extension.so", "garbage")
    m = manager(make_settings, managers, deep_merge(remote_ms, {"store": {"vector": {"extensionPath": str(bogus)}}}))
    m.sync()
    st = m.status()
    assert st["vectorBackend"] == "numpy" and "sqlite-vec unavailable" in st["vectorError"]
    res = m.search("kubernetes upgrade")
    assert res["mode"] == "hybrid" and res["results"][0]["path"] == "memory/2026-01-09.md"
