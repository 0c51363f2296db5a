"""A workspace with a hard-link snapshot outside it keeps working (issue 36, item 6): the attack's
``cp -al ws ~/snapshots/ws-monday`` took MEMORY.md out of the prompt, search and memory_get and
refused every append. What is refused is a link that leads out (a symlink), said once in the UI."""

from __future__ import annotations

import asyncio
import hashlib
import subprocess
from pathlib import Path

import pytest

from openclaw_tui import events
from openclaw_tui.config import resolve_agent, validate_config
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.tools.files import FileTools
from openclaw_tui.workspace.bootstrap import build_system_prompt
from openclaw_tui.workspace.daily import daily_rel

MEMORY = "# Memory\n\n- The billing database is PostgreSQL 16\n"


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def snapped(tmp_path: Path) -> tuple[Path, Path]:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text(MEMORY)
    (ws / daily_rel()).write_text("- bought bread\n")
    snap = tmp_path / "snapshots" / "ws-monday"
    snap.parent.mkdir()
    subprocess.run(["cp", "-al", str(ws), str(snap)], check=True)
    assert (ws / "MEMORY.md").stat().st_nlink == 2
    return ws, snap


def test_the_prompt_search_and_memory_get_still_see_memory(snapped: tuple[Path, Path]) -> None:
    ws, _snap = snapped
    assert "PostgreSQL 16" in build_system_prompt(ws, session_key="agent:main:main").text
    settings = resolve_agent(validate_config({"agents": {"defaults": {"memorySearch": {"provider": "none"}}}}), workspace=str(ws))
    with MemoryManager(settings) as mm:
        report = mm.sync()
        assert not report["errors"], report["errors"]
        assert any("PostgreSQL" in h["snippet"] for h in mm.search("billing database")["results"])
        assert "PostgreSQL 16" in mm.get("MEMORY.md")["text"]


def test_writes_work_and_never_reach_the_snapshot(snapped: tuple[Path, Path]) -> None:
    ws, snap = snapped
    before = _tree(snap)
    tools = FileTools(ws, access="rw")
    assert tools.append({"path": daily_rel(), "content": "- milk"}).get("ok")
    assert tools.read({"path": "MEMORY.md"}).get("text") == MEMORY
    assert tools.edit({"path": "MEMORY.md", "old_text": "PostgreSQL 16", "new_text": "PostgreSQL 17"}).get("ok")
    assert tools.append({"path": "MEMORY.md", "content": "- Likes tea"}).get("ok")
    assert (ws / daily_rel()).read_text() == "- bought bread\n- milk\n"
    assert "PostgreSQL 17" in (ws / "MEMORY.md").read_text() and "Likes tea" in (ws / "MEMORY.md").read_text()
    assert _tree(snap) == before  # the snapshot keeps Monday's bytes


def test_a_symlink_out_is_refused_and_said_once(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    outside = tmp_path / "outside.md"
    outside.write_text("- OUTSIDE secret\n")
    (ws / "MEMORY.md").symlink_to(outside)
    assert "OUTSIDE" not in build_system_prompt(ws, session_key="agent:main:main").text
    assert FileTools(ws).read({"path": "MEMORY.md"}).get("refused")
    seen: list[events.Event] = []
    settings = resolve_agent(validate_config({}), workspace=str(ws))
    eng = SessionEngine(settings, sink=seen.append)
    try:
        asyncio.run(eng.send("hello"))
    finally:
        eng.close()
    warnings = [e.message for e in seen if isinstance(e, events.Notice) and "MEMORY.md" in e.message]
    assert len(warnings) == 1 and "memory is off for MEMORY.md" in warnings[0] and "symlink" in warnings[0]
