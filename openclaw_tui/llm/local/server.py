"""Start, health-check and stop the llama.cpp child process (see ``serve.py``).

A child process, not the in-process ``xllamacpp.Server``: llama.cpp writes its log to the
process's stdout/stderr, which in the TUI is the terminal; a child's output goes to the log
file instead, and its lifetime is tied to ours by the stdin lifeline.
"""

from __future__ import annotations

import json
import os
import secrets
import selectors
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from openclaw_tui.llm.local.reaper import stop_in_background
from openclaw_tui.llm.local.serve import API_KEY_ENV


class ServerError(Exception):
    """The server did not come up; one line, with the fix."""


@dataclass(frozen=True)
class ServerConfig:
    model_path: Path
    alias: str
    n_ctx: int = 8192
    threads: int = 2
    log_path: Path | None = None
    start_timeout_s: float = 180.0
    stop_grace_s: float = 5.0  # after SIGTERM, a non-blocking stop's reaper waits this long before SIGKILL
    prompt_batch: int = 256  # llama.cpp n_batch: prompt progress is reported once per batch
    slot_dir: Path | None = None  # where slot files are saved and restored from (``slot_cache.py``); None: never


def _read_handshake(proc: subprocess.Popen[bytes], deadline: float) -> dict[str, str]:
    assert proc.stdout is not None
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    buf = b""
    try:
        while b"\n" not in buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ServerError("the local model did not load in time: see the log, or raise llm.startTimeoutSeconds")
            if not sel.select(timeout=min(left, 0.5)):
                continue
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            buf += chunk
    finally:
        sel.close()
    try:
        data = json.loads(buf.split(b"\n", 1)[0] or b"{}")
    except ValueError:
        data = {}
    return data if isinstance(data, dict) else {}


def wait_healthy(address: str, deadline: float, api_key: str | None = None, alive: Callable[[], bool] = lambda: True) -> None:
    """Poll ``GET /health`` until the server answers 200, the deadline passes or ``alive()``
    says the process is gone (a stop during the start must not leave this polling for minutes)."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    while True:
        try:
            with urllib.request.urlopen(urllib.request.Request(address + "/health", headers=headers), timeout=2) as resp:  # noqa: S310 - loopback
                if resp.status == 200:
                    return
        except Exception:  # noqa: BLE001 - not ready yet
            pass
        if not alive():
            raise ServerError(f"the local model server at {address} stopped while starting")
        if time.monotonic() >= deadline:
            raise ServerError(f"the local model server at {address} did not become healthy in time")
        time.sleep(0.2)


class LocalServer:
    """One llama.cpp server child. ``start()`` blocks (call it off the event loop)."""

    def __init__(self, config: ServerConfig):
        self.config = config
        self._proc: subprocess.Popen[bytes] | None = None
        self._address: str | None = None
        self._lock = threading.Lock()
        self.api_key = secrets.token_urlsafe(32)  # per run, known only to this process and the child

    @property
    def address(self) -> str | None:
        return self._address

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def _command(self) -> list[str]:
        c = self.config
        return [
            sys.executable, "-m", "openclaw_tui.llm.local.serve",
            "--model", str(c.model_path), "--alias", c.alias,
            "--n-ctx", str(c.n_ctx), "--threads", str(c.threads), "--batch", str(c.prompt_batch),
        ] + (["--slot-save-path", str(c.slot_dir) + os.sep] if c.slot_dir is not None else [])  # fmt: skip

    def _spawn(self) -> subprocess.Popen[bytes]:
        env = dict(os.environ, OMP_WAIT_POLICY="PASSIVE", OMP_NUM_THREADS=str(self.config.threads))
        env[API_KEY_ENV] = self.api_key
        log = self.config.log_path
        if log is not None:
            log.parent.mkdir(parents=True, exist_ok=True)
        with open(log or os.devnull, "ab") as err:
            if log is not None:
                err.write(f"\n--- {time.strftime('%Y-%m-%d %H:%M:%S')} local model server: {self.config.model_path}\n".encode())
                err.flush()
            proc = subprocess.Popen(  # noqa: S603 - our own module, fixed arguments
                self._command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                env=env, start_new_session=True,
            )  # fmt: skip
            if log is not None:
                err.write(f"--- server pid {proc.pid}\n".encode())
                err.flush()
            return proc

    def start(self) -> str:
        """Start the child (once) and return its base URL when it is healthy."""
        with self._lock:
            if self._address is not None and self.running:
                return self._address
            self.stop()
            self.api_key = secrets.token_urlsafe(32)  # a fresh key for each run
            deadline = time.monotonic() + self.config.start_timeout_s
            proc = self._proc = self._spawn()
            try:
                reply = _read_handshake(proc, deadline)
                if "address" not in reply:
                    why = reply.get("error") or f"the server process exited with code {proc.poll()}"
                    log = f" (log: {self.config.log_path})" if self.config.log_path else ""
                    raise ServerError(f"the local model server failed to start: {why}{log}")
                wait_healthy(reply["address"], deadline, self.api_key, alive=lambda: proc.poll() is None)
            except BaseException:
                self.stop()
                raise
            self._address = reply["address"]
            return self._address

    def slot_action(self, action: str, filename: str, timeout_s: float = 60.0) -> dict[str, Any] | None:
        """``POST /slots/0?action=save|restore`` with ``filename`` (a bare name inside the slot
        folder); the server's answer, or None when it failed (no folder, no file, an error)."""
        if self._address is None or self.config.slot_dir is None:
            return None
        req = urllib.request.Request(
            f"{self._address}/slots/0?action={action}", data=json.dumps({"filename": filename}).encode(),
            headers={"Authorization": f"Bearer {self.api_key}", "Content-Type": "application/json"},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(req, timeout=timeout_s) as resp:  # noqa: S310 - loopback
                data = json.loads(resp.read() or b"{}")
        except Exception:  # noqa: BLE001 - a missing or stale file is no error for the turn
            return None
        return data if isinstance(data, dict) else None

    def stop(self, timeout_s: float = 5.0, *, wait: bool = True) -> None:
        """End the child. ``wait=False`` (quitting): close its lifeline and send SIGTERM, and
        return at once; a reaper thread sends SIGKILL after ``stop_grace_s`` and collects it,
        and one at interpreter exit kills whatever is still alive (``reaper.py``)."""
        proc, self._proc, self._address = self._proc, None, None
        if proc is None:
            return
        if not wait:
            stop_in_background(proc, self.config.stop_grace_s)
            return
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=timeout_s)
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                pipe.close()
