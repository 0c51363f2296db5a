"""Smoke tests in a real terminal: the INSTALLED ``openclaw-tui`` in tmux at 120×40.

1. Types a question to the offline agent (no key, no model) and waits for a ``Source:``
   citation and the token meter on the captured screen.
2. Against the scripted loopback chat server: while a reply streams (and stalls), types two
   prompts with Enter — they are queued, not glued together; Ctrl+C stops the reply and
   both queued prompts are then answered in order.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (make test installs it: `make deps`)")

METER_RE = re.compile(r"tokens [\d,]+ / [\d,]+ \(\d+%\)")


def _installed_command() -> Path:
    exe = Path(sys.executable).parent / "openclaw-tui"
    if not exe.exists():
        pytest.fail(f"{exe} is missing: install the project (pip install -e .) into this venv")
    return exe


class Tmux:
    def __init__(self, socket: str) -> None:
        self.socket = socket
        self.session = "oc"

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run([TMUX, "-L", self.socket, *args], capture_output=True, text=True, check=check, timeout=20)

    def capture(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.session, check=False).stdout

    def wait_for(self, predicate, timeout: float, what: str) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.capture()
            if predicate(screen):
                return screen
            time.sleep(0.25)
        raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}; screen was:\n{screen}")


def _command(exe: Path, tmp_path: Path, *args: str) -> str:
    env = {
        "OPENCLAW_STATE_DIR": str(tmp_path / "state"),
        "TEXTUAL_ANIMATIONS": "none",
        "TERM": "xterm-256color",
        "HOME": str(tmp_path),
        "PATH": os.environ.get("PATH", ""),
    }
    return "env -i " + " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()) + " " + " ".join(shlex.quote(a) for a in (str(exe), *args))


def test_queue_and_ctrl_c_in_a_real_terminal(tmp_path: Path) -> None:
    from tests.fakes.chat_server import ChatServer

    def echo(req: dict) -> dict:
        last = [m["content"] for m in req["messages"] if m["role"] == "user"][-1]
        return {"text": f"echo: {last}"}

    exe = _installed_command()
    ws = tmp_path / "workspace"
    ws.mkdir()
    with ChatServer(responder=echo) as server:
        server.push({"text": "A long reply that stalls half way through the stream", "stall_after": 2, "stall_s": 60})
        command = _command(exe, tmp_path, "--workspace", str(ws), "--model", "openai/fake-model", "--api-base", server.base_url, "--api-key", "sk-test")
        tmux = Tmux(f"oc-tui-{uuid.uuid4().hex[:8]}")
        tmux.run("new-session", "-d", "-s", tmux.session, "-x", "120", "-y", "40", command)
        try:
            tmux.run("set-option", "-t", tmux.session, "remain-on-exit", "on", check=False)
            tmux.wait_for(lambda s: METER_RE.search(s) and "fake-model" in s, 60, "the app and its engine")
            tmux.run("send-keys", "-t", tmux.session, "-l", "first question")
            tmux.run("send-keys", "-t", tmux.session, "Enter")
            tmux.wait_for(lambda s: "A long r" in s, 90, "the reply to start streaming")
            for text in ("second question", "third question"):
                tmux.run("send-keys", "-t", tmux.session, "-l", text)
                tmux.run("send-keys", "-t", tmux.session, "Enter")
            queued = tmux.wait_for(lambda s: "queued (2)" in s, 20, "two queued prompts")
            assert "second questionthird question" not in queued, queued
            tmux.run("send-keys", "-t", tmux.session, "C-c")
            screen = tmux.wait_for(lambda s: "echo: third question" in s, 60, "both queued prompts answered")
            assert "cancelled" in screen, screen
            assert screen.index("echo: second question") < screen.index("echo: third question"), screen
            tmux.run("send-keys", "-t", tmux.session, "C-q")
            after = tmux.wait_for(lambda s: "Timeline" not in s or "Pane is dead" in s, 20, "the app to quit")
            assert "Traceback" not in after, after
        finally:
            tmux.run("kill-server", check=False)


def test_installed_command_answers_with_source_and_meter(tmp_path: Path) -> None:
    exe = _installed_command()
    ws = tmp_path / "workspace"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text(
        "# Long-term memory\n\n## Decisions\n- The billing service uses PostgreSQL 16 as its database.\n"
        "- Deploys go out on Tuesdays.\n",
        encoding="utf-8",
    )
    (ws / "memory" / "2026-01-05.md").write_text("# 2026-01-05\n- Met Dana about the billing migration.\n", encoding="utf-8")
    state = tmp_path / "state"
    env = {
        "OPENCLAW_STATE_DIR": str(state),
        "OPENCLAW_NO_LOCAL_MODEL": "1",  # this test is about the offline agent's answer
        "TEXTUAL_ANIMATIONS": "none",
        "TERM": "xterm-256color",
        "HOME": str(tmp_path),
        "PATH": os.environ.get("PATH", ""),
    }
    command = "env -i " + " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()) + f" {shlex.quote(str(exe))} --workspace {shlex.quote(str(ws))}"
    tmux = Tmux(f"oc-tui-{uuid.uuid4().hex[:8]}")
    tmux.run("new-session", "-d", "-s", tmux.session, "-x", "120", "-y", "40", command)
    try:
        tmux.run("set-option", "-t", tmux.session, "remain-on-exit", "on", check=False)
        first = tmux.wait_for(lambda s: METER_RE.search(s) and "offline agent" in s, 60, "the app and its engine")
        assert "workspace" in first and "agent:main:main" in first
        tmux.run("send-keys", "-t", tmux.session, "-l", "Which database does the billing service use?")
        tmux.run("send-keys", "-t", tmux.session, "Enter")
        screen = tmux.wait_for(lambda s: "Source:" in s and "PostgreSQL" in s, 60, "an answer citing its source")
        assert re.search(r"Source: MEMORY\.md#L\d+", screen), screen
        assert METER_RE.search(screen), screen
        tmux.run("send-keys", "-t", tmux.session, "C-q")
        after = tmux.wait_for(lambda s: "Memory" not in s or "Pane is dead" in s, 20, "the app to quit")
        assert "Traceback" not in after, after
    finally:
        tmux.run("kill-server", check=False)
