"""Ctrl+C in a modal, and where toasts go (issue 12 leftovers). Driven with Pilot."""

from __future__ import annotations

from pathlib import Path

from textual.widgets._toast import Toast

from openclaw_tui.tui.app import OpenClawApp
from openclaw_tui.tui.screens.picker import Picker
from openclaw_tui.tui.widgets.chat import AgentResponse
from tests.fakes.chat_server import ChatServer

from .conftest import FIXED_CLOCK, make_settings, wait_idle, wait_ready, wait_until

STALL = {"text": "A long reply that stalls half way through the stream", "stall_after": 2, "stall_s": 30}


def _messages(app: OpenClawApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_ctrl_c_closes_a_picker_like_esc(workspace: Path) -> None:
    # Ctrl+C in the /resume or /model picker answered "Press ctrl+q to quit" and left it open
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        screen.prompt.load_text("/model")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Picker), 10, "the model picker")
        await pilot.press("ctrl+c")
        await wait_until(pilot, lambda: app.screen is screen, 5, "the picker to close")
        await wait_idle(pilot)
        assert not any("ctrl+q" in m.lower() for m in _messages(app)), _messages(app)
        assert screen.engine.is_offline and app.is_running  # nothing picked, nothing quit
        assert screen.focused is screen.prompt


async def test_ctrl_c_closes_the_snippet_viewer(workspace: Path) -> None:
    from openclaw_tui.tui.screens.viewer import SnippetViewer

    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        viewer = await screen.show_snippet("MEMORY.md", 1, 3)
        await wait_until(pilot, lambda: app.screen is viewer, 5, "the viewer")
        assert isinstance(viewer, SnippetViewer)
        await pilot.press("ctrl+c")
        await wait_until(pilot, lambda: app.screen is screen, 5, "the viewer to close")
        assert not any("ctrl+q" in m.lower() for m in _messages(app))


def _toasts_over_prompt(app: OpenClawApp) -> list[str]:
    prompt = app.main_screen.prompt.region
    return [str(t.region) for t in app.screen.query(Toast) if t.region.overlaps(prompt)]


async def test_the_quit_hint_toast_does_not_cover_the_prompt_at_80x24(workspace: Path) -> None:
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_ready(pilot)
        await pilot.press("ctrl+c")  # idle: "press Ctrl+C again to quit"
        await wait_until(pilot, lambda: list(app.screen.query(Toast)), 5, "the toast")
        await pilot.pause()
        assert _toasts_over_prompt(app) == [], app.main_screen.prompt.region


async def test_cancelling_shows_in_the_status_bar_not_over_the_prompt_at_80x24(workspace: Path) -> None:
    # the transient "cancelling…" toast covered the input at 80×24
    with ChatServer(default={"text": "Short answer."}) as server:
        server.push(STALL)
        settings = make_settings(workspace, model="openai/fake-model", api_base=server.base_url, api_key="sk-test-123")
        app = OpenClawApp(settings, clock=FIXED_CLOCK)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await wait_ready(pilot)
            screen = app.main_screen
            screen.prompt.load_text("tell me a long story")
            await pilot.press("enter")
            await wait_until(pilot, lambda: screen.turn_running and list(screen.chat.query(AgentResponse)), 60, "the reply")
            seen: list[str] = []
            screen.status_bar.watch(screen.status_bar, "busy", lambda value: seen.append(value), init=False)
            await pilot.press("ctrl+c")
            await wait_idle(pilot)
            await pilot.pause()
            assert "cancelling" in seen, seen
            assert _toasts_over_prompt(app) == []
            assert not any("cancelling" in m for m in _messages(app))
            assert screen.chat.query(AgentResponse).last().has_class("-cancelled")


async def test_a_reply_cancelled_before_any_text_still_shows_its_cancelled_mark(workspace: Path) -> None:
    # cancelled while the model had sent nothing yet (first token slow, or after a tool
    # call): the empty reply was hidden, and its "— cancelled" mark with it
    with ChatServer(default={"text": "Short answer."}) as server:
        server.push({"hang": 30, "text": "too late"})
        settings = make_settings(workspace, model="openai/fake-model", api_base=server.base_url, api_key="sk-test-123")
        app = OpenClawApp(settings, clock=FIXED_CLOCK)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_ready(pilot)
            screen = app.main_screen
            screen.prompt.load_text("a question the model is slow to answer")
            await pilot.press("enter")
            await wait_until(pilot, lambda: server.chat_requests, 60, "the request to the model")
            await pilot.press("ctrl+c")
            await wait_idle(pilot)
            await pilot.pause()
            reply = screen.chat.query(AgentResponse).last()
            assert reply.has_class("-cancelled") and "cancelled" in reply.text
            assert reply.display and reply.region.height > 0  # on screen, not hidden as empty
