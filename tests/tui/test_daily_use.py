"""Daily use of the app (issue 12): prompt queue, Ctrl+C, follow mode, side panel, focus,
early Enter. Each test drives the real app with Pilot and fails on the behaviour it fixes.

Replies that stay "in flight" come from the scripted loopback chat server (a real HTTP
stream that stalls half way), so typing during a reply is what a user does.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from openclaw_tui.tui.app import OpenClawApp
from openclaw_tui.tui.widgets.chat import AgentResponse, UserMessage
from tests.fakes.chat_server import ChatServer

from .conftest import FIXED_CLOCK, make_settings, send, wait_idle, wait_ready, wait_until

STALL = {"text": "A long reply that stalls half way through the stream", "stall_after": 2, "stall_s": 30}


@pytest.fixture
def server():
    with ChatServer(default={"text": "Short answer."}) as srv:
        yield srv


def _model_app(workspace: Path, server: ChatServer) -> OpenClawApp:
    settings = make_settings(workspace, model="openai/fake-model", api_base=server.base_url, api_key="sk-test-123")
    return OpenClawApp(settings, clock=FIXED_CLOCK)


def _users(screen) -> list[str]:
    return [w.text for w in screen.chat.query(UserMessage)]


def _last_user_prompt(request: dict) -> str:
    return [m["content"] for m in request["messages"] if m["role"] == "user"][-1]


async def _start_stalled_reply(pilot, text: str = "tell me a long story") -> None:
    screen = pilot.app.main_screen
    before = len(list(screen.chat.query(AgentResponse)))
    screen.prompt.load_text(text)
    screen.prompt.focus()
    await pilot.press("enter")

    def streaming() -> bool:  # this reply's own first words, not an earlier reply's block
        replies = list(screen.chat.query(AgentResponse))
        return screen.turn_running and len(replies) > before and bool(replies[-1].text)

    # 60 s: the first reply also waits for litellm's import, slow on a loaded machine
    await wait_until(pilot, streaming, 60, "the reply to stream")


async def test_prompts_typed_during_a_reply_are_queued_and_sent_in_order(workspace: Path, server: ChatServer) -> None:
    # typing "second question" Enter "third question" during a reply left
    # "second questionthird question" in the input and queued nothing
    server.push(STALL)
    app = _model_app(workspace, server)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await _start_stalled_reply(pilot)
        await pilot.press(*"second question", "enter")
        assert screen.prompt.text == ""  # the input is cleared on Enter
        await pilot.press(*"third question", "enter")
        assert screen.prompt.text == ""
        assert screen.queue.items == ["second question", "third question"]
        assert screen.queue.display and "queued (2)" in str(screen.queue.render())
        await pilot.press("ctrl+c")  # cancels the stalled reply; the queue goes on
        await wait_until(pilot, lambda: len(server.chat_requests()) >= 3, 20, "both queued prompts to be sent")
        await wait_idle(pilot)
        prompts = [_last_user_prompt(r) for r in server.chat_requests()]
        assert prompts == ["tell me a long story", "second question", "third question"]
        assert _users(screen) == prompts
        assert not screen.queue.items and not screen.queue.display


async def test_a_queued_prompt_can_be_taken_back_and_edited(workspace: Path, server: ChatServer) -> None:
    server.push(STALL)
    app = _model_app(workspace, server)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await _start_stalled_reply(pilot)
        await pilot.press(*"secnd question", "enter")
        await pilot.press("up")  # on an empty prompt: the newest queued prompt comes back
        assert screen.prompt.text == "secnd question" and screen.queue.items == []
        screen.prompt.load_text("second question")
        await pilot.press("end", "enter")
        assert screen.queue.items == ["second question"]
        await pilot.press("escape")
        await wait_until(pilot, lambda: len(server.chat_requests()) >= 2, 20, "the edited prompt")
        await wait_idle(pilot)
        assert _last_user_prompt(server.chat_requests()[-1]) == "second question"


async def test_ctrl_c_cancels_a_reply_and_twice_on_an_idle_prompt_quits(workspace: Path, server: ChatServer) -> None:
    # Ctrl+C only said "Press ctrl+q to quit" while the reply went on
    server.push(STALL)
    app = _model_app(workspace, server)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await _start_stalled_reply(pilot)
        await pilot.press("ctrl+c")
        await wait_idle(pilot, 15)
        response = list(screen.chat.query(AgentResponse))[-1]
        assert response.has_class("-cancelled")
        await send(pilot, "are you still there?")  # the session goes on
        assert "Short answer." in list(screen.chat.query(AgentResponse))[-1].text
        screen.prompt.load_text("draft")
        await pilot.press("ctrl+c")  # idle: the first press clears the prompt and warns
        assert screen.prompt.text == "" and app.is_running
        await pilot.press("ctrl+c")
        await pilot.pause(0.3)
    assert app.return_code == 0 and not app.is_running


async def test_sending_after_scrolling_up_shows_the_new_exchange(workspace: Path) -> None:
    # after a wheel scroll up, the prompt and the reply went off-screen with no sign
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        chat = screen.chat
        for i in range(4):
            await send(pilot, f"Which database does billing use? ({i})")
        assert chat.max_scroll_y > 0
        await pilot.press("pageup", "pageup")  # keyboard scroll works from the prompt
        assert chat.scroll_y < chat.max_scroll_y and screen.focused is screen.prompt
        await screen.chat.add_mark("something arrived below")
        await pilot.pause(0.1)
        indicator = screen.query_one("#new-messages")
        assert chat.unseen and indicator.display
        await send(pilot, "Who owns the billing migration?")
        await pilot.pause(0.3)
        assert chat.scroll_y == chat.max_scroll_y, "the new exchange is below the view"
        assert not indicator.display
        last = list(chat.query(AgentResponse))[-1]
        assert last.region.y < screen.size.height, "the reply is not on screen"


async def test_side_panel_hides_at_80_columns_and_toggles(workspace: Path) -> None:
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        assert not screen.side_visible and screen.query_one("#chat-column").size.width == 80
        await pilot.press("ctrl+o")
        await pilot.pause(0.1)
        assert screen.side_visible and screen.query_one("#chat-column").size.width < 60
        await pilot.press("ctrl+o")
        await pilot.pause(0.1)
        assert not screen.side_visible
        # the meter keeps a readable bar with both marks apart, and its label whole
        meter = screen.meter.plain
        assert meter.count("┃") == 2 and meter.count("█") + meter.count("░") >= 18, meter
        assert len(meter) <= 78, meter
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        assert app.main_screen.side_visible


async def test_tab_completion_stays_in_the_prompt_and_reaches_model(workspace: Path) -> None:
    # "/m" Tab Tab moved focus out of the prompt; Tab never got to /model
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        screen.prompt.focus()
        # six /memory commands come first since issue 27 (open, history, restore)
        await pilot.press("/", "m", "tab", "tab", "tab", "tab", "tab", "tab", "tab")
        assert screen.focused is screen.prompt
        assert screen.prompt.menu[screen.prompt.menu_index] == "/model "
        await pilot.press("enter")  # takes the highlighted command
        assert screen.prompt.text == "/model " and screen.focused is screen.prompt
        await pilot.press("ctrl+a")  # keys still reach the prompt (the cursor moves home)
        assert screen.prompt.cursor_location == (0, 0)


async def test_slash_menu_lists_every_command_with_arrow_selection(workspace: Path) -> None:
    # the menu showed 6 of 11 commands, with no way to pick one by keyboard
    from openclaw_tui.tui.commands import registry

    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        screen.prompt.focus()
        await pilot.press("/")
        box = screen.query_one("#completions")
        shown = str(box.render())
        assert all(cmd.usage in shown for cmd in registry.COMMANDS), shown
        await pilot.press("down", "down")
        assert "▸ /new" in str(box.render())
        await pilot.press("up")
        assert "▸ /help" in str(box.render())
        await pilot.press("enter")  # /help takes no argument: it runs
        await wait_idle(pilot)
        assert "**Commands**" in screen.last_command_output


async def test_enter_typed_before_the_app_is_ready_sends(workspace: Path) -> None:
    # Enter typed in the first moments arrives as Ctrl+J (the tty had not been put in raw
    # mode yet) and became a new line in the input instead of sending
    from openclaw_tui.session.engine import SessionEngine

    go = threading.Event()

    def slow_start(settings, **kw):  # the real engine, built once the test has typed
        go.wait(20)
        return SessionEngine(settings, **kw)

    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK, engine_factory=slow_start)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.main_screen
        await pilot.press(*"hello", "ctrl+j")
        assert screen.prompt.text == ""
        assert screen.queue.items == ["hello"]
        go.set()
        await wait_ready(pilot)
        await wait_until(pilot, lambda: _users(screen) == ["hello"], 20, "the early prompt to be sent")
        await wait_idle(pilot)
        assert list(screen.chat.query(AgentResponse))
        await pilot.press("a", "ctrl+j", "b")  # once ready, Ctrl+J is a new line again
        assert screen.prompt.text == "a\nb"


async def test_a_config_error_found_after_the_first_frame_exits_2_with_its_line(tmp_path: Path) -> None:
    # the app reads the config after its first frame: a bad file still ends it with the
    # CLI's one-line error and exit code 2, not a traceback or a half-working app
    from openclaw_tui.cli import build_parser
    from openclaw_tui.commands.app_cmd import build_app
    from openclaw_tui.config import ConfigError

    bad = tmp_path / "openclaw.json"
    bad.write_text("{ agents: { defaults: { contextTokens: 'many' } } }", encoding="utf-8")
    app = build_app(build_parser().parse_args(["--config", str(bad), "--workspace", str(tmp_path)]))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.startup_error is not None, 20, "the config to be read")
        await pilot.pause(0.2)
    assert app.return_code == 2
    assert isinstance(app.startup_error, ConfigError) and "contextTokens" in str(app.startup_error)


async def test_continue_resumes_the_latest_session_with_its_conversation(workspace: Path, monkeypatch, tmp_path: Path) -> None:
    from openclaw_tui.cli import build_parser
    from openclaw_tui.commands.app_cmd import build_app

    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "state"))
    args = ["--workspace", str(workspace)]
    first = build_app(build_parser().parse_args(args))
    async with first.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        await send(pilot, "remember that the staging database is called kestrel")
        old = first.main_screen.engine.session_id
    again = build_app(build_parser().parse_args(["--continue", *args]))
    async with again.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = again.main_screen
        await wait_until(pilot, lambda: _users(screen) and list(screen.chat.query(AgentResponse)), 10, "the replayed conversation")
        await pilot.pause(0.2)
        assert screen.engine.session_id == old
        assert _users(screen) == ["remember that the staging database is called kestrel"]
    fresh = build_app(build_parser().parse_args(args))
    async with fresh.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        assert fresh.main_screen.engine.session_id != old and not _users(fresh.main_screen)


async def test_resume_by_id_prefix_replays_tools_errors_and_cancelled_replies(workspace: Path, server: ChatServer) -> None:
    # the replay showed only user and assistant text (tool calls, errors and cancelled marks
    # were gone), and "/resume 75cf" (an id prefix) failed
    from openclaw_tui.tui.widgets.chat import ErrorBlock, ToolBlock

    server.push(
        {"tool_calls": [{"name": "memory_search", "arguments": {"query": "billing database"}}]},
        {"text": "Billing runs on PostgreSQL 16."},
        {"error": 401, "message": "Incorrect API key provided"},
        STALL,
    )
    app = _model_app(workspace, server)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "Which database does billing use?")
        await send(pilot, "and the cache?")
        await _start_stalled_reply(pilot, "tell me everything")
        await pilot.press("ctrl+c")
        await wait_idle(pilot)
        old = screen.engine.session_id
        await send(pilot, "/new")
        assert not list(screen.chat.query(ToolBlock))
        await send(pilot, f"/resume {old[:6]}")
        assert screen.engine.session_id == old
        assert _users(screen) == ["Which database does billing use?", "and the cache?", "tell me everything"]
        block = next(iter(screen.chat.query(ToolBlock)))
        assert block.tool_name == "memory_search" and block.arguments == {"query": "billing database"}
        assert block.error is None and block.result is not None  # its result is back too
        errors = [e.message for e in screen.chat.query(ErrorBlock)]
        assert any("Incorrect API key" in m for m in errors), errors
        replies = list(screen.chat.query(AgentResponse))
        assert "PostgreSQL 16" in replies[0].text
        assert replies[-1].has_class("-cancelled") and "A long r" in replies[-1].text


async def test_model_with_no_argument_opens_a_picker(workspace: Path) -> None:
    from openclaw_tui.tui.screens.picker import Picker

    overrides = {"models": {"providers": {"lab": {"baseUrl": "http://127.0.0.1:9/v1", "models": [{"id": "m-small"}, {"id": "m-large"}]}}}}
    app = OpenClawApp(make_settings(workspace, overrides), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        screen.prompt.load_text("/model")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Picker), 10, "the model picker")
        ids = [oid for oid, _label in app.screen.options]
        assert "lab/m-large" in ids and "lab/m-small" in ids and "offline" in ids
        await pilot.press("escape")  # closes: nothing changes
        await wait_idle(pilot)
        assert screen.engine.is_offline


async def test_busy_indicator_moves_and_the_meter_follows_the_stream(workspace: Path, server: ChatServer) -> None:
    # the indicator was a static dot and the meter only moved when a reply ended
    server.push(STALL)
    app = _model_app(workspace, server)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        before = screen.meter.usage.used
        await _start_stalled_reply(pilot)
        first = screen.status_bar.plain
        await wait_until(pilot, lambda: "tok" in screen.status_bar.plain and screen.status_bar.plain != first, 10, "the indicator to move")
        # issue 27: the phase is named ("writing", not the bare "replying")
        assert "writing…" in screen.status_bar.plain and "s · ~" in screen.status_bar.plain
        assert screen.meter.usage.used > before and screen.meter.usage.estimated
        await pilot.press("ctrl+c")
        await wait_idle(pilot)
        assert "replying" not in screen.status_bar.plain and "writing" not in screen.status_bar.plain


async def test_memory_status_is_a_short_table_with_details_on_demand(workspace: Path) -> None:
    # /memory status dumped 20+ raw fields ("ftsAvailable: `True`", paths, cache sizes)
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "/memory index")
        assert screen.last_command_output.startswith("**Index synced**")
        assert "indexed" in screen.last_command_output and "| problems | none |" in screen.last_command_output
        await send(pilot, "/memory status")
        out = screen.last_command_output
        rows = [line for line in out.splitlines() if line.startswith("| ") and not line.startswith("| |")]
        assert [r.split("|")[1].strip() for r in rows] == ["index", "search", "last sync", "problems"]
        assert "2 files" in out and "ftsAvailable" not in out and "True" not in out
        await send(pilot, "/memory status --all")
        assert "ftsAvailable" in screen.last_command_output


async def test_maintenance_leaves_a_line_in_the_chat_and_ro_has_no_flush_mark(workspace: Path) -> None:
    # /flush, /compact and index runs reported only in the Timeline; the meter showed a
    # flush mark in a read-only workspace, where no flush can run
    from openclaw_tui.tui.widgets.chat import MarkLine

    from .conftest import SMALL_WINDOW

    app = OpenClawApp(make_settings(workspace, SMALL_WINDOW), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "Which database does billing use?")
        await send(pilot, "/flush")
        await send(pilot, "/compact")
        await send(pilot, "/memory index --force")
        marks = [m.text for m in screen.chat.query(MarkLine)]
        assert any(m.startswith("memory flush") for m in marks), marks
        assert any(m.startswith("compacted: ") and "→" in m and m.endswith("(older turns are summarised)") for m in marks), marks
        assert any(m.startswith("memory index rebuilt") for m in marks), marks
        assert screen.meter.plain.count("┃") == 2
    app = OpenClawApp(make_settings(workspace, SMALL_WINDOW, workspace_access="ro"), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        assert screen.meter.plain.count("┃") == 1 and "flush" not in screen.meter.plain
        await send(pilot, "/flush")
        marks = [m.text for m in screen.chat.query(MarkLine)]
        assert any(m.startswith("memory flush skipped") for m in marks), marks


async def test_a_new_session_opens_with_a_welcome_that_says_what_to_do(tmp_path: Path) -> None:
    # a fresh state dir opened on a workspace that did not exist, with an empty chat and a
    # warning cut off before it said what to do
    from openclaw_tui.tui.widgets.chat import NoticeBlock

    missing = tmp_path / "notes"
    app = OpenClawApp(make_settings(missing), clock=FIXED_CLOCK)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        await pilot.pause(0.2)
        text = list(app.main_screen.chat.query(NoticeBlock))[0].source
        assert "offline agent" in text and "--model" in text
        assert "does not exist yet" in text and f"openclaw-tui init --workspace {missing}" in text
        assert not [x for x in app.main_screen.timeline.lines if "warning" in x and "workspace" in x]  # issue 37
        for command in ("/help", "/memory search", "/resume"):
            assert command in text
