"""Fault matrix: kill -9 during a memory flush, a compaction and an index rebuild.

A real ``openclaw-tui`` subprocess talks to the real loopback SSE server; the server's
script stalls at the interesting moment and the test sends SIGKILL. After the restart the
transcript and the daily log are readable and complete up to their last entry, the session
goes on, and the index still answers.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any, Callable

from openclaw_tui.config import load_config, resolve_agent
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.workspace.daily import daily_rel
from tests.fakes.chat_server import ChatServer
from tests.faults.conftest import ROOT, SENTINEL, cli_cmd, cli_env, messages, snapshot, transcript_entries, write_config
from tests.inproc import run_cli

SESSION = "kill-session"


def window_config(*, flush: bool) -> dict[str, Any]:
    """Flush at 8,000 tokens, compaction at 18,000 (window 20,000, floor 2,000, soft 10,000)."""
    return {
        "agents": {
            "defaults": {
                "contextTokens": 20_000,
                "compaction": {
                    "reserveTokensFloor": 2_000,
                    "reserveTokens": 2_000,
                    "keepRecentTokens": 1_000,
                    "memoryFlush": {"enabled": flush, "softThresholdTokens": 10_000},
                },
            }
        }
    }


def chat_args(cfg: Path, ws: Path, server: ChatServer, prompt: str) -> tuple[str, ...]:
    return (
        "--config", str(cfg), "--workspace", str(ws), "--model", "openai/fake-model",
        "--api-base", server.base_url, "--api-key", SENTINEL, "chat", "-p", prompt, "--session", SESSION,
    )


def spawn_chat(cfg: Path, ws: Path, state: Path, server: ChatServer, prompt: str) -> subprocess.Popen:
    cmd = cli_cmd(*chat_args(cfg, ws, server, prompt))
    return subprocess.Popen(cmd, cwd=ROOT, env=cli_env(state), stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def run_chat(cfg: Path, ws: Path, state: Path, server: ChatServer, prompt: str) -> subprocess.CompletedProcess:
    """The turn before the one that is killed: the same CLI, in this process (a child pays
    seconds of imports for a turn nobody kills)."""
    proc = run_cli(*chat_args(cfg, ws, server, prompt), env=cli_env(state))
    assert proc.returncode == 0, proc.stderr
    return proc


def kill_when(proc: subprocess.Popen, cond: Callable[[], bool], settle: float = 0.15) -> None:
    try:
        deadline = time.time() + 120
        while not cond():
            if proc.poll() is not None:
                raise AssertionError("process ended before the kill point: " + proc.stderr.read().decode())
            assert time.time() < deadline, "kill point never reached"
            time.sleep(0.05)
        time.sleep(settle)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert proc.returncode == -signal.SIGKILL


def raw_lines_parse(path: Path) -> int:
    """Every line of a JSONL transcript is complete JSON except, at most, a torn last line."""
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for ln in lines[:-1]:
        json.loads(ln)
    return len(lines)


def resume_and_chat(ws: Path, state: Path, server: ChatServer, cfg: dict[str, Any], prompt: str) -> Any:
    settings = resolve_agent(load_config(None, overrides=cfg), workspace=str(ws), model="openai/fake-model", api_base=server.base_url, api_key=SENTINEL)
    eng = SessionEngine(settings, sink=lambda _e: None, session_id=SESSION)
    try:
        return asyncio.run(eng.send(prompt)), eng.history
    finally:
        eng.close()


def test_kill_9_during_flush(workspace: Path, state_dir: Path, server: ChatServer, tmp_path: Path) -> None:
    cfg_data = window_config(flush=True)
    cfg = write_config(tmp_path / "cfg.json", cfg_data)
    daily = workspace / daily_rel()
    daily.write_text("- earlier: the logo is teal\n", encoding="utf-8")

    server.push({"text": "hello back"})
    run_chat(cfg, workspace, state_dir, server, "hello")

    # the big prompt crosses the flush threshold: it is answered, then the flush (a model's:
    # it waits for the reply, issue 27) appends, then its reply stalls
    server.push(
        {"text": "read it"},
        {"tool_calls": [{"name": "append", "arguments": {"path": daily_rel(), "content": "- flushed: Alice owns the budget"}}]},
        {"text": "NO_REPLY and then nothing more ever arrives", "stall_after": 1, "stall_s": 60},
    )
    n0 = len(server.chat_requests())
    proc = spawn_chat(cfg, workspace, state_dir, server, "please read this: " + "word " * 9_000)
    kill_when(proc, lambda: len(server.chat_requests()) >= n0 + 3)
    flush_req = server.chat_requests()[n0 + 1]
    assert "Session nearing compaction" in flush_req["messages"][0]["content"]  # it really was the flush

    # daily log: complete, the flushed line exactly once, nothing torn
    assert daily.read_text(encoding="utf-8") == "- earlier: the logo is teal\n- flushed: Alice owns the budget\n"
    # transcript: readable, complete up to the last entry
    path = state_dir / "agents" / "main" / "sessions" / f"{SESSION}.jsonl"
    raw_lines_parse(path)
    entries = transcript_entries(state_dir, SESSION)
    msgs = messages(entries)
    big = "please read this: " + "word " * 9_000
    # the prompt did not wait behind the flush: it and its answer are on disk, nothing pending
    assert [(m["role"], m["content"]) for m in msgs] == [("user", "hello"), ("assistant", "hello back"), ("user", big), ("assistant", "read it")]
    assert not [e for e in entries if e.get("type") == "pending"]
    json.loads((path.parent / "sessions.json").read_text())

    # restart: the session resumes with every message, and goes on
    server.responder = lambda req: {"text": "NO_REPLY" if "Session nearing compaction" in req["messages"][0]["content"] else "still here"}
    result, history = resume_and_chat(workspace, state_dir, server, cfg_data, "are you there?")
    assert result.text == "still here" and result.error is None
    assert [m["content"] for m in history if m["role"] == "user"][:3] == ["hello", big, "are you there?"]
    # and the model saw it
    last = server.chat_requests()[-1]["messages"]
    assert any(m.get("role") == "user" and m.get("content") == big for m in last)
    assert daily.read_text(encoding="utf-8").count("- flushed: Alice owns the budget") == 1
    assert SENTINEL not in path.read_text()


def test_kill_9_during_compaction(workspace: Path, state_dir: Path, server: ChatServer, tmp_path: Path) -> None:
    cfg_data = window_config(flush=False)
    cfg = write_config(tmp_path / "cfg.json", cfg_data)
    daily = workspace / daily_rel()
    daily.write_text("- earlier: the logo is teal\n", encoding="utf-8")
    before = snapshot(workspace)

    server.push({"text": "noted the first part"})
    first = "first part: " + "alpha " * 9_000
    run_chat(cfg, workspace, state_dir, server, first)

    # the second big prompt crosses the compaction threshold: the summary request stalls
    server.push({"text": "## Goal\nsummary that never finishes", "stall_after": 2, "stall_s": 60})
    n0 = len(server.chat_requests())
    second = "second part: " + "beta " * 8_000
    proc = spawn_chat(cfg, workspace, state_dir, server, second)
    kill_when(proc, lambda: len(server.chat_requests()) >= n0 + 1)
    summary_req = server.chat_requests()[n0]
    assert not summary_req.get("tools")  # the compaction call, not a turn

    path = state_dir / "agents" / "main" / "sessions" / f"{SESSION}.jsonl"
    raw_lines_parse(path)
    entries = transcript_entries(state_dir, SESSION)
    assert not [e for e in entries if e.get("type") == "compaction"]  # never half-written
    msgs = messages(entries)
    assert [(m["role"], m["content"]) for m in msgs] == [("user", first), ("assistant", "noted the first part")]
    store = json.loads((path.parent / "sessions.json").read_text())
    assert store[SESSION]["compactionCount"] == 0
    assert snapshot(workspace) == before

    # restart: the compaction runs again, completes, and the turn is answered
    server.push({"text": "## Goal\nremember the first part"}, {"text": "answered after compaction"})
    # (the second prompt is not lost: resume restores it from its "pending" entry)
    third = "third part: " + "gamma " * 1_500
    result, history = resume_and_chat(workspace, state_dir, server, cfg_data, third)
    assert result.error is None and result.compacted and result.text == "answered after compaction"
    entries = transcript_entries(state_dir, SESSION)
    assert [e["compactionCount"] for e in entries if e.get("type") == "compaction"] == [1]
    # the full history stays in the transcript, the interrupted prompt exactly once
    assert [m["content"] for m in messages(entries) if m["role"] == "user"] == [first, second, third]


def test_kill_9_during_index_rebuild(tmp_path: Path, state_dir: Path, embed_server) -> None:
    ws = tmp_path / "big-ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n- The logo colour is teal.\n")
    for i in range(60):
        (ws / "memory" / f"2025-09-{(i % 28) + 1:02d}-n{i}.md").write_text(f"- note {i}: topic{i} " + "filler words here " * 40 + "\n")
    before = snapshot(ws)
    cfg = write_config(tmp_path / "cfg.json", {"agents": {"defaults": {"memorySearch": {
        "provider": "openai", "model": "fake-embed",
        "remote": {"baseUrl": embed_server.base_url, "apiKey": "sk-embed-test-123456", "batch": {"enabled": False}},
        "cache": {"enabled": False},
    }}}})
    args = ("--config", str(cfg), "--workspace", str(ws), "memory")
    base = cli_cmd(*args)
    env = cli_env(state_dir)
    r = run_cli(*args, "index", "--json", env=env)
    assert r.returncode == 0, r.stderr
    index = state_dir / "memory" / "main.sqlite"
    old = index.read_bytes()

    # slow the embedding server down so the forced rebuild is still running when we kill it
    embed_server.hook = lambda _req: time.sleep(2.0)
    embed_server.reset_log()
    proc = subprocess.Popen(base + ["index", "--force", "--json"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    kill_when(proc, lambda: bool(list(index.parent.glob("main.sqlite.rebuild-*"))) and len(embed_server.requests) >= 1, settle=0.2)
    embed_server.hook = None

    assert index.read_bytes() == old  # the live index was never touched
    # restart (in this process: litellm is already imported here, a fresh CLI would pay ~4 s)
    settings = resolve_agent(load_config(str(cfg)), workspace=str(ws))
    m = MemoryManager(settings)
    try:
        assert m.search("logo colour")["results"][0]["path"] == "MEMORY.md"
        assert not list(index.parent.glob("main.sqlite.rebuild-*"))  # the dead process's temp file is cleaned up
        rep = m.sync(force=True)
        assert rep["ok"] and rep["fullRebuild"], rep
        assert m.status()["files"] == 61
    finally:
        m.close()
    assert snapshot(ws) == before
