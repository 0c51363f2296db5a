"""Live "reading the prompt N/M tok" (issue 27): our llama.cpp server streams
``prompt_progress`` chunks when asked with ``return_progress``; the status bar's phase shows
the counts while the prompt is read. The scripted server stands in for llama.cpp (same
chunk shape, progress only when the request asks for it) and holds the answer back on a
gate until the test has seen the label."""

from __future__ import annotations

import threading
from pathlib import Path

from openclaw_tui import events as ev
from openclaw_tui.llm.client import LiteLLMModel
from openclaw_tui.llm.resolve import ModelChoice
from openclaw_tui.tui.app import OpenClawApp
from openclaw_tui.tui.messages import EngineEvent
from openclaw_tui.tui.widgets.chat import AgentResponse
from tests.fakes.chat_server import ChatServer

from .conftest import FIXED_CLOCK, make_settings, send, wait_idle, wait_ready, wait_until


async def submit(pilot, text: str) -> None:
    prompt = pilot.app.main_screen.prompt
    prompt.load_text(text)
    prompt.focus()
    await pilot.press("enter")


def _model(server: ChatServer, *, progress: bool) -> LiteLLMModel:
    model = LiteLLMModel(ModelChoice("openai/fake-model", "openai", api_base=server.base_url, api_key="sk-test-123"))
    if progress:
        model.reports_progress = True  # type: ignore[attr-defined]  # what LocalModel says of itself
    return model


def _app(workspace: Path, model: LiteLLMModel, seen: list) -> tuple[OpenClawApp, object]:
    from openclaw_tui.session.engine import SessionEngine

    def factory(settings, *, sink, session_id=None):
        return SessionEngine(settings, sink=sink, model=model, session_id=session_id)

    def hook(message) -> None:
        if isinstance(message, EngineEvent) and all(message.event is not e for e in seen):  # it bubbles: seen twice
            seen.append(message.event)

    return OpenClawApp(make_settings(workspace), engine_factory=factory, clock=FIXED_CLOCK), hook


async def test_reading_the_prompt_shows_live_counts(workspace: Path) -> None:
    gate = threading.Event()
    seen: list[ev.Event] = []
    phases: list[str] = []
    with ChatServer() as server:
        server.push({"text": "In Lisbon.", "progress": [[0, 1535], [512, 1535], [1280, 1535, 256]], "gate": gate})
        app, hook = _app(workspace, _model(server, progress=True), seen)
        async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
            await wait_ready(pilot)
            screen = app.main_screen
            bar = screen.status_bar
            bar.watch_phase = lambda value: phases.append(value)  # every label the phase takes
            await submit(pilot, "Where is the offsite?")  # not send(): that waits for the reply
            await wait_until(pilot, lambda: bar.phase == "reading the prompt · 1,280/1,535 tok (256 cached)", 20, "the live count")
            assert "reading the prompt · 1,280/1,535 tok (256 cached)" in bar.plain
            assert screen.turn_running and not list(screen.chat.query(AgentResponse))  # still reading: no answer yet
            gate.set()
            await wait_until(pilot, lambda: "In Lisbon." in "".join(r.text for r in screen.chat.query(AgentResponse)), 20, "the reply")
            await wait_idle(pilot)
        assert server.chat_requests()[0]["return_progress"] is True
    counts = [(e.processed, e.total, e.cache) for e in seen if isinstance(e, ev.PromptProgress)]
    assert counts == [(0, 1535, 0), (512, 1535, 0), (1280, 1535, 256)]
    reading = [p for p in phases if p.startswith("reading the prompt")]
    assert reading[-3:] == ["reading the prompt · 0/1,535 tok", "reading the prompt · 512/1,535 tok",
                            "reading the prompt · 1,280/1,535 tok (256 cached)"]
    assert phases.index(reading[-1]) < phases.index("writing")  # the counts, then the answer


async def test_a_hosted_model_is_never_asked_for_progress(workspace: Path) -> None:
    """Hosted APIs reject unknown fields: only our own server gets return_progress."""
    seen: list[ev.Event] = []
    with ChatServer() as server:
        server.push({"text": "ok", "progress": [[0, 10]]})
        app, hook = _app(workspace, _model(server, progress=False), seen)
        async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
            await wait_ready(pilot)
            await send(pilot, "hello")
            await wait_until(pilot, lambda: any(isinstance(e, ev.TurnFinished) for e in seen), 20, "the reply")
            await wait_idle(pilot)
        assert "return_progress" not in server.chat_requests()[0]
    assert not [e for e in seen if isinstance(e, ev.PromptProgress)]
