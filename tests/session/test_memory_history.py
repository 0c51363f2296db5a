"""A scripted model (real HTTP) against MEMORY.md: blind overwrite refused, read-then-write kept
in the history, `memory history` / `memory restore` bring the exact bytes back."""

from __future__ import annotations

import json
from pathlib import Path

from openclaw_tui import cli, events
from openclaw_tui.records.history import MemoryHistory
from tests.session.test_engine_server import engine_for

CURATED = "# Memory\n\n## People\n- Dana owns billing.\n\n## Decisions\n- PostgreSQL 16 for billing.\n- Deploys on Tuesdays.\n"
BLIND = {"path": "MEMORY.md", "content": "## Favourite Color\n teal-4711"}


def _tool_messages(server) -> list[dict]:
    return [m for m in server.chat_requests()[-1]["messages"] if m.get("role") == "tool"]


async def test_blind_write_as_first_action_is_refused_and_memory_is_byte_identical(make_settings, server, recorder, workspace: Path) -> None:
    (workspace / "MEMORY.md").write_text(CURATED)
    before = (workspace / "MEMORY.md").read_bytes()
    server.push({"tool_calls": [{"name": "write", "arguments": BLIND}]}, {"text": "Noted."})
    eng = engine_for(make_settings, server, recorder)
    await eng.send("Remember that my favourite colour is teal-4711.")
    assert (workspace / "MEMORY.md").read_bytes() == before
    refusal = json.loads(_tool_messages(server)[0]["content"])
    assert refusal["refused"] and "read MEMORY.md" in refusal["error"]
    assert "edit" in refusal["error"] and "append" in refusal["error"]
    assert not recorder.of(events.MemoryChanged)
    assert MemoryHistory.for_agent(eng.settings.agent_dir).entries() == []
    eng.close()


async def test_read_then_write_is_kept_and_restore_returns_the_exact_bytes(make_settings, server, recorder, workspace: Path, capsys) -> None:
    original = (CURATED + "- trailing spaces kept   \r\n- no final newline").encode()
    (workspace / "MEMORY.md").write_bytes(original)
    grown = original.decode() + "\n- Favourite colour: teal-4711\n"
    server.push(
        {"tool_calls": [{"name": "read", "arguments": {"path": "MEMORY.md"}}]},
        {"tool_calls": [{"name": "write", "arguments": {"path": "MEMORY.md", "content": grown}}]},
        {"text": "Saved."},
    )
    eng = engine_for(make_settings, server, recorder)
    await eng.send("Remember that my favourite colour is teal-4711.")
    assert (workspace / "MEMORY.md").read_bytes() == grown.encode()
    change = recorder.of(events.MemoryChanged)[0]
    write_call = [e for e in recorder.of(events.ToolCalled) if e.name == "write"][0]
    assert change.call_id == write_call.call_id and change.tool == "write" and change.path == "MEMORY.md"
    assert "+- Favourite colour: teal-4711" in change.diff and change.summary == "+1 −0 · +- Favourite colour: teal-4711"
    entry = MemoryHistory.for_agent(eng.settings.agent_dir).entries()[-1]
    assert (entry.id, entry.session_id, entry.turn, entry.actor) == (change.entry_id, eng.session_id, 1, "model")
    eng.close()

    args = ["--workspace", str(workspace)]
    assert cli.main([*args, "memory", "history", "MEMORY.md"]) == 0
    listed = capsys.readouterr().out
    assert entry.id in listed and "write" in listed and f"session {eng.session_id[:8]} turn 1" in listed
    # issue 37: the writer and the text of the change, not only "+1 −0"
    assert f"model (session {eng.session_id[:8]} turn 1)" in listed and "+- Favourite colour: teal-4711" in listed
    assert cli.main([*args, "memory", "restore", "MEMORY.md"]) == 0
    assert f"restored to the version before {entry.id}" in capsys.readouterr().out
    assert (workspace / "MEMORY.md").read_bytes() == original
    assert cli.main([*args, "memory", "history", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(e["tool"], e["actor"], e["undoes"]) for e in listed] == [("restore", "user", entry.id), ("write", "model", None)]
    # the restore itself is a change: restoring "before the restore" brings the model's version back
    assert cli.main([*args, "memory", "restore", "MEMORY.md", "--to", listed[0]["id"][:6]]) == 0
    assert (workspace / "MEMORY.md").read_bytes() == grown.encode()


async def test_shrinking_write_after_a_read_is_refused(make_settings, server, recorder, workspace: Path) -> None:
    (workspace / "MEMORY.md").write_text(CURATED)
    before = (workspace / "MEMORY.md").read_bytes()
    server.push(
        {"tool_calls": [{"name": "read", "arguments": {"path": "MEMORY.md"}}]},
        {"tool_calls": [{"name": "write", "arguments": BLIND}]},
        {"text": "ok"},
    )
    eng = engine_for(make_settings, server, recorder)
    await eng.send("Remember that my favourite colour is teal-4711.")
    assert (workspace / "MEMORY.md").read_bytes() == before
    refusal = json.loads(_tool_messages(server)[-1]["content"])
    assert "shrink MEMORY.md" in refusal["error"] and "edit" in refusal["error"] and "append" in refusal["error"]
    eng.close()


def test_restore_errors_are_one_line(workspace: Path, capsys) -> None:
    args = ["--workspace", str(workspace)]
    assert cli.main([*args, "memory", "restore", "MEMORY.md"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("openclaw-tui: error: no history for MEMORY.md") and "\n" not in err
    assert cli.main([*args, "memory", "restore", "../etc/passwd"]) == 1
    assert "'..' is refused" in capsys.readouterr().err
    assert cli.main([*args, "memory", "history"]) == 0
    assert "no memory changes recorded yet" in capsys.readouterr().out


async def test_history_names_the_engine_s_notes_and_their_text(make_settings, recorder, workspace: Path, capsys) -> None:
    """Issue 37: engine notes were listed as "model session … turn N" with "+1 −0" and no text."""
    from openclaw_tui.session.engine import SessionEngine

    eng = SessionEngine(make_settings(model="offline"), sink=recorder)
    done = await eng.send("My cat Pixel is 7 years old.")
    eng.close()
    assert any(workspace.rglob("*.md")) and "Pixel" in "".join(p.read_text() for p in workspace.rglob("*.md")), done.text
    entry = MemoryHistory.for_agent(eng.settings.agent_dir).entries()[-1]
    assert (entry.actor, entry.writer) == ("model", "engine note")
    assert cli.main(["--workspace", str(workspace), "memory", "history"]) == 0
    listed = capsys.readouterr().out
    assert f"engine note (session {eng.session_id[:8]} turn 1)" in listed, listed
    assert "Pixel is 7 years old" in listed, listed
