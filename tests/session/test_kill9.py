"""kill -9 of a headless chat mid-stream: the transcript stays readable, the daily log intact."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from openclaw_tui import events
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.records.transcript import read_transcript
from openclaw_tui.workspace.daily import daily_rel
from tests.session.conftest import FAST_RETRY, SECRET_KEY

ROOT = Path(__file__).resolve().parents[2]


def test_kill_9_mid_stream(workspace: Path, server, state_dir: Path, make_settings, recorder) -> None:
    today = daily_rel()
    daily = workspace / today
    daily.write_text("- existing line\n")
    server.push(
        {"tool_calls": [{"name": "append", "arguments": {"path": today, "content": "- fact from the killed run"}}]},
        {"text": "this answer will never finish because the process dies", "stall_after": 2, "stall_s": 60},
    )
    cmd = [
        sys.executable, "-m", "openclaw_tui.cli",
        "--workspace", str(workspace), "--model", "openai/fake-model",
        "--api-base", server.base_url, "--api-key", SECRET_KEY,
        "chat", "-p", "store a fact then answer", "--session", "killed-session",
    ]
    env = {**os.environ, "OPENCLAW_STATE_DIR": str(state_dir), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 120
        while time.time() < deadline and len(server.chat_requests()) < 2:
            assert proc.poll() is None, proc.stderr.read().decode()
            time.sleep(0.05)
        assert len(server.chat_requests()) == 2
        time.sleep(0.15)  # the first chunks of the second answer are on the wire
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL

    later = workspace / daily_rel()  # the child appends to ITS today: a run may cross local midnight
    if later == daily:
        assert daily.read_text() == "- existing line\n- fact from the killed run\n"
    else:
        assert daily.read_text() == "- existing line\n" and "fact from the killed run" in later.read_text()
    path = state_dir / "agents" / "main" / "sessions" / "killed-session.jsonl"
    entries = read_transcript(path)
    assert entries[0]["type"] == "session" and entries[0]["id"] == "killed-session"
    msgs = [e["message"] for e in entries if e["type"] == "message"]
    assert [m["role"] for m in msgs] == ["user", "assistant", "tool"]
    assert SECRET_KEY not in path.read_text()

    # the session resumes and goes on
    server.push({"text": "resumed fine"})
    settings = make_settings(model="openai/fake-model", api_base=server.base_url, api_key=SECRET_KEY)
    eng = SessionEngine(settings, sink=recorder, session_id="killed-session", retry_policy=FAST_RETRY)
    result = eng and __import__("asyncio").run(eng.send("are you there?"))
    assert result.text == "resumed fine"
    assert recorder.of(events.TurnFinished)[-1].text == "resumed fine"
    eng.close()
