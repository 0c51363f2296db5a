"""Quitting does not wait for the local model's server (issue 27): the app closes and the
resume line is printed while the server is still ending; the server still ends, always.

The server is a real child process standing in for llama.cpp (the serve.py handshake, an
HTTP /health): it ignores SIGTERM and, after its stdin lifeline closes, stays until the test
creates a release file. So "the app returned while the child was alive" is a state the test
controls, not a race; the end of the child is then waited for as a state (alive → reaped).
"""

from __future__ import annotations

import asyncio
import dataclasses
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from openclaw_tui.llm.local import reaper
from openclaw_tui.llm.local.server import LocalServer, ServerConfig

CHILD = textwrap.dedent(
    """
    import http.server, json, os, signal, sys, threading, time
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a server slow to stop: only SIGKILL or the release ends it
    release = sys.argv[1]
    class H(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a): pass
        def do_GET(self):
            self.send_response(200); self.end_headers(); self.wfile.write(b"{}")
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    print(json.dumps({"address": f"http://127.0.0.1:{srv.server_address[1]}"}), flush=True)
    while os.read(0, 4096): pass
    while not os.path.exists(release): time.sleep(0.05)
    """
)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _eventually(predicate, what: str, limit_s: float = 60.0) -> None:
    """Wait for a state (generous limit: this is not a speed assertion)."""
    deadline = time.monotonic() + limit_s
    while not predicate():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.05)


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    release = tmp_path / "release"
    monkeypatch.setattr(LocalServer, "_command", lambda self: [sys.executable, "-c", CHILD, str(release)])
    return release


def _server(tmp_path: Path, grace_s: float) -> LocalServer:
    return LocalServer(ServerConfig(model_path=tmp_path / "m.gguf", alias="m", start_timeout_s=30, stop_grace_s=grace_s))


def test_stop_without_wait_returns_while_the_child_lives_then_reaps_it(stand_in: Path, tmp_path: Path) -> None:
    server = _server(tmp_path, grace_s=600)
    server.start()
    pid = server.pid
    assert pid is not None and _alive(pid)
    server.stop(wait=False)
    assert not server.running and server.address is None  # the app sees it stopped at once
    assert _alive(pid), "stop(wait=False) waited for the child"
    assert [p.pid for p in reaper.pending()] == [pid]
    stand_in.touch()  # the child ends (as a real server does on its lifeline's EOF)
    _eventually(lambda: not _alive(pid) and not reaper.pending(), "the child reaped")


def test_a_child_that_ignores_the_stop_is_killed_after_the_grace(stand_in: Path, tmp_path: Path) -> None:
    server = _server(tmp_path, grace_s=0.2)
    server.start()
    pid = server.pid
    server.stop(wait=False)
    _eventually(lambda: not _alive(pid) and not reaper.pending(), "SIGKILL after the grace")
    assert not stand_in.exists()  # it never ended on its own


HOLDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from openclaw_tui.llm.local.server import LocalServer, ServerConfig
    LocalServer._command = lambda self: [sys.executable, "-c", sys.argv[1], sys.argv[2]]
    s = LocalServer(ServerConfig(Path("m.gguf"), "m", start_timeout_s=30, stop_grace_s=600))
    s.start()
    print(s.pid, flush=True)
    s.stop(wait=False)  # and the process exits right away, its reaper thread with it
    """
)


def test_no_orphan_when_the_app_exits_before_the_reaper(tmp_path: Path) -> None:
    release = tmp_path / "never"
    app = subprocess.run([sys.executable, "-c", HOLDER, CHILD, str(release)], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2])  # fmt: skip
    assert app.returncode == 0, app.stderr
    pid = int(app.stdout.strip())
    _eventually(lambda: not _alive(pid), f"server {pid} outlived the app (atexit SIGKILL)")
    assert not release.exists()


def test_quitting_the_app_prints_the_resume_line_before_the_server_ends(stand_in: Path, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+Q in the real app loop (``App.run``): the close hook (the CLI's resume line) runs
    while the server child is alive and while a worker thread still runs; the child is
    reaped after, and nothing is left."""
    from openclaw_tui.llm.local import runtime
    from openclaw_tui.tui.app import OpenClawApp
    from tests.tui.conftest import make_settings

    monkeypatch.setattr(runtime, "_prepare_file", lambda path, spec: None)
    gguf = tmp_path / "stand-in.gguf"
    gguf.write_bytes(b"GGUF")
    ws = tmp_path / "ws"
    ws.mkdir()
    settings = make_settings(ws, model=f"local/{gguf}")
    app = OpenClawApp(settings)
    seen: dict[str, object] = {}
    worker_done = threading.Event()
    let_worker_end = threading.Event()

    def slow_worker() -> None:  # e.g. an embedding pass still running at quit
        let_worker_end.wait(60)
        worker_done.set()

    def closed() -> None:
        seen.update(alive=_alive(seen["pid"]), worker_running=not worker_done.is_set())
        let_worker_end.set()

    async def auto_pilot(pilot) -> None:
        await _until(pilot, lambda: app.engine is not None and app.engine._model.server.address is not None)
        server = app.engine._model.server
        seen["pid"] = server.pid
        server.config = dataclasses.replace(server.config, stop_grace_s=600)  # only the release or exit ends it
        asyncio.get_running_loop().run_in_executor(None, slow_worker)
        await pilot.press("ctrl+q")

    app.on_closed = closed
    app.run(headless=True, auto_pilot=auto_pilot)
    assert seen["alive"] is True and seen["worker_running"] is True, seen
    pid = seen["pid"]
    assert [p.pid for p in reaper.pending()] == [pid]
    stand_in.touch()
    _eventually(lambda: not _alive(pid) and not reaper.pending(), "the server reaped after the app closed")


async def _until(pilot, predicate, limit_s: float = 60.0) -> None:
    deadline = time.monotonic() + limit_s
    while not predicate():
        assert time.monotonic() < deadline, "the local model's server never started"
        await pilot.pause(0.05)


def test_closing_a_local_model_leaves_nothing_to_wait_for(stand_in: Path, tmp_path: Path) -> None:
    from openclaw_tui.llm.local.runtime import LocalModel, LocalRuntimeConfig
    from openclaw_tui.llm.resolve import local_choice
    from openclaw_tui.session.offline import OfflineModel

    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF")
    model = LocalModel(local_choice(str(gguf), "test"), LocalRuntimeConfig(), fallback=OfflineModel)
    model._server.config = ServerConfig(gguf, "m", start_timeout_s=30, stop_grace_s=600)
    model._server.start()
    pid = model.server.pid
    model.close()
    assert _alive(pid) and not model.server.running
    stand_in.touch()
    _eventually(lambda: not _alive(pid), "the server ended")
