"""The flush a model writes runs after the reply (issue 27): the prompt that crossed the
threshold is answered at once, a prompt typed during the flush waits in the queue with
"flushing — your message is queued", and is answered when the flush has stored its note."""

from __future__ import annotations

import threading
from pathlib import Path

from openclaw_tui import events as ev
from openclaw_tui.tui.app import OpenClawApp
from openclaw_tui.tui.messages import EngineEvent
from openclaw_tui.tui.widgets.chat import AgentResponse
from openclaw_tui.workspace.daily import daily_rel
from tests.fakes.chat_server import ChatServer

from .conftest import FIXED_CLOCK, make_settings, send, wait_idle, wait_ready, wait_until
from .test_prompt_progress import submit


async def test_a_prompt_typed_during_the_flush_is_queued_and_answered(workspace: Path) -> None:
    window = {"agents": {"defaults": {"contextTokens": 10_000, "compaction": {
        "reserveTokensFloor": 2_000, "keepRecentTokens": 10, "memoryFlush": {"softThresholdTokens": 1_000}}}}}
    seen: list[ev.Event] = []
    gate = threading.Event()
    today = daily_rel()

    def hook(message) -> None:
        if isinstance(message, EngineEvent) and all(message.event is not e for e in seen):
            seen.append(message.event)

    with ChatServer() as server:
        settings = make_settings(workspace, window, model="openai/fake-model", api_base=server.base_url, api_key="sk-test-123")
        app = OpenClawApp(settings, clock=FIXED_CLOCK)
        async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
            await wait_ready(pilot)
            screen = app.main_screen
            server.push({"text": "one", "usage": {"prompt_tokens": 7_100, "completion_tokens": 5}})
            await send(pilot, "hello")
            server.push(
                {"text": "Answered at once.", "usage": {"prompt_tokens": 7_300, "completion_tokens": 5}},
                {"tool_calls": [{"name": "append", "arguments": {"path": today, "content": "- user said hello"}}], "gate": gate},
                {"text": "NO_REPLY"},
                {"text": "The queued one, answered."},
            )
            await submit(pilot, "past the threshold now")
            replies = lambda: "".join(r.text for r in screen.chat.query(AgentResponse))  # noqa: E731
            await wait_until(pilot, lambda: "Answered at once." in replies(), 20, "the reply before the flush")
            await wait_until(pilot, lambda: any(isinstance(e, ev.FlushStarted) for e in seen), 20, "the flush")
            assert not (workspace / today).exists()  # the flush is held on its gate: nothing stored yet
            await submit(pilot, "and this one?")
            await wait_until(pilot, lambda: screen.queue.items == ["and this one?"], 10, "the queued prompt")
            assert "flushing — your message is queued" in str(screen.queue.render())
            assert "flushing" in screen.status_bar.plain
            gate.set()
            await wait_until(pilot, lambda: "The queued one, answered." in replies(), 30, "the queued prompt's reply")
            await wait_idle(pilot)
            assert not screen.queue.items and "NO_REPLY" not in replies()
        flush_reqs = [r for r in server.chat_requests() if "Session nearing compaction" in r["messages"][0]["content"]]
        assert len(flush_reqs) == 2  # the append, then NO_REPLY: one flush turn
    assert "- user said hello" in (workspace / today).read_text(encoding="utf-8")
    kinds = [e.type for e in seen]
    assert kinds.index("flush_finished") < len(kinds) - 1 - kinds[::-1].index("turn_started")  # the queued turn after the flush
