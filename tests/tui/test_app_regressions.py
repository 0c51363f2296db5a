"""Regression tests for bugs found by driving the app as a user (one test per bug)."""

from __future__ import annotations

import re
from pathlib import Path

from textual import events as tevents

from openclaw_tui.tui.app import OpenClawApp
from openclaw_tui.tui.screens.picker import Picker
from openclaw_tui.tui.widgets.chat import ErrorBlock, NoticeBlock, UserMessage

from .conftest import FIXED_CLOCK, make_settings, send, wait_idle, wait_ready, wait_until


async def test_ctrl_j_in_a_burst_of_keys_keeps_its_place(workspace: Path) -> None:
    # Ctrl+J was a binding, run after the keys queued behind it: typed fast (or sent by
    # tmux) "a", Ctrl+J, "b", "c" gave "abc\n" instead of "a\nbc"
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        screen.prompt.focus()
        await pilot.pause()
        for key, char in [("a", "a"), ("ctrl+j", "\n"), ("b", "b"), ("shift+enter", None), ("c", "c")]:
            app.post_message(tevents.Key(key, char))
        await pilot.pause(0.2)
        assert screen.prompt.text == "a\nb\nc"
        assert screen.prompt.cursor_location == (2, 1)
        await pilot.press("enter")
        await wait_idle(pilot)
        assert list(screen.chat.query(UserMessage))[-1].text == "a\nb\nc"


async def test_narrow_status_bar_keeps_access_and_busy_state_visible(workspace: Path) -> None:
    # at 80 columns the bar wrapped and its one visible row ended at "session": the ro
    # highlight and "● replying…" were not on screen
    settings = make_settings(workspace, workspace_access="ro", session_key="agent:main:discord:group:1")
    app = OpenClawApp(settings, clock=FIXED_CLOCK)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        bar = app.main_screen.status_bar
        bar.busy = "replying"
        await pilot.pause()
        visible = bar.render_line(0).text
        assert "offline agent" in visible
        assert " ro " in visible
        assert "replying…" in visible
    async with OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK).run_test(size=(200, 10)) as pilot:
        await wait_ready(pilot)
        visible = pilot.app.main_screen.status_bar.render_line(0).text
        assert "rule-based, not an LLM" in visible and "agent:main:main" in visible


async def test_resume_after_compaction_shows_the_summary(workspace: Path) -> None:
    # a compacted session keeps its older turns only as a summary; /resume showed an
    # empty chat ("Resumed session …" and nothing else)
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "Which database does billing use?")
        await send(pilot, "/compact")
        old = screen.engine.session_id
        assert screen.engine.summary and not screen.engine.history
        await send(pilot, "/new")
        await send(pilot, f"/resume {old}")
        notices = [b.source for b in screen.chat.query(NoticeBlock)]
        assert any("Earlier conversation (compacted)" in m and "Which database does billing use?" in m for m in notices), notices


async def test_memory_commands_under_access_none_name_the_real_cause(workspace: Path) -> None:
    # /memory status with --workspace-access none said to check plugins.slots.memory or
    # memorySearch.enabled, which were fine: the cause was the access mode
    app = OpenClawApp(make_settings(workspace, workspace_access="none"), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "/memory status")
        await send(pilot, "/memory index")
        errors = [b.message for b in screen.chat.query(ErrorBlock)]
        assert len(errors) == 2
        for message in errors:
            assert "--workspace-access none" in message and "plugins.slots" not in message
        viewer = await screen.show_snippet("MEMORY.md", 1, 3)
        assert "--workspace-access none" in viewer.error


async def test_narrow_layout_keeps_the_chat_usable_and_the_memory_summary_whole(workspace: Path) -> None:
    # at 80x24 the side panel kept 46 columns (chat squeezed to 34) and the memory
    # summary was one clipped row: "No search yet — ask about past work, or /m"
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        assert not screen.side_visible  # below 100 columns the panel starts hidden
        assert screen.query_one("#chat-column").size.width == 80
        await pilot.press("ctrl+o")  # shown on demand, still leaving the chat most of the width
        await pilot.pause(0.1)
        assert screen.side_visible
        assert screen.query_one("#chat-column").size.width >= 40
        summary = screen.query_one("#memory-summary")
        shown = " ".join(summary.render_line(y).text.strip() for y in range(summary.size.height))
        assert shown.endswith("/memory search <query>."), shown


async def test_resume_list_is_readable(workspace: Path) -> None:
    # /resume listed every sessions.json field: epoch-ms stamps, "None" values and the
    # transcript path, five wrapped lines per session
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "hello *there*")
        old = screen.engine.session_id
        await send(pilot, "/new")
        screen.prompt.load_text("/resume")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Picker), 10, "the session picker")
        row = next(label for oid, label in app.screen.options if oid == old)
        assert "“hello *there*”" in row  # plain text in the picker: nothing escaped
        assert "createdAt" not in row and "transcript" not in row and "None" not in row
        # issue 27: date first, then the first line, the workspace column, the short id, the model
        assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d  “hello", row) and row.endswith(f"{old[:8]}  offline"), row
        await pilot.press("enter")  # picks it: the session is resumed
        await wait_until(pilot, lambda: screen.engine.session_id == old, 10, "the picked session")


async def test_memory_index_summary_shows_empty_fields_as_a_dash(workspace: Path) -> None:
    # empty lists and strings (errors, warnings, reason) were empty code spans, shown as
    # "errors: ``"; None fields as "`None`"
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        screen = app.main_screen
        await send(pilot, "/memory index --force")
        out = screen.last_command_output
        assert out.startswith("**Index rebuilt**")
        assert "| problems | none |" in out
        assert "``" not in out and "None" not in out


async def test_viewer_on_a_small_terminal_keeps_its_close_hint(workspace: Path) -> None:
    # at 80x24 a long cited range pushed "Esc closes" below the viewer's edge
    (workspace / "memory" / "long.md").write_text("\n".join(f"line {i} " + "word " * 30 for i in range(60)), encoding="utf-8")
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        viewer = await app.main_screen.show_snippet("memory/long.md", 1, 60)
        await pilot.pause()
        box = viewer.query_one("#viewer").region
        text = viewer.query_one("#viewer-text").region
        for part in ("#viewer-title", "#viewer-help"):
            region = viewer.query_one(part).region
            assert region.height >= 1 and box.contains_region(region), (part, region, box)
            assert not region.overlaps(text), (part, region, text)
