"""Pilot: a memory write shows its diff in the (collapsed) tool block and the timeline; /undo
brings MEMORY.md's previous bytes back and says so in both places."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui import events as ev
from openclaw_tui.tui.widgets.chat import ErrorBlock, MemoryChangeBlock, ToolBlock
from tests.fakes.chat_server import ChatServer

from .conftest import send, wait_ready, wait_until
from .test_app_loopback import _app


@pytest.fixture
def server():
    with ChatServer() as srv:
        yield srv


async def test_write_diff_is_visible_and_undo_restores_the_exact_bytes(workspace: Path, server: ChatServer) -> None:
    before = (workspace / "MEMORY.md").read_bytes()
    grown = before.decode() + "- Favourite colour: teal-4711\n"
    seen: list[ev.Event] = []
    app, hook = _app(workspace, server, seen)
    server.push(
        {"tool_calls": [{"name": "read", "arguments": {"path": "MEMORY.md"}}]},
        {"tool_calls": [{"name": "write", "arguments": {"path": "MEMORY.md", "content": grown}}]},
        {"text": "Saved your favourite colour."},
    )
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "Remember that my favourite colour is teal-4711.")
        await wait_until(pilot, lambda: any(isinstance(e, ev.TurnFinished) for e in seen), 20, "the turn")
        await pilot.pause(0.2)
        assert (workspace / "MEMORY.md").read_text() == grown
        write = [b for b in screen.chat.query(ToolBlock) if b.tool_name == "write"][0]
        assert write.collapsed and "+- Favourite colour: teal-4711" in write.diff
        assert "✎ write(" in str(write.title) and "+1 −0" in str(write.title)
        assert any(line.startswith("12:00:00 write MEMORY.md +1 −0") for line in screen.timeline.lines)

        await send(pilot, "/undo")
        await wait_until(pilot, lambda: (workspace / "MEMORY.md").read_bytes() == before, 10, "the undo")
        await pilot.pause(0.2)
        block = list(screen.chat.query(MemoryChangeBlock))[-1]
        assert block.collapsed and "↶ undo MEMORY.md" in str(block.title) and "-- Favourite colour: teal-4711" in block.diff
        assert any(line.startswith("12:00:00 undo MEMORY.md +0 −1") for line in screen.timeline.lines)

        await send(pilot, "/undo")
        await pilot.pause(0.2)
        errors = [e.message for e in screen.chat.query(ErrorBlock)]
        assert errors and "nothing to undo" in errors[-1]
        assert (workspace / "MEMORY.md").read_bytes() == before
