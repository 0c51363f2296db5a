"""The TUI with a local GGUF: the first frame and the prompt come before the model, the
status bar says it is loading, then names it; an unusable file is one error line and the
offline agent serves."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui.tui.app import OpenClawApp
from openclaw_tui.tui.widgets.chat import AgentResponse, ErrorBlock

from .conftest import FIXED_CLOCK, make_settings, send, wait_idle, wait_ready, wait_until


async def test_an_unusable_gguf_is_one_error_line_and_the_offline_agent_serves(workspace: Path, tmp_path: Path) -> None:
    junk = tmp_path / "junk.gguf"
    junk.write_text("not a model")
    app = OpenClawApp(make_settings(workspace, model=f"local/{junk}"), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.main_screen
        await wait_ready(pilot)
        await wait_until(pilot, lambda: list(screen.chat.query(ErrorBlock)), 20, "the model error")
        errors = [e.message for e in screen.chat.query(ErrorBlock)]
        assert len(errors) == 1 and "not a GGUF file" in errors[0] and "offline agent serves" in errors[0]
        await wait_until(pilot, lambda: screen.status_bar.offline, 5, "the offline label")
        await send(pilot, "Which database does billing use?")
        await wait_idle(pilot)
        assert "PostgreSQL" in list(screen.chat.query(AgentResponse))[-1].text
        assert len(list(screen.chat.query(ErrorBlock))) == 1


@pytest.mark.slow
async def test_the_status_bar_shows_the_model_loading_then_its_name(workspace: Path, small_local_model: Path) -> None:
    app = OpenClawApp(make_settings(workspace, model=f"local/{small_local_model}"), clock=FIXED_CLOCK)
    labels: list[str] = []
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.main_screen
        await wait_ready(pilot)
        assert not screen.prompt.disabled  # the prompt is usable while the model loads

        def loaded() -> bool:
            labels.append(screen.status_bar.model)
            return "(llama.cpp)" in labels[-1] and "loading" not in labels[-1]

        await wait_until(pilot, loaded, 240, "the model to load")
        engine = screen.engine
        assert any("loading model…" in label for label in labels), labels[:5]
        assert not screen.status_bar.offline and "local · " in screen.status_bar.plain
        server = engine._model.server
        assert server.running
    assert not server.running  # stopped on exit


async def test_switching_to_a_local_model_loads_it_at_once(workspace: Path, tmp_path: Path) -> None:
    """`/model local/<path>` starts loading right away: a bad file is reported before any message."""
    junk = tmp_path / "other.gguf"
    junk.write_bytes(b"GGU")
    app = OpenClawApp(make_settings(workspace), clock=FIXED_CLOCK)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.main_screen
        await wait_ready(pilot)
        await send(pilot, f"/model local/{junk}")
        await wait_until(pilot, lambda: list(screen.chat.query(ErrorBlock)), 20, "the load error")
        assert "not a GGUF file" in list(screen.chat.query(ErrorBlock))[-1].message
        await wait_until(pilot, lambda: screen.status_bar.offline and "offline agent" in screen.status_bar.model, 5, "the fallback label")
