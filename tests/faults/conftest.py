"""Fixtures for the fault matrix: a fresh workspace, fast retries, the scripted servers.

Everything is real: loopback HTTP servers (``tests/fakes``), SQLite files through apsw,
subprocesses killed with SIGKILL. Retry back-off is shrunk through the session engine's
``OPENCLAW_LLM_RETRY_*`` environment knobs so a 3-attempt failure costs milliseconds.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from openclaw_tui.workspace.template import init_workspace
from tests.fakes.chat_server import ChatServer
from tests.fakes.embed_server import EmbedServer

ROOT = Path(__file__).resolve().parents[2]
#: sentinel chat key: must never show up anywhere the user or a file can see
SENTINEL = "sk-SENTINEL-faults-7f3a9c21d4e8b6"


@pytest.fixture(autouse=True)
def _fast_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENCLAW_LLM_RETRY_BASE_S", "0.01")
    monkeypatch.setenv("OPENCLAW_LLM_RETRY_MAX_S", "0.02")
    monkeypatch.setenv("OPENCLAW_LLM_RETRY_AFTER_CAP_S", "0.05")
    monkeypatch.setenv("OPENCLAW_LLM_TIMEOUT_S", "20")
    monkeypatch.setenv("OPENCLAW_EMBED_BACKOFF_BASE_S", "0.01")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    init_workspace(ws)
    return ws


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer() as srv:
        yield srv


@pytest.fixture
def embed_server() -> Iterator[EmbedServer]:
    with EmbedServer(dims=64) as srv:
        yield srv


def snapshot(root: Path) -> dict[str, bytes]:
    """Every regular file under ``root`` (relative path -> bytes)."""
    out: dict[str, bytes] = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink():
            out[p.relative_to(root).as_posix()] = p.read_bytes()
    return out


def transcript_entries(state_dir: Path, session_id: str, agent: str = "main") -> list[dict[str, Any]]:
    from openclaw_tui.records.transcript import read_transcript

    return read_transcript(state_dir / "agents" / agent / "sessions" / f"{session_id}.jsonl")


def messages(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e["message"] for e in entries if e.get("type") == "message"]


def cli_env(state_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update({"OPENCLAW_STATE_DIR": str(state_dir), "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"})
    env.update(extra)
    return env


def cli_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "openclaw_tui.cli", *args]


def write_config(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


Snapshot = Callable[[Path], dict[str, bytes]]
