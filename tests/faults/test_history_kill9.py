"""kill -9 between the history record and the file write (and at random moments of a write
loop): MEMORY.md is always one whole version, and that version's history entry is on disk."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from openclaw_tui.records.history import MemoryHistory, digest

ROOT = Path(__file__).resolve().parents[2]
BASE = "# Memory\n\n" + "".join(f"- curated note {i}: {'x' * 60}\n" for i in range(200))

CHILD = r"""
import os, signal, sys
from pathlib import Path
from openclaw_tui.tools.files import FileTools
from openclaw_tui.records.history import ChangeOrigin, MemoryHistory

ws, hist, mode = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
tools = FileTools(ws, history=MemoryHistory(hist), origin=lambda: ChangeOrigin("model", "kill9", 1))
assert tools.read({"path": "MEMORY.md"})["lines"] > 0
if mode == "between":
    def die_after_record(frame, event, arg):
        if event == "return" and frame.f_code.co_name == "record" and "history" in frame.f_code.co_filename:
            os.kill(os.getpid(), signal.SIGKILL)
    sys.setprofile(die_after_record)
if mode == "store":  # killed inside the history store's atomic replace, the temp copy written
    def die_before_rename(frame, event, arg):
        if event == "c_call" and arg is os.replace and frame.f_code.co_name == "replace_at":
            callers = {frame.f_back.f_code.co_name, frame.f_back.f_back.f_code.co_name}
            if "_store" in callers:
                os.kill(os.getpid(), signal.SIGKILL)
    sys.setprofile(die_before_rename)
print("ready", flush=True)
text = (ws / "MEMORY.md").read_text()
for i in range(100000):
    text += f"- fact {i}\n"
    res = tools.write({"path": "MEMORY.md", "content": text})
    assert res.get("ok"), res
    if i == 0:
        print("wrote", flush=True)
"""


def _versions(limit: int) -> set[bytes]:
    out, text = {BASE.encode()}, BASE
    for i in range(limit):
        text += f"- fact {i}\n"
        out.add(text.encode())
    return out


def _run(workspace: Path, hist: Path, mode: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(workspace), str(hist), mode], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == b"ready", proc.stderr.read().decode() if proc.stderr else ""
    return proc


def _check(workspace: Path, history: MemoryHistory) -> tuple[bytes, list]:
    current = (workspace / "MEMORY.md").read_bytes()
    entries = history.entries()
    assert current in _versions(len(entries) + 1), "MEMORY.md is torn: not one whole version"
    if current != BASE.encode():
        assert any(e.after == digest(current) for e in entries), "the current content has no history entry"
    for e in entries:  # every kept previous version is complete and restorable
        assert history.content(e.before) is not None
    return current, entries


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path]:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "MEMORY.md").write_text(BASE)
    return ws, tmp_path / "history"


def test_kill9_right_after_the_history_record_leaves_the_old_content_and_its_entry(setup) -> None:
    workspace, hist = setup
    proc = _run(workspace, hist, "between")
    assert proc.wait(timeout=60) == -signal.SIGKILL
    history = MemoryHistory(hist)
    current, entries = _check(workspace, history)
    assert current == BASE.encode()  # killed before the rename: the old content, whole
    assert len(entries) == 1 and history.content(entries[0].before) == BASE.encode()
    assert entries[0].after == digest((BASE + "- fact 0\n").encode())  # what was about to be written


def test_kill9_at_random_moments_of_a_write_loop_never_tears_memory(setup) -> None:
    workspace, hist = setup
    rng = random.Random(1711)
    history = MemoryHistory(hist)
    for _round in range(8):
        before = len(history.entries())
        proc = _run(workspace, hist, "loop")
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"wrote"  # a slow machine still kills mid-loop
        time.sleep(rng.uniform(0.05, 0.4))
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(timeout=30) == -signal.SIGKILL
        _current, entries = _check(workspace, history)
        assert len(entries) >= before
        (workspace / "MEMORY.md").write_bytes(BASE.encode())  # each round starts from the curated file
    assert len(history.entries()) > 8, "the child never got to write: the test did not exercise anything"


def _temps(hist: Path) -> list[Path]:
    return [p for p in hist.rglob(".*.tmp")]


def test_kill9_inside_the_history_store_leaves_a_temp_copy_the_next_session_sweeps(setup) -> None:
    from openclaw_tui.tools.files import FileTools

    workspace, hist = setup
    proc = _run(workspace, hist, "store")
    assert proc.wait(timeout=60) == -signal.SIGKILL
    left = _temps(hist)
    assert left, "the child died before it wrote a temp copy: the test exercised nothing"
    assert any(p.read_bytes() == BASE.encode() for p in left)  # a whole copy of MEMORY.md
    old = time.time() - 3600
    for p in left:
        os.utime(p, (old, old))
    busy = hist / "objects" / (".%s.%s.tmp" % ("0" * 64, "abcdef012345"))  # a writer at work right now
    busy.write_bytes(b"in flight")
    FileTools(workspace, history=MemoryHistory(hist), access="ro")  # a session starts (any access)
    assert _temps(hist) == [busy]
    tools = FileTools(workspace, history=MemoryHistory(hist))
    assert tools.append({"path": "MEMORY.md", "content": "- after the crash"})["ok"]
    (entry,) = MemoryHistory(hist).entries()  # the store works on
    assert MemoryHistory(hist).content(entry.before) == BASE.encode()
