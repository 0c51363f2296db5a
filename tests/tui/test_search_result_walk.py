"""The walk "the model calls memory_search → event → side panel" carries one typed value: the
backend's ``SearchResult`` reaches the panel as the same object, the model gets its
``for_model()`` JSON, and the panel reads its fields (no re-parsed dict, no citation cut out
of the snippet). Real HTTP to the scripted chat server, the real index, the app under Pilot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openclaw_tui import events as ev
from openclaw_tui.memory.api import SearchResult
from openclaw_tui.tui.app import OpenClawApp
from openclaw_tui.tui.messages import EngineEvent
from openclaw_tui.tui.widgets.chat import ToolBlock, _pretty
from tests.fakes.chat_server import ChatServer

from .conftest import FIXED_CLOCK, make_settings, send, wait_ready, wait_until


@pytest.fixture
def server():
    with ChatServer() as srv:
        yield srv


async def test_the_panel_gets_the_search_result_the_model_read(workspace: Path, server: ChatServer) -> None:
    seen: list[ev.Event] = []

    def hook(message) -> None:
        if isinstance(message, EngineEvent):
            seen.append(message.event)

    settings = make_settings(workspace, model="openai/fake-model", api_base=server.base_url, api_key="sk-test-1")
    app = OpenClawApp(settings, clock=FIXED_CLOCK)
    server.push(
        {"tool_calls": [{"name": "memory_search", "arguments": {"query": "billing database"}}]},
        {"text": "Billing runs on PostgreSQL 16.\n\nSource: MEMORY.md#L4"},
    )
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "Which database does billing use?")
        await wait_until(pilot, lambda: any(isinstance(e, ev.TurnFinished) for e in seen), 20, "the turn")
        await pilot.pause(0.2)

        retrieved = {id(e): e for e in seen if isinstance(e, ev.MemoryRetrieved)}  # the hook may see a message twice
        (result,) = {id(e.result): e.result for e in retrieved.values()}.values()
        assert isinstance(result, SearchResult) and result.results, "the event carries the typed result"
        called = [e for e in seen if isinstance(e, ev.ToolResult) and e.name == "memory_search"]
        assert called and all(e.result is result for e in called)  # the tool block's event holds the same value
        block = next(iter(screen.chat.query(ToolBlock)))
        shown = json.dumps(result.to_dict(), ensure_ascii=False, indent=2)
        assert block.result is result and _pretty(block.result) == (shown if len(shown) <= 1500 else shown[:1500] + "\n…")

        panel = screen.memory_panel
        assert panel.result is result  # the very object the backend returned
        assert [item.hit for item in panel.items] == list(result.results)
        assert all(a is b for a, b in zip((item.hit for item in panel.items), result.results))
        top = result.results[0]
        assert top.path == "MEMORY.md" and top.citation and "Source:" not in top.snippet
        assert panel.items[0].source_line == f"Source: {top.citation}"
        assert panel.items[0].snippet == top.snippet

        # the model read the same value, as for_model(): Source lines in, the timing out
        tool_msgs = [m for m in server.chat_requests()[-1]["messages"] if m.get("role") == "tool"]
        assert tool_msgs and tool_msgs[-1]["content"] == json.dumps(result.for_model(), ensure_ascii=False)
        sent = json.loads(tool_msgs[-1]["content"])
        assert sent["results"][0]["snippet"].endswith(f"\n\nSource: {top.citation}") and "searchMs" not in sent
        assert result.search_ms is not None and "ms" in str(screen.query_one("#memory-summary").render())
