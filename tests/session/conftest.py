"""Fixtures for the session engine: a fresh workspace, settings, a scripted chat server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from openclaw_tui import events
from openclaw_tui.config import load_config, resolve_agent
from openclaw_tui.llm.client import RetryPolicy
from openclaw_tui.workspace.template import init_workspace
from tests.fakes.chat_server import ChatServer

SECRET_KEY = "sk-test-SECRET-0123456789abcdef"
FAST_RETRY = RetryPolicy(attempts=3, base_s=0.01, max_s=0.02, retry_after_cap_s=0.02)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    init_workspace(ws)
    return ws


@pytest.fixture
def server():
    with ChatServer() as srv:
        yield srv


class Recorder:
    def __init__(self) -> None:
        self.events: list[events.Event] = []

    def __call__(self, ev: events.Event) -> None:
        self.events.append(ev)

    def of(self, cls: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, cls)]

    def clear(self) -> None:
        self.events.clear()

    def dump(self) -> str:
        return json.dumps([e.to_dict() for e in self.events], default=str)


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def make_settings(workspace: Path) -> Callable[..., Any]:
    def make(overrides: dict[str, Any] | None = None, **kw: Any) -> Any:
        cfg = load_config(None, overrides=overrides or {})
        return resolve_agent(cfg, workspace=kw.pop("workspace", workspace), **kw)

    return make


def small_window(window: int = 10_000, floor: int = 2_000, soft: int = 1_000, keep: int = 2_000, **extra: Any) -> dict[str, Any]:
    """Config overrides: flush threshold = window - floor - soft, compaction = window - floor."""
    comp: dict[str, Any] = {"reserveTokensFloor": floor, "keepRecentTokens": keep, "memoryFlush": {"softThresholdTokens": soft}}
    comp.update(extra.pop("compaction", {}))
    return {"agents": {"defaults": {"contextTokens": window, "compaction": comp, **extra}}}
