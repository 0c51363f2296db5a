"""A group session never finds a private session's transcript (issue 30, point 5)."""

from __future__ import annotations

from pathlib import Path

from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.records.transcript import TranscriptWriter
from tests.embeddings.test_session_source import _settings, _ws

GROUP = "agent:main:slack:group:g1"


def _write(settings, sid: str, key: str | None, text: str) -> None:
    w = TranscriptWriter(settings.sessions_dir / f"{sid}.jsonl")
    header = {"agentId": settings.agent_id}
    if key is not None:
        header["sessionKey"] = key
    w.write_header(sid, **header)
    w.append({"type": "message", "message": {"role": "user", "content": text}})
    w.close()


def _found(m: MemoryManager, key: str) -> set[str]:
    return {r["path"] for r in m.search("zebra passport number", min_score=0, session_key=key)["results"] if r.get("source") == "sessions"}


def test_a_group_session_finds_only_its_own_transcripts(tmp_path: Path) -> None:
    s = _settings(_ws(tmp_path))
    with MemoryManager(s) as m:
        m.sync()
        _write(s, "private", s.session_key, "my zebra passport number is 7781")
        _write(s, "group", GROUP, "the group talked about a zebra passport number too")
        _write(s, "nokey", None, "zebra passport number in a transcript without a key")
        m.sync()
        assert _found(m, s.session_key) == {"sessions/private.jsonl", "sessions/group.jsonl", "sessions/nokey.jsonl"}
        assert _found(m, GROUP) == {"sessions/group.jsonl"}
        assert _found(m, "agent:main:discord:channel:c9") == set()
