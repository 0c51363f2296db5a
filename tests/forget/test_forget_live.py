"""/forget reaches the live session (issue 36, item 4): the system prompt (MEMORY.md), the
startup notes (today's log), the history and the transcript that --continue reloads lose the
fact; the next request to the model holds none of it; the report says what was done."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openclaw_tui import events as ev
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.tui.screens.confirm import Confirm
from openclaw_tui.workspace.daily import daily_rel
from tests.fakes.chat_server import ChatServer
from tests.tui.conftest import send, wait_ready, wait_until, workspace  # noqa: F401 - the fixture
from tests.tui.test_app_loopback import _app

SECRET = "quokkaberry4417"


@pytest.fixture
def server():
    with ChatServer() as srv:
        yield srv


async def test_forget_reaches_the_live_session(workspace: Path, server: ChatServer) -> None:
    (workspace / "MEMORY.md").write_text(f"# Memory\n\n- The wifi password is {SECRET}\n- Likes tea\n")
    (workspace / daily_rel()).parent.mkdir(parents=True, exist_ok=True)
    (workspace / daily_rel()).write_text(f"- wifi password: {SECRET} (router in the hall)\n- bought bread\n")
    seen: list[ev.Event] = []
    app, hook = _app(workspace, server, seen)
    server.push({"text": f"Your wifi password is {SECRET}."}, {"text": "I don't know it."})
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        await send(pilot, "what's the wifi password?")
        await wait_until(pilot, lambda: any(isinstance(e, ev.TurnFinished) for e in seen), 60, "the turn")
        await pilot.pause(0.2)
        engine = app.main_screen.engine
        assert engine is not None
        assert SECRET in engine.system_prompt and SECRET in json.dumps(engine.history)
        prompt = app.main_screen.prompt
        prompt.load_text("/forget wifi password")
        prompt.move_cursor(prompt.document.end)
        prompt.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Confirm), 30, "the question")
        await pilot.press("y")
        await wait_until(pilot, lambda: "Forgot" in (app.main_screen.last_command_output or ""), 60, "the report")
        assert SECRET not in engine.system_prompt  # MEMORY.md and today's notes
        assert SECRET not in json.dumps(engine.history) and SECRET not in engine.summary
        assert "Likes tea" in engine.system_prompt and "bought bread" in engine.system_prompt
        assert SECRET not in engine.transcript_path.read_text()
        report = app.main_screen.last_command_output or ""
        assert "Taken out of this session" in report and "1 saved transcript" in report
        finished = sum(isinstance(e, ev.TurnFinished) for e in seen)
        await send(pilot, "so what is it?")
        await wait_until(pilot, lambda: sum(isinstance(e, ev.TurnFinished) for e in seen) > finished, 60, "the next turn")
        assert SECRET not in json.dumps(server.chat_requests()[-1])  # the model is not sent it again
        session_id, settings = engine.session_id, app.main_screen.settings
    resumed = SessionEngine(settings, sink=lambda _e: None, session_id=session_id)  # --continue / --resume
    try:
        assert SECRET not in resumed.system_prompt and SECRET not in json.dumps(resumed.history)
        assert any(m.get("content") == "so what is it?" for m in resumed.history)
    finally:
        resumed.close()
