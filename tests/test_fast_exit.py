"""The installed command leaves without the interpreter's teardown once the app has closed:
the exit code kept, stdout flushed and atexit handlers (the local server's last-resort kill,
the log flush) still run."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from openclaw_tui import fast_exit

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import atexit, sys
from pathlib import Path
from openclaw_tui import fast_exit
atexit.register(lambda: Path(sys.argv[1]).write_text("atexit ran"))
print("buffered line", end="")
if sys.argv[2] == "request":
    fast_exit.request()
fast_exit.finish(3)
print(" then returned")
sys.exit(5)
"""


def _child(tmp_path: Path, mode: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    marker = tmp_path / f"marker-{mode}"
    done = subprocess.run([sys.executable, "-c", CHILD, str(marker), mode], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    return done, marker


def test_a_requested_fast_exit_keeps_the_code_the_output_and_the_atexit_handlers(tmp_path: Path) -> None:
    done, marker = _child(tmp_path, "request")
    assert done.returncode == 3
    assert done.stdout == "buffered line"
    assert marker.read_text() == "atexit ran"


def test_without_a_request_finish_returns_and_the_normal_exit_follows(tmp_path: Path) -> None:
    done, marker = _child(tmp_path, "none")
    assert done.returncode == 5 and done.stdout == "buffered line then returned\n"
    assert marker.read_text() == "atexit ran"
    assert not fast_exit.requested()  # nothing in this test process asked for it


def test_the_installed_command_goes_through_the_entry_that_finishes() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["openclaw-tui"] == "openclaw_tui.cli:entry"
