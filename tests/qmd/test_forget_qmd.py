"""`memory forget` with `memory.backend: "qmd"` (issue 36, item 4): the forgotten text leaves
what the real qmd index holds, not only the Markdown file: the forget re-indexes at once (no
debounce) and has qmd drop the inactive document and compact its FTS (``qmd cleanup``), so no
byte of the fact is left in qmd's index file nor in the builtin fallback's."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from openclaw_tui.commands import memory_forget_cmd
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.memory.qmd import QmdBackend

from .helpers import make_settings, write

pytestmark = pytest.mark.qmd

SECRET = "zanzibar-quokka-7781"
MEMORY = f"# Memory\n\n- The user likes green tea.\n- The storage unit gate code is {SECRET}\n- Prefers tabs over spaces.\n"


def held(path: Path) -> bool:
    """Whether the fact is anywhere in an index file or its journal/WAL."""
    return any(p.is_file() and SECRET.encode() in p.read_bytes() for p in path.parent.glob(path.name + "*"))


def test_memory_forget_purges_the_real_qmd_index(real_qmd, tmp_path: Path, capsys) -> None:
    ws, state = tmp_path / "ws", tmp_path / "state"
    write(ws / "MEMORY.md", MEMORY)
    write(ws / "memory" / "2026-01-01.md", "# 2026-01-01\n\n- lunch with Ana\n")
    cfg = {"qmd": {"update": {"waitForBootSync": True, "debounceMs": 600_000}, "limits": {"timeoutMs": 30000}}}
    settings = make_settings(state, ws, cfg)
    backend = QmdBackend(settings, builtin=MemoryManager(settings))
    try:
        backend.sync(force=True, reason="test")
        index = backend.index_path
    finally:
        backend.close()
    assert held(index), "qmd never indexed the fact: the test would prove nothing"

    args = argparse.Namespace(query=["storage", "unit", "gate", "code"], path=None, lines=None, yes=True, json=False)
    assert memory_forget_cmd.run(args, settings) == 0
    out = capsys.readouterr().out
    assert SECRET not in (ws / "MEMORY.md").read_text()
    assert "syncs on next use" not in out  # the index was brought up to date now
    assert not held(index), f"the qmd index {index} still holds the forgotten text"
    assert "green tea" in (ws / "MEMORY.md").read_text()
