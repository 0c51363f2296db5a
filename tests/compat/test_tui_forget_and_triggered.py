"""Pilot: a triggered entry shows in the side panel as "triggered"; /forget shows what
would go, asks, removes the lines (history, tombstone), and the timeline says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui import events as ev
from openclaw_tui.tui.screens.confirm import Confirm
from openclaw_tui.workspace.tombstones import is_tombstoned
from tests.fakes.chat_server import ChatServer
from tests.tui.conftest import send, wait_ready, wait_until, workspace  # noqa: F401 - the fixture
from tests.tui.test_app_loopback import _app

FACT = "- The gym locker code is 4417 <!-- trigger: gym locker --> <!-- importance: 8 -->\n"


@pytest.fixture
def server():
    with ChatServer() as srv:
        yield srv


async def test_triggered_entry_in_the_panel(workspace: Path, server: ChatServer) -> None:
    (workspace / "MEMORY.md").write_text("# Memory\n\n" + FACT)
    seen: list[ev.Event] = []
    app, hook = _app(workspace, server, seen)
    server.push({"text": "It is 4417."})
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        await send(pilot, "what's my gym locker number?")
        await wait_until(pilot, lambda: any(isinstance(e, ev.TurnFinished) for e in seen), 20, "the turn")
        await pilot.pause(0.2)
        panel = app.main_screen.memory_panel
        rows = panel.triggered
        assert [(r.tag, r.path, r.start_line, r.end_line) for r in rows] == [("triggered", "MEMORY.md", 3, 3)]
        assert "triggered · MEMORY.md" in str(rows[0]._render_text())
        finished = sum(isinstance(e, ev.TurnFinished) for e in seen)
        server.push({"text": "No idea."})
        await send(pilot, "thanks, and the weather?")
        await wait_until(pilot, lambda: sum(isinstance(e, ev.TurnFinished) for e in seen) > finished, 20, "the second turn")
        await pilot.pause(0.2)
        assert panel.triggered == []  # a turn that triggers nothing clears the list


@pytest.mark.parametrize("answer", ["n", "y"])
async def test_forget_asks_then_removes(workspace: Path, server: ChatServer, answer: str) -> None:
    before = "# Memory\n\n" + FACT + "- Likes tea\n"
    (workspace / "MEMORY.md").write_text(before)
    seen: list[ev.Event] = []
    app, hook = _app(workspace, server, seen)
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        prompt = app.main_screen.prompt  # typed and sent, without waiting: the command waits for the answer
        prompt.load_text("/forget gym locker code")
        prompt.move_cursor(prompt.document.end)
        prompt.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Confirm), 10, "the question")
        body = str(app.screen.query_one("#confirm-body").render())
        assert "MEMORY.md#L3-L3" in body and "gym locker code is 4417" in body
        await pilot.press(answer)
        if answer == "n":
            await wait_until(pilot, lambda: app.main_screen.last_command_output == "Nothing forgotten.", 10, "the answer")
            assert (workspace / "MEMORY.md").read_text() == before
            return
        await wait_until(pilot, lambda: "locker" not in (workspace / "MEMORY.md").read_text(), 10, "the removal")
        await wait_until(pilot, lambda: "Forgot 1 entry" in (app.main_screen.last_command_output or ""), 10, "the report")
        assert (workspace / "MEMORY.md").read_text() == "# Memory\n\n- Likes tea\n"
        assert any("forget MEMORY.md +0 −1" in line for line in app.main_screen.timeline.lines)
        assert is_tombstoned(workspace, "gym locker code: 4417")
