"""A second thread swaps a workspace folder for a symlink to the outside while each tool runs.

The swap (rename the real folder away, plant a symlink to an outside folder in its place,
then put the folder back) races the path check of every tool: read, write, append, edit,
memory_get (builtin and QMD) and the indexer. For QMD the note itself is swapped too.
Whatever the interleaving, no outside byte may be returned or
indexed, no file may appear or change outside, and the workspace may not gain outside text.
Each race is bounded: at most ``MAX_SWAPS`` swaps and ``RACE_S`` seconds.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import threading
import time
from pathlib import Path
from typing import Callable

import pytest

from openclaw_tui.config import resolve_agent, validate_config
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.memory.qmd import QmdBackend
from openclaw_tui.tools.files import FileTools

OUTSIDE = "OUTSIDE-SECRET-race-5d2e"
RACE_S = 1.5
MAX_SWAPS = 20_000


def _tree(root: Path) -> dict[str, str]:
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink():
            out[p.relative_to(root).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.fixture
def arena(tmp_path: Path):
    ws, outside = tmp_path / "ws", tmp_path / "outside"
    (ws / "memory" / "sub").mkdir(parents=True)
    outside.mkdir()
    (ws / "memory" / "sub" / "note.md").write_text("inside note\n")
    (outside / "note.md").write_text(f"{OUTSIDE} inside note\n")
    return ws, outside


def race(ws: Path, outside: Path, action: Callable[[], None], *, swap: str = "memory/sub") -> int:
    """Run ``action`` repeatedly while a thread swaps ``ws/swap`` (a folder or a file) for a
    symlink to the same name in ``outside``; swaps done."""
    sub = ws / swap
    away = sub.with_name(f".{sub.name}-away")
    outside = outside / sub.name if sub.is_file() else outside
    stop = threading.Event()
    swaps = 0

    def put_back() -> None:
        for _ in range(1000):
            try:
                os.rename(away, sub)
                return
            except OSError:  # a write made a fresh memory/sub while the folder was away
                if os.path.islink(sub):
                    os.unlink(sub)
                else:
                    shutil.rmtree(sub, ignore_errors=True)

    def swapper() -> None:
        nonlocal swaps
        deadline = time.monotonic() + RACE_S
        while not stop.is_set() and swaps < MAX_SWAPS and time.monotonic() < deadline:
            try:
                os.rename(sub, away)
            except OSError:
                continue
            try:
                os.symlink(outside, sub)
                os.unlink(sub)
            except OSError:
                pass
            put_back()
            swaps += 1

    t = threading.Thread(target=swapper, daemon=True)
    t.start()
    try:
        while t.is_alive():
            action()
    finally:
        stop.set()
        t.join(10)
    return swaps


def _settings(ws: Path):
    cfg = validate_config({"agents": {"defaults": {"memorySearch": {"provider": "none"}}}})
    return resolve_agent(cfg, workspace=ws)


@pytest.mark.parametrize("tool", ["read", "write", "append", "edit", "memory_get", "index"])
def test_symlink_swap_never_escapes(arena, tool: str) -> None:
    ws, outside = arena
    before_outside = _tree(outside)
    tools = FileTools(ws)
    seen: list[str] = []
    mm = MemoryManager(_settings(ws)) if tool in ("memory_get", "index") else None

    def act() -> None:
        if tool == "read":
            seen.append(str(tools.read({"path": "memory/sub/note.md"})))
        elif tool == "write":
            tools.write({"path": "memory/sub/new.md", "content": "written\n"})
        elif tool == "append":
            tools.append({"path": "memory/sub/note.md", "content": "- appended"})
        elif tool == "edit":
            tools.edit({"path": "memory/sub/note.md", "old_text": "inside note", "new_text": "inside note"})
        elif tool == "memory_get":
            seen.append(str(mm.get("memory/sub/note.md")))
        else:
            mm.sync()
            seen.append(str(mm.search("OUTSIDE SECRET race", min_score=0)))

    try:
        swaps = race(ws, outside, act)
    finally:
        if mm is not None:
            mm.close()
    assert swaps > 10  # the race really ran
    assert not any(OUTSIDE in s for s in seen)
    assert _tree(outside) == before_outside, "a file outside the workspace appeared or changed"
    assert not any(OUTSIDE in p.read_text(errors="replace") for p in ws.rglob("*") if p.is_file() and not p.is_symlink())
    assert not [p for p in ws.rglob("*.tmp")], "stray temp files"


@pytest.mark.parametrize("swap", ["memory/sub", "memory/sub/note.md"])
@pytest.mark.parametrize("key", ["qmd/memory-dir/sub/note.md", "memory/sub/note.md"])
def test_qmd_get_symlink_swap_never_escapes(arena, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            key: str, swap: str) -> None:
    """QMD's get reads through the one memory reader: a folder or the note itself swapped for
    a symlink to the outside between any check and the read is refused, never followed.
    ``qmd/memory-dir/…`` is a collection key; ``memory/sub/…`` falls in a qmd path collection."""
    ws, outside = arena
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "state"))
    cfg = validate_config({"memory": {"backend": "qmd", "qmd": {
        "command": str(tmp_path / "no-qmd"), "update": {"onBoot": False},
        "paths": [{"path": str(ws / "memory"), "name": "notes"}]}},
        "agents": {"defaults": {"memorySearch": {"provider": "none"}}}})
    settings = resolve_agent(cfg, workspace=ws)
    backend = QmdBackend(settings, builtin=MemoryManager(settings))
    seen: list[dict] = []
    try:
        swaps = race(ws, outside, lambda: seen.append(dict(backend.get(key))), swap=swap)
    finally:
        backend.close()
    assert swaps > 10  # the race really ran
    assert not any(OUTSIDE in str(got) for got in seen)
    assert any(got["text"] == "inside note" for got in seen), "the note itself was never read"
    assert all(got["text"] in ("", "inside note") for got in seen)
