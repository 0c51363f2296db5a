"""SVG snapshots of the main screen (pytest-textual-snapshot), 120×40 and 80×24, fixed clock,
no timings.

States: after a search, after a flush, after a compaction — driven through the real engine
with the offline agent; at 80×24 the same search with the side panel hidden (its default
there) and shown (Ctrl+O), and the slash menu. Update deliberately with
``pytest tests/tui --snapshot-update``.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from openclaw_tui.tui.app import OpenClawApp

from .conftest import FIXED_CLOCK, SMALL_WINDOW, make_settings, send, wait_ready, wait_until

SIZE = (120, 40)
SMALL = (80, 24)


def _app(workspace: Path, theme: str = "dark", **settings_kw) -> OpenClawApp:
    # today's daily log exists, so the offline flush reads it instead of hitting a missing
    # file; its text matches no question and its dated name never reaches the screen
    (workspace / "memory" / f"{date.today().isoformat()}.md").write_text("# Today\n- Lunch at noon.\n", encoding="utf-8")
    settings = make_settings(workspace, SMALL_WINDOW, **settings_kw)
    return OpenClawApp(settings, clock=FIXED_CLOCK, show_timings=False, theme=theme)


async def _prepare(pilot) -> None:
    await wait_ready(pilot)
    screen = pilot.app.main_screen
    screen.prompt.cursor_blink = False
    # the session-start index sync runs in a thread: let it land first so the order is fixed
    await wait_until(pilot, lambda: any("session start" in line for line in screen.timeline.lines), 20, "the start sync")


def test_snapshot_after_search(workspace: Path, snap_compare) -> None:
    async def run_before(pilot) -> None:
        await _prepare(pilot)
        await send(pilot, "Which database does billing use?")

    assert snap_compare(_app(workspace), terminal_size=SIZE, run_before=run_before)


QUESTION = "Which database does billing use and who owns the billing migration?"


async def _ask_until(pilot, marker: str, limit: int = 20) -> None:
    """Ask (questions only: nothing to store, so no dated file name on screen) until the
    timeline shows ``marker`` — the threshold flush or compaction of the small window."""
    timeline = pilot.app.main_screen.timeline
    for _ in range(limit):
        await send(pilot, QUESTION)
        if any(marker in line for line in timeline.lines):
            return
    raise AssertionError(f"no {marker!r} after {limit} turns: {timeline.lines}")


def test_snapshot_after_flush(workspace: Path, snap_compare) -> None:
    async def run_before(pilot) -> None:
        await _prepare(pilot)
        await _ask_until(pilot, "flush finished")

    assert snap_compare(_app(workspace), terminal_size=SIZE, run_before=run_before)


def test_snapshot_after_compaction(workspace: Path, snap_compare) -> None:
    async def run_before(pilot) -> None:
        await _prepare(pilot)
        await _ask_until(pilot, "compaction #1")

    assert snap_compare(_app(workspace), terminal_size=SIZE, run_before=run_before)


def test_snapshot_light_theme_read_only(workspace: Path, snap_compare) -> None:
    """Light theme, ro workspace (highlighted in the status bar), a /memory search."""

    async def run_before(pilot) -> None:
        await _prepare(pilot)
        await send(pilot, "/memory search deploys")

    assert snap_compare(_app(workspace, "light", workspace_access="ro"), terminal_size=SIZE, run_before=run_before)


def test_snapshot_80x24_side_panel_hidden(workspace: Path, snap_compare) -> None:
    """80×24: the chat takes the full width; meter and key hints fit on their lines."""

    async def run_before(pilot) -> None:
        await _prepare(pilot)
        await send(pilot, "Which database does billing use?")

    assert snap_compare(_app(workspace), terminal_size=SMALL, run_before=run_before)


def test_snapshot_80x24_side_panel_shown(workspace: Path, snap_compare) -> None:
    async def run_before(pilot) -> None:
        await _prepare(pilot)
        await send(pilot, "Which database does billing use?")
        await pilot.press("ctrl+o")

    assert snap_compare(_app(workspace), terminal_size=SMALL, run_before=run_before)


def test_snapshot_80x24_slash_menu(workspace: Path, snap_compare) -> None:
    async def run_before(pilot) -> None:
        await _prepare(pilot)
        pilot.app.main_screen.prompt.focus()
        await pilot.press("/", "down", "down", "down")

    assert snap_compare(_app(workspace), terminal_size=SMALL, run_before=run_before)
