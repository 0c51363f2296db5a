"""Smaller cuts a newcomer met (issue 37), each through the app: a neutral first-start line, the
offline agent finding a statement at once, refusals in the chat and on the timeline."""

from __future__ import annotations

from pathlib import Path

from openclaw_tui.tui.app import OpenClawApp
from openclaw_tui.tui.widgets.chat import AgentResponse

from .conftest import FIXED_CLOCK, make_settings, send, wait_ready


def _replies(app: OpenClawApp) -> list[str]:
    return [r.source for r in app.main_screen.chat.query(AgentResponse)]


async def test_a_first_start_on_a_new_workspace_warns_of_nothing(tmp_path: Path) -> None:
    app = OpenClawApp(make_settings(tmp_path / "notes", model="offline"), clock=FIXED_CLOCK)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        await pilot.pause(0.2)
        lines = app.main_screen.timeline.lines
        assert not [x for x in lines if "warning" in x and "workspace" in x], lines
        assert any("new workspace" in x for x in lines), lines


async def test_the_offline_agent_finds_a_statement_in_the_same_session(workspace: Path) -> None:
    app = OpenClawApp(make_settings(workspace, model="offline"), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        await send(pilot, "My cat Pixel is 7 years old.")
        await send(pilot, "How old is my cat Pixel?")
        last = _replies(app)[-1]
        assert "Pixel is 7 years old" in last and "#L" in last, last
        assert any("append" in x and "memory/" in x for x in app.main_screen.timeline.lines)


async def test_a_write_in_a_read_only_workspace_is_refused_in_the_chat_and_on_the_timeline(workspace: Path) -> None:
    app = OpenClawApp(make_settings(workspace, model="offline", workspace_access="ro"), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        await send(pilot, "Please write the line 'buy milk' into todo.md")
        assert "read-only" in _replies(app)[-1]
        assert any("refused write todo.md" in x and "read-only" in x for x in app.main_screen.timeline.lines)


async def test_undo_right_after_a_restore_undoes_the_restore(workspace: Path) -> None:
    from openclaw_tui.workspace.daily import daily_rel

    app = OpenClawApp(make_settings(workspace, model="offline"), clock=FIXED_CLOCK)
    log = workspace / daily_rel()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        await send(pilot, "My cat Pixel is 7 years old.")
        kept = log.read_bytes()
        await send(pilot, f"/memory restore {daily_rel()} --yes")
        await pilot.pause(0.3)
        assert not log.exists() or log.read_bytes() != kept
        await send(pilot, "/undo")
        await pilot.pause(0.3)
        assert log.read_bytes() == kept
        assert any("undo" in x and daily_rel() in x for x in app.main_screen.timeline.lines)


async def test_a_hosted_model_without_a_key_is_said_at_start(workspace: Path, monkeypatch) -> None:
    from openclaw_tui.tui.widgets.chat import ErrorBlock

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    app = OpenClawApp(make_settings(workspace, model="openai/gpt-4o-mini"), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        await pilot.pause(0.3)
        errors = [e.message for e in app.main_screen.chat.query(ErrorBlock)]
        assert any("no API key for openai" in m and "OPENAI_API_KEY" in m for m in errors), errors
        assert any("no API key for openai" in x for x in app.main_screen.timeline.lines)


def test_a_key_in_the_environment_or_a_custom_base_is_no_problem(monkeypatch) -> None:
    from openclaw_tui.llm.resolve import missing_key

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert "ANTHROPIC_API_KEY" in (missing_key("anthropic", None, None) or "")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-x")
    assert missing_key("anthropic", None, None) is None
    assert missing_key("openai", None, "http://127.0.0.1:9/v1") is None and missing_key("openai", "sk", None) is None
    assert missing_key("ollama_chat", None, None) is None


async def test_a_code_line_wider_than_the_chat_scrolls_with_a_visible_bar(workspace: Path) -> None:
    from textual.widgets._markdown import MarkdownFence

    app = OpenClawApp(make_settings(workspace, model="offline"), clock=FIXED_CLOCK)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        reply = await app.main_screen.chat.add_response()
        long_line = "total = " + " + ".join(f"value_{i}" for i in range(30))
        await reply.finish(f"Here:\n\n```python\n{long_line}\n```\n")
        await pilot.pause(0.2)
        (fence,) = reply.query(MarkdownFence)
        assert fence.max_scroll_x > 0  # wider than the column
        assert fence.scrollbar_size_horizontal == 1 and fence.show_horizontal_scrollbar  # and it says so
        fence.scroll_to(x=fence.max_scroll_x, animate=False)
        await pilot.pause(0.1)
        assert fence.scroll_x == fence.max_scroll_x  # the end of the line can be reached
