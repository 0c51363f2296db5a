"""Property-based fuzzing (hypothesis) of the safe file layer, the privacy rule and search.

Paths are built from traversal pieces, separators, unicode (controls, bidi, undecodable
bytes), and the names of planted symlinks and hard links. Whatever the path, no tool may
return outside bytes or change anything outside the workspace; in a group session no
spelling of MEMORY.md may return its text; and no query may make a search raise or fail.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openclaw_tui.config import resolve_agent, validate_config
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.tools.files import FileTools
from openclaw_tui.tools.registry import ToolBox

SECRET = "OUTSIDE-prop-secret-93c1"
PRIVATE = "PRIVATE-prop-memory-5b8a"
GROUP = "agent:main:telegram:group:7"
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

PIECES = st.sampled_from([
    "..", ".", "", "memory", "MEMORY.md", "memory.md", "note.md", "link-out.md", "linkdir", "hard.md",
    "~", "/", "//", "\\", "C:", "a\x00b", "x\u202ey.md", "\u0085", "\u009b", "caf\udce9.md", "sub", "new.md",
    "secret.md", "outside", "%2e%2e", "\u2028",
])
PATHS = st.builds(lambda lead, parts, sep: lead + sep.join(parts),
                  st.sampled_from(["", "/", "./", "~/", "../"]), st.lists(PIECES, min_size=1, max_size=6),
                  st.sampled_from(["/", "//", "/./"]))


def _tree(root: Path) -> dict[str, str]:
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink():
            out[p.relative_to(root).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.fixture
def planted(tmp_path: Path):
    ws, outside = tmp_path / "ws", tmp_path / "outside"
    (ws / "memory" / "sub").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.md").write_text(f"{SECRET}\n")
    (outside / "hard.md").write_text(f"{SECRET} hard\n")
    (ws / "MEMORY.md").write_text(f"{PRIVATE}\n")
    (ws / "memory" / "note.md").write_text("- a note\n")
    os.symlink(outside / "secret.md", ws / "memory" / "link-out.md")
    os.symlink(outside, ws / "memory" / "linkdir")
    os.symlink(ws / "MEMORY.md", ws / "memory" / "mem-link.md")
    os.link(outside / "hard.md", ws / "memory" / "hard.md")
    cfg = validate_config({"agents": {"defaults": {"memorySearch": {"provider": "none"}}}})
    mm = MemoryManager(resolve_agent(cfg, workspace=ws))
    yield ws, outside, mm
    mm.close()


@FUZZ
@given(path=PATHS, tool=st.sampled_from(["read", "write", "append", "edit", "memory_get"]))
def test_no_path_reaches_outside(planted, path: str, tool: str) -> None:
    ws, outside, mm = planted
    before = _tree(outside)
    box = ToolBox(FileTools(ws), memory=mm, session_key="agent:main:main")
    args = {"path": path, "content": "fuzz\n", "old_text": "a note", "new_text": "a note"}
    result, _err = asyncio.run(box.run(tool, {k: v for k, v in args.items() if tool != "read" or k == "path"}))
    assert SECRET not in json.dumps(result)
    assert _tree(outside) == before


SPELLINGS = st.builds(lambda lead, name, tail: lead + name + tail,
                      st.sampled_from(["", "./", ".//", "./././", "memory/../", "{ws}/", "{ws}//", "{ws}/./"]),
                      st.sampled_from(["MEMORY.md", "memory/mem-link.md"]),
                      st.sampled_from(["", "/", "//", "/.", " ", "\t"]))


@FUZZ
@given(spelling=SPELLINGS, tool=st.sampled_from(["read", "memory_get"]))
def test_group_session_never_sees_memory_md(planted, spelling: str, tool: str) -> None:
    ws, _outside, mm = planted
    box = ToolBox(FileTools(ws, session_key=GROUP), memory=mm, session_key=GROUP)
    result, _err = asyncio.run(box.run(tool, {"path": spelling.replace("{ws}", str(ws))}))
    assert PRIVATE not in json.dumps(result)


@FUZZ
@given(query=st.text(min_size=0, max_size=40))
def test_no_query_breaks_search(planted, query: str) -> None:
    _ws, _outside, mm = planted
    res = mm.search(query, session_key=GROUP)
    assert isinstance(res.get("results"), list) and not res.get("disabled"), res
    assert all(PRIVATE not in r["snippet"] and SECRET not in r["snippet"] for r in res["results"])
