"""``mcp.servers`` in openclaw.json (validation, masking in ``config show``) and the size of
the tool schemas ``mcp serve`` sends (what every client pays in context on each request)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import tiktoken

from openclaw_tui.config import ConfigError, load_config
from openclaw_tui.mcp.memory_tools import tool_definitions
from openclaw_tui.mcp.names import function_schema, result_payload, tool_name

SCHEMA_TOKEN_BUDGET = 600  # docs/mcp.md states the measured number


def test_config_show_masks_env_and_headers(tmp_path: Path, child_env: dict[str, str]) -> None:
    config = tmp_path / "openclaw.json"
    config.write_text(json.dumps({"mcp": {"servers": {
        "github": {"command": "github-mcp", "args": ["stdio"], "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_abcdefghijklmnop123", "REGION": "eu-west-1"}},
        "remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer s3cr3t-t0ken-value", "X-Team": "blue"}, "timeoutSeconds": 12},
    }}}))
    out = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "--config", str(config), "config", "show"],
                         env=child_env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    shown = json.loads(out.stdout)["mcp"]["servers"]
    assert shown["github"]["env"] == {"GITHUB_PERSONAL_ACCESS_TOKEN": "***", "REGION": "***"}
    assert shown["github"]["args"] == ["stdio"]
    assert shown["remote"]["headers"] == {"Authorization": "***", "X-Team": "blue"}
    assert shown["remote"]["timeoutSeconds"] == 12
    assert "ghp_abcdefghijklmnop123" not in out.stdout and "s3cr3t-t0ken-value" not in out.stdout


@pytest.mark.parametrize("server,why", [
    ({}, "either command"),
    ({"command": "x", "url": "http://127.0.0.1:1/mcp"}, "either command"),
    ({"url": "file:///etc/passwd"}, "http://"),
    ({"command": "x", "timeoutSeconds": 0}, "timeoutSeconds"),
])
def test_bad_server_entries_fail_with_the_key(server: dict, why: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(None, overrides={"mcp": {"servers": {"s": server}}})
    assert "mcp.servers.s" in str(info.value) and why in str(info.value)


def test_server_names_make_valid_tool_names() -> None:
    with pytest.raises(ConfigError, match="no '__'"):
        load_config(None, overrides={"mcp": {"servers": {"a__b": {"command": "x"}}}})
    assert tool_name("gh", "search.issues v2") == "gh__search_issues_v2"
    assert len(tool_name("s", "x" * 100)) == 64
    schema = function_schema("gh__t", None, None, "gh")
    assert schema["function"]["parameters"] == {"type": "object", "properties": {}}
    assert "gh" in schema["function"]["description"]


def test_results_are_text_or_error() -> None:
    class Text:
        type = "text"

        def __init__(self, text: str) -> None:
            self.text = text

    assert result_payload("s", "t", [Text("a"), Text("b")], None, False) == {"server": "s", "tool": "t", "text": "a\nb"}
    assert result_payload("s", "t", [], {"n": 1}, False)["structuredContent"] == {"n": 1}
    assert result_payload("s", "t", [Text("boom")], None, True) == {"server": "s", "tool": "t", "error": "boom"}
    big = result_payload("s", "t", [Text("x" * 60_000)], None, False)
    assert big["truncated"] is True and 49_900 < len(big["text"]) and len(json.dumps(big, ensure_ascii=False)) <= 50_000


def schema_tokens(names: list[str]) -> int:
    enc = tiktoken.get_encoding("cl100k_base")
    return len(enc.encode(json.dumps(tool_definitions(names), ensure_ascii=False)))


def test_the_served_schemas_stay_small() -> None:
    read_only = schema_tokens(["memory_search", "memory_get", "memory_status"])
    with_append = schema_tokens(["memory_search", "memory_get", "memory_status", "memory_append"])
    assert read_only < with_append <= SCHEMA_TOKEN_BUDGET
    docs = (Path(__file__).resolve().parents[2] / "docs" / "mcp.md").read_text(encoding="utf-8")
    assert f"{read_only} tokens" in docs and f"{with_append} tokens" in docs  # the docs state the measured numbers
