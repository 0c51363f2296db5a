"""Collection planning, path display, durations and the sessions export (no qmd needed)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from openclaw_tui.memory.qmd import parse_duration_s, plan_collections
from openclaw_tui.memory.qmd.collections import display_path, resolve_hit_path, sessions_export_dir
from openclaw_tui.memory.qmd.sessions_export import export_sessions, transcript_messages

from .helpers import make_settings, write


@pytest.mark.parametrize(
    "value, seconds",
    [("5m", 300.0), ("30s", 30.0), ("1h", 3600.0), ("1.5h", 5400.0), ("250ms", 0.25), ("2d", 172800.0),
     (15000, 15.0), ("15000", 15.0), ("0", None), ("off", None), (None, None), (0, None), (" 10 M ", 600.0)],
)
def test_parse_duration(value, seconds):
    assert parse_duration_s(value) == seconds


@pytest.mark.parametrize("value", ["soon", "5 minutes", "-1m", "m5"])
def test_parse_duration_rejects(value):
    with pytest.raises(ValueError):
        parse_duration_s(value)


def test_plan_default_and_extra_paths(tmp_path):
    ws = tmp_path / "ws"
    outside = tmp_path / "elsewhere" / "Team Notes"
    s = make_settings(
        tmp_path / "state", ws,
        {"qmd": {"paths": [{"path": "docs", "name": "Docs"}, {"path": str(outside)}, {"path": "more/docs", "pattern": "*.md"}],
                 "sessions": {"enabled": True}}},
    )
    specs = plan_collections(s)
    assert [(c.name, c.kind, c.pattern) for c in specs] == [
        ("memory-root", "memory", "MEMORY.md,memory.md,USER.md,user.md"),
        ("memory-dir", "memory", "**/*.md"),
        ("docs", "path", "**/*.md"),
        ("team-notes", "path", "**/*.md"),
        ("docs-2", "path", "*.md"),
        ("sessions", "sessions", "**/*.md"),
    ]
    by = {c.name: c for c in specs}
    assert by["docs"].root == ws / "docs"
    assert display_path(by["memory-root"], "MEMORY.md") == "MEMORY.md"
    assert display_path(by["memory-dir"], "2026-01-01.md") == "memory/2026-01-01.md"
    assert display_path(by["docs"], "a/b.md") == "docs/a/b.md"
    assert display_path(by["docs-2"], "x.md") == "more/docs/x.md"
    assert display_path(by["team-notes"], "x.md") == "qmd/team-notes/x.md"
    assert display_path(by["sessions"], "s1.md") == "qmd/sessions/s1.md"
    assert by["sessions"].root == s.agent_dir / "qmd" / "sessions"


def test_include_default_memory_off_and_export_dir(tmp_path):
    s = make_settings(tmp_path / "state", tmp_path / "ws",
                      {"qmd": {"includeDefaultMemory": False, "sessions": {"enabled": True, "exportDir": "exp"}}})
    specs = plan_collections(s)
    assert [c.name for c in specs] == ["sessions"]
    assert sessions_export_dir(s) == s.agent_dir / "qmd" / "exp"


def test_resolve_hit_path_finds_renamed_file(tmp_path):
    s = make_settings(tmp_path / "state", tmp_path / "ws", {"qmd": {"paths": [{"path": "notes"}]}})
    spec = [c for c in plan_collections(s) if c.name == "notes"][0]
    write(spec.root / "Meeting Notes" / "Big_Plan v2.md", "x\n")
    assert resolve_hit_path(spec, "Meeting Notes/Big_Plan v2.md") == "Meeting Notes/Big_Plan v2.md"
    assert resolve_hit_path(spec, "meeting-notes/big-plan-v2.md") == "Meeting Notes/Big_Plan v2.md"
    assert resolve_hit_path(spec, "missing.md") == "missing.md"


def _transcript(path: Path, entries: list[dict], torn: bool = False) -> None:
    lines = [json.dumps(e) for e in entries]
    text = "\n".join(lines) + "\n"
    if torn:
        text += '{"type": "message", "role": "user", "content": "half'
    write(path, text)


ENTRIES = [
    {"type": "session", "version": 1, "id": "s1", "timestamp": "2026-01-01T00:00:00Z"},
    {"type": "message", "role": "user", "content": "Remember the  launch\ncode is ORCHID-7"},
    {"type": "tool_call", "name": "memory_search", "arguments": {"query": "x"}},
    {"type": "message", "role": "tool", "content": "tool output must not be exported"},
    {"type": "message", "role": "assistant", "content": [{"type": "text", "text": "Noted:"}, {"type": "text", "text": "ORCHID-7"}]},
    {"type": "message", "role": "assistant", "content": "NO_REPLY", "silent": True},
    {"type": "flush", "path": "memory/2026-01-01.md"},
    {"type": "message", "message": {"role": "user", "content": "nested form works too"}},
]


def test_transcript_messages_and_torn_line(tmp_path):
    p = tmp_path / "s1.jsonl"
    _transcript(p, ENTRIES, torn=True)
    assert transcript_messages(p) == [
        ("user", "Remember the launch code is ORCHID-7"),
        ("assistant", "Noted: ORCHID-7"),
        ("user", "nested form works too"),
    ]


def test_export_writes_rewrites_and_applies_retention(tmp_path):
    sessions, out = tmp_path / "sessions", tmp_path / "out"
    _transcript(sessions / "s1.jsonl", ENTRIES)
    _transcript(sessions / "old.jsonl", ENTRIES[:2])
    old_time = time.time() - 40 * 86400
    os.utime(sessions / "old.jsonl", (old_time, old_time))
    rep = export_sessions(sessions, out, retention_days=30)
    assert rep.written == ["s1.md"]
    md = (out / "s1.md").read_text()
    assert md.splitlines() == [
        "# Session s1", "",
        "User: Remember the launch code is ORCHID-7",
        "Assistant: Noted: ORCHID-7",
        "User: nested form works too",
    ]
    assert not (out / "old.md").exists()
    # unchanged transcript → not rewritten
    assert export_sessions(sessions, out, retention_days=30).unchanged == 1
    # appended transcript → rewritten
    with open(sessions / "s1.jsonl", "a") as fh:
        fh.write(json.dumps({"type": "message", "role": "user", "content": "one more"}) + "\n")
    future = time.time() + 5
    os.utime(sessions / "s1.jsonl", (future, future))
    assert export_sessions(sessions, out, retention_days=30).written == ["s1.md"]
    assert (out / "s1.md").read_text().splitlines()[-1] == "User: one more"
    # without retention the old transcript is exported; removing a transcript removes its export
    assert "old.md" in export_sessions(sessions, out).written
    (sessions / "old.jsonl").unlink()
    assert export_sessions(sessions, out).removed == ["old.md"]


@pytest.mark.parametrize(
    "pattern, rel, ok",
    [
        ("**/*.md", "a.md", True),
        ("**/*.md", "x/y/a.md", True),
        ("**/*.md", "a.txt", False),
        ("*.md", "a.md", True),
        ("*.md", "x/a.md", False),
        ("MEMORY.md,memory.md", "MEMORY.md", True),
        ("MEMORY.md,memory.md", "memory.md", True),
        ("MEMORY.md,memory.md", "AGENTS.md", False),
        ("MEMORY.md,memory.md", "x/MEMORY.md", False),
        ("{a,b}/*.md", "b/n.md", True),
        ("{a,b}/*.md", "c/n.md", False),
        ("journals/*.md, a.md", "a.md", True),
        ("journals/*.md, a.md", "journals/2024.md", True),
        ("note?.md", "note1.md", True),
        ("note?.md", "note12.md", False),
        ("a+b.md", "a+b.md", True),
    ],
)
def test_matches_pattern(pattern, rel, ok):
    from openclaw_tui.memory.qmd.collections import matches_pattern

    assert matches_pattern(pattern, rel) is ok
