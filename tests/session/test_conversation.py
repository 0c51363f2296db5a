"""The conversation a transcript replays to (pure), the cut rule for each compaction reason,
the tool registry the engine asks, and the engine's typed surface."""

from __future__ import annotations

import json

import pytest

from openclaw_tui.session.conversation import Conversation, History, ReportedUsage, replay
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.session.surface import EngineSurface
from openclaw_tui.session.thresholds import compaction_cut_for
from openclaw_tui.tools.registry import TOOLS, recall_tool, registered, spec_for

U1 = {"role": "user", "content": "one"}
A1 = {"role": "assistant", "content": "reply one"}
U2 = {"role": "user", "content": "two"}
CALL = {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "function": {"name": "read", "arguments": "{}"}},
                                                           {"id": "c2", "function": {"name": "append", "arguments": "{}"}}]}
RESULT1 = {"role": "tool", "tool_call_id": "c1", "name": "read", "content": "{}"}


def msg(m: dict) -> dict:
    return {"type": "message", "message": m}


INTERRUPTED = {"role": "tool", "tool_call_id": "c2", "name": "append", "content": json.dumps({"error": "interrupted"})}

USAGE = {"type": "usage", "model": "m", "promptTokens": 100, "completionTokens": 7}

# (entries, the conversation they leave)
TABLE = [
    ([], Conversation()),
    ([{"type": "session", "id": "s"}, {"type": "context", "notes": "today"}, msg(U1), msg(A1)],
     Conversation((U1, A1), notes="today")),
    ([msg(U1), msg(A1), {"type": "compaction", "summary": "S", "kept": 1}, msg(U2)], Conversation((A1, U2), summary="S")),
    ([msg(U1), msg(A1), {"type": "compaction", "summary": "S", "kept": 0}], Conversation((), summary="S")),
    ([msg(U1), msg(A1), {"type": "compaction", "summary": "S", "kept": "junk"}], Conversation((), summary="S")),
    # a crash between a tool call and its results: the missing result says so
    ([msg(U1), msg(CALL), msg(RESULT1)], Conversation((U1, CALL, RESULT1, INTERRUPTED))),
    # a prompt waiting behind a flush whose turn never started comes back as a message
    ([msg(U1), {"type": "pending", "message": U2}], Conversation((U1, U2), recovered="two")),
    # ... but not when its turn did start
    ([msg(U1), {"type": "pending", "message": U2}, msg(U2)], Conversation((U1, U2))),
    ([{"type": "pending", "message": {"role": "user", "content": ["parts"]}}], Conversation()),
    # the model's last reported usage, and where in the conversation it was measured
    ([msg(U1), msg(A1), USAGE, msg(U2)], Conversation((U1, A1, U2), usage=ReportedUsage("m", 107, 2))),
    ([msg(U1), {**USAGE, "promptTokens": 5}, msg(A1), USAGE], Conversation((U1, A1), usage=ReportedUsage("m", 107, 2))),
    ([msg(U1), msg(A1), USAGE, {"type": "compaction", "summary": "S", "kept": 1}], Conversation((A1,), summary="S")),
    ([msg(U1), {**USAGE, "promptTokens": "lots"}], Conversation((U1,))),
    ([msg(U1), {**USAGE, "model": None}], Conversation((U1,))),
    # entries that are not conversation
    ([msg(U1), {"type": "flush", "path": "memory/x.md"}, {"type": "error", "message": "boom"},
      {"type": "cancelled", "partial": "p"}, {"type": "model", "model": "m"}, {"type": "message", "message": "x"}],
     Conversation((U1,))),
]


@pytest.mark.parametrize(("entries", "want"), TABLE)
def test_replay(entries, want):
    assert replay(entries) == want


def test_replay_is_pure():
    entries = [msg(dict(U1)), msg(dict(CALL))]
    before = json.dumps(entries, sort_keys=True)
    first = replay(entries)
    assert replay(entries) == first
    assert json.dumps(entries, sort_keys=True) == before


def test_history_counts_cuts_and_recounts():
    h = History(lambda m: len(str(m.get("content"))))
    h.extend([U1, A1, U2])
    assert (h.tokens, h.token_counts, h.roles) == (15, [3, 9, 3], ["user", "assistant", "user"])
    assert h.drop_head(1) == [U1] and h.messages == [A1, U2] and h.tokens == 12
    h.recount(lambda _m: 1)
    assert h.tokens == 2 and h.last() == U2 and h.has_user()


@pytest.mark.parametrize(
    ("reason", "counts", "roles", "keep", "want"),
    [
        ("threshold", [10, 10, 10, 10], ["user", "assistant", "user", "assistant"], 20, 2),  # the token rule
        ("threshold", [10, 10], ["user", "assistant"], 100, 0),  # all fits: nothing for the threshold
        ("overflow", [10, 10, 10, 10], ["user", "assistant", "user", "assistant"], 100, 2),  # keep the latest user turn
        ("manual", [10, 10, 10, 10], ["user", "assistant", "user", "assistant"], 100, 2),
        ("manual", [10, 10], ["user", "assistant"], 100, 2),  # no earlier user turn: summarise all
        ("overflow", [10, 10], ["user", "assistant"], 100, 0),
        ("manual", [], [], 100, 0),
    ],
)
def test_compaction_cut_for(reason, counts, roles, keep, want):
    assert compaction_cut_for(reason, counts, roles, keep) == want


def test_the_tool_registry():
    names = [spec.name for spec in TOOLS]
    assert names == ["memory_search", "memory_get", "read", "write", "edit", "append"]
    assert {s.name for s in TOOLS if s.writes} == {"write", "edit", "append"}
    assert [s.name for s in TOOLS if s.stores] == ["append"]
    assert recall_tool().name == "memory_search" and recall_tool().memory
    assert spec_for("nope") is None
    schemas = [spec_for("append").schema, spec_for("read").schema]
    assert [s.name for s in registered(schemas)] == ["read", "append"]


def test_the_engine_satisfies_its_surface(make_settings):
    settings = make_settings(model="offline")
    engine = SessionEngine(settings, sink=lambda _e: None, probe_ollama=False)
    try:
        assert isinstance(engine, EngineSurface)
        for name in ("send", "cancel", "compact", "flush", "resume", "new_session", "set_model", "token_snapshot"):
            assert callable(getattr(engine, name))
    finally:
        engine.close()
