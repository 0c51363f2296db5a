"""Run the qmd CLI as a child process with a hard timeout.

Every call starts qmd in its own session (process group); on timeout the whole group is
killed with SIGKILL, so a hung qmd and anything it spawned (node workers, llama.cpp
helpers) never outlive the call. Failures are raised as ``QmdError`` with a ``kind`` the
backend turns into a fallback reason.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import openclaw_tui

# kinds: missing | start | timeout | exit | garbage | flags | models | embeddings
QMD_VERSION = "2.8.3"

_FLAG_REJECT_RE = re.compile(
    r"unknown (option|flag|argument)|unrecognized (option|argument|flag)|invalid option|"
    r"unexpected (argument|option)|not supported|unsupported (flag|option)|does not support",
    re.IGNORECASE,
)
_MODEL_FAIL_RE = re.compile(
    r"NoBinaryFoundError|model file not found|failed to load model|could not load model|"
    r"no such file.*\.gguf|\.gguf.*(not found|no such file|ENOENT)|download(ing)? model|llama",
    re.IGNORECASE,
)


class QmdError(Exception):
    def __init__(self, kind: str, message: str, *, stderr: str = "", returncode: int | None = None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.stderr = stderr
        self.returncode = returncode

    @property
    def reason(self) -> str:
        return f"{self.kind}: {self.message}"


@dataclass
class QmdRunResult:
    argv: list[str]
    returncode: int
    stdout: str
    stderr: str
    duration_ms: float
    extra: dict = field(default_factory=dict)


def repo_cache_command() -> Path:
    """Wrapper written by ``scripts/install_qmd.sh`` (``make qmd``) in the repo's cache dir."""
    return Path(openclaw_tui.__file__).resolve().parent.parent / ".cache" / "qmd" / "qmd"


def default_command() -> list[str]:
    """The qmd command when ``memory.qmd.command`` is unset.

    Order: ``$OPENCLAW_QMD_COMMAND``, the project cache install (``make qmd``), ``qmd`` on PATH.
    """
    env = os.environ.get("OPENCLAW_QMD_COMMAND", "").strip()
    if env:
        return shlex.split(env)
    cached = repo_cache_command()
    if cached.is_file() and os.access(cached, os.X_OK):
        return [str(cached)]
    found = shutil.which("qmd")
    return [found or "qmd"]


def resolve_command(configured: str | None) -> list[str]:
    if configured and configured.strip():
        parts = shlex.split(configured.strip())
        if parts:
            parts[0] = os.path.expanduser(parts[0])
            return parts
    return default_command()


def looks_like_flag_rejection(text: str) -> bool:
    return bool(_FLAG_REJECT_RE.search(text or ""))


def looks_like_model_failure(text: str) -> bool:
    return bool(_MODEL_FAIL_RE.search(text or ""))


def first_line(text: str, limit: int = 200) -> str:
    for line in (text or "").splitlines():
        line = line.strip()
        if line:
            return line[:limit]
    return ""


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    except OSError:
        try:
            proc.kill()
        except OSError:
            pass


def run_qmd(
    command: list[str],
    args: list[str],
    *,
    env: dict[str, str] | None = None,
    cwd: str | Path | None = None,
    timeout_s: float,
) -> QmdRunResult:
    """Run ``command + args``; raise ``QmdError`` on missing binary, failed start or timeout.

    A non-zero exit is returned, not raised: callers decide what it means.
    """
    argv = list(command) + list(args)
    exe = argv[0]
    if os.sep not in exe and shutil.which(exe, path=(env or os.environ).get("PATH")) is None:
        raise QmdError("missing", f"qmd command {exe!r} not found (run `make qmd` or set memory.qmd.command)")
    if os.sep in exe and not os.path.exists(exe):
        raise QmdError("missing", f"qmd command {exe} does not exist (run `make qmd` or set memory.qmd.command)")
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=str(cwd) if cwd else None,
            env=env,
            start_new_session=True,  # own process group: killpg reaches every descendant
        )
    except FileNotFoundError:
        raise QmdError("missing", f"qmd command {exe!r} not found") from None
    except PermissionError:
        raise QmdError("start", f"qmd command {exe!r} is not executable") from None
    except OSError as exc:
        raise QmdError("start", f"qmd failed to start: {exc.strerror or exc}") from None
    try:
        out, err = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        try:
            out, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:  # a descendant escaped the group and holds the pipes
            for stream in (proc.stdout, proc.stderr):
                try:
                    stream.close()  # type: ignore[union-attr]
                except OSError:
                    pass
            proc.wait(timeout=5)
        raise QmdError(
            "timeout", f"qmd {args[0] if args else ''} timed out after {timeout_s:g}s (process group killed)"
        ) from None
    finally:
        if proc.poll() is None:
            _kill_group(proc)
            proc.wait()
    # Leftover descendants of a finished qmd (a daemon it forked) are ours to clean up too.
    _kill_group(proc)
    return QmdRunResult(
        argv=argv,
        returncode=proc.returncode,
        stdout=out.decode("utf-8", "replace"),
        stderr=err.decode("utf-8", "replace"),
        duration_ms=(time.monotonic() - started) * 1000.0,
    )
