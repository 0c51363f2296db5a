"""Providers plugged into the real index (MemoryManager, SQLite file): provider switches
rebuild exactly once, restarts re-embed nothing, the cache serves rebuilds, and a fallback
takes over and is reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui.config import resolve_agent, validate_config
from openclaw_tui.events import IndexSynced
from openclaw_tui.memory.builtin.manager import MemoryManager

from .conftest import Reply

KEY = "sk-SENTINEL-integration-0000"


def _workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n\nThe user prefers green tea over coffee.\nProject codename is Heron.\n")
    for day in range(1, 6):
        lines = [f"- meeting {day} about the heron launch and budget item {i}" for i in range(40)]
        (ws / "memory" / f"2024-03-0{day}.md").write_text("\n".join(lines) + "\n")
    return ws


def _settings(ws: Path, ms: dict, models: dict | None = None):
    cfg = validate_config({"agents": {"defaults": {"workspace": str(ws), "memorySearch": ms}},
                           "models": {"providers": models or {}}})
    return resolve_agent(cfg)


def _manager(ws, ms, events, models=None) -> MemoryManager:
    return MemoryManager(_settings(ws, ms, models), sink=events.append)


def _openai(server) -> dict:
    return {"provider": "openai", "remote": {"baseUrl": server.base + "/v1", "apiKey": KEY}}


def _voyage(server) -> dict:
    return {"provider": "voyage", "remote": {"baseUrl": server.base + "/v1", "apiKey": KEY}}


def test_switch_rebuilds_once_restart_reembeds_nothing_cache_serves_rebuilds(tmp_path, embed_server):
    ws = _workspace(tmp_path)
    events: list = []

    with _manager(ws, _openai(embed_server), events) as m:
        first = m.sync(reason="test")
        assert first["ok"], first
        chunks = first["chunks"]
        assert chunks > 3 and first["chunksEmbedded"] == chunks and first["cacheHits"] == 0
    n_requests = len(embed_server.embed_requests())
    assert n_requests >= 1

    # unchanged restart: nothing re-embedded, no request made
    with _manager(ws, _openai(embed_server), events) as m:
        again = m.sync(reason="restart")
        assert again["ok"] and not again["fullRebuild"]
        assert again["chunksEmbedded"] == 0 and again["filesIndexed"] == 0
        assert m.status()["provider"] == "openai"
    assert len(embed_server.embed_requests()) == n_requests

    # forced rebuild (memory index --force): every chunk from the cache
    with _manager(ws, _openai(embed_server), events) as m:
        forced = m.sync(force=True, reason="force")
        assert forced["fullRebuild"]
        assert forced["cacheHits"] == chunks and forced["cacheMisses"] == 0 and forced["chunksEmbedded"] == 0
    assert len(embed_server.embed_requests()) == n_requests

    # provider switch → exactly one full rebuild, with the new provider's wire format
    events.clear()
    with _manager(ws, _voyage(embed_server), events) as m:
        switched = m.sync(reason="switch")
        assert switched["ok"] and switched["fullRebuild"]
        assert switched["chunksEmbedded"] == chunks and switched["cacheHits"] == 0
        assert m.sync(reason="again")["fullRebuild"] is False
        assert m.search("green tea")["provider"] == "voyage"
    with _manager(ws, _voyage(embed_server), events) as m:
        assert m.sync(reason="restart")["fullRebuild"] is False
    rebuilds = [e for e in events if isinstance(e, IndexSynced) and e.full_rebuild]
    assert len(rebuilds) == 1
    voyage_reqs = [r for r in embed_server.embed_requests() if r.body and r.body.get("input_type") == "document"]
    assert voyage_reqs and all(r.body["model"] == "voyage-4-large" for r in voyage_reqs)

    # switching back rebuilds once more, and the cache still holds openai's vectors
    before = len(embed_server.embed_requests())
    with _manager(ws, _openai(embed_server), events) as m:
        back = m.sync(reason="back")
        assert back["fullRebuild"] and back["cacheHits"] == chunks and back["chunksEmbedded"] == 0
    assert len(embed_server.embed_requests()) == before


def test_model_change_is_a_provider_switch(tmp_path, embed_server):
    ws = _workspace(tmp_path)
    events: list = []
    with _manager(ws, _openai(embed_server), events) as m:
        m.sync()
    ms = dict(_openai(embed_server), model="text-embedding-3-large")
    with _manager(ws, ms, events) as m:
        assert m.sync()["fullRebuild"]
    models = {r.body["model"] for r in embed_server.embed_requests()}
    assert models == {"text-embedding-3-small", "text-embedding-3-large"}


def test_fallback_takes_over_reports_and_rebuilds(tmp_path, embed_server):
    ws = _workspace(tmp_path)
    events: list = []
    # the primary (openai) answers 500 to everything; the fallback is gemini
    embed_server.queue(*[Reply(500) for _ in range(3)])
    ms = dict(_openai(embed_server), fallback="gemini")
    models = {"gemini": {"baseUrl": embed_server.base + "/v1beta", "apiKey": KEY}}
    with _manager(ws, ms, events, models) as m:
        report = m.sync(reason="first")
        assert report["ok"], report
        res = m.search("heron launch budget")
        assert res["results"], res
        assert res["provider"] == "gemini"
        assert res["fallback"]["from"] == "openai"
        assert "openai" in res["fallback"]["reason"] and KEY not in res["fallback"]["reason"]
        assert m.status()["provider"] == "gemini"
        assert m.sync()["fullRebuild"] is False
    gem = [r for r in embed_server.embed_requests() if r.path.endswith(":batchEmbedContents")]
    assert gem and gem[0].headers["x-goog-api-key"] == KEY
    assert {q["taskType"] for r in gem for q in r.body["requests"]} == {"RETRIEVAL_DOCUMENT", "RETRIEVAL_QUERY"}


def test_fallback_switch_mid_index_rebuilds_with_fallback_only(tmp_path, embed_server):
    """Primary works for the first file batch, then fails: the index must not mix vectors."""
    ws = _workspace(tmp_path)
    events: list = []
    with _manager(ws, _openai(embed_server), events) as m:
        m.sync()
    # new content + primary now failing → fallback mid-sync
    (ws / "memory" / "2024-04-01.md").write_text("- the kettle broke and we ordered a new one\n")
    embed_server.queue(*[Reply(500) for _ in range(3)])
    ms = dict(_openai(embed_server), fallback="mistral")
    models = {"mistral": {"baseUrl": embed_server.base + "/v1", "apiKey": KEY}}
    with _manager(ws, ms, events, models) as m:
        report = m.sync(reason="edit")
        assert report["ok"] and report["fullRebuild"], report
        res = m.search("kettle broke")
        assert res["provider"] == "mistral" and res["fallback"]["from"] == "openai"
        assert any(r["path"] == "memory/2024-04-01.md" for r in res["results"])


@pytest.mark.parametrize("ms,expect", [
    ({"provider": "none"}, "keyword-only"),
    ({}, "keyword-only"),
])
def test_no_key_anywhere_is_keyword_only_not_an_error(tmp_path, ms, expect):
    ws = _workspace(tmp_path)
    with MemoryManager(_settings(ws, ms)) as m:
        st = m.status()
        assert st["provider"] in (None, "none")
        assert st["searchMode"] == expect
        assert "keyword-only" in st["providerReason"]
        res = m.search("green tea")
        assert res["results"] and not res.get("disabled")


def test_retries_show_as_retry_events_not_errors(tmp_path, embed_server):
    """A retried embedding call is progress (timeline), not an error (the chat shows errors)."""
    from openclaw_tui.events import ProviderError, ProviderRetry

    ws = _workspace(tmp_path)
    events: list = []
    embed_server.queue(Reply(429, headers={"Retry-After": "0.05"}), Reply(503))
    ms = dict(_openai(embed_server), fallback="gemini")  # retries reach the primary through the wrapper
    with _manager(ws, ms, events, {"gemini": {"apiKey": KEY}}) as m:
        assert m.sync()["ok"]
        assert m.provider_fallback() is None  # retries succeeded: no switch
    assert [e for e in events if isinstance(e, ProviderError)] == []
    retries = [e for e in events if isinstance(e, ProviderRetry)]
    assert [e.attempt for e in retries] == [1, 2]
    assert "HTTP 429" in retries[0].message and "HTTP 503" in retries[1].message
    assert all(e.provider == "openai" and e.message.startswith("embeddings:") for e in retries)
    assert retries[0].delay_s <= 0.1  # the server's Retry-After
    assert all(KEY not in e.message for e in retries)
