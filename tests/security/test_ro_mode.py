"""Read-only workspace: a scripted session tries every way to write; every workspace file
hashes the same before and after (and no file appears or disappears)."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

from openclaw_tui import events
from openclaw_tui.config import load_config, resolve_agent
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.workspace.daily import daily_rel
from tests.faults.conftest import SENTINEL


def hashes(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    } | {p.relative_to(root).as_posix() + "/": "dir" for p in root.rglob("*") if p.is_dir()}


def test_ro_session_that_tries_to_write_changes_nothing(workspace: Path, server, tmp_path: Path) -> None:
    today = daily_rel()
    (workspace / today).write_text("- today's note\n")
    (workspace / "memory" / "2026-01-01.md").write_text("- an old note: the logo is teal\n")
    before = hashes(workspace)

    attempts = [
        ("write", {"path": "MEMORY.md", "content": "overwritten"}),
        ("write", {"path": "memory/new-note.md", "content": "new"}),
        ("write", {"path": "brand/new/dir/file.md", "content": "new"}),
        ("edit", {"path": "USER.md", "old_text": "#", "new_text": "pwned"}),
        ("edit", {"path": today, "old_text": "today's note", "new_text": "changed"}),
        ("append", {"path": today, "content": "- appended"}),
        ("append", {"path": "memory/2099-01-01.md", "content": "- future"}),
        ("append", {"path": "MEMORY.md", "content": "- durable"}),
    ]
    script = [{"tool_calls": [{"name": name, "arguments": args} for name, args in attempts]}, {"text": "I could not write anything."}]
    server.push(*script)

    def responder(req: dict) -> dict:
        # a flush (if one ever ran in ro mode) would try to append; compaction gets a summary
        if "Session nearing compaction" in req["messages"][0]["content"]:
            if req["messages"][-1]["role"] == "user":
                return {"tool_calls": [{"name": "append", "arguments": {"path": today, "content": "- flushed"}}]}
            return {"text": "NO_REPLY"}
        return {"text": "second answer"} if req.get("tools") else {"text": "## Goal\nsummary"}

    server.responder = responder

    cfg = load_config(None, overrides={"agents": {"defaults": {"contextTokens": 50_000}}})
    settings = resolve_agent(
        cfg, workspace=str(workspace), workspace_access="ro", model="openai/fake-model", api_base=server.base_url, api_key=SENTINEL
    )
    seen: list[events.Event] = []
    eng = SessionEngine(settings, sink=seen.append)

    async def session() -> None:
        r1 = await eng.send("please update all my notes and memory")
        said, _, refused = r1.text.partition("\n\n")
        assert said == "I could not write anything."
        assert "Not written to MEMORY.md: the workspace is read-only (--workspace-access ro)." in refused
        await eng.flush()
        await eng.compact()
        r2 = await eng.send("and now?")
        assert r2.error is None and r2.text == "second answer"

    try:
        asyncio.run(session())
    finally:
        eng.close()

    assert hashes(workspace) == before
    refused = [e for e in seen if isinstance(e, events.AccessRefused)]
    assert len(refused) >= len(attempts)
    results = [e for e in seen if isinstance(e, events.ToolResult)]
    assert results and all(e.error and "refused" in e.error for e in results)
    flush = [e for e in seen if isinstance(e, events.FlushFinished)]
    assert flush and flush[-1].skipped_reason and "ro" in flush[-1].skipped_reason
    # memory tools still read in ro mode
    assert "memory_get" in {s["function"]["name"] for s in server.chat_requests()[0]["tools"]}
