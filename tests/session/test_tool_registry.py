"""A tool is one ``ToolSpec`` in the registry: registering one is enough for every tool box
to offer its schema and run it (no name branch in ``ToolBox.run`` or ``FileTools.run``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from openclaw_tui.tools.files import FileTools
from openclaw_tui.tools.registry import REGISTRY, ToolBox, ToolFlags, ToolOutput, ToolSpec, register, spec_for, unregister

ECHO_SCHEMA: dict[str, Any] = {
    "type": "function",
    "function": {"name": "shout", "description": "Say it louder.",
                 "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
}


async def _shout(box: ToolBox, args: dict[str, Any], recovered: bool, /) -> ToolOutput:
    return {"text": str(args["text"]).upper(), "session": box.session_key, "recovered": recovered}


@pytest.fixture
def shout():
    spec = ToolSpec("shout", ECHO_SCHEMA, _shout, ToolFlags())
    register(spec)
    yield spec
    unregister("shout")


async def test_a_registered_spec_is_offered_and_runs(tmp_path: Path, shout: ToolSpec) -> None:
    box = ToolBox(FileTools(tmp_path), memory=None, memory_enabled=False, session_key="agent:main:x")
    assert ECHO_SCHEMA in box.schemas() and "shout" in box.names()
    result, err = await box.run("shout", json.dumps({"text": "hi"}), recovered=True)
    assert err is None and result == {"text": "HI", "session": "agent:main:x", "recovered": True}
    assert spec_for("shout") is shout
    with pytest.raises(ValueError):
        register(shout)  # one name, one tool


async def test_an_unregistered_tool_is_neither_offered_nor_run(tmp_path: Path) -> None:
    box = ToolBox(FileTools(tmp_path), memory=None, memory_enabled=False)
    assert "shout" not in REGISTRY and "shout" not in box.names()
    result, err = await box.run("shout", {"text": "hi"})
    assert err == "tool 'shout' is not available in this session" and result == {"error": err}


async def test_file_tools_run_through_the_registry(tmp_path: Path) -> None:
    files = FileTools(tmp_path)
    box = ToolBox(files, memory=None, memory_enabled=False)
    result, err = await box.run("write", {"path": "notes.md", "content": "teal\n"})
    assert err is None and (tmp_path / "notes.md").read_text() == "teal\n"
    assert "teal" in json.dumps(files.run("read", {"path": "notes.md"}))
    assert files.run("shout", {"text": "x"}) == {"error": "unknown tool 'shout'"}
    assert files.run("memory_search", {"query": "x"}) == {"error": "unknown tool 'memory_search'"}
