"""memory_get (DESIGN §5): reads memory files, refuses everything else."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.tools.memory_tools import run_memory_get
from openclaw_tui.workspace import safe_fs
from openclaw_tui.workspace.guard import PathRefused

from .conftest import write


@pytest.fixture
def ws(workspace: Path, tmp_path: Path) -> Path:
    write(workspace / "MEMORY.md", "line one\nline two\nline three\nline four\n")
    write(workspace / "memory/2026-01-01.md", "- a\n- b\n- c\n")
    write(workspace / "memory/deep/nested/note.md", "nested\n")
    write(workspace / "AGENTS.md", "operating rules\n")
    write(workspace / "SOUL.md", "persona\n")
    write(workspace / "memory/notes.txt", "not markdown\n")
    write(workspace / "docs/extra.md", "extra doc\n")
    outside = write(tmp_path / "outside/secret.md", "TOP SECRET\n")
    write(tmp_path / "outside/other.md", "outside other\n")
    os.symlink(outside, workspace / "memory/link-out.md")
    os.symlink(workspace / "memory/2026-01-01.md", workspace / "memory/link-in.md")
    os.symlink(outside.parent, workspace / "memory/linkdir")
    os.symlink(workspace / "memory", workspace / "memlink")
    os.link(workspace / "AGENTS.md", workspace / "memory/hardlink.md")
    os.mkfifo(workspace / "memory/fifo.md")
    (workspace / "memory/dir.md").mkdir()
    return workspace


@pytest.fixture
def mm(ws, make_settings, managers, tmp_path) -> MemoryManager:
    m = MemoryManager(make_settings(memorySearch={"provider": "none", "extraPaths": ["docs", str(tmp_path / "outside/other.md")]}))
    managers.append(m)
    return m


HOSTILE = [
    "../outside/secret.md",
    "memory/../AGENTS.md",
    "memory/../../outside/secret.md",
    "AGENTS.md",
    "SOUL.md",
    "/etc/passwd",
    "/etc/hosts.md",
    "~/.ssh/id_rsa.md",
    "C:/Windows/win.md",
    "memory\\..\\AGENTS.md",
    "memory/notes.txt",
    "memory/2026-01-01.md\x00.txt",
    "MEMORY.md\x00",
    "memory/link-out.md",
    "memory/link-in.md",
    "memory/linkdir/secret.md",
    "memlink/2026-01-01.md",
    "memory/fifo.md",
    "memory/dir.md",
    "memory",
    "memory/",
    "",
    "   ",
    "qmd/notes/secret.md",
    "docs/../AGENTS.md",
    "MEMORY.md/../AGENTS.md",
    "./memory/./../AGENTS.md",
    "memory/" + "a" * 300 + ".md",
    "x/" * 600 + "a.md",
    "file:///etc/passwd",
    "memory/\nMEMORY.md",
]


@pytest.mark.parametrize("path", HOSTILE)
def test_hostile_paths_are_refused(mm, path):
    res = mm.get(path)
    assert res["text"] == ""
    assert res.get("disabled") is True, res
    assert res["error"]
    assert "TOP SECRET" not in str(res) and "operating rules" not in str(res)


def test_at_least_twenty_hostile_paths():
    assert len(HOSTILE) >= 20


@pytest.mark.parametrize("bad", [None, 42, ["MEMORY.md"], {"p": 1}])
def test_non_string_paths_refused(mm, bad):
    res = run_memory_get(mm, {"path": bad})
    assert res["text"] == "" and res["disabled"] is True


@pytest.mark.parametrize(
    "path, frm, lines, expected",
    [
        ("MEMORY.md", None, None, "line one\nline two\nline three\nline four"),
        ("MEMORY.md", 2, None, "line two\nline three\nline four"),
        ("MEMORY.md", 2, 2, "line two\nline three"),
        ("MEMORY.md", 4, 10, "line four"),
        ("MEMORY.md", 9, 1, ""),
        ("memory/2026-01-01.md", 3, 1, "- c"),
        ("memory/deep/nested/note.md", None, None, "nested"),
        ("./memory//2026-01-01.md", 1, 1, "- a"),
        ("docs/extra.md", None, None, "extra doc"),  # extraPaths entry inside the workspace
        ("memory/hardlink.md", None, None, "operating rules"),  # a second name is a plain file (issue 36)
    ],
)
def test_reads_allowed_paths(mm, path, frm, lines, expected):
    res = mm.get(path, from_line=frm, lines=lines)
    assert "error" not in res, res
    assert res["text"] == expected


def test_extra_path_outside_workspace_by_absolute_path(mm, tmp_path):
    res = mm.get(str(tmp_path / "outside/other.md"))
    assert res["text"] == "outside other"
    assert mm.get(str(tmp_path / "outside/secret.md")).get("disabled") is True


def test_missing_file_returns_empty_without_error(mm):
    res = mm.get("memory/2030-01-01.md")
    assert res == {"path": "memory/2030-01-01.md", "text": ""}


@pytest.mark.parametrize(
    "args, msg",
    [
        ({"path": "MEMORY.md", "from": 0}, "from"),
        ({"path": "MEMORY.md", "from": -3}, "from"),
        ({"path": "MEMORY.md", "lines": 0}, "lines"),
        ({"path": "MEMORY.md", "from": "two"}, "from"),
        ({"path": "MEMORY.md", "from": True}, "from"),
    ],
)
def test_bad_ranges_are_errors_not_exceptions(mm, args, msg):
    res = run_memory_get(mm, args)
    assert res["text"] == "" and msg in res["error"]


def test_tool_wrapper_reads(mm):
    assert run_memory_get(mm, {"path": "MEMORY.md", "from": 2, "lines": 1})["text"] == "line two"
    assert run_memory_get(mm, {"path": "MEMORY.md", "from": 2.0, "lines": "1"})["text"] == "line two"


def test_get_never_modifies_files(mm, ws):
    before = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file() and not p.is_symlink() and not p.name.startswith("fifo")}
    for path in HOSTILE + ["MEMORY.md", "memory/2026-01-01.md"]:
        mm.get(path)
    after = {p: p.read_bytes() for p in before}
    assert before == after


@pytest.mark.parametrize("rel", ["memory/linkdir/secret.md", "memory/link-out.md", "memlink/2026-01-01.md"])
def test_open_beneath_never_follows_symlinks_even_unchecked(mm, ws, rel):
    # the race-proof opener refuses symlinks by itself (a link swapped in after the check)
    with pytest.raises(PathRefused) as info:
        safe_fs.open_file(ws, rel)
    assert "symlink" in info.value.reason


def test_open_beneath_reads_plain_files(ws):
    fd, _st = safe_fs.open_file(ws, "memory/deep/nested/note.md")
    with os.fdopen(fd, "rb") as fh:
        assert fh.read() == b"nested\n"
