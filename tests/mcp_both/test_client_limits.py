"""MCP servers held to our own tools' rules (issue 36, item 1): one size cap on a result,
caps on the schemas a server may put into every request, a stderr log that keeps no
configured secret and cannot grow without bound, and only read-only tools in `ro` and
group sessions. Each runs a real MCP server subprocess (tests/fakes/mcp_server.py)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from openclaw_tui import events
from openclaw_tui.mcp.names import MAX_RESULT_CHARS, MAX_SERVER_SCHEMA_CHARS, MAX_TOTAL_SCHEMA_CHARS
from openclaw_tui.mcp.stderr_log import MAX_LOG_BYTES
from tests.fakes.chat_server import ChatServer
from tests.mcp_both.test_client import engine, fake, offered, server  # noqa: F401 - the chat server fixture
from tests.session.conftest import Recorder

TOKEN = "tok-Zq81-abcdefghijklmnop"


async def test_structured_content_is_capped_like_text(workspace: Path, server: ChatServer) -> None:
    """Empty text and 3 MB of structured content: the model and the transcript get at most the cap."""
    rec = Recorder()
    server.push({"tool_calls": [{"name": "fake__big", "arguments": {"chars": 3_000_000}}]}, {"text": "Big."})
    eng = engine(workspace, server, rec, {"fake": fake()})
    try:
        await eng.send("Get the big thing.")
        transcript = eng.transcript_path
    finally:
        eng.close()
    content = server.chat_requests()[-1]["messages"][-1]["content"]
    assert len(content) <= MAX_RESULT_CHARS
    sent = json.loads(content)
    assert sent["truncated"] is True and "structuredContent" not in sent and sent["text"].startswith('{"blob": "xxx')
    assert transcript.stat().st_size < 3 * MAX_RESULT_CHARS


async def test_schemas_are_capped_per_server_and_the_dropped_tools_named(workspace: Path, server: ChatServer) -> None:
    rec = Recorder()
    server.push({"text": "ok"})
    eng = engine(workspace, server, rec, {"fake": fake(), "bulk": fake("--many-tools", "60", timeout=60)})
    try:
        await eng.send("hello")
    finally:
        eng.close()
    tools = server.chat_requests()[0]["tools"]
    bulk = [t for t in tools if t["function"]["name"].startswith("bulk__bulk_")]
    assert 0 < len(json.dumps(bulk)) <= MAX_SERVER_SCHEMA_CHARS
    mcp_tools = [t for t in tools if "__" in t["function"]["name"]]
    assert len(json.dumps(mcp_tools)) <= MAX_TOTAL_SCHEMA_CHARS
    assert "fake__echo" in offered(server.chat_requests()[0])  # the small server keeps its tools
    trimmed = [e for e in rec.of(events.McpServerChanged) if e.state == "trimmed"]
    assert [e.server for e in trimmed] == ["bulk"]
    assert "bulk_001" in trimmed[0].message and "bulk_000" not in trimmed[0].message
    assert f"{60 - len(bulk)} tools not offered" in trimmed[0].message and "more" in trimmed[0].message


async def test_the_stderr_log_is_redacted_owner_only_and_capped(workspace: Path, server: ChatServer, state_dir: Path) -> None:
    rec = Recorder()
    server.push({"text": "ok"})
    noisy = fake("--stderr-bytes", str(3 * MAX_LOG_BYTES), env={"FAKE_TOKEN": TOKEN}, timeout=60)
    eng = engine(workspace, server, rec, {"noisy": noisy})
    try:
        await eng.send("hello")
    finally:
        eng.close()
    folder = state_dir / "mcp"
    logs = sorted(folder.glob("noisy.stderr.log*"))
    assert [p.name for p in logs] == ["noisy.stderr.log", "noisy.stderr.log.1"]
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for log in logs:
        assert stat.S_IMODE(log.stat().st_mode) == 0o600
        assert log.stat().st_size <= MAX_LOG_BYTES
        assert TOKEN not in log.read_text(encoding="utf-8")
    assert "still using token ***" in logs[0].read_text(encoding="utf-8")


async def test_a_read_only_session_gets_only_read_only_mcp_tools(workspace: Path, server: ChatServer) -> None:
    rec = Recorder()
    before = (workspace / "MEMORY.md").read_text(encoding="utf-8")
    server.push({"tool_calls": [{"name": "fake__scribble", "arguments": {"path": str(workspace / "MEMORY.md"), "text": "gone"}}]},
                {"text": "done"})
    eng = engine(workspace, server, rec, {"fake": fake()}, access="ro")
    try:
        await eng.send("what do the fake tools offer here?")  # a file change itself is refused before any model call
    finally:
        eng.close()
    names = [n for n in offered(server.chat_requests()[0]) if n.startswith("fake__")]
    assert names == ["fake__peek"]
    assert (workspace / "MEMORY.md").read_text(encoding="utf-8") == before
    assert "not available" in (rec.of(events.ToolResult)[0].error or "")


async def test_a_group_session_gets_no_mcp_tools(workspace: Path, server: ChatServer) -> None:
    rec = Recorder()
    server.push({"tool_calls": [{"name": "fake__peek", "arguments": {"path": str(workspace / "MEMORY.md")}}]}, {"text": "done"})
    eng = engine(workspace, server, rec, {"fake": fake()}, session_key="agent:main:discord:group:42")
    try:
        await eng.send("read MEMORY.md")
        why = eng.mcp.why_off()
    finally:
        eng.close()
    assert not any(n.startswith("fake__") for n in offered(server.chat_requests()[0]))
    assert "teal" not in json.dumps(server.chat_requests()[-1]["messages"])
    assert why is not None and "group" in why
    assert rec.of(events.McpServerChanged) == []  # not offered: not started


async def test_a_closed_workspace_gets_no_mcp_tools(workspace: Path, server: ChatServer) -> None:
    rec = Recorder()
    server.push({"text": "done"})
    eng = engine(workspace, server, rec, {"fake": fake()}, access="none")
    try:
        await eng.send("read MEMORY.md")
        why = eng.mcp.why_off()
    finally:
        eng.close()
    assert not any(n.startswith("fake__") for n in offered(server.chat_requests()[0]))
    assert why is not None and "--workspace-access none" in why
    assert rec.of(events.McpServerChanged) == []
