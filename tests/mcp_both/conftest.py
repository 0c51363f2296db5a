"""Fixtures for the MCP tests: a workspace with memory, the environment a real
``openclaw-tui`` subprocess needs, and helpers that run it (CLI and ``mcp serve``)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
FAKE_SERVER = ROOT / "tests" / "fakes" / "mcp_server.py"
GROUP_KEY = "agent:main:discord:group:42"

MEMORY_MD = """# Long-term memory

- The user's favourite colour is teal.
- Project Falcon ships on 2026-03-01; Dana owns the launch checklist.
"""
DAILY_MD = """# 2026-01-05

- Decided to keep search on SQLite FTS5 for the billing notes.
"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text(MEMORY_MD, encoding="utf-8")
    (ws / "memory" / "2026-01-05.md").write_text(DAILY_MD, encoding="utf-8")
    (tmp_path / "outside.md").write_text("secret outside the workspace\n", encoding="utf-8")
    return ws


@pytest.fixture
def child_env(state_dir: Path) -> dict[str, str]:
    """What an openclaw-tui subprocess gets: this checkout, the test's state dir, offline."""
    keep = ("PATH", "HOME", "LANG", "TMPDIR", "OPENCLAW_MODELS_DIR")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.update(PYTHONPATH=str(ROOT), OPENCLAW_STATE_DIR=str(state_dir), OPENCLAW_BUNDLED_EMBEDDINGS="off",
               OPENCLAW_NO_LOCAL_MODEL="1", LITELLM_LOCAL_MODEL_COST_MAP="True")
    return env


def cli_args(workspace: Path, *extra: str, session_key: str | None = None, access: str | None = None,
             config: Path | None = None) -> list[str]:
    args = ["-m", "openclaw_tui.cli", "--workspace", str(workspace)]
    if session_key:
        args += ["--session-key", session_key]
    if access:
        args += ["--workspace-access", access]
    if config:
        args += ["--config", str(config)]
    return args + list(extra)


def cli_json(env: dict[str, str], args: list[str]) -> Any:
    """``openclaw-tui … --json`` in a subprocess: its one JSON object."""
    out = subprocess.run([sys.executable, *args, "--json"], env=env, capture_output=True, text=True, timeout=120)
    assert out.stdout.strip(), f"no JSON from {args}: {out.stderr}"
    return json.loads(out.stdout)


def without_timing(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k != "searchMs"}


def start_http(env: dict[str, str], args: list[str]) -> tuple[subprocess.Popen[str], str]:
    """``openclaw-tui … mcp serve --http 127.0.0.1:0`` in a subprocess: (it, its /mcp URL)."""
    proc = subprocess.Popen([sys.executable, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    assert proc.stderr is not None
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        found = re.search(r"serving (http://\S+/mcp)", line)
        if found:
            return proc, found.group(1)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError(f"mcp serve --http did not start: {proc.stderr.read()}")
