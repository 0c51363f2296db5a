"""Session transcripts as a memory source: rendering, line mapping, deltas, backfill."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from openclaw_tui.config import resolve_agent, validate_config
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.memory.builtin.session_source import delta_since, render_transcript
from openclaw_tui.records.transcript import TranscriptWriter


def _settings(ws: Path, *, enabled: bool = True, sources=("memory", "sessions"), delta_bytes=100_000, delta_messages=50):
    ms = {
        "provider": "none",
        "sources": list(sources),
        "experimental": {"sessionMemory": enabled},
        "sync": {"sessions": {"deltaBytes": delta_bytes, "deltaMessages": delta_messages}},
    }
    return resolve_agent(validate_config({"agents": {"defaults": {"workspace": str(ws), "memorySearch": ms}}}))


def _ws(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n\nNothing about appliances here.\n")
    return ws


def _transcript(settings, sid: str, turns: list[tuple[str, str]]) -> Path:
    w = TranscriptWriter(settings.sessions_dir / f"{sid}.jsonl")
    w.write_header(sid, agentId=settings.agent_id, sessionKey=settings.session_key)
    for role, text in turns:
        w.append({"type": "message", "message": {"role": role, "content": text}})
    w.close()
    return w.path


def _append(path: Path, *entries: dict) -> None:
    w = TranscriptWriter(path)
    for e in entries:
        w.append(e)
    w.close()


def _hits(m: MemoryManager, q: str) -> list[dict]:
    return [r for r in m.search(q, min_score=0)["results"] if r.get("source") == "sessions"]


def test_render_maps_lines_to_jsonl():
    rows = [
        {"type": "session", "version": 1, "id": "s"},
        {"type": "message", "message": {"role": "user", "content": "first\nquestion"}},
        {"type": "message", "message": {"role": "assistant", "content": "", "tool_calls": [{"id": "t"}]}},
        {"type": "message", "message": {"role": "tool", "tool_call_id": "t", "content": "{\"secret\": 1}"}},
        {"type": "message", "message": {"role": "assistant", "content": [{"type": "text", "text": "the answer"}]}},
        {"type": "flush", "path": "memory/x.md"},
    ]
    data = ("\n".join(json.dumps(r) for r in rows) + "\n{\"type\": \"mess").encode()  # torn last line
    text, msgs = render_transcript(data)
    lines = text.split("\n")[:-1]
    assert lines == ["", "User: first question", "", "", "Assistant: the answer", "", ""]
    assert msgs == 2
    assert delta_since(data, len(data)) == (0, 0, False)
    assert delta_since(data, 0)[1] == 2


def test_transcripts_indexed_with_line_numbers_of_the_jsonl(tmp_path):
    ws = _ws(tmp_path)
    s = _settings(ws)
    with MemoryManager(s) as m:
        m.sync()  # switches the source on
        path = _transcript(s, "sess-1", [("user", "our kettle broke this morning"),
                                          ("assistant", "I noted that the kettle broke; want a reminder to buy one?")])
        report = m.sync()
        assert report["ok"]
        hits = _hits(m, "kettle broke")
        assert hits and hits[0]["path"] == "sessions/sess-1.jsonl"
        jsonl = path.read_text().splitlines()
        covered = jsonl[hits[0]["startLine"] - 1 : hits[0]["endLine"]]
        assert any("kettle" in line for line in covered)
        user_line = next(i for i, line in enumerate(jsonl, 1) if "our kettle" in line)
        assert hits[0]["startLine"] <= user_line <= hits[0]["endLine"]
        assert "sessions" in m.status()["sources"]
        # memory_get serves memory files only
        got = m.get("sessions/sess-1.jsonl")
        assert got["text"] == ""


def test_off_unless_both_switches(tmp_path):
    ws = _ws(tmp_path)
    for s in (_settings(ws, enabled=False), _settings(ws, sources=("memory",))):
        _transcript(s, "sess-x", [("user", "the zeppelin question")])
        with MemoryManager(s) as m:
            m.sync(force=True)
            assert _hits(m, "zeppelin") == []
            assert "sessions" not in m.status()["sources"]


def test_delta_thresholds_and_compaction(tmp_path):
    ws = _ws(tmp_path)
    s = _settings(ws, delta_messages=3, delta_bytes=10_000)
    with MemoryManager(s) as m:
        m.sync()
        path = _transcript(s, "sess-2", [("user", "hello there")])
        m.sync()
        assert _hits(m, "hello")
        # one new message: below deltaMessages (3) and deltaBytes → not re-indexed yet
        _append(path, {"type": "message", "message": {"role": "user", "content": "remember the violin lesson"}})
        assert m.sync()["filesIndexed"] == 0
        assert _hits(m, "violin") == []
        # two more → 3 new messages since the indexed state → re-indexed
        _append(path, {"type": "message", "message": {"role": "assistant", "content": "noted"}},
                {"type": "message", "message": {"role": "user", "content": "thanks"}})
        assert m.sync()["filesIndexed"] == 1
        assert _hits(m, "violin")
        # a compaction re-syncs at once
        _append(path, {"type": "message", "message": {"role": "user", "content": "the saxophone too"}},
                {"type": "compaction", "summary": "s", "tokensBefore": 10, "tokensAfter": 5, "compactionCount": 1})
        assert m.sync()["filesIndexed"] == 1
        assert _hits(m, "saxophone")
        # a big message crosses deltaBytes on its own
        _append(path, {"type": "message", "message": {"role": "user", "content": "tuba " * 2500}})
        assert m.sync()["filesIndexed"] == 1
        assert _hits(m, "tuba")


def test_old_transcripts_wait_for_force_backfill(tmp_path):
    ws = _ws(tmp_path)
    s = _settings(ws)
    old = _transcript(s, "old-sess", [("user", "the marmalade recipe from grandma")])
    past = time.time() - 3 * 86400
    os.utime(old, (past, past))
    with MemoryManager(s) as m:
        m.sync()
        assert _hits(m, "marmalade") == []
        forced = m.sync(force=True)
        assert forced["ok"] and forced["fullRebuild"]
        assert _hits(m, "marmalade")
    # and it stays indexed on a later plain sync / restart
    with MemoryManager(s) as m:
        m.sync()
        assert _hits(m, "marmalade")
        old.unlink()
        m.sync()
        assert _hits(m, "marmalade") == []  # vanished transcript pruned


@pytest.mark.parametrize("garbage", [b"\x00\xff not json\n", b'["a list"]\n', b'{"type": "message", "message": "str"}\n'])
def test_garbage_lines_are_tolerated(tmp_path, garbage):
    ws = _ws(tmp_path)
    s = _settings(ws)
    with MemoryManager(s) as m:
        m.sync()
        p = _transcript(s, "sess-g", [("user", "first line ok")])
        with open(p, "ab") as fh:
            fh.write(garbage)
        _append(p, {"type": "message", "message": {"role": "user", "content": "pelican sighting"}})
        assert m.sync(force=True)["ok"]
        hit = _hits(m, "pelican")[0]
        lines = p.read_bytes().split(b"\n")
        assert b"pelican" in lines[hit["endLine"] - 1] or any(b"pelican" in x for x in lines[hit["startLine"] - 1: hit["endLine"]])
