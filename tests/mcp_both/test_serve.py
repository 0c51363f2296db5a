"""``openclaw-tui mcp serve`` driven by the official SDK's client, over stdio (a subprocess)
and streamable HTTP: the answers are what ``openclaw-tui memory … --json`` prints."""

from __future__ import annotations

import json
import subprocess
import sys
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from openclaw_tui.workspace.daily import daily_rel
from tests.mcp_both.conftest import GROUP_KEY, cli_args, cli_json, without_timing


@asynccontextmanager
async def serving(env: dict[str, str], args: list[str], tmp_path: Path, mode: str = "auto") -> AsyncIterator[Client]:
    log = open(tmp_path / "serve.stderr", "w", encoding="utf-8")  # noqa: SIM115
    params = StdioServerParameters(command=sys.executable, args=args, env=env)
    try:
        async with Client(stdio_client(params, errlog=log), read_timeout_seconds=60, mode=mode) as client:
            yield client
    finally:
        log.close()


async def call(client: Client, name: str, args: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    res = await client.call_tool(name, args)
    payload = json.loads(res.content[0].text)
    assert res.structured_content == payload  # the same object, structured and as text
    return payload, bool(res.is_error)


async def tool_names(client: Client) -> list[str]:
    return [t.name for t in (await client.list_tools()).tools]


async def test_stdio_search_and_get_equal_the_cli(workspace: Path, child_env: dict[str, str], tmp_path: Path) -> None:
    async with serving(child_env, cli_args(workspace, "mcp", "serve"), tmp_path) as client:
        assert await tool_names(client) == ["memory_search", "memory_get", "memory_status"]
        assert client.server_info.name == "openclaw-tui-memory"
        found, err = await call(client, "memory_search", {"query": "favourite colour", "maxResults": 3})
        got, get_err = await call(client, "memory_get", {"path": "MEMORY.md", "from": 3, "lines": 1})
        status, _ = await call(client, "memory_status", {})
    assert not err and not get_err
    cli_found = cli_json(child_env, cli_args(workspace, "memory", "search", "favourite colour", "--max-results", "3"))
    assert without_timing(found) == without_timing(cli_found)
    hit = found["results"][0]
    assert hit["path"] == "MEMORY.md" and hit["citation"].startswith("MEMORY.md#L") and "teal" in hit["snippet"]
    assert got == cli_json(child_env, cli_args(workspace, "memory", "get", "MEMORY.md", "--from", "3", "--lines", "1"))
    assert got["text"] == "- The user's favourite colour is teal."
    assert status["files"] == 2 and status["backend"] == "builtin"


async def test_an_older_protocol_client_is_served(workspace: Path, child_env: dict[str, str], tmp_path: Path) -> None:
    """Clients on the handshake-era protocol (Claude Code, Codex, opencode today) get the same tools."""
    async with serving(child_env, cli_args(workspace, "mcp", "serve"), tmp_path, mode="legacy") as client:
        assert client.protocol_version < "2026"
        assert "memory_search" in await tool_names(client)
        found, err = await call(client, "memory_search", {"query": "Falcon launch"})
    assert not err and found["results"][0]["path"] == "MEMORY.md"


async def test_group_key_never_sees_memory_md(workspace: Path, child_env: dict[str, str], tmp_path: Path) -> None:
    args = cli_args(workspace, "mcp", "serve", "--allow-append", session_key=GROUP_KEY)
    async with serving(child_env, args, tmp_path) as client:
        found, _ = await call(client, "memory_search", {"query": "favourite colour teal Falcon"})
        daily, _ = await call(client, "memory_search", {"query": "SQLite FTS5 billing"})
        got, get_err = await call(client, "memory_get", {"path": "MEMORY.md"})
        lower, lower_err = await call(client, "memory_get", {"path": "./MEMORY.md"})
        status, _ = await call(client, "memory_status", {})
    assert all(r["path"] != "MEMORY.md" for r in found["results"])
    assert "teal" not in json.dumps(found) and "teal" not in json.dumps(got) and "teal" not in json.dumps(lower)
    assert get_err and lower_err and got["text"] == ""
    assert "FTS5" not in json.dumps(daily)  # a direct session's daily log is private too (issue 35)
    assert "teal" not in json.dumps(status)
    cli_found = cli_json(child_env, cli_args(workspace, "memory", "search", "favourite colour teal Falcon", session_key=GROUP_KEY))
    assert without_timing(found) == without_timing(cli_found)


async def test_append_is_refused_without_the_flag(workspace: Path, child_env: dict[str, str], tmp_path: Path) -> None:
    async with serving(child_env, cli_args(workspace, "mcp", "serve"), tmp_path) as client:
        assert "memory_append" not in await tool_names(client)
        res, err = await call(client, "memory_append", {"text": "- should not be written"})
    assert err and "--allow-append" in res["error"]
    assert not (workspace / daily_rel()).exists()


async def test_append_is_refused_in_ro(workspace: Path, child_env: dict[str, str], tmp_path: Path) -> None:
    args = cli_args(workspace, "mcp", "serve", "--allow-append", access="ro")
    async with serving(child_env, args, tmp_path) as client:
        assert "memory_append" not in await tool_names(client)
        res, err = await call(client, "memory_append", {"text": "- should not be written"})
        found, search_err = await call(client, "memory_search", {"query": "favourite colour"})
    assert err and "ro" in res["error"]
    assert not search_err and found["results"]  # reading still works
    assert not (workspace / daily_rel()).exists()
    assert "--allow-append ignored" in (tmp_path / "serve.stderr").read_text()


async def test_append_keeps_history_and_is_found_at_once(workspace: Path, child_env: dict[str, str], tmp_path: Path) -> None:
    async with serving(child_env, cli_args(workspace, "mcp", "serve", "--allow-append"), tmp_path) as client:
        assert "memory_append" in await tool_names(client)
        res, err = await call(client, "memory_append", {"text": "- The user plays the bandoneon on Sundays."})
        found, _ = await call(client, "memory_search", {"query": "bandoneon"})
        other, other_err = await call(client, "memory_append", {"text": "   "})
    assert not err and res == {"path": daily_rel(), "ok": True, "linesAppended": 1}
    assert (workspace / daily_rel()).read_text() == "- The user plays the bandoneon on Sundays.\n"
    assert found["results"][0]["path"] == daily_rel()
    assert other_err and "non-empty" in other["error"]
    entries = cli_json(child_env, cli_args(workspace, "memory", "history", daily_rel()))
    assert [(e["tool"], e["before"], e["actor"]) for e in entries] == [("append", None, "model")]
    assert entries[0]["session_id"].startswith("mcp-")  # `memory restore` can take it back


@pytest.mark.parametrize("path", ["../outside.md", "/etc/passwd", "memory/../../outside.md", "memory/../MEMORY.md/../../outside.md"])
async def test_traversal_paths_are_refused(workspace: Path, child_env: dict[str, str], tmp_path: Path, path: str) -> None:
    async with serving(child_env, cli_args(workspace, "mcp", "serve"), tmp_path) as client:
        res, err = await call(client, "memory_get", {"path": path})
        assert "memory_search" in await tool_names(client)  # the server is still there
    assert err and res["text"] == "" and "refused" in res["error"]
    assert "secret outside" not in json.dumps(res)


async def test_a_broken_index_is_a_tool_error_not_a_dead_server(workspace: Path, child_env: dict[str, str], tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the index folder should be\n")
    config = tmp_path / "openclaw.json"
    config.write_text(json.dumps({"agents": {"defaults": {"memorySearch": {"store": {"path": str(blocker / "index.sqlite")}}}}}))
    async with serving(child_env, cli_args(workspace, "mcp", "serve", config=config), tmp_path) as client:
        res, err = await call(client, "memory_search", {"query": "teal"})
        again, again_err = await call(client, "memory_search", {"query": "teal"})
        assert await tool_names(client) == ["memory_search", "memory_get", "memory_status"]
    assert err and again_err
    assert res["error"] and again["error"]


async def test_the_index_stays_fresh_while_serving(workspace: Path, child_env: dict[str, str], tmp_path: Path) -> None:
    async with serving(child_env, cli_args(workspace, "mcp", "serve"), tmp_path) as client:
        before, _ = await call(client, "memory_search", {"query": "marimba"})
        (workspace / "memory" / "2026-01-06.md").write_text("- Bought a marimba for the studio.\n")
        after, _ = await call(client, "memory_search", {"query": "marimba"})
    assert before["results"] == []
    assert [r["path"] for r in after["results"]] == ["memory/2026-01-06.md"]


async def test_bad_arguments_are_errors_not_crashes(workspace: Path, child_env: dict[str, str], tmp_path: Path) -> None:
    async with serving(child_env, cli_args(workspace, "mcp", "serve"), tmp_path) as client:
        empty = await client.call_tool("memory_search", {"query": "   "})
        unknown = await client.call_tool("memory_delete", {"path": "MEMORY.md"})
        found, err = await call(client, "memory_search", {"query": "teal"})
    assert empty.is_error and unknown.is_error
    assert not err and found["results"]  # the server answers on
    assert (workspace / "MEMORY.md").read_text().startswith("# Long-term memory")


def test_access_none_serves_nothing(workspace: Path, child_env: dict[str, str]) -> None:
    out = subprocess.run([sys.executable, *cli_args(workspace, "mcp", "serve", access="none")],
                         env=child_env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "--workspace-access none: there is no memory to serve" in out.stderr
    assert out.stdout == ""


def test_http_must_be_loopback(workspace: Path, child_env: dict[str, str]) -> None:
    out = subprocess.run([sys.executable, *cli_args(workspace, "mcp", "serve", "--http", "0.0.0.0:8765")],
                         env=child_env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "loopback" in out.stderr and out.stdout == ""
