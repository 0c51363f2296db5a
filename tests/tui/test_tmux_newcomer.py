"""Issue 27 in a real terminal (tmux, 80×24): keys typed right after launch are kept,
``/copy`` reaches tmux's clipboard through OSC 52 (and the state folder's file), and
quitting prints the command that resumes the session.

Runs this checkout (``python -m openclaw_tui.cli`` with PYTHONPATH at the repo root), the
offline agent; nothing is mocked.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import uuid
from pathlib import Path

import pytest

from .test_tmux_smoke import Tmux

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
ROOT = Path(__file__).resolve().parents[2]


def _command(tmp_path: Path, ws: Path) -> str:
    env = {
        "OPENCLAW_STATE_DIR": str(tmp_path / "state"),
        "OPENCLAW_NO_LOCAL_MODEL": "1",
        "OPENCLAW_BUNDLED_EMBEDDINGS": "off",
        "TEXTUAL_ANIMATIONS": "none",
        "TERM": "xterm-256color",
        "HOME": str(tmp_path),
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
    }
    args = [sys.executable, "-m", "openclaw_tui.cli", "--workspace", str(ws), "--model", "offline"]
    return "env -i " + " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()) + " " + " ".join(shlex.quote(a) for a in args)


def test_early_keys_copy_and_exit_breadcrumb_at_80x24(tmp_path: Path) -> None:
    ws = tmp_path / "workspace"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n- The billing service uses PostgreSQL 16.\n", encoding="utf-8")
    tmux = Tmux(f"oc-27-{uuid.uuid4().hex[:8]}")
    # the server, set up first (new-session starts it: a bare start-server may exit again before
    # the next command when it has no session, and that command then fails under load)
    tmux.run("new-session", "-d", "-s", "hold", "-x", "80", "-y", "24", "sleep 120")
    tmux.run("set-option", "-g", "set-clipboard", "on")
    tmux.run("set-option", "-g", "remain-on-exit", "on")
    tmux.run("new-session", "-d", "-s", tmux.session, "-x", "80", "-y", "24", _command(tmp_path, ws))
    try:
        # typed at once: the app is still importing, the terminal still in cooked mode
        tmux.run("send-keys", "-t", tmux.session, "-l", "hello early bird")
        tmux.run("send-keys", "-t", tmux.session, "Enter")
        screen = tmux.wait_for(lambda s: "hello early bird" in s and "Noted" in s, 90, "the early prompt answered")
        assert "agent:main:main" in screen.splitlines()[0]  # the status bar keeps the session key at 80 columns
        tmux.run("send-keys", "-t", tmux.session, "-l", "/copy")
        tmux.run("send-keys", "-t", tmux.session, "Enter")
        tmux.wait_for(lambda s: "copied the last reply" in s, 20, "the copy notice")
        saved = (tmp_path / "state" / "clipboard.txt").read_text(encoding="utf-8")
        assert saved.startswith("Noted.")
        buffer = tmux.run("show-buffer", check=False).stdout
        assert buffer.startswith("Noted."), buffer  # OSC 52 reached tmux's clipboard
        tmux.run("send-keys", "-t", tmux.session, "C-q")
        after = tmux.wait_for(lambda s: "resume this session:" in s, 30, "the exit breadcrumb")
        assert "--resume" in after and "Traceback" not in after
    finally:
        tmux.run("kill-server", check=False)
