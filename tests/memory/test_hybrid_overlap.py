"""A hybrid search runs its keyword search (SQLite) beside the query's embedding and the vector
scan (numpy), not before them (issue 38, item 7): at 100k chunks the two cost about the same,
and one after the other made a hybrid search ~2.8× the numpy floor."""

from __future__ import annotations

import threading

import numpy as np

from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.memory.embeddings.base import EmbeddingProvider, ProviderInfo

DIMS = 16


class HandshakeProvider(EmbeddingProvider):
    """Its query embedding lets the keyword search go on; alone, that search would wait."""

    def __init__(self) -> None:
        self.dims = DIMS
        self.info = ProviderInfo("handshake", "h-16", "local")
        self.embedded = threading.Event()
        self.fail = False

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        rng = np.random.default_rng(len(texts))
        v = rng.standard_normal((len(texts), DIMS)).astype(np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    def embed_query(self, text: str) -> np.ndarray:
        self.embedded.set()
        if self.fail:
            raise RuntimeError("provider down")
        return self.embed_documents([text])[0]


def _manager(make_settings, workspace, managers) -> tuple[MemoryManager, HandshakeProvider, list[str]]:
    (workspace / "memory").mkdir()
    (workspace / "memory" / "notes.md").write_text("# Notes\n\n- the VPN host is vpn-east-4\n- the dentist is on Tuesday\n",
                                                  encoding="utf-8")
    provider = HandshakeProvider()
    m = MemoryManager(make_settings(memorySearch={"sync": {"watch": False}}), provider=provider)
    managers.append(m)
    m.sync(reason="test")
    store = m._get_store()
    threads: list[str] = []
    plain = store.fts.fts_search

    def waits_for_the_embedding(match, limit):
        threads.append(threading.current_thread().name)
        assert provider.embedded.wait(10), "the keyword search ran before the query was embedded, not beside it"
        return plain(match, limit)

    store.fts.fts_search = waits_for_the_embedding  # type: ignore[method-assign]
    provider.embedded.clear()
    return m, provider, threads


def test_the_keyword_search_runs_beside_the_embedding_and_the_vector_scan(make_settings, workspace, managers) -> None:
    m, _provider, threads = _manager(make_settings, workspace, managers)
    res = m.search("VPN host", min_score=0.0)
    assert res["mode"] == "hybrid", res
    assert res["results"] and "vpn-east-4" in res["results"][0]["snippet"]
    assert threads and all(name != threading.main_thread().name for name in threads)


def test_a_failed_provider_still_answers_from_the_keyword_search(make_settings, workspace, managers) -> None:
    m, provider, _threads = _manager(make_settings, workspace, managers)
    provider.fail = True
    res = m.search("dentist", min_score=0.0)
    assert res.get("disabled"), res  # not retryable: the search says so
    assert "provider down" in res["error"]
