"""A model-run flush does not hold the user's prompt back (issue 27): the prompt that reaches
the flush threshold is sent and answered first, then the flush runs and its notes land; once
per cycle, silent, and still before compaction. Real HTTP to the scripted server."""

from __future__ import annotations

import asyncio
import json
import threading

from openclaw_tui import events
from openclaw_tui.config import deep_merge
from openclaw_tui.llm.client import LiteLLMModel
from openclaw_tui.llm.resolve import ModelChoice
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.workspace.daily import daily_rel
from tests.session.conftest import FAST_RETRY, SECRET_KEY, small_window


def usage(total: int) -> dict[str, int]:
    return {"prompt_tokens": total - 5, "completion_tokens": 5}


def _engine(make_settings, server, recorder, mode: str) -> SessionEngine:
    ov = deep_merge(small_window(10_000, 2_000, 1_000, keep=10), {"agents": {"defaults": {"compaction": {"memoryFlush": {"mode": mode}}}}})
    model = LiteLLMModel(ModelChoice("openai/fake-model", "openai", api_base=server.base_url, api_key=SECRET_KEY))
    return SessionEngine(make_settings(ov), sink=recorder, model=model, retry_policy=FAST_RETRY)


def _is_flush(req: dict) -> bool:
    return "Session nearing compaction" in req["messages"][0]["content"]


async def test_the_prompt_past_the_threshold_is_answered_before_the_flush(make_settings, server, recorder, workspace) -> None:
    eng = _engine(make_settings, server, recorder, "model")
    F = eng.flush_threshold
    today = daily_rel()
    server.push({"text": "noted", "usage": usage(F + 50)})
    await eng.send("I prefer green tea in the mornings.")
    assert recorder.of(events.FlushStarted) == []  # below the threshold before that prompt
    n0 = len(server.chat_requests())
    server.push(
        {"text": "Green tea, in the mornings.", "usage": usage(F + 80)},
        {"tool_calls": [{"name": "append", "arguments": {"path": today, "content": "- user prefers green tea in the mornings"}}]},
        {"text": "NO_REPLY"},
    )
    recorder.clear()
    result = await eng.send("What do I drink?")
    # the user's prompt went out first and was answered
    reqs = server.chat_requests()[n0:]
    assert not _is_flush(reqs[0]) and reqs[0]["messages"][-1]["content"] == "What do I drink?"
    assert result.text == "Green tea, in the mornings." and result.error is None and not result.cancelled
    # then the flush, on the conversation with that exchange in it; its append landed
    assert [_is_flush(r) for r in reqs] == [False, True, True]
    assert any(m.get("content") == "Green tea, in the mornings." for m in reqs[1]["messages"])
    kinds = [e.type for e in recorder.events]
    assert kinds.index("turn_finished") < kinds.index("flush_started") < kinds.index("flush_finished")
    assert result.flushed and (workspace / today).read_text() == "- user prefers green tea in the mornings\n"
    assert eng.counters()["memoryFlushAt"] and eng.counters()["memoryFlushCompactionCount"] == 0
    # silent: NO_REPLY nowhere the user looks, the reply not replaced
    assert all("NO_REPLY" not in e.text for e in recorder.of(events.TurnFinished) + recorder.of(events.TextDelta))
    assert [e.text for e in recorder.of(events.TurnFinished)] == ["Green tea, in the mornings."]
    assert not [e for e in map(json.loads, eng.transcript_path.read_text().splitlines()) if e.get("type") == "pending"]
    # once per cycle: the next prompt neither waits for nor triggers another flush
    server.push({"text": "sure", "usage": usage(F + 90)})
    recorder.clear()
    await eng.send("Thanks.")
    assert recorder.of(events.FlushStarted) == [] and len(server.chat_requests()) == n0 + 4
    eng.close()


async def test_engine_mode_still_notes_before_the_prompt(make_settings, server, recorder, workspace) -> None:
    """No model call in the engine's notes: they stay where they were, before the prompt."""
    eng = _engine(make_settings, server, recorder, "engine")
    F = eng.flush_threshold
    server.push({"text": "ok", "usage": usage(F + 50)}, {"text": "ok again", "usage": usage(F + 60)})
    await eng.send("My budget is 12000 euros.")
    recorder.clear()
    await eng.send("And the dates are 14 to 16 May.")
    kinds = [e.type for e in recorder.events]
    assert kinds.index("flush_started") < kinds.index("turn_started")
    assert "12000 euros" in (workspace / daily_rel()).read_text()
    eng.close()


async def test_cancelling_the_flush_after_a_reply_keeps_the_reply(make_settings, server, recorder, workspace) -> None:
    eng = _engine(make_settings, server, recorder, "hybrid")
    F = eng.flush_threshold
    gate = threading.Event()
    server.push({"text": "first", "usage": usage(F + 50)})
    await eng.send("hello there")
    server.push({"text": "The answer.", "usage": usage(F + 70)}, {"text": "NO_REPLY", "gate": gate})
    recorder.clear()
    task = asyncio.ensure_future(eng.send("a question"))
    for _ in range(600):  # until the flush is under way (a state, not a time)
        if recorder.of(events.FlushStarted):
            break
        await asyncio.sleep(0.05)
    assert recorder.of(events.FlushStarted) and eng.busy
    eng.cancel()
    result = await task
    gate.set()
    assert result.text == "The answer." and not result.cancelled and not result.flushed
    assert [(e.text, e.cancelled) for e in recorder.of(events.TurnFinished)] == [("The answer.", False)]
    entries = [json.loads(x) for x in eng.transcript_path.read_text().splitlines()]
    assert not [e for e in entries if e.get("type") == "cancelled"]
    assert eng.history[-1] == {"role": "assistant", "content": "The answer."}
    assert eng.counters()["memoryFlushAt"] is None  # not recorded: the flush is due again
    eng.close()
