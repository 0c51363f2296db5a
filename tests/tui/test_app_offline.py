"""Pilot tests against the real session engine with the offline agent (no key, no model)."""

from __future__ import annotations

import re
from pathlib import Path

from textual import events as tevents

from openclaw_tui import events as ev
from openclaw_tui.tui.app import OpenClawApp
from openclaw_tui.tui.screens.picker import Picker
from openclaw_tui.tui.messages import EngineEvent
from openclaw_tui.tui.screens.viewer import SnippetViewer
from openclaw_tui.tui.widgets.chat import AgentResponse, ErrorBlock, NoticeBlock, ToolBlock, UserMessage

from .conftest import FIXED_CLOCK, SMALL_WINDOW, make_settings, send, wait_idle, wait_ready, wait_until


def _recorder():
    seen: list[ev.Event] = []

    def hook(message) -> None:
        if isinstance(message, EngineEvent):
            seen.append(message.event)

    return seen, hook


async def test_question_fills_panel_meter_and_viewer(workspace: Path) -> None:
    seen, hook = _recorder()
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        assert screen.status_bar.offline
        assert "offline agent" in screen.status_bar.plain
        assert "agent:main:main" in screen.status_bar.plain
        # type the question key by key: Enter sends
        await pilot.click("#prompt")
        await pilot.press(*"Which database does billing use?")
        await pilot.press("enter")
        await wait_idle(pilot)

        users = list(screen.chat.query(UserMessage))
        assert [u.text for u in users] == ["Which database does billing use?"]
        types = [type(e).__name__ for e in seen]
        assert "MemoryRetrieved" in types and "TurnFinished" in types
        assert types.index("TurnStarted") < types.index("MemoryRetrieved") < types.index("TurnFinished")

        # memory panel: path, line range, score, snippet, Source:
        items = screen.memory_panel.items
        assert items, "no search results in the panel"
        top = items[0]
        assert top.path == "MEMORY.md"
        assert top.start_line is not None and top.start_line <= 4 <= (top.end_line or 0)
        assert isinstance(top.score, float) and top.score > 0
        assert "PostgreSQL" in top.snippet
        assert re.fullmatch(r"Source: MEMORY\.md#L\d+(-L\d+)?", top.source_line)
        assert screen.memory_panel.query_text

        # the tool call is a collapsible block with its result
        blocks = list(screen.chat.query(ToolBlock))
        assert blocks and blocks[0].tool_name == "memory_search" and blocks[0].collapsed
        assert blocks[0].result is not None and "✓" in str(blocks[0].title)

        # the streamed reply quotes the snippet with its source
        replies = [r for r in screen.chat.query(AgentResponse) if r.text.strip()]
        assert replies and "PostgreSQL" in replies[-1].text and "Source:" in replies[-1].text

        # meter: tokens used / window with thresholds, labelled estimate (offline agent)
        usage = screen.meter.usage
        assert usage is not None and usage.used > 0 and usage.estimated
        assert usage.flush_threshold < usage.compaction_threshold <= usage.context_window
        plain = screen.meter.plain
        assert f"tokens {usage.used:,} / {usage.context_window:,}" in plain
        assert "estimate" in plain and plain.count("┃") == 2

        # Enter on the result opens the cited lines through memory_get
        screen.query_one("#memory-results").focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SnippetViewer), 5, "the viewer")
        viewer = app.screen
        assert isinstance(viewer, SnippetViewer)
        assert viewer.error == "" and "PostgreSQL 16" in viewer.text
        assert viewer.path == "MEMORY.md" and viewer.start_line == top.start_line
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is screen, 5, "the viewer to close")


async def test_slash_commands(workspace: Path) -> None:
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen

        await send(pilot, "/memory search deploys tuesday")
        assert screen.memory_panel.query_text == "deploys tuesday"
        assert screen.memory_panel.items[0].path == "MEMORY.md"
        assert "Tuesdays" in screen.memory_panel.items[0].snippet

        await send(pilot, "/memory status")
        assert "Memory index" in screen.last_command_output
        assert "| index | 2 files" in screen.last_command_output and "**Memory index** · builtin" in screen.last_command_output

        await send(pilot, "/memory index --force")
        assert "Index rebuilt" in screen.last_command_output

        await send(pilot, "/help")
        out = screen.last_command_output
        assert out.index("/help") < out.index("/memory search") < out.index("/quit")

        await send(pilot, "/status")
        assert "agent:main:main" in screen.last_command_output and "offline agent" in screen.last_command_output

        await send(pilot, "/frobnicate")
        errors = list(screen.chat.query(ErrorBlock))
        assert errors and "unknown command /frobnicate" in errors[-1].message

        await send(pilot, "/memory search")
        assert "usage: /memory search <query>" in list(screen.chat.query(ErrorBlock))[-1].message

        await send(pilot, "Which database does billing use?")
        old = screen.engine.session_id
        await send(pilot, "/new")
        assert screen.engine.session_id != old
        assert not list(screen.chat.query(UserMessage))
        screen.prompt.load_text("/resume")
        await pilot.press("enter")  # no id: a picker lists the sessions
        await wait_until(pilot, lambda: isinstance(app.screen, Picker), 10, "the session picker")
        assert any(oid == old for oid, _label in app.screen.options)
        await pilot.press("escape")
        await wait_idle(pilot)
        # Tab completes the session id
        screen.prompt.focus()
        await pilot.press(*f"/resume {old[:8]}")
        await pilot.press("tab")
        assert screen.prompt.text == f"/resume {old}"
        screen.prompt.clear()
        await send(pilot, f"/resume {old}")
        assert screen.engine.session_id == old
        # the resumed conversation is shown again
        assert [u.text for u in screen.chat.query(UserMessage)] == ["Which database does billing use?"]
        assert "PostgreSQL" in "".join(r.text for r in screen.chat.query(AgentResponse))
        assert len(list(screen.chat.query(NoticeBlock))) >= 1


async def test_completion_history_paste_and_theme(workspace: Path) -> None:
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        prompt = screen.prompt
        prompt.focus()
        await pilot.press("/", "m", "e")
        hint = screen.query_one("#completions")
        assert hint.display and "/memory search <query>" in str(hint.render())
        await pilot.press("tab")
        assert prompt.text == "/memory "
        await pilot.press("s", "t", "tab")
        assert prompt.text == "/memory status"
        prompt.clear()

        # multi-line paste keeps its lines; Enter sends them as one message
        app.post_message(tevents.Paste("Remember that:\nthe staging DB is on port 5433"))
        await pilot.pause(0.1)
        assert prompt.text == "Remember that:\nthe staging DB is on port 5433"
        await pilot.press("ctrl+j")
        assert prompt.text.count("\n") == 2
        await pilot.press("backspace", "enter")
        await wait_idle(pilot)
        assert list(screen.chat.query(UserMessage))[-1].text == "Remember that:\nthe staging DB is on port 5433"
        await send(pilot, "What port is staging on?")

        # history: ↑ recalls the previous prompts, ↓ returns to the draft
        await pilot.press("d", "r", "a", "f", "t")
        await pilot.press("up")
        assert prompt.text == "What port is staging on?"
        await pilot.press("up")
        assert prompt.text.startswith("Remember that:")
        await pilot.press("down", "down")
        assert prompt.text == "draft"

        # theme switch
        first = app.theme
        await pilot.press("ctrl+t")
        assert app.theme != first and app.theme in ("textual-dark", "textual-light")


async def test_command_palette_runs_slash_command(workspace: Path) -> None:
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        await pilot.press(*"/memory status")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Memory index" in screen.last_command_output, 10, "/memory status from the palette")


async def test_flush_and_compaction_by_threshold(workspace: Path) -> None:
    seen, hook = _recorder()
    settings = make_settings(workspace, SMALL_WINDOW)
    app = OpenClawApp(settings, clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        usage0 = screen.meter.usage
        assert usage0 is not None and usage0.context_window == 4000
        assert usage0.flush_threshold == 4000 - 1000 - 1000
        prompts = [
            "I decided that the billing service will run on port 5001 with three replicas.",
            "My preference is short answers with the source cited.",
        ] + ["Which database does billing use and who owns the billing migration?"] * 30
        for text in prompts:
            await send(pilot, text)
            if any(isinstance(e, ev.CompactionFinished) for e in seen):
                break
        kinds = [type(e).__name__ for e in seen]
        assert "FlushStarted" in kinds and "FlushFinished" in kinds and "CompactionFinished" in kinds, kinds
        assert kinds.index("FlushStarted") < kinds.index("CompactionStarted")

        lines = screen.timeline.lines
        flush_start = next(line for line in lines if "flush started" in line)
        m = re.fullmatch(r"12:00:00 flush started: ([\d,]+) ≥ ([\d,]+) tokens", flush_start)
        assert m and int(m.group(2).replace(",", "")) == usage0.flush_threshold
        assert int(m.group(1).replace(",", "")) >= usage0.flush_threshold
        stored = next(line for line in lines if line.startswith("12:00:00 flush stored") or "nothing to store" in line)
        fin = next(e for e in seen if isinstance(e, ev.FlushFinished))
        if fin.stored:
            assert re.fullmatch(r"12:00:00 flush stored → memory/\d{4}-\d{2}-\d{2}\.md \(\+\d+ lines?\)", stored)
            assert (workspace / fin.path).read_text(encoding="utf-8").count("\n") >= fin.lines_appended
        comp = next(e for e in seen if isinstance(e, ev.CompactionFinished))
        assert f"12:00:00 compaction #{comp.compaction_count}: {comp.tokens_before:,} → {comp.tokens_after:,} tokens" in lines
        assert comp.tokens_after < comp.tokens_before
        # the meter dropped after compaction and the flush never showed up as a chat message
        assert screen.meter.usage.used < comp.tokens_before
        for r in screen.chat.query(AgentResponse):
            assert "NO_REPLY" not in r.text
        # the offline agent's flush is the engine's notes (issue 24: no tool calls); nothing of it is chat
        assert not [b for b in screen.chat.query(ToolBlock) if b.tool_name == "append"]
        # the statements were kept at once (issue 37: the offline agent like the local profile), so the
        # flush may find nothing left to store
        from openclaw_tui.workspace.daily import daily_rel

        assert "- User: I decided that the billing service" in (workspace / daily_rel()).read_text(encoding="utf-8")


async def test_manual_flush_and_compact(workspace: Path) -> None:
    seen, hook = _recorder()
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "Which database does billing use?")
        await send(pilot, "/flush")
        assert any(isinstance(e, ev.FlushStarted) and e.reason == "manual" for e in seen)
        assert any("flush started (manual)" in line for line in screen.timeline.lines)
        assert any("nothing to store" in line or "flush stored" in line for line in screen.timeline.lines)
        await send(pilot, "/compact keep the database name")
        comp = [e for e in seen if isinstance(e, ev.CompactionFinished)]
        assert comp and comp[-1].compaction_count == 1
        assert screen.timeline.lines[-1].startswith("12:00:00 compaction #1: ")
        # mid-turn rule: /flush is refused while a reply runs
        screen.turn_running = True
        try:
            await screen.run_slash("/flush")
        finally:
            screen.turn_running = False
        assert "cannot run while a reply is streaming" in list(screen.chat.query(ErrorBlock))[-1].message


async def test_events_from_a_background_thread_reach_the_timeline(workspace: Path) -> None:
    """The index watcher reports from its own thread: the bridge must hand over safely."""
    import threading

    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        # the session-start sync reports from its own thread too: let it land first, or under
        # load its line arrived after "r11" below and was the last entry
        await wait_until(pilot, lambda: any("session start" in line for line in screen.timeline.lines), 20, "the start sync")
        before = len(screen.timeline.lines)

        def report() -> None:
            for i in range(20):
                app.bridge(ev.IndexSynced(agent_id="main", files_indexed=i, files_removed=0, chunks=i * 2, reason="watch"))
            app.bridge(ev.QmdFallback(reason="qmd exited with status 1", query="billing"))

        threads = [threading.Thread(target=report) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        await wait_until(pilot, lambda: len(screen.timeline.lines) >= before + 63, 10, "63 timeline entries")
        new = screen.timeline.lines[before:]
        assert sum("index synced (watch)" in line for line in new) == 60
        assert sum(line == "12:00:00 QMD fallback to builtin for “billing”: qmd exited with status 1" for line in new) == 3

        # the timeline keeps the newest MAX_ENTRIES
        screen.timeline.MAX_ENTRIES = 10
        for i in range(12):
            app.bridge(ev.QmdFallback(reason=f"r{i}"))
        await wait_until(pilot, lambda: screen.timeline.lines[-1].endswith(": r11"), 10, "the last entry")
        await pilot.pause(0.1)
        assert len(screen.timeline.lines) == 10 and len(screen.timeline.children) == 10
        assert screen.timeline.lines[0].endswith(": r2")


async def test_access_modes_are_shown_and_respected(workspace: Path) -> None:
    app = OpenClawApp(make_settings(workspace, workspace_access="ro"), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        bar = app.main_screen.status_bar
        assert bar.access == "ro" and "workspace  ro " in bar.plain
        spans = [s for s in bar.render().spans if "yellow" in str(s.style)]
        assert any(bar.plain[s.start:s.end] == " ro " for s in spans), "ro is not highlighted"
        await send(pilot, "/flush")
        assert any("flush skipped" in line for line in app.main_screen.timeline.lines)

    app = OpenClawApp(make_settings(workspace, workspace_access="none"), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        assert "workspace  none " in screen.status_bar.plain
        assert app.memory is None
        await send(pilot, "/memory status")
        assert "memory is off" in list(screen.chat.query(ErrorBlock))[-1].message
        viewer = await screen.show_snippet("MEMORY.md", 1, 3)
        assert viewer.text == "" and "memory is off" in viewer.error


async def test_meter_colour_changes_near_thresholds(workspace: Path) -> None:
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        meter = app.main_screen.meter
        cases = [(1000, "-ok", "estimate"), (7300, "-near", "estimate"), (9000, "-near", "reported"), (11500, "-critical", "reported")]
        for used, cls, label in cases:
            app.bridge(ev.TokenUsage(used=used, context_window=16000, flush_threshold=8000, compaction_threshold=12000,
                                     estimated=label == "estimate"))
            await wait_until(pilot, lambda: meter.usage is not None and meter.usage.used == used, 5, "the meter update")
            assert meter.has_class(cls), (used, meter.classes)
            assert [c for c in ("-ok", "-near", "-critical") if meter.has_class(c)] == [cls]
            plain = meter.plain
            assert plain.startswith(f"tokens {used:,} / 16,000") and plain.endswith(label)
            # the marks sit at 8,000/16,000 and 12,000/16,000 of the bar
            bar = plain[plain.index("▕") + 1 : plain.index("▏")]
            assert bar.index("┃") == int(0.5 * len(bar)) and bar.rindex("┃") == int(0.75 * len(bar))


async def test_qmd_fallback_reaches_the_timeline(workspace: Path, tmp_path: Path) -> None:
    """memory.backend = qmd with no qmd binary: the builtin index answers, the timeline says so."""
    overrides = {"memory": {"backend": "qmd", "qmd": {"command": str(tmp_path / "no-such-qmd")}}}
    app = OpenClawApp(make_settings(workspace, overrides), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "/memory search billing database")
        await wait_until(pilot, lambda: any("QMD fallback" in line for line in screen.timeline.lines), 10, "the fallback")
        line = next(line for line in screen.timeline.lines if "QMD fallback" in line)
        assert line.startswith("12:00:00 QMD fallback to builtin for “billing database”: ")
        assert screen.memory_panel.items and screen.memory_panel.items[0].path == "MEMORY.md"


async def test_markup_like_text_is_shown_literally(workspace: Path) -> None:
    """Square brackets from users, tools or files are text, never Textual markup."""
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "/memory search [/bold] billing [red]database")
        assert screen.memory_panel.query_text == "[/bold] billing [red]database"
        await send(pilot, "What is [/b] the billing [link=x] database?")
        assert list(screen.chat.query(UserMessage))[-1].text == "What is [/b] the billing [link=x] database?"
        await send(pilot, "/memory index [--force]")
        assert "usage: /memory index [--force]" in list(screen.chat.query(ErrorBlock))[-1].message
        await pilot.press("/", "m", "e", "m", "o", "r", "y", " ", "i")
        assert "[--force]" in str(screen.query_one("#completions").render())
        assert app.is_running


async def test_palette_provider_lists_every_command_in_order(workspace: Path) -> None:
    from openclaw_tui.tui.app import SlashCommandProvider
    from openclaw_tui.tui.commands.registry import COMMANDS

    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        provider = SlashCommandProvider(app.screen)
        found = [hit.text async for hit in provider.discover()]
        assert found == [c.usage for c in COMMANDS]
        hits = [hit.text async for hit in provider.search("resume")]
        assert hits == ["/resume [--all] [id]"]
        # choosing a command that needs an argument pre-fills the prompt
        hit = [h async for h in provider.search("memory search")][0]
        hit.command()
        await pilot.pause(0.1)
        assert app.main_screen.prompt.text == "/memory search "


async def test_engine_start_failure_is_one_inline_line(workspace: Path) -> None:
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK, session_id="../../etc/passwd")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.main_screen
        await wait_until(pilot, lambda: list(screen.chat.query(ErrorBlock)), 20, "the start error")
        err = list(screen.chat.query(ErrorBlock))[0]
        assert err.message.startswith("could not start the session: invalid session id")
        assert "\n" not in err.message and err.action
        assert screen.engine is None and "unavailable" in screen.status_bar.plain
        await send(pilot, "/memory status")  # refused politely, no crash
        assert "the session did not start" in list(screen.chat.query(ErrorBlock))[-1].message
        await send(pilot, "hello?")
        assert "nothing can be sent" in list(screen.chat.query(ErrorBlock))[-1].message
        assert app.is_running


async def test_prompt_history_survives_a_restart(workspace: Path) -> None:
    settings = make_settings(workspace)
    app = OpenClawApp(settings, clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        await send(pilot, "Which database does billing use?")
        await send(pilot, "/status")
    again = OpenClawApp(settings, clock=FIXED_CLOCK)
    async with again.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        prompt = again.main_screen.prompt
        prompt.focus()
        await pilot.press("up")
        assert prompt.text == "/status"
        await pilot.press("up")
        assert prompt.text == "Which database does billing use?"


def test_engine_notes_read_as_notes_in_the_timeline() -> None:
    from openclaw_tui.tui.format import timeline_text

    for reason, text in (("new", "notes before /new"), ("quit", "notes before quitting"), ("compaction", "notes before compaction")):
        kind, line = timeline_text(ev.FlushStarted(session_id="s", tokens=0, threshold=176_000, reason=reason)) or ("", "")
        assert (kind, line) == ("flush", text)


async def test_a_message_submitted_as_the_app_quits_does_not_crash_the_quit(workspace: Path) -> None:
    # Enter, then Ctrl+Q before the submission is handled (seen in tmux under load): the chat is
    # already unmounted when the message would be shown; the quit goes on, no MountError
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        chat = screen.chat
        await chat.remove()
        await screen.start_turn("Remember that the boiler was serviced by Kessler in May.")
        await chat.add_user("a late line")
        assert not screen.turn_running and not list(chat.query(UserMessage)) and not screen.chat_attached()
        await app.action_quit()
    assert app.return_code == 0
