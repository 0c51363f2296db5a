"""A session key of another agent (``agent:work:main`` while the default agent is ``main``)
runs as that agent — its workspace, index and transcripts — or, when it contradicts an
explicit ``--agent``, is refused with one line. Workspaces follow OpenClaw's rule."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from openclaw_tui.config import ConfigError, resolve_agent, validate_config
from tests.inproc import run_cli

LISTED = {
    "agents": {
        "defaults": {"workspace": "/srv/ws"},
        "list": [{"id": "main", "default": True}, {"id": "work", "workspace": "/srv/work-ws"}, {"id": "ops"}],
    }
}
UNLISTED = {"agents": {"defaults": {}}}


@pytest.mark.parametrize(
    "raw, kwargs, agent, workspace",
    [
        (LISTED, {}, "main", "/srv/ws"),
        (LISTED, {"session_key": "agent:main:main"}, "main", "/srv/ws"),
        (LISTED, {"session_key": "agent:work:main"}, "work", "/srv/work-ws"),  # its own workspace
        (LISTED, {"session_key": "AGENT:Work:discord:group:7"}, "work", "/srv/work-ws"),
        (LISTED, {"session_key": "agent:ops:main"}, "ops", "/srv/ws/ops"),  # defaults.workspace/<id>
        (LISTED, {"agent_id": "work", "session_key": "agent:work:main"}, "work", "/srv/work-ws"),
        (LISTED, {"agent_id": "ops"}, "ops", "/srv/ws/ops"),
        (LISTED, {"session_key": "discord:group:1"}, "main", "/srv/ws"),  # no agent in the key
        (UNLISTED, {"session_key": "agent:work:main"}, "work", "{state}/workspace-work"),
        (UNLISTED, {}, "main", "{state}/workspace"),
    ],
)
def test_session_key_selects_the_agent(raw, kwargs, agent, workspace, state_dir):
    s = resolve_agent(validate_config(raw), **kwargs)
    assert s.agent_id == agent
    assert str(s.workspace) == workspace.format(state=state_dir)
    assert s.index_path.name == f"{agent}.sqlite"
    assert s.sessions_dir == state_dir / "agents" / agent / "sessions"
    assert s.session_key == (kwargs.get("session_key") or f"agent:{agent}:main").strip()


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"agent_id": "main", "session_key": "agent:work:main"}, "belongs to agent 'work', not to --agent 'main'"),
        ({"agent_id": "ops", "session_key": "agent:work:slack:dm:1"}, "pass --agent work"),
        ({"session_key": "agent:Bad Id!:main"}, "--session-key: agent id"),
    ],
)
def test_conflicting_or_invalid_key_is_refused(kwargs, fragment):
    with pytest.raises(ConfigError) as err:
        resolve_agent(validate_config(LISTED), **kwargs)
    assert fragment in str(err.value) and "\n" not in str(err.value)


def _cli(state: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, OPENCLAW_STATE_DIR=str(state), OPENCLAW_OLLAMA_URL="http://127.0.0.1:9")
    return run_cli(*args, env=env)


def test_cli_runs_another_agents_key_in_that_agents_workspace_and_index(tmp_path, state_dir):
    main_ws, work_ws = tmp_path / "main-ws", tmp_path / "work-ws"
    for ws, fact in ((main_ws, "main keeps the tulip bulbs"), (work_ws, "work ships the tulip release")):
        (ws / "memory").mkdir(parents=True)
        (ws / "MEMORY.md").write_text(f"# Memory\n\n- {fact}.\n")
    cfg = tmp_path / "openclaw.json"
    cfg.write_text(json.dumps({"agents": {"defaults": {"workspace": str(main_ws), "memorySearch": {"provider": "none"}},
                                          "list": [{"id": "main"}, {"id": "work", "workspace": str(work_ws)}]}}))
    p = _cli(state_dir, "--config", str(cfg), "--session-key", "agent:work:main", "memory", "search", "tulip", "--json")
    assert p.returncode == 0, p.stderr
    snippets = " ".join(r["snippet"] for r in json.loads(p.stdout)["results"])
    assert "work ships" in snippets and "main keeps" not in snippets
    assert (state_dir / "memory" / "work.sqlite").exists() and not (state_dir / "memory" / "main.sqlite").exists()

    p = _cli(state_dir, "--config", str(cfg), "--session-key", "agent:work:main", "chat", "-p", "hello", "--session", "s1")
    assert p.returncode == 0, p.stderr
    assert (state_dir / "agents" / "work" / "sessions" / "s1.jsonl").exists()
    assert not (state_dir / "agents" / "main" / "sessions" / "s1.jsonl").exists()

    p = _cli(state_dir, "--config", str(cfg), "--agent", "main", "--session-key", "agent:work:main", "memory", "search", "tulip")
    assert p.returncode == 2 and "Traceback" not in p.stderr
    lines = [x for x in p.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "belongs to agent 'work'" in lines[0]


def test_scenario_with_another_agents_key_is_refused(tmp_path, state_dir):
    sc = tmp_path / "other.yaml"
    sc.write_text('name: other agent\nmodel: offline\nsessionKey: "agent:work:main"\nturns:\n  - user: "hi"\n')
    p = _cli(state_dir, "scenario", str(sc))
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    lines = [x for x in p.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "sessionKey 'agent:work:main' belongs to agent 'work'" in lines[0]
