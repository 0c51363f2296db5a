"""Issue 37, item 3: the command on PATH. ``make install``/``make run`` link the installed
``openclaw-tui`` into a user bin folder (``make link``), and the line printed on quit is a
command that works as printed: typed into a fresh shell, it resumes the session (tmux)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.tui.test_tmux_smoke import METER_RE, TMUX, Tmux

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed (make test installs it: `make deps`)")


def _venv(tmp_path: Path) -> Path:
    """A stand-in for the checkout's .venv: its bin/openclaw-tui is this venv's installed script."""
    exe = Path(sys.executable).parent / "openclaw-tui"
    if not exe.exists():
        pytest.fail(f"{exe} is missing: install the project (pip install -e .) into this venv")
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "openclaw-tui").symlink_to(exe)
    return venv


def _make_link(venv: Path, bindir: Path, path: str) -> str:
    done = subprocess.run(["make", "-s", "-C", str(ROOT), "link", f"VENV={venv}", f"BINDIR={bindir}"],
                          capture_output=True, text=True, timeout=30, env={**os.environ, "PATH": path})
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def test_make_link_puts_the_command_on_path_and_leaves_a_foreign_file_alone(tmp_path: Path) -> None:
    venv, bindir = _venv(tmp_path), tmp_path / "bin"
    said = _make_link(venv, bindir, "/usr/bin:/bin")
    assert (bindir / "openclaw-tui").resolve() == (venv / "bin" / "openclaw-tui").resolve()
    assert f'export PATH="{bindir}:$PATH"' in said  # the exact line to type when the folder is not on PATH
    assert "is on PATH" in _make_link(venv, bindir, f"{bindir}:/usr/bin:/bin")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "openclaw-tui").write_text("#!/bin/sh\necho mine\n")
    assert "left alone" in _make_link(venv, mine, "/usr/bin:/bin")
    assert (mine / "openclaw-tui").read_text() == "#!/bin/sh\necho mine\n"


def test_the_quit_line_typed_into_a_new_shell_resumes_the_session(tmp_path: Path) -> None:
    venv, bindir = _venv(tmp_path), tmp_path / "bin"
    _make_link(venv, bindir, "/usr/bin:/bin")
    ws = tmp_path / "workspace"
    env = {
        "OPENCLAW_STATE_DIR": str(tmp_path / "state"),
        "OPENCLAW_NO_LOCAL_MODEL": "1",
        "TEXTUAL_ANIMATIONS": "none",
        "TERM": "xterm-256color",
        "HOME": str(tmp_path),
        "PATH": f"{bindir}:/usr/bin:/bin",  # as a user's shell after `make install` with ~/.local/bin on PATH
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
        "PS1": "$ ",
    }
    shell = "env -i " + " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()) + " sh"
    tmux = Tmux(f"oc-path-{uuid.uuid4().hex[:8]}")
    tmux.run("new-session", "-d", "-s", tmux.session, "-x", "120", "-y", "40", shell)
    try:
        tmux.run("send-keys", "-t", tmux.session, "-l", f"clear; openclaw-tui --workspace {shlex.quote(str(ws))} --model offline")
        tmux.run("send-keys", "-t", tmux.session, "Enter")
        tmux.wait_for(lambda s: METER_RE.search(s) and "offline agent" in s, 60, "the app, started by its bare name")
        tmux.run("send-keys", "-t", tmux.session, "-l", "Remember that the boiler was serviced by Kessler in May.")
        tmux.run("send-keys", "-t", tmux.session, "Enter")
        # the reply names today's file (the welcome text says "saved"/"kept" too, and the prompt
        # box shows "Kessler" before Enter is handled: quitting then raced the submission)
        tmux.wait_for(lambda s: "Kessler" in s and re.search(r"(?i)(noted|saved|kept)[^\n]*memory/\d{4}-\d\d-\d\d", s), 30,
                      "the statement answered")
        tmux.run("send-keys", "-t", tmux.session, "C-q")
        tmux.wait_for(lambda s: "resume this session:" in s, 20, "the resume line on quit")
        joined = tmux.run("capture-pane", "-p", "-J", "-t", tmux.session).stdout  # the line unwrapped
        hint = re.search(r"resume this session: (.+)", joined)
        assert hint is not None
        command = hint.group(1).strip()
        assert command.startswith("openclaw-tui "), command  # the bare name, as the README prints it
        tmux.run("send-keys", "-t", tmux.session, "-l", f"clear; {command}")  # typed exactly as printed
        tmux.run("send-keys", "-t", tmux.session, "Enter")
        resumed = tmux.wait_for(lambda s: METER_RE.search(s) and "boiler was serviced" in s, 60, "the resumed conversation")
        assert "not found" not in resumed, resumed
        tmux.run("send-keys", "-t", tmux.session, "C-q")
        tmux.wait_for(lambda s: "resume this session:" in s, 20, "the app to quit again")
    finally:
        tmux.run("kill-server", check=False)
