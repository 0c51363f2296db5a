"""Issue 27: daily use as a newcomer found it — copy, phases, scoped sessions, memory
explained. Each test drives the real app with Pilot (offline agent or the scripted
loopback chat server) and fails on the behaviour it fixes."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui.tui.app import OpenClawApp
from openclaw_tui.tui.format import cancel_suffix
from openclaw_tui.tui.widgets.chat import AgentResponse, UserMessage
from tests.fakes.chat_server import ChatServer

from .conftest import FIXED_CLOCK, make_settings, send, wait_ready, wait_until


def _offline_app(workspace: Path, **kw) -> OpenClawApp:
    return OpenClawApp(make_settings(workspace, **kw), clock=FIXED_CLOCK)


async def test_copy_command_and_key_on_a_focused_message_reach_clipboard_and_file(workspace: Path, state_dir: Path) -> None:
    app = _offline_app(workspace)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "hello there")
        await send(pilot, "what is in memory about billing")
        replies = [r.copy_source for r in screen.chat.query(AgentResponse) if r.copy_source.strip()]
        assert len(replies) >= 2
        await send(pilot, "/copy")
        assert app.clipboard == replies[-1]
        saved = state_dir / "clipboard.txt"
        assert saved.read_text(encoding="utf-8") == replies[-1]
        await send(pilot, "/copy 2")
        assert app.clipboard == replies[-2]
        await send(pilot, "/copy 9")
        assert "there are" in screen.chat.children[-1].message
        # a key on a focused message: Alt+Up focuses the newest, Up moves, c copies
        await pilot.press("alt+up")
        assert isinstance(screen.focused, AgentResponse)
        await pilot.press("up")
        assert isinstance(screen.focused, UserMessage)
        await pilot.press("c")
        await pilot.pause(0.1)
        assert app.clipboard == "what is in memory about billing"
        assert saved.read_text(encoding="utf-8") == "what is in memory about billing"
        await pilot.press("escape")
        assert screen.focused is screen.prompt


async def test_ctrl_c_with_a_chat_selection_copies_and_never_quits(workspace: Path) -> None:
    from textual.selection import Selection

    app = _offline_app(workspace)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "remember that the deploy day is Tuesday")
        user = list(screen.chat.query(UserMessage))[-1]
        for _ in range(3):  # three Ctrl+C in a row: each copies, none arms the quit
            screen.selections = {user: Selection(None, None)}  # a drag over the whole message
            await pilot.press("ctrl+c")
            await pilot.pause(0.1)
            assert app.is_running
            assert app.clipboard == "remember that the deploy day is Tuesday"
        await pilot.press("ctrl+c")  # no selection now: the first press only arms the quit
        await pilot.pause(0.1)
        assert app.is_running


def test_cancel_mark_closes_an_open_code_fence() -> None:
    assert cancel_suffix("text") == "\n\n*— cancelled*"
    assert cancel_suffix("see:\n```python\nx = 1") .startswith("\n```\n\n*— cancelled*")
    assert not cancel_suffix("```\nx\n```\n").startswith("\n```")
