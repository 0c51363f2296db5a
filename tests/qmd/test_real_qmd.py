"""Integration tests against the real qmd CLI installed by ``make qmd`` (offline).

One qmd home per module (booted once); each test then runs a handful of cold qmd calls.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
import yaml

from openclaw_tui.events import IndexSynced, Notice, QmdFallback
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.memory.qmd import QmdBackend
from openclaw_tui.records.transcript import TranscriptWriter

from .helpers import make_settings, write

pytestmark = pytest.mark.qmd

DAILY = ["# 2026-01-01"] + [f"line {i}: routine notes about the weather and lunch" for i in range(2, 61)]
DAILY[39] = "line 40: the deploy key rotation for cluster zeppelin happened after the kubernetes upgrade"
MEMORY = """# Memory

## Preferences
- The user drinks espresso with oat milk every morning.
- Prefers tabs over spaces.

## People
- Marguerite is the release manager.
"""


class World:
    def __init__(self, root: Path):
        self.root = root
        self.ws = root / "ws"
        self.state = root / "state"
        self.notes = root / "outside" / "team-notes"
        write(self.ws / "MEMORY.md", MEMORY)
        write(self.ws / "USER.md", "# User\n\n- Wants replies about capybaras written as haiku.\n")  # private, like MEMORY.md
        write(self.ws / "AGENTS.md", "# Agents\n\nOperating rules, not memory.\n")  # in the workspace, not in a collection
        write(self.ws / "memory" / "2026-01-01.md", "\n".join(DAILY) + "\n")
        write(self.ws / "memory" / "projects" / "apollo.md", "# Apollo\n\nApollo budget is 42 marbles.\n")
        write(self.ws / "docs" / "guide.md", "# Guide\n\nThe onboarding checklist mentions quokka badges.\n")
        write(self.notes / "Team Plan.md", "# Team plan\n\nOffsite in Lisbon.\nBring the narwhal banner.\nDone.\n")
        self.memory_cfg = {
            "qmd": {
                "paths": [{"path": str(self.notes), "name": "team"}, {"path": "docs"}],
                "sessions": {"enabled": True},
                # a short debounce: the deferred sync of a debounced call ends within its test
                "update": {"waitForBootSync": True, "debounceMs": 5000},
                # generous: a loaded CI box must not turn a slow cold start into a fallback
                "limits": {"timeoutMs": 30000},
            }
        }
        self.settings = make_settings(self.state, self.ws, self.memory_cfg)
        tw = TranscriptWriter(self.settings.sessions_dir / "s1.jsonl")  # the session engine's writer
        tw.write_header("s1", agentId="main", sessionKey="agent:main:main")
        tw.append({"type": "message", "message": {"role": "user", "content": "Remember that the vault code word is ORCHIDACEAE."}})
        tw.append({"type": "message", "message": {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "memory_search", "arguments": "{}"}}]}})
        tw.append({"type": "message", "message": {"role": "tool", "tool_call_id": "c1", "content": "{\"results\": []}"}})
        tw.append({"type": "message", "message": {"role": "assistant", "content": "Noted, the code word is ORCHIDACEAE."}})
        tw.append({"type": "flush", "path": None, "linesAppended": 0, "stored": False, "reason": "threshold", "reply": "NO_REPLY"})
        tw.close()
        self.events: list = []
        self.backend = QmdBackend(self.settings, sink=self.events.append,
                                  builtin=MemoryManager(self.settings, sink=self.events.append))
        self.extra: list[QmdBackend] = []

    def variant(self, **qmd: object) -> QmdBackend:
        """Another backend over the same qmd home with changed qmd settings (no boot)."""
        cfg = json.loads(json.dumps(self.memory_cfg))
        cfg["qmd"]["update"] = {"onBoot": False}
        for key, value in qmd.items():
            if isinstance(value, dict) and isinstance(cfg["qmd"].get(key), dict):
                cfg["qmd"][key] = {**cfg["qmd"][key], **value}
            else:
                cfg["qmd"][key] = value
        s = make_settings(self.state, self.ws, cfg)
        b = QmdBackend(s, sink=self.events.append, builtin=MemoryManager(s, sink=self.events.append))
        self.extra.append(b)
        return b

    def close(self) -> None:
        for b in [self.backend, *self.extra]:
            b.close()


@pytest.fixture(scope="module")
def world(real_qmd, tmp_path_factory):
    w = World(tmp_path_factory.mktemp("qmd-world"))
    yield w
    w.close()


@pytest.fixture
def events(world):
    world.events.clear()
    return world.events


def file_lines(path: Path, start: int, end: int) -> list[str]:
    return path.read_text().splitlines()[start - 1:end]


def body(snippet: str) -> str:
    return snippet.split("\n\nSource: ")[0]


def test_boot_created_collections_in_the_agent_home(world):
    home = world.state / "agents" / "main" / "qmd"
    cfg = yaml.safe_load((home / "xdg-config" / "qmd" / "index.yml").read_text())
    cols = cfg["collections"]
    assert set(cols) == {"memory-root", "memory-dir", "team", "docs", "sessions"}
    assert cols["memory-dir"] == {"path": str((world.ws / "memory").resolve()), "pattern": "**/*.md"}
    assert cols["team"]["path"] == str(world.notes.resolve())
    assert cols["sessions"]["path"] == str(home / "sessions")
    assert (home / "xdg-cache" / "qmd" / "index.sqlite").is_file()
    # offline: models point at local files so embed/query fail fast instead of downloading
    assert all(not str(v).startswith("hf:") for v in cfg["models"].values())


def test_status_reports_qmd_backend_and_collections(world):
    st = world.backend.status()
    assert st["backend"] == "qmd" and st["available"] is True, st
    assert st["version"].startswith("qmd 2.8")
    files = {c["name"]: c["files"] for c in st["collections"]}
    assert files == {"memory-root": 2, "memory-dir": 2, "team": 1, "docs": 1, "sessions": 1}  # MEMORY.md, USER.md
    assert st["builtin"]["backend"] == "builtin"


def test_text_status_lists_the_collections(world, capsys):
    import argparse

    from openclaw_tui.commands.memory_cmd import _status

    assert _status(world.backend, argparse.Namespace(json=False)) == 0
    out = capsys.readouterr().out
    rows = {line.split("  ", 1)[0].strip(): line for line in out.splitlines()}
    assert rows["backend"].split()[-1] == "qmd"
    assert "qmd 2.8" in rows["qmd"] and "(available)" in rows["qmd"]
    assert "2 files" in rows["collection memory-dir"] and "1 files" in rows["collection team"]
    assert str(world.notes) in rows["collection team"]
    assert {"collection memory-root", "collection docs", "collection sessions", "fallback"} <= set(rows)
    assert "None" not in out and "n/a" in rows["chunks"]


def test_search_maps_hits_to_workspace_lines(world, events):
    res = world.backend.search("zeppelin kubernetes rotation")
    assert res["backend"] == "qmd" and res["fallback"] is None, res
    top = res["results"][0]
    assert top["path"] == "memory/2026-01-01.md" and top["source"] == "memory"
    assert top["startLine"] <= 40 <= top["endLine"]
    # the snippet is exactly the file's lines startLine..endLine
    assert body(top["snippet"]).splitlines() == file_lines(world.ws / top["path"], top["startLine"], top["endLine"])
    assert top["citation"] == f"memory/2026-01-01.md#L{top['startLine']}-L{top['endLine']}"
    assert not [e for e in events if isinstance(e, QmdFallback)]


def test_search_memory_root_and_nested_memory(world):
    res = world.backend.search("espresso oat milk")
    top = res["results"][0]
    assert top["path"] == "MEMORY.md"
    lines = file_lines(world.ws / "MEMORY.md", top["startLine"], top["endLine"])
    assert "- The user drinks espresso with oat milk every morning." in lines
    res = world.backend.search("apollo budget marbles")
    assert res["results"][0]["path"] == "memory/projects/apollo.md"


def test_outside_workspace_collection_shows_qmd_path_and_get_reads_it(world):
    res = world.backend.search("narwhal banner")
    top = res["results"][0]
    assert top["path"] == "qmd/team/Team Plan.md" and top["source"] == "qmd"
    got = world.backend.get(top["path"], from_line=top["startLine"], lines=top["endLine"] - top["startLine"] + 1)
    assert "error" not in got
    assert got["text"].splitlines() == file_lines(world.notes / "Team Plan.md", top["startLine"], top["endLine"])
    assert "Bring the narwhal banner." in got["text"]
    whole = world.backend.get("qmd/team/Team Plan.md")
    # one reader for both backends: a whole file without its final newline, as the builtin's get gives it
    assert whole["text"] == (world.notes / "Team Plan.md").read_text().removesuffix("\n")


def test_workspace_path_collection_get_served_by_qmd(world):
    res = world.backend.search("quokka badges")
    assert res["results"][0]["path"] == "docs/guide.md"
    got = world.backend.get("docs/guide.md", from_line=3, lines=1)
    assert got["text"] == "The onboarding checklist mentions quokka badges."


@pytest.mark.parametrize(
    "path",
    ["qmd/memory-root/AGENTS.md", "qmd/memory-root/docs/guide.md", "qmd/team/../../../etc/passwd.md", "qmd/team/../ws/MEMORY.md", "qmd/nosuch/x.md", "qmd/team", "qmd/team/notes.txt",
     "qmd//etc/x.md", "qmd/team/%2e%2e/x.md/../../y.md"],
)
def test_get_refuses_escapes_and_unknown_collections(world, path):
    got = world.backend.get(path)
    assert got["text"] == "" and got.get("disabled") is True and got["error"].startswith("refused"), got


def test_get_refuses_symlink_inside_collection_and_missing_is_empty(world, tmp_path):
    secret = write(tmp_path / "secret.md", "top secret\n")
    link = world.notes / "link.md"
    link.symlink_to(secret)
    try:
        got = world.backend.get("qmd/team/link.md")
        assert got["text"] == "" and got["disabled"] is True and "symlink" in got["error"]
    finally:
        link.unlink()
    assert world.backend.get("qmd/team/missing.md") == {"path": "qmd/team/missing.md", "text": ""}


def test_get_memory_paths_delegate_to_builtin(world):
    got = world.backend.get("MEMORY.md", from_line=3, lines=2)
    assert got["text"].splitlines() == MEMORY.splitlines()[2:4]
    refused = world.backend.get("../outside/team-notes/Team Plan.md")
    assert refused["text"] == "" and refused.get("disabled") is True


def test_scope_denies_group_and_allows_direct(world, events):
    denied = world.backend.search("espresso", session_key="agent:main:discord:group:123")
    assert denied["results"] == [] and denied["denied"] is True
    warn = [e for e in events if isinstance(e, Notice) and e.level == "warning"]
    assert warn and "channel=discord" in warn[-1].message and "chatType=group" in warn[-1].message
    allowed = world.backend.search("espresso", session_key="agent:main:telegram:dm:99")
    assert allowed["results"] and allowed["results"][0]["path"] == "MEMORY.md"
    # direct sessions cite; a group allowed by a rule gets no citation footer
    assert "citation" in allowed["results"][0]


def test_scope_rules_from_config(world, events):
    b = world.variant(scope={"default": "deny", "rules": [
        {"action": "deny", "match": {"keyPrefix": "slack:"}},
        {"action": "allow", "match": {"chatType": "group"}},
    ]})
    res = b.search("onboarding checklist quokka badges", session_key="agent:main:discord:group:1")
    assert res["results"] and res["results"][0]["path"].endswith("guide.md")  # a configured path: every session's
    assert "citation" not in res["results"][0]  # citations auto: off in group chats
    # allowed by scope, yet memory/ outside memory/shared/ is a direct session's private tier (issue 35)
    assert b.search("apollo budget marbles", session_key="agent:main:discord:group:1")["results"] == []
    # allowed by scope, yet MEMORY.md never reaches a group session (the privacy rule, issue 14)
    assert "MEMORY.md" not in [r["path"] for r in b.search("espresso", session_key="agent:main:discord:group:1")["results"]]
    assert b.search("espresso", session_key="agent:main:slack:group:1")["denied"] is True
    assert b.search("espresso", session_key="agent:main:main")["denied"] is True


def test_user_md_is_served_to_direct_sessions_only(world, events):
    b = world.variant(scope={"default": "allow", "rules": []})  # scope lets groups search at all
    direct = b.search("capybaras haiku", session_key="agent:main:main")
    assert direct["results"] and direct["results"][0]["path"] == "USER.md"
    group = b.search("capybaras haiku", session_key="agent:main:discord:group:1")
    assert "USER.md" not in [r["path"] for r in group["results"]]
    assert "capybaras" in b.get("USER.md", session_key="agent:main:main")["text"]
    refused = b.get("USER.md", session_key="agent:main:discord:group:1")
    assert refused["text"] == "" and "private" in refused["error"]


def test_sessions_export_is_searchable_and_readable(world, events):
    res = world.backend.search("vault code word ORCHIDACEAE")
    top = res["results"][0]
    assert top["path"] == "qmd/sessions/s1.md" and top["source"] == "sessions"
    got = world.backend.get(top["path"])
    assert got["text"].splitlines() == [
        "# Session s1", "",
        "User: Remember that the vault code word is ORCHIDACEAE.",
        "Assistant: Noted, the code word is ORCHIDACEAE.",
    ]
    # a new message appears after the next (forced) sync
    with open(world.settings.sessions_dir / "s1.jsonl", "a") as fh:
        fh.write(json.dumps({"type": "message", "message": {"role": "user", "content": "Also: the ferry leaves at dawn"}}) + "\n")
    os.utime(world.settings.sessions_dir / "s1.jsonl")
    out = world.backend.sync(force=True, reason="test")
    assert out["updated"] is True and "error" not in out, out
    res = world.backend.search("ferry leaves dawn")
    assert res["results"][0]["path"] == "qmd/sessions/s1.md"
    assert any(isinstance(e, IndexSynced) for e in events)


def test_sync_indexes_new_files_and_debounces(world, events):
    write(world.ws / "memory" / "2026-02-02.md", "# 2026-02-02\n\nPicked the color chartreuse for the logo.\n")
    assert world.backend.sync(force=True, reason="test")["filesIndexed"] >= 1
    res = world.backend.search("chartreuse logo")
    top = res["results"][0]
    assert top["path"] == "memory/2026-02-02.md"
    assert file_lines(world.ws / top["path"], top["startLine"], top["endLine"]) == body(top["snippet"]).splitlines()
    assert world.backend.sync(reason="again")["skipped"] == "debounced"
    # the debounced call is not lost: one deferred sync runs at the end of the window (and is
    # over before the tests that change the shared home's collections)
    deadline = time.monotonic() + 60
    while not any(isinstance(e, IndexSynced) and "again (debounced)" in e.reason for e in events):
        assert time.monotonic() < deadline, "the deferred sync never ran"
        time.sleep(0.1)


def test_limits_cap_results_and_snippets(world):
    b = world.variant(limits={"maxResults": 2, "maxSnippetChars": 40, "maxInjectedChars": 4000})
    res = b.search("routine weather lunch notes")
    assert len(res["results"]) <= 2 and res["results"]
    assert all(len(body(r["snippet"])) <= 40 for r in res["results"])
    res = b.search("routine weather lunch notes", max_results=1)
    assert len(res["results"]) == 1


def test_offline_query_mode_falls_back_to_builtin(world, events):
    b = world.variant(searchMode="query")
    res = b.search("espresso oat milk")
    assert res["fallback"]["from"] == "qmd" and res["backend"] == "builtin"
    assert res["fallback"]["reason"].startswith(("models:", "exit:")), res["fallback"]
    assert res["results"] and res["results"][0]["path"] == "MEMORY.md"
    fb = [e for e in events if isinstance(e, QmdFallback)]
    assert fb and fb[-1].query == "espresso oat milk"


def test_offline_vsearch_without_embeddings_falls_back(world):
    b = world.variant(searchMode="vsearch")
    res = b.search("espresso oat milk")
    assert res["fallback"]["reason"].startswith("embeddings:"), res["fallback"]
    assert res["results"][0]["path"] == "MEMORY.md"
    # embed is scheduled in vsearch mode; offline it fails fast and is reported, not raised
    out = b.sync(force=True, reason="embed-test")
    assert out["updated"] is True and out["embedded"] is False and out["embedError"]


def test_memory_tools_over_the_qmd_backend(world):
    from openclaw_tui.tools.memory_tools import run_memory_get, run_memory_search

    res = run_memory_search(world.backend, {"query": "narwhal banner", "maxResults": 3}, session_key="agent:main:main")
    top = res["results"][0]
    assert res["backend"] == "qmd" and top["path"] == "qmd/team/Team Plan.md"
    got = run_memory_get(world.backend, {"path": top["path"], "from": top["startLine"],
                                         "lines": top["endLine"] - top["startLine"] + 1})
    assert "Bring the narwhal banner." in got["text"]
    denied = run_memory_search(world.backend, {"query": "narwhal"}, session_key="agent:main:slack:channel:ops")
    assert denied["results"] == [] and denied["denied"] is True


# --- these two change the shared home's collections, so they run last -------------------


def test_changed_and_dropped_collections_are_replaced_and_removed(world):
    b = world.variant(paths=[{"path": str(world.notes), "name": "team", "pattern": "*.txt"}],
                      sessions={"enabled": False})
    report = b.ensure_collections()
    assert sorted(report["removed"]) == ["docs", "sessions", "team"]
    assert report["added"] == ["team"]
    home = world.state / "agents" / "main" / "qmd"
    cols = yaml.safe_load((home / "xdg-config" / "qmd" / "index.yml").read_text())["collections"]
    assert set(cols) == {"memory-root", "memory-dir", "team"} and cols["team"]["pattern"] == "*.txt"
    assert b.search("narwhal banner")["results"] == []  # Team Plan.md no longer matches *.txt
    st = {c["name"]: c["files"] for c in b.status()["collections"]}
    assert st == {"memory-root": 2, "memory-dir": 3, "team": 0}


def test_original_config_restores_its_collections(world):
    report = world.backend.ensure_collections()
    assert sorted(report["added"]) == ["docs", "sessions", "team"]
    assert world.backend.search("narwhal banner")["results"][0]["path"] == "qmd/team/Team Plan.md"


def test_fresh_workspace_without_memory_dir(real_qmd, tmp_path):
    ws = tmp_path / "ws"
    write(ws / "MEMORY.md", "# Memory\n\n- Only the root file exists: pumpernickel.\n")
    s = make_settings(tmp_path / "state", ws, {"qmd": {"update": {"waitForBootSync": True, "debounceMs": 0},
                                                 "limits": {"timeoutMs": 30000}}})
    events: list = []
    b = QmdBackend(s, sink=events.append, builtin=MemoryManager(s))
    try:
        res = b.search("pumpernickel")
        assert res["fallback"] is None and res["results"][0]["path"] == "MEMORY.md"
        write(ws / "memory" / "2026-03-03.md", "# 2026-03-03\n\nBaked sourdough with rye.\n")
        out = b.sync(force=True, reason="test")
        assert out["collections"]["added"] == ["memory-dir"]
        res = b.search("sourdough rye")
        assert res["fallback"] is None and res["results"][0]["path"] == "memory/2026-03-03.md"
        assert not [e for e in events if isinstance(e, QmdFallback)]
    finally:
        b.close()


def test_tiny_workspace_zero_bm25_score_is_still_a_hit(real_qmd, tmp_path):
    """In a two-document workspace qmd scores a real match 0 (the term is in half the
    documents: no IDF weight). A search with a small minScore must not come back empty."""
    ws = tmp_path / "ws"
    write(ws / "MEMORY.md", "# Memory\n\n- Prefers tea.\n")
    write(ws / "memory" / "2026-01-05.md", "- the deploy window is Thursday 14:00 UTC.\n")
    s = make_settings(tmp_path / "state", ws, {"qmd": {"update": {"waitForBootSync": True}, "limits": {"timeoutMs": 30000}}})
    b = QmdBackend(s, sink=lambda _e: None, builtin=MemoryManager(s))
    try:
        raw = b.search("deploy window")
        assert [r["path"] for r in raw["results"]] == ["memory/2026-01-05.md"] and raw["fallback"] is None, raw
        res = b.search("deploy window", min_score=0.01)
        assert [r["path"] for r in res["results"]] == ["memory/2026-01-05.md"], res
        assert res.get("relaxedMinScore") is (raw["results"][0]["score"] < 0.01)
        assert b.search("zebra crossing", min_score=0.01)["results"] == []
    finally:
        b.close()


def test_hits_of_files_changed_since_indexing_are_stale(real_qmd, tmp_path):
    """qmd/staleness.py: a hit's docid is qmd's content hash; a changed or deleted file is
    stale until the next sync, a touch that changed nothing is not."""
    ws = tmp_path / "ws"
    write(ws / "MEMORY.md", "# Memory\n\n- Prefers tea.\n")
    note = ws / "memory" / "2026-01-05.md"
    write(note, "- the deploy window is Thursday 14:00 UTC.\n")
    s = make_settings(tmp_path / "state", ws, {"qmd": {"update": {"waitForBootSync": True}, "limits": {"timeoutMs": 30000}}})
    b = QmdBackend(s, sink=lambda _e: None, builtin=MemoryManager(s))

    def hit() -> dict:
        res = b.search("deploy window")
        assert [r["path"] for r in res["results"]] == ["memory/2026-01-05.md"] and res["fallback"] is None, res
        return res["results"][0]

    try:
        first = hit()
        assert first["docid"] and "stale" not in first
        os.utime(note, (time.time() + 60, time.time() + 60))  # touched, same bytes
        assert "stale" not in hit()
        note.write_text("- the deploy window moved to Friday 09:00 UTC.\n")
        assert hit()["stale"] is True  # qmd still answers from what it indexed
        b.sync(force=True, reason="test")
        assert "stale" not in hit()
        note.unlink()
        res = b.search("deploy window")  # qmd keeps the removed file until the next update
        assert all(r["stale"] is True for r in res["results"] if r["path"] == "memory/2026-01-05.md")
    finally:
        b.close()
