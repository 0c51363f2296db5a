"""``memory status --deep [--fix]`` (OpenClaw's deep status and repair) through the CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.inproc import run_cli

from .conftest import write


def cli(*args: str, state: Path) -> object:
    return run_cli(*args, env=dict(os.environ, OPENCLAW_STATE_DIR=str(state)))


def _checks(out: str) -> dict[str, dict]:
    return {c["name"]: c for c in json.loads(out)["deep"]["checks"]}


def test_deep_finds_changed_files_and_leftovers_and_fix_repairs_them(workspace, tmp_path):
    state = tmp_path / "state"
    write(workspace / "MEMORY.md", "# Memory\n\n- The bike lock code changed in May.\n")
    assert cli("--workspace", str(workspace), "memory", "index", state=state).returncode == 0
    clean = cli("--workspace", str(workspace), "memory", "status", "--deep", "--json", state=state)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert all(c["ok"] for c in _checks(clean.stdout).values())
    assert {"index", "fts", "fingerprint", "files", "provider", "leftovers"} <= set(_checks(clean.stdout))

    write(workspace / "memory/2026-05-01.md", "- New note about the garden shed.\n")
    leftover = state / "memory" / "main.sqlite.rebuild-1-2"
    leftover.write_bytes(b"half a rebuild")
    found = cli("--workspace", str(workspace), "memory", "status", "--deep", "--json", state=state)
    assert found.returncode == 1
    checks = _checks(found.stdout)
    assert not checks["files"]["ok"] and "1 new" in checks["files"]["detail"] and checks["files"]["fixable"]
    assert not checks["leftovers"]["ok"]
    text = cli("--workspace", str(workspace), "memory", "status", "--deep", state=state)
    assert "BAD" in text.stdout and "--fix repairs it" in text.stdout

    fixed = cli("--workspace", str(workspace), "memory", "status", "--fix", "--json", state=state)
    assert fixed.returncode == 0, fixed.stdout
    deep = json.loads(fixed.stdout)["deep"]
    assert deep["ok"] and {c["name"] for c in deep["found"]} == {"files", "leftovers"}
    assert any("synced the index" in f for f in deep["fixed"]) and not leftover.exists()
    assert json.loads(fixed.stdout)["files"] == 2


def test_fix_rebuilds_when_the_settings_changed(workspace, tmp_path):
    state = tmp_path / "state"
    write(workspace / "MEMORY.md", "# Memory\n\n- 我最喜欢吃四川火锅。\n")
    assert cli("--workspace", str(workspace), "memory", "index", state=state).returncode == 0
    cfg = tmp_path / "openclaw.json"
    cfg.write_text(json.dumps({"memory": {"search": {"provider": "none", "store": {"fts": {"tokenizer": "trigram"}}}}}))
    found = cli("--config", str(cfg), "--workspace", str(workspace), "memory", "status", "--deep", "--json", state=state)
    assert "ftsTokenizer" in _checks(found.stdout)["fingerprint"]["detail"]
    fixed = cli("--config", str(cfg), "--workspace", str(workspace), "memory", "status", "--fix", "--json", state=state)
    deep = json.loads(fixed.stdout)["deep"]
    assert deep["ok"] and any("rebuilt the index" in f for f in deep["fixed"]), fixed.stdout
    assert "trigram" in _checks(fixed.stdout)["fts"]["detail"]
