"""MCP servers offered to our model: the engine runs a real MCP server subprocess (written
with the SDK, tests/fakes/mcp_server.py) and talks to a scripted chat model over litellm."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from openclaw_tui import events
from openclaw_tui.config import load_config, resolve_agent
from openclaw_tui.session.engine import SessionEngine
from tests.fakes.chat_server import ChatServer
from tests.mcp_both.conftest import FAKE_SERVER, cli_args, start_http
from tests.session.conftest import FAST_RETRY, Recorder

MODEL = "openai/fake-model"


def fake(*flags: str, timeout: float = 20, **extra: Any) -> dict[str, Any]:
    return {"command": sys.executable, "args": [str(FAKE_SERVER), *flags], "timeoutSeconds": timeout, **extra}


@pytest.fixture
def server():
    with ChatServer() as srv:
        yield srv


def engine(workspace: Path, server: ChatServer, recorder: Recorder, servers: dict[str, Any], **kw: Any) -> SessionEngine:
    overrides: dict[str, Any] = {"mcp": {"servers": servers}}
    if kw.get("defaults"):
        overrides["agents"] = {"defaults": kw["defaults"]}
    settings = resolve_agent(load_config(None, overrides=overrides), workspace=workspace, model=MODEL, api_base=server.base_url,
                             api_key="sk-test-0123456789", workspace_access=kw.get("access"),
                             session_key=kw.get("session_key"))
    return SessionEngine(settings, sink=recorder, retry_policy=FAST_RETRY)


def offered(request: dict[str, Any]) -> list[str]:
    return [t["function"]["name"] for t in request.get("tools") or []]


def mcp_events(recorder: Recorder) -> list[tuple[str, str]]:
    return [(e.server, e.state) for e in recorder.of(events.McpServerChanged)]


async def test_a_tool_is_listed_called_and_its_result_reaches_the_model(workspace: Path, server: ChatServer) -> None:
    rec = Recorder()
    server.push({"tool_calls": [{"name": "fake__echo", "arguments": {"text": "hello"}}]}, {"text": "The server said hello."})
    eng = engine(workspace, server, rec, {"fake": fake(env={"FAKE_MCP_TAG": " [env ok]"})})
    try:
        result = await eng.send("Ask the fake server to echo hello.")
    finally:
        eng.close()
    assert result.text == "The server said hello." and result.error is None
    first, second = server.chat_requests()
    assert {"fake__echo", "fake__add", "fake__hang", "fake__crash", "memory_search", "read"} <= set(offered(first))
    echo = next(t for t in first["tools"] if t["function"]["name"] == "fake__echo")
    assert echo["function"]["description"] == "Echo the text back." and "text" in echo["function"]["parameters"]["properties"]
    tool_msg = second["messages"][-1]
    assert tool_msg["role"] == "tool" and tool_msg["name"] == "fake__echo"
    assert json.loads(tool_msg["content"]) == {"server": "fake", "tool": "echo", "text": "echo: hello [env ok]"}
    assert [e.name for e in rec.of(events.ToolCalled)] == ["fake__echo"]
    assert rec.of(events.ToolResult)[0].error is None
    assert mcp_events(rec) == [("fake", "ready")] and rec.of(events.McpServerChanged)[0].tools == 8


async def test_a_crashing_server_does_not_end_the_session(workspace: Path, server: ChatServer) -> None:
    rec = Recorder()
    server.push(
        {"tool_calls": [{"name": "fake__crash", "arguments": {}}]}, {"text": "The tool broke; carrying on."},
        {"text": "Still here."},
    )
    eng = engine(workspace, server, rec, {"fake": fake()})
    try:
        first = await eng.send("Crash the server.")
        second = await eng.send("Are you there?")
        rows = eng.mcp.status()
    finally:
        eng.close()
    assert first.text == "The tool broke; carrying on." and second.text == "Still here." and second.error is None
    result = rec.of(events.ToolResult)[0]
    assert result.error == "MCP server fake stopped during the call"
    changed = rec.of(events.McpServerChanged)
    assert [(e.server, e.state) for e in changed] == [("fake", "ready"), ("fake", "stopped")]  # one line for the crash
    assert "crashing on purpose" in changed[1].message  # its last stderr line says why
    assert not any(n.startswith("fake__") for n in offered(server.chat_requests()[-1]))  # its tools are gone
    assert rows[0]["state"] == "stopped" and not rows[0]["offered"]


async def test_a_hanging_tool_times_out(workspace: Path, server: ChatServer) -> None:
    rec = Recorder()
    server.push({"tool_calls": [{"name": "fake__hang", "arguments": {"seconds": 60}}]}, {"text": "It timed out."},
                {"tool_calls": [{"name": "fake__add", "arguments": {"a": 2, "b": 3}}]}, {"text": "5"})
    eng = engine(workspace, server, rec, {"fake": fake(timeout=1.5, startupTimeoutSeconds=60)})
    try:
        started = time.monotonic()
        result = await eng.send("Wait for the server.")
        took = time.monotonic() - started
        after = await eng.send("Add 2 and 3.")
    finally:
        eng.close()
    assert result.text == "It timed out." and took < 20
    assert rec.of(events.ToolResult)[0].error == "hang timed out after 1.5s"
    assert after.text == "5" and json.loads(server.chat_requests()[-1]["messages"][-1]["content"])["text"] == "5"
    assert mcp_events(rec) == [("fake", "ready")]  # a timeout is the call's error, the server stays


async def test_servers_that_fail_to_start_are_one_line_each(workspace: Path, server: ChatServer) -> None:
    rec = Recorder()
    servers = {"fake": fake(), "broken": fake("--exit-at-start"), "stuck": fake("--hang-at-start", timeout=1),
               "missing": {"command": "/nonexistent/mcp-server"}}
    server.push({"text": "hi"})
    eng = engine(workspace, server, rec, servers)
    try:
        result = await eng.send("hello")
    finally:
        eng.close()
    assert result.text == "hi" and result.error is None
    changed = {e.server: e for e in rec.of(events.McpServerChanged)}
    assert len(rec.of(events.McpServerChanged)) == 4
    assert changed["fake"].state == "ready"
    assert changed["broken"].state == "failed" and "closed before it was ready" in changed["broken"].message
    assert "missing FAKE_TOKEN" in changed["broken"].message
    assert changed["stuck"].state == "failed" and "did not start within 1s" in changed["stuck"].message
    assert changed["missing"].state == "failed" and "not found" in changed["missing"].message
    names = offered(server.chat_requests()[0])
    assert "fake__echo" in names and not any(n.startswith(("broken__", "stuck__", "missing__")) for n in names)


@pytest.mark.parametrize("defaults,access,expected", [
    ({"toolProfile": "local"}, None, False),
    ({"toolProfile": "local", "mcp": {"local": True}}, None, True),
    ({}, "none", False),
])
async def test_who_is_offered_mcp_tools(workspace: Path, server: ChatServer, defaults: dict[str, Any], access: str | None,
                                        expected: bool) -> None:
    rec = Recorder()
    server.push({"text": "ok"})
    eng = engine(workspace, server, rec, {"fake": fake()}, defaults=defaults, access=access)
    try:
        await eng.send("hello")
        why = eng.mcp.why_off()
    finally:
        eng.close()
    names = offered(server.chat_requests()[0])
    assert ("fake__echo" in names) is expected
    assert (mcp_events(rec) == [("fake", "ready")]) is expected  # not offered: not even started
    assert (why is None) is expected


async def test_our_own_memory_server_over_http_is_a_url_server(workspace: Path, server: ChatServer, child_env: dict[str, str],
                                                              tmp_path: Path) -> None:
    """Both ways at once: a second workspace served by `mcp serve --http`, used by this session as `url`."""
    other = tmp_path / "other-ws"
    (other / "memory").mkdir(parents=True)
    (other / "memory" / "2026-02-02.md").write_text("- The other agent's printer is on floor 3.\n")
    proc, url = start_http(child_env, cli_args(other, "mcp", "serve", "--http", "127.0.0.1:0"))
    rec = Recorder()
    server.push({"tool_calls": [{"name": "shared__memory_search", "arguments": {"query": "printer floor"}}]}, {"text": "Floor 3."})
    try:
        eng = engine(workspace, server, rec, {"shared": {"url": url, "headers": {"X-Client": "openclaw-tui"}, "timeoutSeconds": 30}})
        try:
            result = await eng.send("Where is the printer?")
            rows = eng.mcp.status()
        finally:
            eng.close()
    finally:
        proc.terminate()
        proc.wait(10)
    assert result.text == "Floor 3."
    assert rows[0]["transport"] == "http" and rows[0]["tools"] == ["memory_search", "memory_get", "memory_status"]
    sent = json.loads(server.chat_requests()[-1]["messages"][-1]["content"])
    hits = json.loads(sent["text"])["results"]
    assert sent["server"] == "shared" and hits[0]["path"] == "memory/2026-02-02.md" and "floor 3" in hits[0]["snippet"]


async def test_the_offline_agent_starts_no_servers(workspace: Path) -> None:
    rec = Recorder()
    settings = resolve_agent(load_config(None, overrides={"mcp": {"servers": {"fake": fake()}}}), workspace=workspace, model="offline")
    eng = SessionEngine(settings, sink=rec, retry_policy=FAST_RETRY)
    try:
        await eng.send("hello")
        rows = eng.mcp.status()
    finally:
        eng.close()
    assert rec.of(events.McpServerChanged) == []
    assert rows[0]["state"] == "not started" and "offline agent" in rows[0]["message"]
