"""Issue 27: the first search of a not-yet-embedded workspace answers from keywords while
the embedding pass runs in the background (then hybrid); the embedder can be warmed at start.

The embedding provider is the real OpenAI client against the loopback embed server; its
hook holds every embedding request until the test lets it go, so "the embedding pass is
slow" is a fact of the test, not a timing guess.
"""

from __future__ import annotations

import threading
from pathlib import Path

from openclaw_tui.memory.builtin.manager import MemoryManager
from tests.fakes.embed_server import EmbedServer

from .conftest import write


def _held(server: EmbedServer) -> threading.Event:
    gate = threading.Event()

    def hook(_request: dict) -> None:
        gate.wait(30)  # the embedding request waits until the test releases it
        return None

    server.hook = hook
    return gate


def test_first_search_answers_from_keywords_then_hybrid(workspace: Path, make_settings, managers, embed_server, remote_ms) -> None:
    write(workspace / "MEMORY.md", "# Memory\n- The staging database is called kestrel.\n")
    write(workspace / "memory" / "2026-12-04.md", "- Dana prefers teal dashboards.\n")
    gate = _held(embed_server)
    m = MemoryManager(make_settings(memorySearch=remote_ms))
    managers.append(m)
    try:
        first = m.search("staging database kestrel")
        data = dict(first)
        assert data.get("mode") == "keyword", data
        assert [r["path"] for r in data["results"]][:1] == ["MEMORY.md"]
        assert "still being embedded" in (data.get("warning") or "")
        assert m.indexer.keyword_first  # the embedding pass is still held
    finally:
        gate.set()
    m.wait_background_sync(30)
    assert not m.indexer.keyword_first
    later = dict(m.search("staging database kestrel"))
    assert later.get("mode") == "hybrid", later
    assert later["results"][0]["path"] == "MEMORY.md"
    assert embed_server.inputs()  # the files were embedded in the background


def test_warm_up_embeds_once_and_never_raises(workspace: Path, make_settings, managers, embed_server, remote_ms) -> None:
    m = MemoryManager(make_settings(memorySearch=remote_ms))
    managers.append(m)
    m.warm_up()
    assert embed_server.inputs() == ["warm up"]
    embed_server.fail_always(500)
    m.warm_up()  # a failing provider: nothing raised, search reports it later
    keyword = MemoryManager(make_settings(memorySearch={"provider": "none"}))
    managers.append(keyword)
    keyword.warm_up()  # no provider: nothing to do
