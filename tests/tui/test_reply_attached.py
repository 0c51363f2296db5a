"""Issue 37, item 2: a reply stays attached to its prompt in the chat, whatever was typed while
the model was still reading (the walk saw the reply below a command typed meanwhile)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from openclaw_tui.tui.app import OpenClawApp
from openclaw_tui.tui.widgets.chat import AgentResponse, UserMessage
from tests.fakes.chat_server import ChatServer

from .conftest import FIXED_CLOCK, make_settings, wait_ready, wait_until


@pytest.fixture
def server():
    with ChatServer() as s:
        yield s


async def test_a_command_typed_before_the_reply_does_not_come_between_prompt_and_reply(workspace: Path,
                                                                                        server: ChatServer) -> None:
    settings = make_settings(workspace, model="openai/fake-model", api_base=server.base_url, api_key="sk-test-123")
    app = OpenClawApp(settings, clock=FIXED_CLOCK)
    gate = threading.Event()
    server.push({"text": "The deploy window is Tuesday at 10.", "gate": gate})
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        chat = screen.chat
        screen.prompt.load_text("When is the deploy window?")
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.turn_running, 10, "the turn to start")
        before = len(chat.children)
        screen.prompt.load_text("/status")  # typed while the model has not answered yet
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(chat.children) > before, 10, "the command's output")
        gate.set()
        await wait_until(pilot, lambda: not screen.turn_running and any(
            "Tuesday at 10" in r.source for r in chat.query(AgentResponse)), 60, "the reply")
        await pilot.pause(0.1)
        kids = list(chat.children)
        prompt = next(i for i, w in enumerate(kids) if isinstance(w, UserMessage) and "deploy window" in w.text)
        reply = next(i for i, w in enumerate(kids) if isinstance(w, AgentResponse) and "Tuesday at 10" in w.source)
        between = kids[prompt + 1:reply]
        # the turn's own blocks only (its tool calls, memory changes, an index-sync or flush mark)
        turn_blocks = ("ToolBlock", "MemoryChangeBlock", "AgentResponse", "MarkLine", "MarkDetails")
        assert all(type(w).__name__ in turn_blocks for w in between), [type(w).__name__ for w in between]
        assert any(type(w).__name__ == "NoticeBlock" for w in kids[reply + 1:])  # /status's output, below the turn
