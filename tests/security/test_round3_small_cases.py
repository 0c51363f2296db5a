"""Issue 36's smaller cases (not forget, not hard links), each with the attack's repro:
`/copy`'s file, native tool-call arguments nested 50,000 deep, `plugins.slots.memory: "none"`
and the offline agent's notes, a 400 KB dotted token in compaction's extractive summary, a
group session key and the memory history, and a kill -9's leftovers in the history store."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from openclaw_tui import events
from openclaw_tui.config import load_config, resolve_agent
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.tui.copy import save_copy
from tests.fakes.chat_server import ChatServer
from tests.session.conftest import FAST_RETRY, Recorder


def test_copy_never_follows_a_planted_temp_link_and_is_owner_only(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    (state / "clipboard.txt.tmp").symlink_to(victim)
    (state / "clipboard.txt").write_text("old copy\n")
    os.chmod(state / "clipboard.txt", 0o644)  # a leftover of an older version
    saved = save_copy("the copied reply", state / "clipboard.txt")
    assert saved == state / "clipboard.txt"
    assert victim.read_text() == "keep me\n"
    assert (state / "clipboard.txt").read_text() == "the copied reply"
    assert stat.S_IMODE((state / "clipboard.txt").stat().st_mode) == 0o600


async def test_tool_call_arguments_nested_50000_deep_are_that_calls_error(workspace: Path) -> None:
    deep = '{"path": ' + "[" * 50_000 + "]" * 50_000 + "}"
    with ChatServer() as server:
        server.push({"tool_calls": [{"name": "read", "arguments": deep}]}, {"text": "That call was malformed."}, {"text": "Still here."})
        settings = resolve_agent(load_config(None), workspace=workspace, model="openai/fake-model", api_base=server.base_url,
                                 api_key="sk-test-0123456789")
        rec = Recorder()
        eng = SessionEngine(settings, sink=rec, retry_policy=FAST_RETRY)
        try:
            first = await eng.send("Read it.")
            second = await eng.send("Are you there?")
        finally:
            eng.close()
    assert first.error is None and first.text == "That call was malformed."
    assert second.text == "Still here."
    [result] = rec.of(events.ToolResult)
    assert result.error and "nested" in result.error
    tool_msg = server.chat_requests()[1]["messages"][-1]
    assert tool_msg["role"] == "tool" and len(tool_msg["content"]) < 2_000


async def test_with_the_memory_slot_none_the_offline_agent_stores_no_notes(workspace: Path) -> None:
    settings = resolve_agent(load_config(None, overrides={"plugins": {"slots": {"memory": "none"}}}), workspace=workspace,
                             model="offline")
    before = sorted(p.relative_to(workspace).as_posix() for p in workspace.rglob("*") if p.is_file())
    rec = Recorder()
    eng = SessionEngine(settings, sink=rec, retry_policy=FAST_RETRY)
    try:
        result = await eng.send("Remember that my locker code is on the blue card.")
    finally:
        eng.close()
    after = sorted(p.relative_to(workspace).as_posix() for p in workspace.rglob("*") if p.is_file())
    assert after == before and not rec.of(events.MemoryChanged)
    assert "plugins.slots.memory" in result.text


def test_a_group_session_key_can_neither_restore_memory_md_nor_list_its_history(workspace: Path, capsys) -> None:
    from openclaw_tui import cli
    from openclaw_tui.records.history import ChangeOrigin, MemoryHistory
    from openclaw_tui.tools.files import FileTools

    (workspace / "MEMORY.md").write_text("# Memory\n\n- private: the door code is 4711\n")
    (workspace / "memory" / "shared").mkdir(parents=True, exist_ok=True)
    settings = resolve_agent(load_config(None), workspace=str(workspace))
    tools = FileTools(workspace, history=MemoryHistory.for_agent(settings.agent_dir), origin=lambda: ChangeOrigin("model", "s", 1))
    assert tools.append({"path": "MEMORY.md", "content": "- private: the safe code is 9090"})["ok"]
    assert tools.write({"path": "memory/shared/team.md", "content": "- standup at ten\n"})["ok"]
    after = (workspace / "MEMORY.md").read_bytes()
    group = ["--workspace", str(workspace), "--session-key", "agent:main:discord:group:42"]
    capsys.readouterr()

    assert cli.main([*group, "memory", "restore", "MEMORY.md", "--yes"]) == 1
    assert "private" in capsys.readouterr().err
    assert (workspace / "MEMORY.md").read_bytes() == after
    assert cli.main([*group, "memory", "history", "MEMORY.md"]) == 1
    assert "private" in capsys.readouterr().err
    assert cli.main([*group, "memory", "history", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [e["path"] for e in listed] == ["memory/shared/team.md"]  # the shared tier stays visible
    assert cli.main([*group, "memory", "restore", "memory/shared/team.md", "--yes"]) == 0
    capsys.readouterr()
    # the same commands in a direct session still work
    assert cli.main(["--workspace", str(workspace), "memory", "history", "--json"]) == 0
    assert {e["path"] for e in json.loads(capsys.readouterr().out)} == {"MEMORY.md", "memory/shared/team.md"}
    assert cli.main(["--workspace", str(workspace), "memory", "restore", "MEMORY.md", "--yes"]) == 0
    assert b"9090" not in (workspace / "MEMORY.md").read_bytes()


def test_the_tuis_restore_plan_refuses_a_private_file_to_a_group_key(workspace: Path) -> None:
    """``/memory restore`` and ``/memory history`` go through the same plan and scope."""
    import pytest

    from openclaw_tui.records.history import ChangeOrigin, MemoryHistory
    from openclaw_tui.records.history_scope import visible
    from openclaw_tui.records.restore_plan import plan_restore
    from openclaw_tui.tools.files import FileTools
    from openclaw_tui.workspace.guard import PathRefused

    (workspace / "MEMORY.md").write_text("# Memory\n\n- the door code is 4711\n")
    history = MemoryHistory(workspace.parent / "hist")
    tools = FileTools(workspace, history=history, origin=lambda: ChangeOrigin("model", "s", 1))
    assert tools.append({"path": "MEMORY.md", "content": "- the safe code is 9090"})["ok"]
    assert tools.append({"path": "memory/2026-01-05.md", "content": "- a private day"})["ok"]
    group = "agent:main:telegram:group:7"
    with pytest.raises(PathRefused, match="private"):
        plan_restore(workspace, history, "MEMORY.md", session_key=group)
    assert visible(workspace, group, history.entries()) == []  # MEMORY.md and the private tier of memory/
    assert plan_restore(workspace, history, "MEMORY.md", session_key="agent:main:main").entry.path == "MEMORY.md"
    assert len(visible(workspace, "agent:main:main", history.entries())) == 2
