"""Fixtures for the TUI tests: a temp workspace with memory files, settings, Pilot helpers."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Callable

import pytest

from openclaw_tui.config import AgentSettings, load_config, resolve_agent

MEMORY_MD = """# Long-term memory

## Decisions
- The billing service uses PostgreSQL 16 as its database.
- Deploys go out on Tuesdays after the standup.

## People
- Dana owns the billing migration.
"""

DAILY_MD = """# 2026-01-05
- Met Dana about the billing migration; the cutover is planned for March.
"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "workspace"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text(MEMORY_MD, encoding="utf-8")
    (ws / "memory" / "2026-01-05.md").write_text(DAILY_MD, encoding="utf-8")
    return ws


def make_settings(workspace: Path, overrides: dict[str, Any] | None = None, **kw: Any) -> AgentSettings:
    cfg = load_config(None, overrides=overrides)
    return resolve_agent(cfg, workspace=str(workspace), **kw)


FIXED_CLOCK: Callable[[float], str] = lambda _ts: "12:00:00"  # noqa: E731

# small window so a few turns reach the flush and compaction thresholds
SMALL_WINDOW = {
    "agents": {
        "defaults": {
            "contextTokens": 4000,
            "compaction": {
                "reserveTokensFloor": 1000,
                "keepRecentTokens": 300,
                "memoryFlush": {"softThresholdTokens": 1000},
            },
        }
    }
}


async def wait_until(pilot, predicate: Callable[[], bool], timeout: float = 20.0, what: str = "condition") -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)


async def wait_ready(pilot) -> None:
    screen = pilot.app.main_screen
    await wait_until(pilot, lambda: screen.engine is not None, 30, "the engine")


async def wait_idle(pilot, timeout: float = 30.0) -> None:
    """Until no turn or command worker runs and the message queue has drained."""
    app = pilot.app

    def idle() -> bool:
        return not [w for w in app.workers if w.group in ("turn", "command") and w.is_running]

    await pilot.pause(0.05)
    await wait_until(pilot, idle, timeout, "the turn to finish")
    await pilot.pause(0.1)


async def send(pilot, text: str) -> None:
    prompt = pilot.app.main_screen.prompt
    prompt.load_text(text)
    prompt.move_cursor(prompt.document.end)
    prompt.focus()
    await pilot.press("enter")
    await wait_idle(pilot)
