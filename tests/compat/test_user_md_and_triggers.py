"""USER.md as a memory file and trigger recall, through the engine (real litellm HTTP calls
to the scripted server), in private and group sessions on every route: the prompt, the read
tool, memory_get, memory_search, and the triggered read-in."""

from __future__ import annotations

import json

import pytest

from openclaw_tui import events
from openclaw_tui.memory.builtin.scoring import age_days, is_evergreen
from openclaw_tui.records.transcript import read_transcript
from tests.session.conftest import FAST_RETRY, SECRET_KEY  # noqa: F401 - fixtures come from tests/session
from tests.session.conftest import make_settings, recorder, server, workspace  # noqa: F401
from tests.session.test_engine_server import engine_for

PRIVATE = "agent:main:main"
GROUPS = ["agent:main:discord:group:42", "agent:main:slack:channel:c9"]
USER_MARK = "PREF-ORCHID-31"
TRIGGER_MARK = "LOCKER-CODE-4417"


@pytest.mark.parametrize("key,sees", [(PRIVATE, True), *[(g, False) for g in GROUPS]])
async def test_user_md_on_every_route(make_settings, server, recorder, workspace, key, sees) -> None:
    (workspace / "USER.md").write_text(f"# USER\n- Prefers orchid tea, marker {USER_MARK}\n")
    server.push(
        {"tool_calls": [
            {"name": "read", "arguments": {"path": "USER.md"}},
            {"name": "memory_get", "arguments": {"path": "USER.md"}},
            {"name": "memory_search", "arguments": {"query": "orchid tea marker", "minScore": 0}},
        ]},
        {"text": "ok"},
    )
    eng = engine_for(make_settings, server, recorder, session_key=key)
    await eng.send("which tea do I like?")
    requests = server.chat_requests()
    assert (USER_MARK in requests[0]["messages"][0]["content"]) is sees  # the system prompt
    assert (USER_MARK in json.dumps(requests)) is sees  # read, memory_get, search results
    results = {r.name: r for r in recorder.of(events.ToolResult)}
    assert bool(results["read"].error) is not sees and bool(results["memory_get"].error) is not sees
    paths = [h["path"] for h in recorder.of(events.MemoryRetrieved)[0].result.get("results", [])]
    assert ("USER.md" in paths) is sees
    if not sees:
        assert "USER.md are private" in results["memory_get"].error
    eng.close()


def test_user_md_is_evergreen() -> None:
    from datetime import datetime, timezone

    assert is_evergreen("USER.md", "memory") and is_evergreen("user.md", "memory")
    assert age_days("USER.md", "memory", 0.0, datetime.now(timezone.utc)) is None  # never decays
    assert age_days("notes/USER.md", "memory", 0.0, datetime.now(timezone.utc)) is not None


MEMORY = f"""# Memory

- The gym locker code is {TRIGGER_MARK} <!-- trigger: gym locker, locker code -->
  <!-- importance: 9 -->
- Unrelated: the plant needs water on Sundays
"""


@pytest.mark.parametrize("key,sees", [(PRIVATE, True), *[(g, False) for g in GROUPS]])
async def test_trigger_recall_before_the_model_answers(make_settings, server, recorder, workspace, key, sees) -> None:
    (workspace / "MEMORY.md").write_text(MEMORY)
    (workspace / "USER.md").write_text("# USER\n- Answer in French when asked about food <!-- trigger: recipes -->\n")
    server.push({"text": "ok"})
    eng = engine_for(make_settings, server, recorder, session_key=key)
    await eng.send("I'm at the gym, what was my locker again?")
    first = server.chat_requests()[0]["messages"]
    # read in as messages (beyond the system prompt, where a private session has MEMORY.md anyway)
    assert (TRIGGER_MARK in json.dumps(first[1:])) is sees
    assert (TRIGGER_MARK in json.dumps(first)) is sees
    assert ("French" in first[0]["content"]) is sees  # USER.md in the prompt only in a private session
    triggered = recorder.of(events.MemoryTriggered)
    if not sees:
        assert triggered == [] and recorder.of(events.ToolCalled) == []
        eng.close()
        return
    assert [e["path"] for e in triggered[0].entries] == ["MEMORY.md"]
    entry = triggered[0].entries[0]
    assert (entry["startLine"], entry["endLine"], entry["importance"]) == (3, 4, 9.0)
    assert entry["score"] >= 0.72
    calls = recorder.of(events.ToolCalled)
    assert [c.name for c in calls] == ["memory_get"] and calls[0].arguments == {"path": "MEMORY.md", "from": 3, "lines": 2}
    rows = [r for r in read_transcript(eng.transcript_path) if r.get("autoRecall")]
    assert rows, "the triggered read is kept in the transcript as an automatic call"
    eng.close()


async def test_trigger_recall_caps_at_three_best_importance_first(make_settings, server, recorder, workspace) -> None:
    lines = ["# Memory", ""]
    for i, imp in enumerate([2, 9, 5, 7, 1]):
        lines.append(f"- fact {i} about the boat <!-- trigger: boat --> <!-- importance: {imp} -->")
    (workspace / "MEMORY.md").write_text("\n".join(lines) + "\n")
    server.push({"text": "ok"})
    eng = engine_for(make_settings, server, recorder)
    await eng.send("tell me about the boats")
    got = recorder.of(events.MemoryTriggered)[0].entries
    assert [e["importance"] for e in got] == [9.0, 7.0, 5.0]
    assert len(recorder.of(events.ToolCalled)) == 3
    eng.close()


async def test_no_trigger_no_injection(make_settings, server, recorder, workspace) -> None:
    (workspace / "MEMORY.md").write_text(MEMORY)
    server.push({"text": "ok"})
    eng = engine_for(make_settings, server, recorder)
    await eng.send("what's the weather like at the lake?")
    assert recorder.of(events.MemoryTriggered) == [] and TRIGGER_MARK not in json.dumps(server.chat_requests()[0]["messages"][1:])
    eng.close()


async def test_flush_may_edit_user_md_only_after_reading_it(make_settings, server, recorder, workspace) -> None:
    (workspace / "USER.md").write_text("# USER\n- Notes:\n")
    eng = engine_for(make_settings, server, recorder)
    server.push(
        {"tool_calls": [{"name": "edit", "arguments": {"path": "USER.md", "old_text": "- Notes:", "new_text": "- Notes: prefers metric units"}}]},
        {"tool_calls": [{"name": "read", "arguments": {"path": "USER.md"}}]},
        {"tool_calls": [{"name": "edit", "arguments": {"path": "USER.md", "old_text": "- Notes:", "new_text": "- Notes: prefers metric units"}}]},
        {"text": "NO_REPLY"},
    )
    await eng.flush()
    results = [r for r in recorder.of(events.ToolResult) if r.name == "edit"]
    assert results[0].error and "only appending" in results[0].error  # not read yet: refused
    assert not results[1].error
    assert (workspace / "USER.md").read_text() == "# USER\n- Notes: prefers metric units\n"
    eng.close()


async def test_group_flush_never_edits_user_md(make_settings, server, recorder, workspace) -> None:
    (workspace / "USER.md").write_text("# USER\n- Notes:\n")
    eng = engine_for(make_settings, server, recorder, session_key=GROUPS[0])
    server.push(
        {"tool_calls": [{"name": "read", "arguments": {"path": "USER.md"}},
                        {"name": "edit", "arguments": {"path": "USER.md", "old_text": "- Notes:", "new_text": "- Notes: x"}}]},
        {"text": "NO_REPLY"},
    )
    await eng.flush()
    assert all(r.error and "private" in r.error for r in recorder.of(events.ToolResult))
    assert (workspace / "USER.md").read_text() == "# USER\n- Notes:\n"
    eng.close()
