"""Pilot tests driving real litellm HTTP turns against the scripted loopback chat server."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui import events as ev
from openclaw_tui.tui.app import OpenClawApp
from openclaw_tui.tui.messages import EngineEvent
from openclaw_tui.tui.widgets.chat import AgentResponse, ErrorBlock, ToolBlock
from tests.fakes.chat_server import ChatServer

from .conftest import FIXED_CLOCK, make_settings, send, wait_idle, wait_ready, wait_until


@pytest.fixture
def server():
    with ChatServer() as srv:
        yield srv


def _app(workspace: Path, server: ChatServer, hook_events: list) -> tuple[OpenClawApp, object]:
    settings = make_settings(workspace, model="openai/fake-model", api_base=server.base_url, api_key="sk-test-123")

    def hook(message) -> None:
        if isinstance(message, EngineEvent):
            hook_events.append(message.event)

    return OpenClawApp(settings, clock=FIXED_CLOCK), hook


async def test_tool_call_stream_and_reported_usage(workspace: Path, server: ChatServer) -> None:
    seen: list[ev.Event] = []
    app, hook = _app(workspace, server, seen)
    server.push(
        {"tool_calls": [{"name": "memory_search", "arguments": {"query": "billing database"}}]},
        {"text": "Billing runs on **PostgreSQL 16**.\n\nSource: MEMORY.md#L4", "usage": {"prompt_tokens": 1234, "completion_tokens": 20}},
    )
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        assert not screen.status_bar.offline
        assert "fake-model" in screen.status_bar.plain
        await send(pilot, "Which database does billing use?")
        await wait_until(pilot, lambda: any(isinstance(e, ev.TurnFinished) for e in seen), 20, "the turn")
        await pilot.pause(0.2)

        assert len(server.chat_requests()) >= 2  # real HTTP: tool step + answer step
        block = next(iter(screen.chat.query(ToolBlock)))
        assert block.tool_name == "memory_search" and block.arguments == {"query": "billing database"}
        assert block.error is None
        items = screen.memory_panel.items
        assert items and items[0].path == "MEMORY.md" and items[0].source_line.startswith("Source: MEMORY.md#L")
        text = "".join(r.text for r in screen.chat.query(AgentResponse))
        assert "PostgreSQL 16" in text
        deltas = [e for e in seen if isinstance(e, ev.TextDelta)]
        assert len(deltas) > 1, "the reply was not streamed"
        usage = screen.meter.usage
        assert usage is not None and not usage.estimated
        assert "reported" in screen.meter.plain


async def test_provider_error_inline_with_action(workspace: Path, server: ChatServer) -> None:
    seen: list[ev.Event] = []
    app, hook = _app(workspace, server, seen)
    server.push({"error": 401, "message": "Incorrect API key provided"})
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "hello there")
        await wait_until(pilot, lambda: list(screen.chat.query(ErrorBlock)), 20, "an inline error")
        err = list(screen.chat.query(ErrorBlock))[-1]
        assert err.action, "the error does not say what to do"
        assert "sk-test-123" not in err.message + err.action
        assert any(line.startswith("12:00:00 provider error") for line in screen.timeline.lines)
        # the session goes on: the next turn works
        server.push({"text": "Hi again."})
        await send(pilot, "are you there?")
        await wait_until(pilot, lambda: "Hi again." in "".join(r.text for r in screen.chat.query(AgentResponse)), 20, "the next reply")


async def test_escape_cancels_running_turn(workspace: Path, server: ChatServer) -> None:
    seen: list[ev.Event] = []
    app, hook = _app(workspace, server, seen)
    server.push({"text": "This reply is long and will stall half way through the stream", "stall_after": 2, "stall_s": 30})
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        screen.prompt.load_text("tell me a long story")
        await pilot.press("enter")
        await wait_until(pilot, lambda: any(isinstance(e, ev.TextDelta) for e in seen), 20, "the first delta")
        # issue 27: the phase, not "replying" (the bar follows the delta on its next refresh)
        await wait_until(pilot, lambda: "writing" in screen.status_bar.plain, 10, "the writing phase")
        assert screen.turn_running
        await pilot.press("escape")
        await wait_until(pilot, lambda: any(isinstance(e, ev.TurnFinished) for e in seen), 15, "the cancelled turn")
        await wait_idle(pilot, 15)
        fin = next(e for e in seen if isinstance(e, ev.TurnFinished))
        assert fin.cancelled
        response = list(screen.chat.query(AgentResponse))[-1]
        assert response.has_class("-cancelled") and "cancelled" in response.text
        assert not screen.turn_running


async def test_retry_shows_in_timeline_then_answer(workspace: Path, server: ChatServer) -> None:
    seen: list[ev.Event] = []
    app, hook = _app(workspace, server, seen)
    server.push({"error": 429, "headers": {"retry-after": "0"}, "message": "Rate limit reached"}, {"text": "Recovered."})
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "hello")
        await wait_until(pilot, lambda: "Recovered." in "".join(r.text for r in screen.chat.query(AgentResponse)), 20, "the retried reply")
        retry = next(e for e in seen if isinstance(e, ev.ProviderRetry))
        assert f"12:00:00 retry {retry.attempt} in {retry.delay_s:.1f}s ({retry.provider}): " in "\n".join(screen.timeline.lines)
        assert not list(screen.chat.query(ErrorBlock))  # a retried call is not an error


async def test_refused_write_in_ro_and_model_switch(workspace: Path, server: ChatServer) -> None:
    seen: list[ev.Event] = []
    settings = make_settings(
        workspace, model="openai/fake-model", api_base=server.base_url, api_key="sk-test-123", workspace_access="ro"
    )

    def hook(message) -> None:
        if isinstance(message, EngineEvent):
            seen.append(message.event)

    app = OpenClawApp(settings, clock=FIXED_CLOCK)
    server.push(
        {"tool_calls": [{"name": "write", "arguments": {"path": "notes.md", "content": "hello"}}]},
        {"text": "I could not write the file: the workspace is read-only."},
    )
    before = (workspace / "MEMORY.md").read_bytes()
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        # (a request to change a file is refused before any model call in ro, issue 37: this message
        # is not one, and the model writes anyway: the sandbox refuses the tool call)
        await send(pilot, "hello there")
        await wait_until(pilot, lambda: any(isinstance(e, ev.TurnFinished) for e in seen), 20, "the turn")
        await pilot.pause(0.2)
        block = next(iter(screen.chat.query(ToolBlock)))
        assert block.tool_name == "write" and block.error and block.has_class("-error")
        assert "✗" in str(block.title)
        assert any(line.startswith("12:00:00 refused write notes.md") for line in screen.timeline.lines)
        assert not (workspace / "notes.md").exists() and (workspace / "MEMORY.md").read_bytes() == before

        await send(pilot, "/model openai/other-model")
        assert "other-model" in screen.status_bar.plain
        server.push({"text": "switched"})
        await send(pilot, "ping")
        await wait_until(pilot, lambda: "switched" in "".join(r.text for r in screen.chat.query(AgentResponse)), 20, "reply")
        assert server.chat_requests()[-1]["model"] == "other-model"


async def test_escape_cancels_running_compact(workspace: Path, server: ChatServer) -> None:
    seen: list[ev.Event] = []
    app, hook = _app(workspace, server, seen)
    server.push({"text": "First answer."}, {"text": "Second answer."})
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "first question")
        await send(pilot, "second question")
        server.push({"text": "summary that never finishes", "stall_after": 1, "stall_s": 30})
        screen.prompt.load_text("/compact")
        await pilot.press("enter")
        await wait_until(pilot, lambda: any(isinstance(e, ev.CompactionStarted) for e in seen), 20, "the compaction to start")
        assert screen.command_running == "compact" and "compacting" in screen.status_bar.plain
        await pilot.press("escape")
        await wait_until(pilot, lambda: screen.command_running is None, 15, "/compact to end")
        await pilot.pause(0.2)
        assert not any(isinstance(e, ev.CompactionFinished) for e in seen)
        assert any("cancelled" in line for line in screen.timeline.lines), screen.timeline.lines
        # and the session goes on
        server.push({"text": "Still here."})
        await send(pilot, "third question")
        await wait_until(pilot, lambda: "Still here." in "".join(r.text for r in screen.chat.query(AgentResponse)), 20, "reply")


async def test_flush_and_compaction_through_litellm(workspace: Path, server: ChatServer) -> None:
    """Provider-reported usage crosses the flush threshold, then the compaction threshold."""
    from openclaw_tui.workspace.daily import daily_rel

    window = {"agents": {"defaults": {"contextTokens": 10_000, "compaction": {
        "reserveTokensFloor": 2_000, "keepRecentTokens": 10, "memoryFlush": {"softThresholdTokens": 1_000}}}}}
    seen: list[ev.Event] = []
    settings = make_settings(workspace, window, model="openai/fake-model", api_base=server.base_url, api_key="sk-test-123")

    def hook(message) -> None:
        if isinstance(message, EngineEvent):
            seen.append(message.event)

    app = OpenClawApp(settings, clock=FIXED_CLOCK)
    today = daily_rel()
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        assert (screen.meter.usage.flush_threshold, screen.meter.usage.compaction_threshold) == (7_000, 8_000)
        server.push({"text": "one", "usage": {"prompt_tokens": 7_200, "completion_tokens": 5}})
        await send(pilot, "I prefer tea over coffee.")
        await wait_until(pilot, lambda: screen.meter.usage.used >= 7_000, 20, "the reported usage")
        assert not screen.meter.usage.estimated and "reported" in screen.meter.plain
        assert screen.meter.has_class("-near")

        # the reply first, then the flush (hybrid: it waits for the reply, issue 27), then compaction
        server.push(
            {"text": "two", "usage": {"prompt_tokens": 8_100, "completion_tokens": 5}},
            {"tool_calls": [{"name": "append", "arguments": {"path": today, "content": "- user prefers tea"}}]},
            {"text": "NO_REPLY"},
            {"text": "## Goal\n- chat\n## Preferences\n- tea"},
        )
        await send(pilot, "What do I prefer?")
        await wait_until(pilot, lambda: any(isinstance(e, ev.CompactionFinished) for e in seen), 20, "the compaction")
        await wait_idle(pilot)

        lines = screen.timeline.lines
        fs = next(e for e in seen if isinstance(e, ev.FlushStarted))
        assert f"12:00:00 flush started: {fs.tokens:,} ≥ 7,000 tokens" in lines
        # the model's note, then the engine's for what it left out ("over coffee"; issue 24, hybrid flush)
        assert f"12:00:00 flush stored → {today} (+2 lines)" in lines
        cf = next(e for e in seen if isinstance(e, ev.CompactionFinished))
        assert f"12:00:00 compaction started (threshold) at {cf.tokens_before:,} tokens" in lines
        assert f"12:00:00 compaction #1: {cf.tokens_before:,} → {cf.tokens_after:,} tokens" in lines
        assert lines.index(f"12:00:00 flush stored → {today} (+2 lines)") < lines.index(
            f"12:00:00 compaction #1: {cf.tokens_before:,} → {cf.tokens_after:,} tokens"
        )
        assert (workspace / today).read_text(encoding="utf-8") == "- user prefers tea\n- User: I prefer tea over coffee.\n"
        # the flush stayed silent: no NO_REPLY, no append block in the chat; the reply is there
        texts = [r.text for r in screen.chat.query(AgentResponse)]
        assert "two" in "".join(texts) and not any("NO_REPLY" in t for t in texts)
        assert not [b for b in screen.chat.query(ToolBlock) if b.tool_name == "append"]
        # the meter follows the compaction down
        assert screen.meter.usage.used < cf.tokens_before
        assert screen.meter.has_class("-ok")


async def test_long_stream_is_coalesced_and_complete(workspace: Path, server: ChatServer) -> None:
    seen: list[ev.Event] = []
    app, hook = _app(workspace, server, seen)
    text = "\n\n".join(f"Paragraph {i}: the billing service keeps **PostgreSQL 16** as its database." for i in range(40))
    server.push({"text": text})
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "tell me at length")
        await wait_until(pilot, lambda: any(isinstance(e, ev.TurnFinished) for e in seen), 30, "the reply")
        await wait_idle(pilot)
        response = list(screen.chat.query(AgentResponse))[-1]
        deltas = [e for e in seen if isinstance(e, ev.TextDelta)]
        assert len(deltas) > 100
        assert response.text.strip() == text.strip()
        assert len(response.streamed) < len(deltas) / 5, "deltas were not coalesced into fewer Markdown writes"
