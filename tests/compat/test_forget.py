"""memory forget: what would go, atomic removal with the old bytes in history (restorable),
tombstones that keep append/write/edit and a flush from storing the fact again, re-index."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui import events
from openclaw_tui.memory.forget import ForgetError, apply_forget, plan_lines, plan_query
from openclaw_tui.tools.files import FileTools
from openclaw_tui.workspace.daily import daily_rel
from openclaw_tui.records.history import MemoryHistory
from openclaw_tui.workspace.tombstones import Tombstones, is_tombstoned
from tests.session.conftest import make_settings, recorder, server  # noqa: F401 - fixtures
from tests.session.test_engine_server import engine_for

MEMORY = "# Memory\n\n- The gym locker code is 4417 <!-- trigger: gym locker -->\n- Likes oolong tea\n"
DAILY = "# Today\n\n- went to the gym, locker code 4417 again\n- bought bread\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text(MEMORY)
    (ws / "memory" / "2026-11-30.md").write_text(DAILY)
    return ws


def cli(ws: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "openclaw_tui.cli", "--workspace", str(ws), "memory", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_cli_shows_then_forgets_then_restores(workspace: Path, state_dir: Path):
    shown = cli(workspace, "forget", "gym", "locker", "code")
    assert shown.returncode == 0, shown.stderr
    assert "MEMORY.md#L3-L3" in shown.stdout and "memory/2026-11-30.md#L3-L3" in shown.stdout and "--yes" in shown.stdout
    assert (workspace / "MEMORY.md").read_text() == MEMORY  # nothing changed yet
    assert json.loads(cli(workspace, "index", "--json").stdout)["ok"]
    assert "4417" in cli(workspace, "search", "gym locker code", "--json").stdout

    done = cli(workspace, "forget", "gym locker code", "--yes", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["tombstones"] == 2 and report["reindexed"] is True and len(report["historyIds"]) == 2
    assert (workspace / "MEMORY.md").read_text() == "# Memory\n\n- Likes oolong tea\n"
    assert (workspace / "memory" / "2026-11-30.md").read_text() == "# Today\n\n- bought bread\n"
    assert "4417" not in cli(workspace, "search", "gym locker code", "--json").stdout  # re-indexed
    history = json.loads(cli(workspace, "history", "--json").stdout)
    assert {h["tool"] for h in history} == {"forget"} and {h["actor"] for h in history} == {"user"}
    assert is_tombstoned(workspace, "- Gym locker code: 4417", state_dir)

    restored = cli(workspace, "restore", "MEMORY.md")
    assert restored.returncode == 0, restored.stderr
    assert (workspace / "MEMORY.md").read_text() == MEMORY  # the exact previous bytes
    stones = Tombstones.for_workspace(workspace, state_dir).all()
    assert [t.path for t in stones] == ["memory/2026-11-30.md"]  # MEMORY.md's forget was lifted


def test_cli_lines_and_errors(workspace: Path):
    assert cli(workspace, "forget", "--path", "MEMORY.md", "--lines", "4-4", "--yes").returncode == 0
    assert (workspace / "MEMORY.md").read_text() == "# Memory\n\n- The gym locker code is 4417 <!-- trigger: gym locker -->\n"
    for args, fragment in [
        (("--path", "MEMORY.md", "--lines", "9-12"), "runs past its end"),
        (("--path", "MEMORY.md", "--lines", "4-2"), "must start"),
        (("--path", "AGENTS.md", "--lines", "1-1"), "not a memory file"),
        (("--path", "MEMORY.md"), "--path P and --lines"),
        (("zebra", "unicorn"), "nothing in memory matches"),
    ]:
        got = cli(workspace, "forget", *args, "--yes")
        assert got.returncode == 1 and fragment in got.stderr, (args, got.stderr)


def test_group_sessions_cannot_forget_private_files(workspace: Path):
    with pytest.raises(ForgetError, match="private"):
        plan_lines(workspace, "agent:main:discord:group:1", "MEMORY.md", "3-3")
    with pytest.raises(ForgetError, match="private"):
        plan_lines(workspace, "agent:main:discord:group:1", "memory/2026-11-30.md", "1-1")
    # neither MEMORY.md nor a direct session's daily log is even looked at (the private tier, issue 35)
    with pytest.raises(ForgetError, match="nothing in memory matches"):
        plan_query(workspace, "agent:main:discord:group:1", "gym locker code")
    shared = workspace / "memory" / "shared" / "2026-11-30.md"
    shared.parent.mkdir()
    shared.write_text("- The team gym locker code is on the notice board.\n")
    plan = plan_query(workspace, "agent:main:discord:group:1", "gym locker code")
    assert [t.path for t in plan.targets] == ["memory/shared/2026-11-30.md"]


def test_a_changed_file_is_not_touched(workspace: Path, state_dir: Path):
    plan = plan_lines(workspace, "agent:main:main", "MEMORY.md", "3-3")
    (workspace / "MEMORY.md").write_text(MEMORY.replace("4417", "9999"))
    with pytest.raises(ForgetError, match="changed since"):
        apply_forget(workspace, MemoryHistory(state_dir / "h"), plan, Tombstones.for_workspace(workspace, state_dir))
    assert "9999" in (workspace / "MEMORY.md").read_text() and Tombstones.for_workspace(workspace, state_dir).all() == []


def test_tools_refuse_to_store_a_forgotten_fact(workspace: Path, state_dir: Path):
    plan = plan_query(workspace, "agent:main:main", "gym locker code")
    apply_forget(workspace, MemoryHistory(state_dir / "h"), plan, Tombstones.for_workspace(workspace, state_dir))
    ft = FileTools(workspace)
    today = daily_rel()
    refused = ft.append({"path": today, "content": "- Gym locker code is 4417"})
    assert refused.get("refused") and "forget" in refused["error"]
    ft.read({"path": "MEMORY.md"})
    assert ft.edit({"path": "MEMORY.md", "old_text": "- Likes oolong tea", "new_text": "- Likes oolong tea\n- locker code at the gym: 4417"}).get("refused")
    assert ft.write({"path": "MEMORY.md", "content": "# Memory\n\n- Likes oolong tea\n- The gym locker code is 4417\n"}).get("refused")
    assert ft.append({"path": today, "content": "- The gym has a sauna"}).get("ok")  # other facts still go in
    assert ft.append({"path": "notes.md", "content": "gym locker code 4417"}).get("ok")  # not a memory file


async def test_a_flush_proposing_the_forgotten_fact_is_refused(make_settings, server, recorder, workspace, state_dir) -> None:  # noqa: F811
    plan = plan_query(workspace, "agent:main:main", "gym locker code")
    apply_forget(workspace, MemoryHistory(state_dir / "h"), plan, Tombstones.for_workspace(workspace))
    eng = engine_for(make_settings, server, recorder)
    today = daily_rel()
    server.push(
        {"tool_calls": [
            {"name": "append", "arguments": {"path": today, "content": "- The user's gym locker code is 4417"}},
            {"name": "append", "arguments": {"path": today, "content": "- Likes oolong tea"}},
        ]},
        {"text": "NO_REPLY"},
    )
    await eng.flush()
    assert "4417" not in (workspace / today).read_text()
    assert "oolong" in (workspace / today).read_text()
    refused = recorder.of(events.AccessRefused)
    assert [r.tool for r in refused] == ["append"] and "forget" in refused[0].reason
    eng.close()
