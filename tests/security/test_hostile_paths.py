"""Hostile paths against every file-touching tool: memory_get, read, write, edit, append.

A real workspace with real escape hatches planted in it (symlinks to files and directories
outside, a character device node, a FIFO, a directory named like a note) and a real outside
directory holding a secret. Every hostile path must be refused by every tool, no outside byte
may be read or changed, and the workspace itself must stay byte-identical. A file with a
second name outside (a hard link, as a ``cp -al`` snapshot makes) is not an escape: it is read
as the workspace's own file, and no write reaches the other name (issue 36, item 6).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

from openclaw_tui.config import resolve_agent, validate_config
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.tools.files import FileTools
from openclaw_tui.tools.registry import ToolBox

SECRET = "TOP-SECRET-outside-7c1e"
TOOLS = ("memory_get", "read", "write", "edit", "append")


def tree_hash(root: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in sorted(dirnames + filenames):
            p = Path(dirpath) / name
            st = p.lstat()
            rel = p.relative_to(root).as_posix()
            if p.is_symlink():
                out[rel] = "link:" + os.readlink(p)
            elif p.is_file() and not p.is_fifo():
                out[rel] = hashlib.sha256(p.read_bytes()).hexdigest() + f":{st.st_nlink}"
            else:
                out[rel] = f"mode:{st.st_mode:o}"
    return out


@pytest.fixture
def planted(tmp_path: Path) -> dict[str, Path]:
    ws = tmp_path / "ws"
    outside = tmp_path / "outside"
    (ws / "memory").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.md").write_text(f"{SECRET}\n")
    (outside / "target.md").write_text(f"{SECRET} target\n")
    (outside / "hard.md").write_text(f"{SECRET} hardlinked\n")
    (ws / "MEMORY.md").write_text("# Memory\n- fine\n")
    (ws / "memory" / "2026-01-01.md").write_text("- a note\n")
    (ws / "AGENTS.md").write_text("rules\n")
    os.symlink(outside / "secret.md", ws / "memory" / "link-out.md")
    os.symlink(outside, ws / "memory" / "linkdir")
    os.symlink(outside, ws / "linkdir2")
    os.symlink(ws / "memory", ws / "memlink")
    os.symlink("/dev/null", ws / "memory" / "devnull.md")
    os.symlink("/dev/zero", ws / "memory" / "devzero.md")
    os.link(outside / "hard.md", ws / "memory" / "hard-out.md")
    os.mkfifo(ws / "memory" / "fifo.md")
    (ws / "memory" / "dir.md").mkdir()
    try:
        os.mknod(ws / "memory" / "chardev.md", 0o600 | 0o020000, os.makedev(1, 5))  # like /dev/zero
    except (PermissionError, OSError):
        (ws / "memory" / "chardev.md").symlink_to("/dev/zero")
    return {"ws": ws, "outside": outside, "secret": outside / "secret.md"}


def hostile_paths(p: dict[str, Path]) -> list[str]:
    secret, outside = str(p["secret"]), str(p["outside"])
    return [
        "../outside/secret.md",
        "memory/../../outside/secret.md",
        "./../outside/secret.md",
        "memory/./../../outside/secret.md",
        "memory/2026-01-01.md/../../../outside/secret.md",
        " ../outside/secret.md",
        secret,
        outside + "/target.md",
        "//" + secret.lstrip("/"),
        "memory/../memory/../../outside/secret.md",
        "~/../" + secret.lstrip("/"),
        "~root/secret.md",
        "C:/outside/secret.md",
        "C:\\outside\\secret.md",
        "..\\outside\\secret.md",
        "memory\\..\\..\\outside\\secret.md",
        "memory/link-out.md",
        "memory/link-out.md/",
        "memory/linkdir/secret.md",
        "memory/linkdir/target.md",
        "linkdir2/secret.md",
        "memlink/2026-01-01.md",
        "memory/devnull.md",
        "memory/devzero.md",
        "memory/chardev.md",
        "memory/fifo.md",
        "memory/dir.md",
        "/dev/zero",
        "/proc/self/environ",
        "memory/" + "a" * 300 + ".md",
        "x/" * 600 + "a.md",
        "memory/2026-01-01.md\x00../../outside/secret.md",
        "MEMORY.md\x00",
        "memory/\n../outside/secret.md",
        "memory/\x1b[2Jx.md",
        "",
        "   ",
    ]


def call(box: ToolBox, tool: str, path: Any) -> dict[str, Any]:
    args: dict[str, Any] = {"path": path}
    if tool in ("write", "append"):
        args["content"] = "- injected by a hostile path\n"
    if tool == "edit":
        args.update(old_text=SECRET, new_text="pwned")
    result, _err = asyncio.run(box.run(tool, json.dumps(args)))
    return result


def test_at_least_thirty_hostile_paths(planted) -> None:
    assert len(hostile_paths(planted)) >= 30


def test_every_tool_refuses_every_hostile_path(planted, tmp_path: Path, monkeypatch) -> None:
    ws, outside = planted["ws"], planted["outside"]
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "state"))
    settings = resolve_agent(validate_config({"agents": {"defaults": {"memorySearch": {"provider": "none"}}}}), workspace=str(ws))
    memory = MemoryManager(settings)
    refused: list[tuple[str, str]] = []
    box = ToolBox(FileTools(ws, access="rw", on_refused=lambda t, p, r: refused.append((t, p))), memory=memory, memory_enabled=True)
    assert set(TOOLS) <= box.names()
    ws_before, out_before = tree_hash(ws), tree_hash(outside)
    escapes: list[str] = []
    try:
        for path in hostile_paths(planted):
            for tool in TOOLS:
                res = call(box, tool, path)
                text = json.dumps(res)
                if SECRET in text:
                    escapes.append(f"{tool} {path!r} leaked the secret")
                if not (res.get("error") or res.get("refused") or res.get("disabled")):
                    escapes.append(f"{tool} {path!r} was not refused: {text[:200]}")
                if res.get("text"):
                    escapes.append(f"{tool} {path!r} returned text")
                if tree_hash(outside) != out_before:
                    escapes.append(f"{tool} {path!r} changed a file outside the workspace")
                    out_before = tree_hash(outside)
    finally:
        memory.close()
    assert escapes == []
    assert tree_hash(ws) == ws_before
    assert (outside / "secret.md").read_text() == f"{SECRET}\n"
    assert refused  # refusals reach the UI as AccessRefused events


def test_a_hard_link_is_a_plain_file_and_no_write_reaches_the_other_name(planted, tmp_path: Path, monkeypatch) -> None:
    ws, outside = planted["ws"], planted["outside"]
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "state"))
    out_before = tree_hash(outside)
    tools = FileTools(ws, access="rw", today_rel=lambda: "memory/hard-out.md")
    assert "hardlinked" in tools.read({"path": "memory/hard-out.md"})["text"]  # the file's own bytes
    assert tools.append({"path": "memory/hard-out.md", "content": "- appended"}).get("ok")
    assert tools.edit({"path": "memory/hard-out.md", "old_text": "hardlinked", "new_text": "edited"}).get("ok")
    assert tools.write({"path": "memory/hard-out.md", "content": "- rewritten\n"}).get("ok")
    assert (ws / "memory" / "hard-out.md").read_text() == "- rewritten\n"
    after = tree_hash(outside)
    assert {k: v.split(":")[0] for k, v in after.items()} == {k: v.split(":")[0] for k, v in out_before.items()}
    assert (outside / "hard.md").read_text() == f"{SECRET} hardlinked\n" and after["hard.md"].endswith(":1")  # now two files


def test_legitimate_paths_still_work(planted, tmp_path: Path, monkeypatch) -> None:
    """The guard is not a blanket refusal: ordinary notes are read, written and appended."""
    ws = planted["ws"]
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "state"))
    settings = resolve_agent(validate_config({"agents": {"defaults": {"memorySearch": {"provider": "none"}}}}), workspace=str(ws))
    memory = MemoryManager(settings)
    box = ToolBox(FileTools(ws, access="rw", today_rel=lambda: "memory/2026-01-01.md"), memory=memory, memory_enabled=True)
    try:
        assert call(box, "append", "memory/2026-01-01.md").get("ok")
        assert "hostile path" in call(box, "memory_get", "memory/2026-01-01.md")["text"]
        assert call(box, "write", "memory/new/deeper.md").get("ok")
        assert "hostile path" in call(box, "read", "memory/new/deeper.md")["text"]
    finally:
        memory.close()


def test_write_never_follows_a_planted_temp_file_symlink(planted) -> None:
    """write/edit replace a file through a temp file next to it: a symlink planted under the
    temp name must not carry the content (or the final file) outside the workspace."""
    ws, outside = planted["ws"], planted["outside"]
    (ws / "memory" / "notes.md").write_text("old text\n")
    for name in ("notes.md", "new.md"):
        os.symlink(outside / "target.md", ws / "memory" / f".{name}.tmp")
    before = tree_hash(outside)
    tools = FileTools(ws, access="rw")
    r1 = tools.write({"path": "memory/new.md", "content": "fresh\n"})
    r2 = tools.edit({"path": "memory/notes.md", "old_text": "old", "new_text": "new"})
    assert tree_hash(outside) == before, (r1, r2)
    for name in ("notes.md", "new.md"):
        p = ws / "memory" / name
        assert not p.is_symlink()  # the note itself is never turned into a link outside
    assert (ws / "memory" / "new.md").read_text() == "fresh\n" or r1.get("error")
    assert (ws / "memory" / "notes.md").read_text() == "new text\n" or r2.get("error")
