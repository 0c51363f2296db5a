"""Issue 27: daily use as a newcomer found it — copy, phases, scoped sessions, memory
explained. Each test drives the real app with Pilot (offline agent or the scripted
loopback chat server) and fails on the behaviour it fixes."""

from __future__ import annotations

from openclaw_tui.workspace.daily import daily_rel

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


def _users(screen) -> list[str]:
    return [w.text for w in screen.chat.query(UserMessage)]


async def _session_in(workspace: Path, text: str, **kw) -> str:
    app = _offline_app(workspace, **kw)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        await send(pilot, text)
        return app.main_screen.engine.session_id


async def test_resume_and_continue_are_scoped_to_the_workspace_and_key(tmp_path: Path) -> None:
    from openclaw_tui.tui.screens.picker import Picker

    ws_a, ws_b = tmp_path / "alpha", tmp_path / "beta"
    for ws in (ws_a, ws_b):
        (ws / "memory").mkdir(parents=True)
    sid_a = await _session_in(ws_a, "alpha question about kestrel")
    sid_b = await _session_in(ws_b, "beta question about falcon")
    app = _offline_app(ws_b)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        screen.prompt.load_text("/resume")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Picker), 10, "the resume picker")
        options = app.screen.options
        assert [oid for oid, _ in options] == [sid_b]  # only this workspace's session
        label = options[0][1]
        # readable: date first, then what the user said, the workspace column, a short id after
        assert label.index("beta question") < label.index("(this workspace)") < label.index(sid_b[:8])
        assert sid_b not in label  # the full uuid is not the lead
        await pilot.press("escape")
        await pilot.pause(0.2)
        screen.prompt.load_text("/resume --all")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Picker), 10, "the --all picker")
        ids = [oid for oid, _ in app.screen.options]
        assert set(ids) >= {sid_a, sid_b}
        alpha = dict(app.screen.options)[sid_a]
        assert "alpha" in alpha and "(this workspace)" not in alpha
        await pilot.press("escape")
    # --continue in beta takes beta's session even though alpha's is... older; in a fresh
    # third workspace it starts a new one instead of continuing alpha's or beta's
    sid_a2 = await _session_in(ws_a, "alpha again")  # now the newest overall
    cont = OpenClawApp(make_settings(ws_b), clock=FIXED_CLOCK, continue_latest=True)
    async with cont.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        assert cont.main_screen.engine.session_id == sid_b != sid_a2
    ws_c = tmp_path / "gamma"
    (ws_c / "memory").mkdir(parents=True)
    cont = OpenClawApp(make_settings(ws_c), clock=FIXED_CLOCK, continue_latest=True)
    async with cont.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        assert cont.main_screen.engine.session_id not in (sid_a, sid_a2, sid_b)


async def test_a_group_session_is_not_resumed_from_a_direct_key(workspace: Path) -> None:
    from openclaw_tui.tui.widgets.chat import ErrorBlock

    group = "agent:main:discord:group:42"
    sid = await _session_in(workspace, "group chat about the launch", session_key=group)
    app = _offline_app(workspace)  # the direct key agent:main:main
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        mine = screen.engine.session_id
        await send(pilot, f"/resume --all {sid[:8]}")
        assert screen.engine.session_id == mine  # not continued: MEMORY.md would load
        error = list(screen.chat.query(ErrorBlock))[-1].message
        assert "MEMORY.md" in error and f"--session-key {group}" in error


async def test_the_status_bar_names_each_phase_of_a_turn(workspace: Path) -> None:
    # the bar said only "replying… 88s" through a memory search, a long prompt read and the reply
    with ChatServer(default={"text": "Short answer."}) as server:
        server.push(
            {"hang": 1.5, "tool_calls": [{"name": "memory_search", "arguments": {"query": "billing database"}}]},
            {"hang": 1.5, "text": "Billing runs on PostgreSQL 16, see MEMORY.md.", "chunk_delay": 0.15},
        )
        settings = make_settings(workspace, model="openai/fake-model", api_base=server.base_url, api_key="sk-test-123")
        app = OpenClawApp(settings, clock=FIXED_CLOCK)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_ready(pilot)
            screen = app.main_screen
            seen: list[str] = []
            bar = screen.status_bar

            def watch() -> None:
                text = bar.plain
                if bar.busy and (not seen or seen[-1] != text.split("…")[0]):
                    seen.append(text.split("…")[0])

            timer = screen.set_interval(0.05, watch)
            screen.prompt.load_text("Which database does billing use?")
            await pilot.press("enter")
            await wait_until(pilot, lambda: screen.turn_running, 10, "the turn")
            await wait_until(pilot, lambda: not screen.turn_running, 60, "the turn to end")
            timer.stop()
            joined = "\n".join(seen)
            assert "reading the prompt · " in joined and "/" in joined.split("reading the prompt · ")[1].split("\n")[0]
            assert "searching memory" in joined or "running memory_search" in joined or joined.count("reading the prompt") >= 2
            assert "writing" in joined
            order = [p for p in ("reading the prompt", "writing") if p in joined]
            assert joined.index(order[0]) < joined.index(order[-1])
            assert "replying" not in joined  # never the bare word once a phase is known


async def test_flush_and_compaction_results_can_be_read_in_the_chat(workspace: Path) -> None:
    from openclaw_tui.tui.widgets.chat import MarkDetails

    from .conftest import SMALL_WINDOW

    app = OpenClawApp(make_settings(workspace, SMALL_WINDOW), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "I decided that the release train leaves every second Thursday.")
        await send(pilot, "Which database does billing use?")
        await send(pilot, "/flush")
        await send(pilot, "/compact")
        details = list(screen.chat.query(MarkDetails))
        titles = [str(d.title) for d in details]
        assert any(t.startswith("the summary of compaction #") for t in titles), titles
        summary = next(d for d in details if str(d.title).startswith("the summary"))
        assert summary.body.strip() and summary.collapsed
        summary.collapsed = False  # opens like a tool block
        await pilot.pause(0.1)
        assert summary.body in str(summary.query_one(".tool-result").render())
        flushed = [d for d in details if str(d.title).startswith("what the flush stored")]
        for d in flushed:  # when the offline agent stored something, it is readable here
            assert d.body.strip() and "memory/" in str(d.title)


def test_mark_details_name_what_was_stored_and_the_summary() -> None:
    from openclaw_tui import events as ev
    from openclaw_tui.tui.format import mark_details

    stored = ev.FlushFinished(session_id="s", path="memory/2026-12-04.md", lines_appended=1, stored=True, written="- likes teal\n")
    assert mark_details(stored) == ("what the flush stored in memory/2026-12-04.md", "- likes teal")
    assert mark_details(ev.FlushFinished(session_id="s", path=None, lines_appended=0, stored=False)) is None
    done = ev.CompactionFinished(session_id="s", tokens_before=900, tokens_after=200, compaction_count=2, summary="Dana owns billing.")
    assert mark_details(done) == ("the summary of compaction #2", "Dana owns billing.")


async def test_welcome_explains_memory_and_a_group_session_shows_its_badge(workspace: Path) -> None:
    import time as _time

    from openclaw_tui.tui.widgets.chat import NoticeBlock

    app = _offline_app(workspace)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        await pilot.pause(0.2)
        text = list(app.main_screen.chat.query(NoticeBlock))[0].source
        assert "remember" in text and "today's note `memory/YYYY-MM-DD.md`" in text and "MEMORY.md" in text
        assert "/memory open" in text
        assert "no MEMORY.md" not in app.main_screen.status_bar.plain
    app = _offline_app(workspace, session_key="agent:main:discord:group:42")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        await pilot.pause(0.2)
        screen = app.main_screen
        plain = screen.status_bar.plain
        assert "agent:main:discord:group:42 group " in plain  # badge and key both kept at 80 columns
        await pilot.resize_terminal(120, 40)
        await pilot.pause(0.2)
        assert "group · no MEMORY.md" in screen.status_bar.plain
        text = list(screen.chat.query(NoticeBlock))[0].source
        assert "Group session" in text and "MEMORY.md` was excluded" in text


async def test_memory_open_runs_the_editor_and_refuses_memory_md_in_a_group(workspace: Path, tmp_path: Path, monkeypatch) -> None:
    import time as _time

    from openclaw_tui.tui.widgets.chat import ErrorBlock

    editor = tmp_path / "fake-editor.sh"
    editor.write_text('#!/bin/sh\nprintf -- "- added in the editor\\n" >> "$1"\n', encoding="utf-8")
    editor.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(editor))
    monkeypatch.delenv("VISUAL", raising=False)
    app = _offline_app(workspace)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        await send(pilot, "/memory open")
        note = workspace / "memory" / f"{_time.strftime('%Y-%m-%d')}.md"
        assert note.read_text(encoding="utf-8") == "- added in the editor\n"
        assert "changed" in app.main_screen.last_command_output
        await send(pilot, "/memory open ../outside.md")
        assert "refused" in list(app.main_screen.chat.query(ErrorBlock))[-1].message
    app = _offline_app(workspace, session_key="agent:main:discord:group:42")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        before = (workspace / "MEMORY.md").read_text(encoding="utf-8")
        await send(pilot, "/memory open MEMORY.md")
        assert (workspace / "MEMORY.md").read_text(encoding="utf-8") == before
        assert "private" in list(app.main_screen.chat.query(ErrorBlock))[-1].message


async def test_init_history_and_restore_in_the_tui(tmp_path: Path) -> None:
    from openclaw_tui.records.history import ChangeOrigin, MemoryHistory

    ws = tmp_path / "fresh"
    app = _offline_app(ws)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "/init")
        assert (ws / "MEMORY.md").exists() and "created" in screen.last_command_output
        # a daily log the model created in two changes
        rel = "memory/2026-12-01.md"
        history = MemoryHistory.for_agent(app.settings.agent_dir)
        first = b"- one\n"
        second = first + b"- two\n- three\n- four\n"
        history.record(rel, None, first, "append", ChangeOrigin("model", "s1", 1))
        e2 = history.record(rel, first, second, "append", ChangeOrigin("model", "s1", 2))
        (ws / rel).write_bytes(second)
        await send(pilot, "/memory history")
        out = screen.last_command_output
        assert e2.id[:8] in out and rel in out
        e1 = history.entries(rel)[0]
        # "--to the first change" means "before it": the file would go — not without --yes
        await send(pilot, f"/memory restore {rel} --to {e1.id[:8]}")
        assert (ws / rel).read_bytes() == second
        assert "would DELETE" in screen.last_command_output and "--yes" in screen.last_command_output
        # the latest change: back to the one-line version (a cut by more than half) — also asks
        await send(pilot, f"/memory restore {rel}")
        assert (ws / rel).read_bytes() == second and "would SHRINK" in screen.last_command_output
        await send(pilot, f"/memory restore {rel} --yes")
        assert (ws / rel).read_bytes() == first
        await wait_until(pilot, lambda: any("restore" in str(b.title) for b in screen.chat.query("MemoryChangeBlock")), 5, "the restore block")


def test_cli_restore_dry_run_and_confirmation(tmp_path: Path, capsys) -> None:
    from openclaw_tui import cli
    from openclaw_tui.records.history import ChangeOrigin, MemoryHistory

    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    settings = make_settings(ws)
    rel = "memory/2026-12-01.md"
    history = MemoryHistory.for_agent(settings.agent_dir)
    entry = history.record(rel, None, b"- a whole day of notes\n", "append", ChangeOrigin("model", "s1", 1))
    (ws / rel).write_bytes(b"- a whole day of notes\n")
    args = ["--workspace", str(ws), "memory", "restore", rel, "--to", entry.id]
    assert cli.main([*args, "--dry-run"]) == 0
    assert "would DELETE" in capsys.readouterr().out and (ws / rel).exists()
    assert cli.main(args) == 1  # not a terminal, no --yes: refused, nothing lost
    assert "pass --yes" in capsys.readouterr().err and (ws / rel).exists()
    assert cli.main([*args, "--yes"]) == 0
    assert not (ws / rel).exists()


async def test_a_key_that_reaches_the_screen_with_the_prompt_focused_is_typed(workspace: Path) -> None:
    # right after launch, keys reached the screen while the prompt had focus, and were lost
    from textual import events

    app = _offline_app(workspace)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        assert screen.focused is screen.prompt
        for ch in "hi":
            screen.post_message(events.Key(ch, ch))
        await pilot.pause(0.2)
        assert screen.prompt.text == "hi"
        screen.post_message(events.Key("enter", "\r"))
        await wait_until(pilot, lambda: "hi" in _users(screen), 10, "the early prompt sent")


@pytest.mark.parametrize("key", ["alt+enter", "shift+\r", "ctrl+j"])
async def test_new_line_keys_that_terminals_send_for_shift_enter(workspace: Path, key: str) -> None:
    app = _offline_app(workspace)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        prompt = app.main_screen.prompt
        prompt.focus()
        await pilot.press("a")
        await pilot.press(key)
        await pilot.press("b")
        assert prompt.text == "a\nb"
        assert not _users(app.main_screen)


async def test_new_messages_indicator_while_a_reply_streams_below(workspace: Path) -> None:
    with ChatServer(default={"text": "Short answer."}) as server:
        long = " ".join(f"word{i}" for i in range(400))
        server.push({"text": long, "chunk_delay": 0.03})
        settings = make_settings(workspace, model="openai/fake-model", api_base=server.base_url, api_key="sk-test-123")
        app = OpenClawApp(settings, clock=FIXED_CLOCK)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_ready(pilot)
            screen = app.main_screen
            for i in range(6):
                await screen.chat.add_notice(f"filler {i}\n\n" + "line\n\n" * 4)
            screen.prompt.load_text("tell me a long story")
            await pilot.press("enter")
            replies = lambda: list(screen.chat.query(AgentResponse))  # noqa: E731
            await wait_until(pilot, lambda: replies() and replies()[-1].streamed, 60, "the stream")
            screen.chat.scroll_home(animate=False)  # the user scrolls up while it streams
            await pilot.pause(0.1)
            await wait_until(pilot, lambda: screen.query_one("#new-messages").display, 20, "the indicator")
            await wait_until(pilot, lambda: not screen.turn_running, 60, "the reply to end")


async def test_a_resumed_session_shows_its_memory_diffs(workspace: Path) -> None:
    from openclaw_tui.tui.widgets.chat import ToolBlock

    with ChatServer(default={"text": "Short answer."}) as server:
        server.push(
            {"tool_calls": [{"name": "append", "arguments": {"path": daily_rel(), "content": "- Likes teal dashboards."}}]},
            {"text": "Saved."},
        )
        settings = make_settings(workspace, model="openai/fake-model", api_base=server.base_url, api_key="sk-test-123")
        app = OpenClawApp(settings, clock=FIXED_CLOCK)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_ready(pilot)
            screen = app.main_screen
            await send(pilot, "remember I like teal dashboards")
            live = next(iter(screen.chat.query(ToolBlock)))
            assert live.diff and "+- Likes teal dashboards." in live.diff
            old = screen.engine.session_id
            await send(pilot, "/new")
            await send(pilot, f"/resume {old[:8]}")
            block = next(iter(screen.chat.query(ToolBlock)))
            assert block.diff == live.diff  # not "✓" with {"ok": true}
            assert str(block.title).startswith("✎")


async def test_memory_status_has_no_empty_header_and_new_clears_the_memory_panel(workspace: Path) -> None:
    app = _offline_app(workspace)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "/memory status")
        out = screen.last_command_output
        assert "| |" not in out and out.split("\n\n")[1].startswith("| index | ")  # the first row is the header
        await send(pilot, "/memory search billing database")
        await wait_until(pilot, lambda: screen.memory_panel.items, 10, "search results")
        await send(pilot, "/new")
        assert not screen.memory_panel.items and screen.memory_panel.result is None


async def test_model_picker_offers_installed_local_models(workspace: Path, tmp_path: Path, monkeypatch) -> None:
    from openclaw_tui.tui.screens.picker import Picker

    models = tmp_path / "models"
    models.mkdir()
    (models / "tiny-chat-q4.gguf").write_bytes(b"GGUF")
    monkeypatch.setenv("OPENCLAW_MODELS_DIR", str(models))
    app = _offline_app(workspace)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        app.main_screen.prompt.load_text("/model")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Picker), 10, "the model picker")
        ids = [oid for oid, _ in app.screen.options]
        assert "local/tiny-chat-q4" in ids and "offline" in ids
        await pilot.press("escape")


def test_local_window_thresholds_leave_room_and_explicit_values_win() -> None:
    from openclaw_tui.config import load_config
    from openclaw_tui.session.budget import TokenBudget

    local = "local/qwen2.5-coder-1.5b-instruct-q4_k_m"
    b = TokenBudget(load_config(None), local, offline=False)
    assert b.context_window == 32768
    assert b.compaction_threshold == 24576 and b.flush_threshold == 20576  # 75 % / 63 %, was 39 % / 27 %
    hosted = TokenBudget(load_config(None), "openai/gpt-4o", offline=False)
    assert hosted.compaction_threshold == hosted.context_window - 20000  # hosted unchanged
    set_floor = load_config(None, overrides={"agents": {"defaults": {"compaction": {"reserveTokensFloor": 20000}}}})
    assert TokenBudget(set_floor, local, offline=False).compaction_threshold == 12768


async def test_exit_breadcrumb_and_resume_flag(workspace: Path, tmp_path: Path, monkeypatch) -> None:
    from openclaw_tui.cli import build_parser
    from openclaw_tui.commands.app_cmd import breadcrumb, build_app

    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "state"))
    args = build_parser().parse_args(["--workspace", str(workspace), "--model", "offline"])
    app = build_app(args)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        await send(pilot, "remember that the cutover is in March")
        sid = app.main_screen.engine.session_id
        await app.action_quit()
    assert app.saved_session_id == sid
    line = breadcrumb(args, app.saved_session_id)
    assert line == f"resume this session: openclaw-tui --workspace {workspace} --model offline --resume {sid}"
    assert breadcrumb(args, None) is None  # nothing said: nothing was saved
    again = build_app(build_parser().parse_args(line.split(": ", 1)[1].split()[1:]))
    async with again.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        await wait_until(pilot, lambda: _users(again.main_screen), 10, "the resumed conversation")
        assert again.main_screen.engine.session_id == sid


def test_scenario_header_names_the_model_that_answered() -> None:
    from openclaw_tui.scenario.runner import ScenarioReport

    def header(model: str) -> str:
        report = ScenarioReport("remember and recall with the offline agent", True, "s1", model, "/ws", [], [])
        return report.text().splitlines()[0]

    assert header("local/qwen2.5-coder-1.5b-instruct-q4_k_m").startswith("scenario: remember and recall with local/qwen2.5-coder-1.5b")
    assert "with the offline agent" in header("offline agent (rule-based, not an LLM)")


def test_breadcrumb_names_a_command_that_runs(tmp_path: Path, monkeypatch) -> None:
    # issue 37: after `make run`, 'openclaw-tui --resume <id>' was "command not found"
    import argparse

    from openclaw_tui.commands.app_cmd import breadcrumb

    script = tmp_path / "venv" / "bin" / "openclaw-tui"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    args = argparse.Namespace(workspace=None, config=None, agent=None, session_key=None, model=None)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert breadcrumb(args, "s1", argv0=str(script)) == f"resume this session: {script} --resume s1"
    monkeypatch.setenv("PATH", f"{script.parent}:/usr/bin")
    assert breadcrumb(args, "s1", argv0=str(script)) == "resume this session: openclaw-tui --resume s1"
    assert breadcrumb(args, "s1", argv0="openclaw-tui") == "resume this session: openclaw-tui --resume s1"
