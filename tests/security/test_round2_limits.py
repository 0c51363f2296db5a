"""Issue 30, point 5: restore honours the access mode, a crash's temp copies go at session
start, a streamed answer has a total time cap by default."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from openclaw_tui import cli
from openclaw_tui.config import load_config, resolve_agent
from openclaw_tui.llm.client import DEFAULT_CALL_CAP_S, LiteLLMModel
from openclaw_tui.llm.resolve import ModelChoice
from openclaw_tui.tools.files import FileTools
from openclaw_tui.records.history import ChangeOrigin, MemoryHistory


@pytest.mark.parametrize("access", ["ro", "none"])
def test_memory_restore_honours_a_read_only_or_closed_workspace(workspace: Path, state_dir: Path, capsys, access: str) -> None:
    (workspace / "MEMORY.md").write_text("# Memory\n\n- likes tea\n")
    settings = resolve_agent(load_config(None), workspace=str(workspace))
    tools = FileTools(workspace, history=MemoryHistory.for_agent(settings.agent_dir), origin=lambda: ChangeOrigin("model", "s", 1))
    assert tools.append({"path": "MEMORY.md", "content": "- likes coffee"})["ok"]
    grown = (workspace / "MEMORY.md").read_bytes()
    args = ["--workspace", str(workspace), "--workspace-access", access]
    assert cli.main([*args, "memory", "restore", "MEMORY.md"]) == 1
    assert f"workspace access is {access}" in capsys.readouterr().err
    assert (workspace / "MEMORY.md").read_bytes() == grown
    assert cli.main(["--workspace", str(workspace), "memory", "restore", "MEMORY.md"]) == 0  # rw: it does
    assert b"coffee" not in (workspace / "MEMORY.md").read_bytes()


def test_a_crashs_temp_copies_are_removed_when_a_session_starts(workspace: Path) -> None:
    old = time.time() - 3600
    stale = [workspace / ".MEMORY.md.0123456789ab.tmp", workspace / "memory" / ".2026-01-05.md.abcdefabcdef.tmp"]
    (workspace / "memory").mkdir(exist_ok=True)
    for p in stale:
        p.write_text("a full private copy")
        os.utime(p, (old, old))
    fresh = workspace / ".USER.md.fedcba987654.tmp"  # a writer busy right now keeps its own
    fresh.write_text("in use")
    other = workspace / "notes" / ".x.0123456789ab.tmp"  # outside memory/: not ours to judge
    other.parent.mkdir()
    other.write_text("x")
    os.utime(other, (old, old))
    FileTools(workspace, access="ro")
    assert all(p.exists() for p in stale)  # a read-only session changes nothing
    FileTools(workspace)
    assert not any(p.exists() for p in stale) and fresh.exists() and other.exists()


def test_a_streamed_answer_has_a_total_time_cap_by_default(monkeypatch) -> None:
    monkeypatch.delenv("OPENCLAW_LLM_CALL_CAP_S", raising=False)
    assert LiteLLMModel(ModelChoice("openai/x", "test")).call_cap_s == DEFAULT_CALL_CAP_S
    monkeypatch.setenv("OPENCLAW_LLM_CALL_CAP_S", "2")
    assert LiteLLMModel(ModelChoice("openai/x", "test")).call_cap_s == 2
    assert LiteLLMModel(ModelChoice("openai/x", "test"), call_cap_s=7).call_cap_s == 7  # timeoutSeconds wins


def test_an_endless_stream_ends_at_the_default_cap(workspace: Path, server, monkeypatch) -> None:
    monkeypatch.setenv("OPENCLAW_LLM_CALL_CAP_S", "2")  # the default, shortened for the test
    server.push({"text": "warm"}, {"endless": True, "chunk_delay": 0.02})
    settings = resolve_agent(load_config(None), workspace=workspace, model="openai/fake-model", api_base=server.base_url, api_key="k-123456")
    from openclaw_tui.session.engine import SessionEngine

    async def turns() -> tuple[object, float]:
        engine = SessionEngine(settings, sink=lambda _e: None)
        try:
            await engine.send("warm up")
            t0 = time.monotonic()
            return await engine.send("go"), time.monotonic() - t0
        finally:
            engine.close()

    result, elapsed = asyncio.run(turns())
    assert result.error and "2 s" in result.error and result.text.startswith("part 0"), result.error
    assert elapsed < 12, elapsed
