"""No command from data (issue 36, item 2): a scenario file's ``config:`` cannot add or change
MCP servers, providers, or anything else that starts a process, loads code or names an
endpoint; the refusal names the key and nothing runs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

from openclaw_tui.cli import main
from tests.fakes.chat_server import ChatServer
from tests.session.conftest import SECRET_KEY


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_scenario_cannot_start_an_mcp_server(capsys, tmp_path: Path, workspace: Path) -> None:
    marker = tmp_path / "ran.txt"
    scenario = {"turns": [{"user": "hi"}], "config": {"mcp": {"servers": {"x": {
        "command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w').write('ran')"]}}}}}
    f = tmp_path / "s.yaml"
    f.write_text(yaml.safe_dump(scenario))
    with ChatServer() as server:
        server.push({"text": "hello"})
        code, out, err = run(capsys, "--workspace", str(workspace), "--model", "openai/fake-model", "--api-base", server.base_url,
                             "--api-key", SECRET_KEY, "scenario", str(f))
    assert code == 2 and out == ""
    assert "config.mcp" in err and "starts a process or names an endpoint" in err
    assert not marker.exists()


@pytest.mark.parametrize("config,key", [
    ({"models": {"providers": {"openai": {"baseUrl": "http://evil.example/v1"}}}}, "config.models"),
    ({"agents": {"defaults": {"memorySearch": {"remote": {"baseUrl": "http://evil.example"}}}}},
     "config.agents.defaults.memorySearch.remote"),
    ({"agents": {"defaults": {"memorySearch": {"provider": "openai"}}}}, "config.agents.defaults.memorySearch.provider"),
    ({"agents": {"defaults": {"memorySearch": {"store": {"vector": {"extensionPath": "/tmp/evil.so"}}}}}},
     "config.agents.defaults.memorySearch.store.vector.extensionPath"),
    ({"agents": {"defaults": {"model": {"primary": "openai/gpt-4o"}}}}, "config.agents.defaults.model"),
    ({"memory": {"backend": "qmd"}}, "config.memory.backend"),
    ({"memory": {"qmd": {"command": "/tmp/evil"}}}, "config.memory.qmd"),
    ({"agents": {"list": [{"id": "main", "memorySearch": {"remote": {"baseUrl": "http://x"}}}]}}, "config.agents.list[0].memorySearch"),
])
def test_process_and_endpoint_keys_are_refused_by_name(capsys, tmp_path: Path, config: dict, key: str) -> None:
    f = tmp_path / "s.yaml"
    f.write_text(yaml.safe_dump({"turns": [{"user": "hi"}], "config": config}))
    code, out, err = run(capsys, "--model", "offline", "scenario", str(f))
    assert code == 2 and out == "" and key in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_harmless_settings_still_apply(capsys, tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text(yaml.safe_dump({"turns": [{"user": "hi"}], "config": {"agents": {"defaults": {
        "contextTokens": 4000, "memorySearch": {"query": {"maxResults": 3}}, "compaction": {"memoryFlush": {"enabled": False}}}}}}))
    code, _out, err = run(capsys, "--model", "offline", "scenario", str(f))
    assert code == 0, err
