"""Private stays private (issue 35 item 4): a direct session's notes never reach a group key.

A real workspace with a note written by a direct session (memory/<day>.md, the private tier)
and one written by a group session (memory/shared/<day>.md), then every route a group key has
into memory: the writers, memory_search and memory_get on the builtin index, the read tool,
the prompt's startup notes, ``mcp serve`` (a real subprocess and the SDK client) and the real
qmd CLI. Direct keys see everything.
"""

from __future__ import annotations

import asyncio
import json
import os
from datetime import date
from pathlib import Path

import pytest

from openclaw_tui.config import resolve_agent, validate_config
from openclaw_tui.language import Intent, MessageReading
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.session.note_writer import NoteWriter
from openclaw_tui.tools.files import FileTools
from openclaw_tui.tools.registry import ToolBox
from openclaw_tui.workspace.bootstrap import build_system_prompt, startup_notes, today_file_line
from openclaw_tui.workspace.daily import today
from openclaw_tui.workspace.privacy import PRIVATE_REFUSAL, is_private_key
from openclaw_tui.workspace.tiers import daily_log_path, daily_log_rel, loaded_daily_rels

DIRECT = "agent:main:main"
DM = "agent:main:telegram:dm:99"
GROUP = "agent:main:discord:group:42"
CHANNEL = "agent:main:slack:channel:c9"
PRIVATE_FACT = "My dentist is Dr. Okonkwo and my card ends in 7731 (PRIVATE-OKONKWO)."
PROJECT_FACT = "Falcon budget is 40k zorkmids (PRIVATE-FALCON)."
SHARED_FACT = "The team offsite is in Lisbon (SHARED-LISBON)."


def _settings(ws: Path, key: str = DIRECT, memory_search: dict | None = None):
    data = {"agents": {"defaults": {"memorySearch": {"provider": "none", **(memory_search or {})}}}}
    return resolve_agent(validate_config(data), workspace=ws, session_key=key)


def _ws(tmp_path: Path) -> Path:
    """A workspace as the tiers leave it: a direct session's and a group session's note of today."""
    ws = tmp_path / "home" / "ws"
    (ws / "memory" / "projects").mkdir(parents=True)
    day = today()
    daily_log_path(ws, day, DIRECT).write_text(f"- User: {PRIVATE_FACT}\n", encoding="utf-8")
    (ws / "memory" / "projects" / "falcon.md").write_text(f"- {PROJECT_FACT}\n", encoding="utf-8")
    shared = daily_log_path(ws, day, GROUP)
    shared.parent.mkdir(parents=True)
    shared.write_text(f"- User: {SHARED_FACT}\n", encoding="utf-8")
    return ws


def _paths(result: dict) -> list[str]:
    return [r["path"] for r in result["results"]]


# ---------------------------------------------------------------- the writers


@pytest.mark.parametrize("key,folder", [(DIRECT, "memory"), (DM, "memory"), (GROUP, "memory/shared"),
                                        (CHANNEL, "memory/shared")])
def test_daily_log_path_names_the_sessions_tier(tmp_path: Path, key: str, folder: str) -> None:
    day = date(2026, 12, 6)
    assert daily_log_rel(day, key) == f"{folder}/2026-12-06.md"
    assert daily_log_path(tmp_path, day, key) == tmp_path / folder / "2026-12-06.md"


def test_a_group_sessions_append_to_a_private_log_lands_in_the_shared_tier(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    private_rel, shared_rel = daily_log_rel(today(), DIRECT), daily_log_rel(today(), GROUP)
    group = FileTools(ws, session_key=GROUP)
    done = group.append({"path": private_rel, "content": "- the standup moved to 9:30"})
    assert done["ok"] and done["path"] == shared_rel and "shared" in done["note"]
    assert not (ws / private_rel).exists()
    old = group.append({"path": "memory/2026-01-02.md", "content": "- old day note"})  # another day, private tier
    assert old["ok"] and old["path"] == shared_rel and not (ws / "memory/2026-01-02.md").exists()
    assert (ws / shared_rel).read_text() == "- the standup moved to 9:30\n- (2026-01-02) old day note\n"
    direct = FileTools(ws, session_key=DIRECT).append({"path": private_rel, "content": "- my own note"})
    assert direct["ok"] and direct["path"] == private_rel and (ws / private_rel).read_text() == "- my own note\n"


@pytest.mark.parametrize("key", [DIRECT, GROUP])
def test_the_engines_notes_go_to_the_sessions_tier(tmp_path: Path, key: str) -> None:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    reading = MessageReading(text=SHARED_FACT, language="en", intent=Intent.STATEMENT, facts=(SHARED_FACT,))
    outcome = NoteWriter(_settings(ws, key)).write(reading, FileTools(ws, session_key=key), session_key=key)
    assert outcome.path == daily_log_rel(today(), key)
    assert SHARED_FACT in daily_log_path(ws, today(), key).read_text()
    other = DIRECT if key == GROUP else GROUP
    assert not daily_log_path(ws, today(), other).exists()


async def test_a_group_sessions_flush_is_told_and_allowed_the_shared_log_only(tmp_path: Path, server) -> None:
    from openclaw_tui.config import load_config
    from openclaw_tui.session.engine import SessionEngine

    ws = _ws(tmp_path)
    private = daily_log_path(ws, today(), DIRECT).read_bytes()
    settings = resolve_agent(load_config(None, overrides={}), workspace=ws, session_key=GROUP, model="openai/fake-model",
                             api_base=server.base_url, api_key="sk-test-0000000000000000")
    eng = SessionEngine(settings, sink=lambda _e: None)
    server.push({"tool_calls": [
        {"name": "append", "arguments": {"path": daily_log_rel(today(), DIRECT), "content": "- flushed into the private log"}},
        {"name": "append", "arguments": {"path": daily_log_rel(today(), GROUP), "content": "- flushed into the shared log"}},
    ]}, {"text": "NO_REPLY"})
    try:
        await eng.flush()
    finally:
        eng.close()
    prompt = server.chat_requests()[0]["messages"][-1]["content"]
    assert daily_log_rel(today(), GROUP) in prompt and daily_log_rel(today(), DIRECT) not in prompt
    assert daily_log_path(ws, today(), DIRECT).read_bytes() == private
    shared = daily_log_path(ws, today(), GROUP).read_text()
    assert "flushed into the private log" in shared and "flushed into the shared log" in shared


# ---------------------------------------------------------------- builtin search, get and read


def _get_spellings(ws: Path) -> list[str]:
    rel = daily_log_rel(today(), DIRECT)
    name = rel.split("/")[-1]
    return [rel, "./" + rel, "memory//" + name, f"memory/shared/../{name}", "memory/projects/falcon.md",
            str(ws / rel)]


@pytest.mark.parametrize("extra", [[], [".."]])
def test_builtin_search_get_and_read_keep_the_private_tier_from_group_keys(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extra: list[str]) -> None:
    """``..`` as an extra path indexes the private log a second time under another key: the
    rule is the file's, not the key's."""
    ws = _ws(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    with MemoryManager(_settings(ws, memory_search={"extraPaths": extra})) as mm:
        mm.sync()
        for key in (GROUP, CHANNEL):
            found = mm.search("dentist Okonkwo card Falcon budget zorkmids", session_key=key).to_dict()
            assert "PRIVATE-" not in json.dumps(found), (key, found)
            shared = mm.search("team offsite Lisbon", session_key=key).to_dict()
            assert daily_log_rel(today(), GROUP) in _paths(shared)
            assert "SHARED-LISBON" in json.dumps(shared)
            for spelling in _get_spellings(ws):
                got = dict(mm.get(spelling, session_key=key))
                assert "PRIVATE-" not in json.dumps(got) and got["text"] == "" and got["error"], (spelling, got)
            assert dict(mm.get(daily_log_rel(today(), GROUP), session_key=key))["text"].startswith("- User: The team offsite")
        direct = mm.search("dentist Okonkwo card", session_key=DIRECT).to_dict()
        assert daily_log_rel(today(), DIRECT) in _paths(direct) and "PRIVATE-OKONKWO" in json.dumps(direct)
        assert daily_log_rel(today(), GROUP) in _paths(mm.search("team offsite Lisbon", session_key=DM).to_dict())
        assert "PRIVATE-FALCON" in dict(mm.get("memory/projects/falcon.md", session_key=DM))["text"]
        box = ToolBox(FileTools(ws, session_key=GROUP), memory=mm, session_key=GROUP)
        got, _ = asyncio.run(box.run("memory_get", {"path": daily_log_rel(today(), DIRECT)}))
        assert got["error"] == PRIVATE_REFUSAL
        read, _ = asyncio.run(box.run("read", {"path": daily_log_rel(today(), DIRECT)}))
        assert read["refused"] and "PRIVATE-" not in json.dumps(read)
        shared_read, _ = asyncio.run(box.run("read", {"path": daily_log_rel(today(), GROUP)}))
        assert "SHARED-LISBON" in shared_read["text"]


def test_a_link_or_a_dotted_path_out_of_the_shared_tier_is_still_private(tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    private = daily_log_rel(today(), DIRECT)
    os.symlink(ws / private, ws / "memory" / "shared" / "leak.md")
    assert is_private_key(ws, "memory/shared/leak.md")  # resolved: it is the private log
    assert is_private_key(ws, "memory/shared/../" + private.split("/")[-1])
    assert is_private_key(ws, "memory/not-yet-written.md") and not is_private_key(ws, "memory/shared/not-yet.md")
    assert not is_private_key(ws, daily_log_rel(today(), GROUP)) and not is_private_key(ws, "AGENTS.md")
    group = FileTools(ws, session_key=GROUP)
    assert "PRIVATE-" not in json.dumps(group.read({"path": "memory/shared/leak.md"}))


# ---------------------------------------------------------------- the prompt


def test_group_keys_load_only_the_shared_tier_into_the_prompt(tmp_path: Path) -> None:
    ws = _ws(tmp_path)
    for key in (GROUP, CHANNEL):
        notes = startup_notes(ws, session_key=key)
        assert "SHARED-LISBON" in notes and "PRIVATE-" not in notes, key
        prompt = build_system_prompt(ws, session_key=key, compact=True)
        line = today_file_line(key)  # today's file, named after the prompt's fixed start
        assert daily_log_rel(today(), GROUP) in line and daily_log_rel(today(), DIRECT) + "`" not in line
        assert daily_log_rel(today(), DIRECT) + "`" not in prompt.text
        full = build_system_prompt(ws, session_key=key)
        assert "memory/shared/YYYY-MM-DD.md" in full.text and "MEMORY.md" not in full.text
    for key in (DIRECT, DM):
        notes = startup_notes(ws, session_key=key)
        assert "PRIVATE-OKONKWO" in notes and "SHARED-LISBON" in notes, key
    assert loaded_daily_rels(date(2026, 12, 6), GROUP) == ["memory/shared/2026-12-06.md", "memory/shared/2026-12-05.md"]


# ---------------------------------------------------------------- mcp serve


async def test_mcp_serve_with_a_group_key_serves_the_shared_tier_only(tmp_path: Path, child_env: dict[str, str]) -> None:
    from tests.mcp_both.conftest import cli_args
    from tests.mcp_both.test_serve import call, serving

    ws = _ws(tmp_path)
    args = cli_args(ws, "mcp", "serve", "--allow-append", session_key=GROUP)
    async with serving(child_env, args, tmp_path) as client:
        private, _ = await call(client, "memory_search", {"query": "dentist Okonkwo card Falcon zorkmids"})
        shared, _ = await call(client, "memory_search", {"query": "team offsite Lisbon"})
        got, got_err = await call(client, "memory_get", {"path": daily_log_rel(today(), DIRECT)})
        appended, append_err = await call(client, "memory_append", {"text": "- the demo is on Friday"})
    assert "PRIVATE-" not in json.dumps(private) and "PRIVATE-" not in json.dumps(got) and got_err
    assert daily_log_rel(today(), GROUP) in _paths(shared)
    assert not append_err and appended["path"] == daily_log_rel(today(), GROUP)
    assert "demo is on Friday" in daily_log_path(ws, today(), GROUP).read_text()
    assert "demo" not in daily_log_path(ws, today(), DIRECT).read_text()
    async with serving(child_env, cli_args(ws, "mcp", "serve"), tmp_path) as client:
        mine, _ = await call(client, "memory_search", {"query": "dentist Okonkwo card"})
    assert "PRIVATE-OKONKWO" in json.dumps(mine)


@pytest.fixture
def child_env(state_dir: Path) -> dict[str, str]:
    from tests.mcp_both.conftest import ROOT

    keep = ("PATH", "HOME", "LANG", "TMPDIR", "OPENCLAW_MODELS_DIR")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.update(PYTHONPATH=str(ROOT), OPENCLAW_STATE_DIR=str(state_dir), OPENCLAW_BUNDLED_EMBEDDINGS="off",
               OPENCLAW_NO_LOCAL_MODEL="1", LITELLM_LOCAL_MODEL_COST_MAP="True")
    return env


# ---------------------------------------------------------------- qmd


@pytest.mark.qmd
def test_qmd_keeps_the_private_tier_from_group_keys(tmp_path: Path) -> None:
    from openclaw_tui.memory.qmd import QmdBackend
    from tests.qmd.conftest import find_real_qmd
    from tests.qmd.helpers import make_settings

    find_real_qmd()
    ws = _ws(tmp_path)
    with daily_log_path(ws, today(), GROUP).open("a", encoding="utf-8") as fh:
        fh.write("- User: The offsite hotel is Hotel Zebra. <!-- status: superseded -->\n- User: The offsite hotel is Hotel Quokka.\n")
    memory = {"qmd": {"scope": {"default": "allow", "rules": []}, "update": {"waitForBootSync": True},
                      "limits": {"timeoutMs": 30000}}}
    settings = make_settings(tmp_path / "qmd-state", ws, memory)
    backend = QmdBackend(settings, sink=lambda _e: None, builtin=MemoryManager(settings))
    try:
        backend.sync(force=True, reason="test")
        for key in (GROUP, CHANNEL):
            private = backend.search("Okonkwo", session_key=key).to_dict()
            assert "PRIVATE-" not in json.dumps(private) and not private.get("denied"), (key, private)
            assert "PRIVATE-" not in json.dumps(backend.search("zorkmids", session_key=key).to_dict())
            shared = backend.search("Lisbon", session_key=key).to_dict()
            assert daily_log_rel(today(), GROUP) in _paths(shared), shared
            got = backend.get(daily_log_rel(today(), DIRECT), session_key=key).to_dict()
            assert got["text"] == "" and "private" in got["error"]
        hotel = backend.search("offsite hotel", session_key=DIRECT).to_dict()
        assert "Quokka" in json.dumps(hotel) and "Zebra" not in json.dumps(hotel)
        direct = backend.search("Okonkwo", session_key=DIRECT).to_dict()
        assert "PRIVATE-OKONKWO" in json.dumps(direct)
    finally:
        backend.close()
