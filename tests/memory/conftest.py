"""Fixtures for the memory tests: workspaces, settings, managers, the fake embed server."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from fakes.embed_server import EmbedServer
from openclaw_tui.config import deep_merge, resolve_agent, validate_config
from openclaw_tui.memory.builtin.manager import MemoryManager


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws


@pytest.fixture
def make_settings(workspace: Path) -> Callable[..., Any]:
    """``make_settings(memorySearch={...}, memory={...}, workspace=..., session_key=...)``."""

    def build(*, workspace_dir: Path | None = None, session_key: str | None = None, **sections: Any):
        raw: dict[str, Any] = {}
        ms = sections.pop("memorySearch", None)
        if ms is not None:
            raw = deep_merge(raw, {"agents": {"defaults": {"memorySearch": ms}}})
        raw = deep_merge(raw, sections)
        cfg = validate_config(raw)
        return resolve_agent(cfg, workspace=str(workspace_dir or workspace), session_key=session_key)

    return build


@pytest.fixture
def managers() -> Iterator[list[MemoryManager]]:
    """Collects managers and closes them after the test."""
    made: list[MemoryManager] = []
    yield made
    for m in made:
        m.close()


@pytest.fixture
def keyword_manager(make_settings: Callable[..., Any], managers: list[MemoryManager]) -> Callable[..., MemoryManager]:
    def build(**ms: Any) -> MemoryManager:
        settings = make_settings(memorySearch={"provider": "none", **ms})
        m = MemoryManager(settings)
        managers.append(m)
        return m

    return build


@pytest.fixture
def embed_server() -> Iterator[EmbedServer]:
    with EmbedServer(dims=64) as srv:
        yield srv


@pytest.fixture
def remote_ms(embed_server: EmbedServer) -> dict[str, Any]:
    """memorySearch settings pointing the openai provider at the fake server."""
    return {
        "provider": "openai",
        "model": "fake-embed",
        "remote": {"baseUrl": embed_server.base_url, "apiKey": "sk-test-123456789"},
    }
