"""``memory forget --session/--participant/--hook-source/--since [--dry-run] [--json]``
(OpenClaw's lineage purge): two real sessions write notes through the engine (litellm HTTP
to the scripted server); forgetting one removes its lines, its transcript and its index rows,
keeps the other's, and fences it against re-ingestion and resume."""

from __future__ import annotations

import json
import os

import pytest

from openclaw_tui.records.forgotten_sessions import read_forgotten
from openclaw_tui.records.session_store import SessionStore
from openclaw_tui.workspace.tombstones import is_tombstoned
from openclaw_tui.workspace.daily import daily_rel, today
from tests.inproc import run_cli
from tests.session.conftest import make_settings, recorder, server, workspace  # noqa: F401 - fixtures
from tests.session.test_engine_server import engine_for

DAILY = daily_rel(today())  # a daily log is only written on its own day
A_LINE = "- Dentist moved to Friday 3pm, marker LINEAGE-A-731"
A_MEMORY = "- Prefers the north entrance, marker LINEAGE-A-MEM"
B_LINE = "- Bought sourdough, marker LINEAGE-B-552"
SESSIONS = {"memorySearch": {"provider": "none", "sources": ["memory", "sessions"], "experimental": {"sessionMemory": True}}}


def cli(*args: str, ws) -> object:
    cfg = ws.parent / "openclaw.json"  # the sessions source on, as in the engine's sessions
    cfg.write_text(json.dumps({"agents": {"defaults": SESSIONS}}))
    return run_cli("--config", str(cfg), "--workspace", str(ws), "memory", *args, env=dict(os.environ))


async def _session(make_settings, server, recorder, sid: str, key: str, writes: list[tuple[str, str]]) -> None:
    server.push({"tool_calls": [{"name": "append", "arguments": {"path": p, "content": c + "\n"}} for p, c in writes]},
                {"text": "Noted."})
    eng = engine_for(make_settings, server, recorder, {"agents": {"defaults": SESSIONS}}, session_id=sid, session_key=key)
    try:
        res = await eng.send("Please note this down.")
        assert res.error is None
    finally:
        eng.close()


@pytest.fixture
async def two_sessions(make_settings, server, recorder, workspace):
    (workspace / "memory").mkdir(exist_ok=True)
    (workspace / DAILY).write_text(f"# {today()}\n\n- Ran 5 km in the morning\n")
    await _session(make_settings, server, recorder, "sess-a", "agent:main:main", [(DAILY, A_LINE), ("MEMORY.md", A_MEMORY)])
    await _session(make_settings, server, recorder, "sess-b", "agent:main:telegram:dm:4711", [(DAILY, B_LINE)])
    return make_settings({"agents": {"defaults": SESSIONS}})


async def test_dry_run_reports_in_upstreams_shape_and_changes_nothing(two_sessions, workspace):
    settings = two_sessions
    before = (workspace / DAILY).read_text()
    assert A_LINE in before and B_LINE in before
    got = cli("forget", "--session", "sess-a", "--dry-run", "--json", ws=workspace)
    assert got.returncode == 0, got.stderr
    rep = json.loads(got.stdout)
    assert rep["dryRun"] is True
    assert rep["sessionResolutions"] == [{"selector": "session", "value": "sess-a", "sessionIds": ["sess-a"]}]
    assert set(rep) >= {"entryKeys", "mixedLineageEntryKeys", "curatedWrites", "untargetableEntryKeys", "artifacts"}
    assert f"{DAILY}#L4" in rep["entryKeys"] and any(k.startswith("MEMORY.md#L") for k in rep["entryKeys"])
    assert [w["path"] for w in rep["curatedWrites"]] == ["MEMORY.md"]
    kinds = {a["kind"] for a in rep["artifacts"]}
    assert {"transcript", "sessionEntry", "memoryFile"} <= kinds
    assert (workspace / DAILY).read_text() == before
    assert (settings.sessions_dir / "sess-a.jsonl").exists() and not read_forgotten(settings.sessions_dir)
    # an abbreviation selects nothing (ids are exact, as upstream)
    short = cli("forget", "--session", "sess", "--dry-run", "--json", ws=workspace)
    assert short.returncode == 1 and json.loads(short.stdout)["sessionResolutions"][0]["sessionIds"] == []
    # the other selectors (dry runs: one pair of sessions serves them all)
    by_peer = json.loads(cli("forget", "--participant", "4711", "--dry-run", "--json", ws=workspace).stdout)
    assert by_peer["sessionResolutions"][0]["sessionIds"] == ["sess-b"]
    by_hook = json.loads(cli("forget", "--hook-source", "telegram", "--dry-run", "--json", ws=workspace).stdout)
    assert by_hook["sessionResolutions"][0]["sessionIds"] == ["sess-b"]
    future = cli("forget", "--participant", "4711", "--since", "2999-01-01", "--dry-run", "--json", ws=workspace)
    assert future.returncode == 1 and json.loads(future.stdout)["sessionResolutions"][0]["sessionIds"] == []
    bad = cli("forget", "--since", "last tuesday", "--dry-run", ws=workspace)
    assert bad.returncode == 1 and "--since" in bad.stderr
    mixed = cli("forget", "--session", "sess-a", "some", "words", ws=workspace)
    assert mixed.returncode == 1 and "either session selectors" in mixed.stderr
    # a line the user has since reworded is no longer the session's: untargetable, left alone
    mem = workspace / "MEMORY.md"
    mem.write_text(mem.read_text().replace("north entrance", "south entrance"))
    again = json.loads(cli("forget", "--session", "sess-a", "--dry-run", "--json", ws=workspace).stdout)
    assert not any(k.startswith("MEMORY.md") for k in again["entryKeys"])
    assert [k.split("@")[0] for k in again["untargetableEntryKeys"]] == ["MEMORY.md"]


async def test_purge_removes_the_lineage_and_fences_it(two_sessions, workspace):
    settings = two_sessions
    assert cli("index", "--force", "--json", ws=workspace).returncode == 0  # transcripts from before: backfilled
    assert "LINEAGE-A-731" in cli("search", "dentist Friday", "--json", ws=workspace).stdout
    backup = (settings.sessions_dir / "sess-a.jsonl").read_bytes()
    got = cli("forget", "--session", "sess-a", "--json", ws=workspace)
    assert got.returncode == 0, got.stderr
    rep = json.loads(got.stdout)
    assert rep["dryRun"] is False and rep["forgottenSessions"] == ["sess-a"] and rep["reindexed"] is True
    assert any(a["kind"] == "indexRows" for a in rep["artifacts"])
    daily = (workspace / DAILY).read_text()
    assert "LINEAGE-A-731" not in daily and B_LINE in daily and "Ran 5 km" in daily
    assert "LINEAGE-A-MEM" not in (workspace / "MEMORY.md").read_text()
    assert not (settings.sessions_dir / "sess-a.jsonl").exists() and (settings.sessions_dir / "sess-b.jsonl").exists()
    assert SessionStore(settings.sessions_dir).get("sess-a") is None
    assert [f.session_id for f in read_forgotten(settings.sessions_dir)] == ["sess-a"]
    # nothing indexed still holds it; its lines may not be written back; it cannot be resumed
    assert "LINEAGE-A-731" not in cli("search", "dentist Friday", "--json", ws=workspace).stdout
    assert is_tombstoned(workspace, A_LINE, settings.state_dir)
    with pytest.raises(ValueError, match="forgotten"):
        SessionStore(settings.sessions_dir).resumable("sess-a", "agent:main:main", has_transcript=True)
    # a copy of the transcript put back, under its name or another, is not ingested again
    (settings.sessions_dir / "sess-a.jsonl").write_bytes(backup)
    (settings.sessions_dir / "copy.jsonl").write_bytes(backup)
    assert cli("index", "--force", "--json", ws=workspace).returncode == 0
    assert "LINEAGE-A-731" not in cli("search", "dentist Friday", "--json", ws=workspace).stdout
    assert "LINEAGE-B-552" in cli("search", "sourdough", "--json", ws=workspace).stdout
