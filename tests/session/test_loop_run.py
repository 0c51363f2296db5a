"""``ToolLoop.run(turn) -> LoopOutcome``: each run has its own scratch, and the host hears of
a run's memory writes once. Real HTTP to the scripted chat server, real files and index."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openclaw_tui import events
from openclaw_tui.llm.client import ChatModel, LiteLLMModel
from openclaw_tui.llm.profiles import HOSTED, ModelProfile
from openclaw_tui.llm.resolve import ModelChoice
from openclaw_tui.memory.open import open_memory
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.session.tool_loop import LoopOutcome, LoopRun, MessageLog, ToolLoop
from openclaw_tui.tools.files import FileTools
from openclaw_tui.tools.registry import ToolBox
from openclaw_tui.workspace.daily import daily_rel
from tests.session.conftest import FAST_RETRY, SECRET_KEY, small_window

MODEL = "openai/fake-model"


async def test_a_flush_inside_a_turn_leaves_the_turn_scratch_alone(make_settings, server, recorder, workspace: Path) -> None:
    """An overflow in a turn runs the flush (its own run, its own search) before compacting:
    the turn's hits and query stay the turn's, and its check and citation read them."""
    (workspace / "memory").mkdir(exist_ok=True)
    (workspace / "memory" / "2026-01-05.md").write_text("# 2026-01-05\n\n- Billing database: PostgreSQL 16.\n")
    (workspace / "memory" / "2026-01-06.md").write_text("# 2026-01-06\n\n- The flush only lookup finds this line.\n")
    settings = make_settings(small_window(10_000, 2_000, 1_000, keep=10), model=MODEL, api_base=server.base_url, api_key=SECRET_KEY)
    eng = SessionEngine(settings, sink=recorder, retry_policy=FAST_RETRY)
    server.push({"text": "a1"}, {"text": "a2"})
    await eng.send("q1")
    await eng.send("q2")
    server.push(
        {"tool_calls": [{"name": "memory_search", "arguments": {"query": "billing database"}}]},
        {"error": 400, "message": "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens."},
        {"tool_calls": [{"name": "memory_search", "arguments": {"query": "flush only lookup"}}]},  # the flush searches too
        {"text": "NO_REPLY"},
        {"text": "## Goal\n- q1 and q2"},
        {"text": "Billing runs on PostgreSQL 16."},
    )
    result = await eng.send("Which database does billing use?")
    assert result.text == "Billing runs on PostgreSQL 16." and eng.counters()["compactionCount"] == 1
    queries = [e.query for e in recorder.of(events.MemoryRetrieved)]
    assert queries == ["billing database", "flush only lookup"]  # the flush did search, inside the turn
    assert eng.last_turn is not None
    scratch = eng.last_turn.scratch
    assert scratch.query == "billing database" and scratch.overflow_retried
    assert scratch.hits and {h["path"] for h in scratch.hits} == {"memory/2026-01-05.md"}
    assert [name for name, _args, _res in scratch.calls] == ["memory_search"]  # not the flush's call
    eng.close()


class SpyHost:
    """A ``LoopHost`` that counts what it is told."""

    def __init__(self, model: ChatModel) -> None:
        self._model = model
        self.written = 0
        self.seen: list[events.Event] = []

    def model(self) -> ChatModel:
        return self._model

    def profile(self) -> ModelProfile:
        return HOSTED

    def emit(self, event: events.Event) -> None:
        self.seen.append(event)

    def on_usage(self, usage: dict[str, int], sent_tools: list[dict[str, Any]]) -> None:
        pass

    async def on_overflow(self) -> bool:
        return False

    def memory_written(self) -> None:
        self.written += 1


def _loop(make_settings, server, workspace: Path) -> tuple[ToolLoop, SpyHost, ToolBox]:
    settings = make_settings({"memorySearch": {"provider": "none"}}, model=MODEL, api_base=server.base_url, api_key=SECRET_KEY)
    host = SpyHost(LiteLLMModel(ModelChoice(MODEL, "hosted", api_base=server.base_url, api_key=SECRET_KEY)))
    box = ToolBox(FileTools(workspace), memory=open_memory(settings), session_key=settings.session_key)
    return ToolLoop(settings, FAST_RETRY, host), host, box


def _run(box: ToolBox, convo: list[dict]) -> LoopRun:
    return LoopRun(MessageLog("You keep notes.", convo), "turn", box, False)


async def test_one_append_tells_the_host_once(make_settings, server, workspace: Path) -> None:
    loop, host, box = _loop(make_settings, server, workspace)
    server.push({"tool_calls": [{"name": "append", "arguments": {"path": daily_rel(), "content": "- likes teal"}}]},
                {"text": "Saved."})
    run = _run(box, [{"role": "user", "content": "remember I like teal"}])
    outcome = await loop.run(run)
    assert isinstance(outcome, LoopOutcome) and outcome.text == "Saved." and outcome.wrote_memory
    assert host.written == 1  # not once per change event plus once per tool call
    assert sum(isinstance(e, events.MemoryChanged) for e in host.seen) == 1
    # a fresh run that writes nothing tells nothing
    server.push({"text": "Hello."})
    quiet = await loop.run(_run(box, [{"role": "user", "content": "hi"}]))
    assert not quiet.wrote_memory and host.written == 1 and run.scratch is not _run(box, []).scratch
    box.memory.close()  # type: ignore[union-attr]


async def test_a_search_after_a_write_in_the_same_run_is_told_first(make_settings, server, workspace: Path) -> None:
    loop, host, box = _loop(make_settings, server, workspace)
    told_at: list[int] = []
    before = box.before_search

    async def spy_before() -> None:
        told_at.append(host.written)
        if before is not None:
            await before()

    box.before_search = spy_before
    server.push({"tool_calls": [{"name": "append", "arguments": {"path": daily_rel(), "content": "- likes teal"}}]},
                {"tool_calls": [{"name": "memory_search", "arguments": {"query": "teal"}}]},
                {"tool_calls": [{"name": "append", "arguments": {"path": daily_rel(), "content": "- and navy"}}]},
                {"text": "Saved both."})
    outcome = await loop.run(_run(box, [{"role": "user", "content": "remember teal, then navy"}]))
    assert outcome.text == "Saved both." and outcome.wrote_memory
    assert told_at == [1]  # the first write was told before the search ran
    assert host.written == 2  # ... and the second at the run's end
    box.memory.close()  # type: ignore[union-attr]
