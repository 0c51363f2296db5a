"""``mcp serve --http``: streamable HTTP on loopback, with the SDK's client, and the Host /
Origin checks that keep a web page (DNS rebinding) out."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import httpx
import pytest
from mcp import Client

from tests.mcp_both.conftest import GROUP_KEY, cli_args, cli_json, start_http, without_timing

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "0"}}}
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


@pytest.fixture
def served(workspace: Path, child_env: dict[str, str]) -> Iterator[str]:
    (workspace / "memory" / "shared").mkdir()  # a group session's notes: the tier a group key sees (issue 35)
    (workspace / "memory" / "shared" / "2026-01-05.md").write_text("- The standup rota for billing is on the wiki.\n")
    proc, url = start_http(child_env, cli_args(workspace, "mcp", "serve", "--http", "127.0.0.1:0", session_key=GROUP_KEY))
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


async def test_http_search_and_get_equal_the_cli(served: str, workspace: Path, child_env: dict[str, str]) -> None:
    async with Client(served, read_timeout_seconds=60) as client:
        names = [t.name for t in (await client.list_tools()).tools]
        found = (await client.call_tool("memory_search", {"query": "SQLite billing"})).structured_content
        got = (await client.call_tool("memory_get", {"path": "memory/shared/2026-01-05.md", "lines": 2})).structured_content
        private = await client.call_tool("memory_get", {"path": "MEMORY.md"})
        daily = await client.call_tool("memory_get", {"path": "memory/2026-01-05.md"})
    assert names == ["memory_search", "memory_get", "memory_status"]
    cli = cli_json(child_env, cli_args(workspace, "memory", "search", "SQLite billing", session_key=GROUP_KEY))
    assert without_timing(found) == without_timing(cli) and [r["path"] for r in found["results"]] == ["memory/shared/2026-01-05.md"]
    assert got == cli_json(child_env, cli_args(workspace, "memory", "get", "memory/shared/2026-01-05.md", "--lines", "2", session_key=GROUP_KEY))
    assert got["text"] == "- The standup rota for billing is on the wiki."
    assert private.is_error and "teal" not in str(private.content)  # the group key holds over HTTP too
    assert daily.is_error and "FTS5" not in str(daily.content)  # a direct session's daily log is private (issue 35)


def test_host_and_origin_are_checked(served: str) -> None:
    port = served.rsplit(":", 1)[1].split("/")[0]
    ok = httpx.post(served, json=INIT, headers=HEADERS, timeout=10)
    bad_host = httpx.post(served, json=INIT, headers={**HEADERS, "Host": f"evil.example:{port}"}, timeout=10)
    bad_origin = httpx.post(served, json=INIT, headers={**HEADERS, "Origin": "http://evil.example"}, timeout=10)
    own_origin = httpx.post(served, json=INIT, headers={**HEADERS, "Origin": f"http://localhost:{port}"}, timeout=10)
    assert ok.status_code == 200 and own_origin.status_code == 200
    assert bad_host.status_code == 421
    assert bad_origin.status_code == 403
