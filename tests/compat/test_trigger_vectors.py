"""Vector-assisted trigger recall (memory/trigger_vectors.py) through a real loopback
embedding server: a paraphrase that shares no word with a trigger phrase is recalled when an
embedding provider is configured, and not without one."""

from __future__ import annotations

import json

import pytest

from openclaw_tui import events
from openclaw_tui.memory.embeddings.remote import RemoteProvider
from openclaw_tui.memory.trigger_vectors import PhraseSimilarity
from openclaw_tui.memory.triggers import THRESHOLD, match_triggers, parse_entries
from tests.fakes.embed_server import EmbedServer
from tests.session.conftest import FAST_RETRY, SECRET_KEY  # noqa: F401 - fixtures come from tests/session
from tests.session.conftest import make_settings, recorder, server, workspace  # noqa: F401
from tests.session.test_engine_server import engine_for

MARK = "LOCKER-7731"
MEMORY = f"# Memory\n\n- The gym locker code is {MARK} <!-- trigger: gym locker -->\n- The plant needs water on Sundays\n"
PARAPHRASE = "where do I keep my stuff while working out?"  # no word of "gym locker"


def scripted(srv: EmbedServer, cosine: float) -> None:
    """The phrase and the paraphrase at ``cosine`` (unit vectors in the first two dims)."""
    srv.script("gym locker", [1.0, 0.0])
    srv.script(PARAPHRASE, [cosine, (1 - cosine**2) ** 0.5])


def overrides(srv: EmbedServer | None) -> dict:
    ms = {"provider": "none"} if srv is None else {
        "provider": "openai", "model": "fake-embed",
        "remote": {"baseUrl": srv.base_url, "apiKey": "sk-embed-test-123456"},
    }
    return {"agents": {"defaults": {"memorySearch": ms}}}


@pytest.mark.parametrize("with_vectors", [True, False])
async def test_paraphrase_recalled_only_with_vectors(make_settings, server, recorder, workspace, with_vectors) -> None:
    (workspace / "MEMORY.md").write_text(MEMORY)
    server.push({"text": "ok"})
    with EmbedServer(dims=16) as srv:
        scripted(srv, 0.9)
        eng = engine_for(make_settings, server, recorder, overrides(srv if with_vectors else None))
        await eng.send(PARAPHRASE)
        eng.close()
        asked = srv.inputs()
    triggered = recorder.of(events.MemoryTriggered)
    later = json.dumps(server.chat_requests()[0]["messages"][1:])
    if with_vectors:
        assert [e["trigger"] for e in triggered[0].entries] == ["gym locker"]
        assert triggered[0].entries[0]["score"] == pytest.approx(0.9, abs=1e-3)
        assert MARK in later  # read in before the model answered
        assert PARAPHRASE in asked and "gym locker" in asked
    else:
        assert triggered == [] and MARK not in later
        assert asked == []


def provider(srv: EmbedServer) -> RemoteProvider:
    return RemoteProvider("openai", model="fake-embed", api_key="sk-embed-test-123456", base_url=srv.base_url,
                          backoff_base_s=0.0, attempts=1)


def test_vector_threshold_and_keyword_still_decides() -> None:
    entries = parse_entries(MEMORY, "MEMORY.md")
    with EmbedServer(dims=16) as srv:
        scripted(srv, THRESHOLD - 0.05)  # below the threshold: not triggered
        sim = PhraseSimilarity(provider(srv))
        assert match_triggers(entries, PARAPHRASE, similarity=sim) == []
        assert [t.trigger for t in match_triggers(entries, "my gym locker please", similarity=sim)] == ["gym locker"]
        srv.fail_always(500)  # a provider that is down: keyword triggers still work
        sim2 = PhraseSimilarity(provider(srv))
        assert [t.trigger for t in match_triggers(entries, "my gym locker please", similarity=sim2)] == ["gym locker"]
