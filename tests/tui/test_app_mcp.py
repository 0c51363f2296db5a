"""Pilot: a configured MCP server in the app — its tool call shows in the chat like ours,
its start and failures are timeline lines, and ``/mcp`` lists servers, state and tools."""

from __future__ import annotations

import sys
from pathlib import Path

from openclaw_tui import events as ev
from openclaw_tui.tui.app import OpenClawApp
from openclaw_tui.tui.messages import EngineEvent
from openclaw_tui.tui.widgets.chat import ToolBlock
from tests.fakes.chat_server import ChatServer

from .conftest import FIXED_CLOCK, make_settings, send, wait_idle, wait_ready, wait_until

FAKE = str(Path(__file__).resolve().parents[1] / "fakes" / "mcp_server.py")
SERVERS = {"mcp": {"servers": {
    "fake": {"command": sys.executable, "args": [FAKE], "timeoutSeconds": 20},
    "broken": {"command": sys.executable, "args": [FAKE, "--exit-at-start"]},
}}}


async def test_mcp_tool_call_timeline_and_slash_mcp(workspace: Path) -> None:
    seen: list[ev.Event] = []

    def hook(message) -> None:
        if isinstance(message, EngineEvent):
            seen.append(message.event)

    with ChatServer() as server:
        server.push({"tool_calls": [{"name": "fake__add", "arguments": {"a": 20, "b": 22}}]}, {"text": "The server says **42**."})
        settings = make_settings(workspace, SERVERS, model="openai/fake-model", api_base=server.base_url, api_key="sk-test-123")
        app = OpenClawApp(settings, clock=FIXED_CLOCK)
        async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
            await wait_ready(pilot)
            screen = app.main_screen
            await send(pilot, "What is 20 + 22? Use the server.")
            await wait_until(pilot, lambda: any(isinstance(e, ev.TurnFinished) for e in seen), 30, "the turn")
            await pilot.pause(0.2)
            block = next(iter(screen.chat.query(ToolBlock)))
            assert block.tool_name == "fake__add" and block.arguments == {"a": 20, "b": 22}
            assert block.error is None and block.result == {"server": "fake", "tool": "add", "text": "42"}
            lines = screen.timeline.lines
            assert any("MCP fake: ready, 8 tools" in line for line in lines)
            assert sum("MCP broken failed" in line for line in lines) == 1
            assert any("missing FAKE_TOKEN" in line for line in lines)

            await send(pilot, "/mcp")
            await wait_idle(pilot)
            out = screen.last_command_output
            assert "**MCP servers**" in out
            assert "`fake` (stdio): **ready** · 8 tools" in out and "`fake__echo`" in out and "`fake__hang`" in out
            assert "`broken` (stdio): **failed**" in out and "missing FAKE_TOKEN" in out
