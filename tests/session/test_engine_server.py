"""The session engine through real litellm HTTP calls to a scripted OpenAI-compatible server."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path

import pytest

from openclaw_tui import events
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.records.transcript import read_transcript
from openclaw_tui.workspace.daily import daily_rel
from tests.session.conftest import FAST_RETRY, SECRET_KEY, small_window

MODEL = "openai/fake-model"


def engine_for(make_settings, server, recorder, overrides=None, **kw) -> SessionEngine:
    settings = make_settings(overrides, model=MODEL, api_base=server.base_url, api_key=SECRET_KEY, **{k: v for k, v in kw.items() if k in ("session_key", "workspace_access")})
    return SessionEngine(settings, sink=recorder, retry_policy=kw.get("policy", FAST_RETRY), session_id=kw.get("session_id"))


def usage(total: int) -> dict[str, int]:
    return {"prompt_tokens": total - 5, "completion_tokens": 5}


def _snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*")) if p.is_file()}


# ------------------------------------------------------------------ streaming and tools


async def test_streams_text_runs_tools_and_writes_the_transcript(make_settings, server, recorder, workspace) -> None:
    (workspace / "USER.md").write_text("# USER\nName: Ada\n")
    server.push(
        {"tool_calls": [{"name": "read", "arguments": {"path": "USER.md"}}]},
        {"text": "Your name is Ada, as USER.md says."},
    )
    eng = engine_for(make_settings, server, recorder)
    result = await eng.send("What is my name?")
    assert result.text == "Your name is Ada, as USER.md says."
    assert result.error is None
    deltas = "".join(e.text for e in recorder.of(events.TextDelta))
    assert deltas == result.text and len(recorder.of(events.TextDelta)) > 2  # really streamed
    called = recorder.of(events.ToolCalled)
    assert [c.name for c in called] == ["read"] and called[0].arguments == {"path": "USER.md"}
    assert "Name: Ada" in recorder.of(events.ToolResult)[0].result["text"]

    reqs = server.chat_requests()
    assert len(reqs) == 2
    assert reqs[0]["stream"] is True and reqs[0]["model"] == "fake-model"
    names = {t["function"]["name"] for t in reqs[0]["tools"]}
    assert {"read", "write", "edit", "append", "memory_search", "memory_get"} <= names
    tool_msg = reqs[1]["messages"][-1]
    assert tool_msg["role"] == "tool" and "Name: Ada" in tool_msg["content"]
    assert reqs[1]["messages"][-2]["tool_calls"][0]["function"]["name"] == "read"

    entries = read_transcript(eng.transcript_path)
    assert entries[0]["type"] == "session" and entries[0]["id"] == eng.session_id
    roles = [e["message"]["role"] for e in entries if e["type"] == "message"]
    assert roles == ["user", "assistant", "tool", "assistant"]
    usage_ev = recorder.of(events.TokenUsage)[-1]
    assert usage_ev.estimated is False and usage_ev.prompt_tokens is not None
    eng.close()


async def test_resume_continues_the_same_conversation(make_settings, server, recorder) -> None:
    server.push({"text": "first answer"}, {"text": "second answer"})
    eng = engine_for(make_settings, server, recorder)
    await eng.send("first question")
    sid = eng.session_id
    eng.close()
    eng2 = engine_for(make_settings, server, recorder, session_id=sid)
    await eng2.send("second question")
    msgs = server.chat_requests()[-1]["messages"]
    assert [m["content"] for m in msgs if m["role"] in ("user", "assistant")] == ["first question", "first answer", "second question"]
    listed = {s["sessionId"]: s for s in eng2.list_sessions()}
    assert listed[sid]["title"] == "first question" and listed[sid]["current"]
    new_id = eng2.new_session()
    assert new_id != sid and eng2.history == []
    eng2.resume(sid)
    assert len(eng2.history) == 4
    with pytest.raises(ValueError):
        eng2.resume("does-not-exist")
    eng2.close()


async def test_tool_step_cap(make_settings, server, recorder) -> None:
    server.default = {"tool_calls": [{"name": "read", "arguments": {"path": "USER.md"}}]}
    eng = engine_for(make_settings, server, recorder, {"agents": {"defaults": {"maxToolSteps": 3}}})
    result = await eng.send("loop forever")
    assert "stopped after 3 tool steps" in result.text
    assert len(server.chat_requests()) == 3
    eng.close()


# ------------------------------------------------------------------ flush


async def test_flush_fires_at_the_exact_threshold_once_per_cycle(make_settings, server, recorder, workspace) -> None:
    eng = engine_for(make_settings, server, recorder, small_window(10_000, 2_000, 1_000, keep=10))
    F, C = eng.flush_threshold, eng.compaction_threshold
    assert (F, C) == (7_000, 8_000)
    today = daily_rel()
    m2, m3 = "second message", "third message"
    n2 = eng.counter.count_message({"role": "user", "content": m2})
    n3 = eng.counter.count_message({"role": "user", "content": m3})

    # turn 1 leaves the prompt one token short of the threshold for turn 2
    server.push({"text": "one", "usage": usage(F - n2 - 1)})
    await eng.send("first message")
    assert eng.counters() == {"compactionCount": 0, "memoryFlushCompactionCount": None, "memoryFlushAt": None}
    # turn 2: projected = F - 1 -> no flush; its usage puts turn 3 exactly at F
    server.push({"text": "two", "usage": usage(F - n3)})
    await eng.send(m2)
    assert recorder.of(events.FlushStarted) == []
    # turn 3: projected == F -> a silent flush (new session, counters 0/0); the model writes
    # it (hybrid), so it runs after the reply instead of holding the prompt back (issue 27)
    server.push(
        {"text": "three", "usage": usage(F + 10)},
        {"tool_calls": [{"name": "append", "arguments": {"path": today, "content": "- user prefers tea"}}]},
        {"text": "NO_REPLY"},
    )
    recorder.clear()
    r3 = await eng.send(m3)
    kinds = [e.type for e in recorder.events]
    assert kinds.index("turn_started") < kinds.index("turn_finished") < kinds.index("flush_started")
    fs = recorder.of(events.FlushStarted)[0]
    assert fs.tokens >= F and fs.threshold == F and fs.reason == "threshold"
    ff = recorder.of(events.FlushFinished)[0]
    assert ff.stored and ff.path == today and ff.lines_appended == 1 and "tea" in ff.written
    assert (workspace / today).read_text() == "- user prefers tea\n"
    assert r3.text == "three" and r3.flushed
    ctr = eng.counters()
    assert ctr["memoryFlushCompactionCount"] == 0 and ctr["memoryFlushAt"] and ctr["compactionCount"] == 0
    # the flush request carried the configured prompts, after the conversation with turn 3 in it
    flush_req = server.chat_requests()[3]
    assert any(m.get("content") == m3 for m in flush_req["messages"])
    assert "Session nearing compaction" in flush_req["messages"][0]["content"]
    assert flush_req["messages"][-1]["content"] == f"Write any lasting notes to {today}; reply with NO_REPLY if nothing to store."
    # NO_REPLY never reached the visible stream
    assert all("NO_REPLY" not in e.text for e in recorder.of(events.TextDelta))
    assert all("NO_REPLY" not in e.text for e in recorder.of(events.TurnFinished))

    # turn 4: still above F, same cycle -> no second flush; its usage crosses C -> compaction
    server.push({"text": "four", "usage": usage(C + 50)}, {"text": "## Goal\n- plan\n## Progress\n- talked"})
    recorder.clear()
    r4 = await eng.send("fourth message")
    assert recorder.of(events.FlushStarted) == []
    assert r4.compacted and eng.counters()["compactionCount"] == 1
    cf = recorder.of(events.CompactionFinished)[0]
    assert cf.tokens_before == C + 50 + 0 and cf.tokens_after < cf.tokens_before and cf.compaction_count == 1

    # cycle 2: the next prompt that reaches F flushes once more, then never again in this cycle
    server.push({"text": "five", "usage": usage(F + 100)})
    await eng.send("fifth message")
    server.push({"text": "six", "usage": usage(F + 120)}, {"text": "NO_REPLY"})
    recorder.clear()
    await eng.send("sixth message")
    assert len(recorder.of(events.FlushStarted)) == 1
    assert recorder.of(events.FlushFinished)[0].stored is False
    assert eng.counters()["memoryFlushCompactionCount"] == 1
    server.push({"text": "seven", "usage": usage(F + 130)})
    recorder.clear()
    await eng.send("seventh message")
    assert recorder.of(events.FlushStarted) == []

    # flush entries are in the transcript, never as visible messages
    entries = read_transcript(eng.transcript_path)
    assert [e["type"] for e in entries].count("flush") == 2
    visible = [e["message"]["content"] for e in entries if e["type"] == "message" and e["message"]["role"] == "assistant"]
    assert all("NO_REPLY" not in (v or "") for v in visible)
    eng.close()


async def test_no_reply_answer_is_never_shown(make_settings, server, recorder) -> None:
    server.push({"text": "NO_REPLY"})
    eng = engine_for(make_settings, server, recorder)
    result = await eng.send("say nothing")
    assert result.text == "" and result.no_reply
    assert recorder.of(events.TurnFinished)[0].text == ""
    eng.close()


async def test_flush_writes_outside_today_are_refused(make_settings, server, recorder, workspace) -> None:
    eng = engine_for(make_settings, server, recorder)
    today = daily_rel()
    before = {p: (workspace / p).read_bytes() for p in ("MEMORY.md", "USER.md")}
    server.push(
        {
            "tool_calls": [
                {"name": "write", "arguments": {"path": "MEMORY.md", "content": "overwritten"}},
                {"name": "append", "arguments": {"path": "memory/2020-01-01.md", "content": "- old day"}},
                {"name": "edit", "arguments": {"path": "USER.md", "old_text": "#", "new_text": "!"}},
                {"name": "append", "arguments": {"path": today, "content": "- allowed line"}},
            ]
        },
        {"text": "done"},
    )
    await eng.flush()
    assert {p: (workspace / p).read_bytes() for p in before} == before
    assert not (workspace / "memory/2020-01-01.md").exists()
    # a note meant for another day's log goes to today's with its date in the text (issue 24)
    assert (workspace / today).read_text() == "- (2020-01-01) old day\n- allowed line\n"
    redirected = [r.result for r in recorder.of(events.ToolResult) if r.name == "append"][0]
    assert redirected["path"] == today and "2020-01-01" in redirected["note"]
    refused = recorder.of(events.AccessRefused)
    assert sorted(r.tool for r in refused) == ["edit", "write"]
    errors = [r.error for r in recorder.of(events.ToolResult) if r.error]
    assert len(errors) == 2 and all(today in e for e in errors)
    assert recorder.of(events.FlushFinished)[0].lines_appended == 2
    eng.close()


@pytest.mark.parametrize("overrides,access,reason", [
    (None, "ro", "ro"),
    ({"agents": {"defaults": {"compaction": {"memoryFlush": {"enabled": False}}}}}, None, "false"),
    ({"plugins": {"slots": {"memory": "none"}}}, None, "none"),
])
async def test_flush_skipped(make_settings, server, recorder, overrides, access, reason) -> None:
    ov = small_window(10_000, 2_000, 1_000)
    if overrides:
        from openclaw_tui.config import deep_merge

        ov = deep_merge(ov, overrides)
    eng = engine_for(make_settings, server, recorder, ov, **({"workspace_access": access} if access else {}))
    server.push({"text": "a", "usage": usage(9_000)}, {"text": "b"}, {"text": "summary"})
    await eng.send("one")
    await eng.send("two")
    assert recorder.of(events.FlushStarted) == []
    await eng.flush()
    skipped = recorder.of(events.FlushFinished)[-1]
    assert skipped.skipped_reason and reason in skipped.skipped_reason
    eng.close()


# ------------------------------------------------------------------ access modes and privacy


async def test_ro_mode_leaves_every_workspace_file_byte_identical(make_settings, server, recorder, workspace) -> None:
    before = _snapshot(workspace)
    server.push(
        {"tool_calls": [
            {"name": "write", "arguments": {"path": "MEMORY.md", "content": "x"}},
            {"name": "append", "arguments": {"path": daily_rel(), "content": "x"}},
            {"name": "edit", "arguments": {"path": "SOUL.md", "old_text": "#", "new_text": "!"}},
            {"name": "write", "arguments": {"path": "new.md", "content": "x"}},
            {"name": "read", "arguments": {"path": "SOUL.md"}},
        ]},
        {"text": "I could not write."},
    )
    eng = engine_for(make_settings, server, recorder, small_window(10_000, 2_000, 1_000), workspace_access="ro")
    await eng.send("write everything")
    await eng.flush()
    assert _snapshot(workspace) == before
    results = recorder.of(events.ToolResult)
    assert [bool(r.error) for r in results] == [True, True, True, True, False]
    assert all("read-only" in r.error for r in results[:4])
    assert "read-only" in server.chat_requests()[0]["messages"][0]["content"]
    eng.close()


async def test_none_mode_hides_the_workspace(make_settings, server, recorder, workspace) -> None:
    (workspace / "USER.md").write_text("# USER\nSECRET-USER-MARKER\n")
    server.push({"text": "hello"})
    eng = engine_for(make_settings, server, recorder, workspace_access="none")
    await eng.send("hi")
    req = server.chat_requests()[0]
    assert "tools" not in req or not req["tools"]
    assert "SECRET-USER-MARKER" not in json.dumps(req)
    assert "memory_search" not in req["messages"][0]["content"]
    eng.close()


@pytest.mark.parametrize("key,sees", [("agent:main:discord:group:42", False), ("agent:main:slack:channel:c9", False), ("agent:main:main", True)])
async def test_group_sessions_never_see_memory_md(make_settings, server, recorder, workspace, key, sees) -> None:
    (workspace / "MEMORY.md").write_text("# MEMORY\n- private marker ZEBRA-PRIVATE-77\n")
    server.push(
        {"tool_calls": [
            {"name": "read", "arguments": {"path": "MEMORY.md"}},
            {"name": "memory_get", "arguments": {"path": "MEMORY.md"}},
            {"name": "memory_search", "arguments": {"query": "private marker zebra", "minScore": 0}},
        ]},
        {"text": "ok"},
    )
    eng = engine_for(make_settings, server, recorder, session_key=key)
    await eng.send("tell me the private marker")
    sent = json.dumps(server.chat_requests())
    assert ("ZEBRA-PRIVATE-77" in sent) is sees
    retrieved = recorder.of(events.MemoryRetrieved)
    assert retrieved and retrieved[0].query == "private marker zebra"
    paths = [r["path"] for r in retrieved[0].result.get("results", [])]
    assert ("MEMORY.md" in paths) is sees
    eng.close()


# ------------------------------------------------------------------ compaction


async def test_compaction_keeps_tool_pairs_and_full_transcript(make_settings, server, recorder) -> None:
    eng = engine_for(make_settings, server, recorder, small_window(10_000, 2_000, 1_000, keep=60))
    for i in range(4):
        server.push(
            {"tool_calls": [{"name": "read", "arguments": {"path": "SOUL.md", "lines": 1}}, {"name": "read", "arguments": {"path": "USER.md", "lines": 1}}]},
            {"text": f"answer {i} " + "word " * 10},
        )
        await eng.send(f"question {i} " + "word " * 10)
    before = len(eng.history)
    server.push({"text": "## Goal\n- test\n## Exact identifiers\n- SOUL.md"})
    await eng.compact("keep file names")
    assert eng.counters()["compactionCount"] == 1
    hist = eng.history
    assert 0 < len(hist) < before
    assert hist[0]["role"] != "tool"
    ids = set()
    for m in hist:
        if m["role"] == "assistant":
            ids |= {tc["id"] for tc in m.get("tool_calls") or []}
        if m["role"] == "tool":
            assert m["tool_call_id"] in ids
    summary_req = server.chat_requests()[-1]
    assert "tools" not in summary_req
    assert "keep file names" in summary_req["messages"][-1]["content"]
    assert "question 0" in summary_req["messages"][-1]["content"]
    assert eng.summary.startswith("## Goal")
    server.push({"text": "after"})
    await eng.send("next")
    nxt = server.chat_requests()[-1]["messages"]
    # the summary follows the system prompt in a message of its own: the prompt's bytes stay the same (issue 38)
    assert "## Goal" not in nxt[0]["content"] and "## Goal" in nxt[1]["content"] and nxt[1]["role"] == "system"
    assert "question 0" not in json.dumps(nxt)
    entries = read_transcript(eng.transcript_path)
    assert sum(1 for e in entries if e["type"] == "message") == before + 2  # nothing dropped from disk
    comp = [e for e in entries if e["type"] == "compaction"][0]
    assert comp["kept"] == len(hist) and comp["compactionCount"] == 1
    # resuming rebuilds the compacted state
    sid = eng.session_id
    eng.close()
    eng2 = engine_for(make_settings, server, recorder, session_id=sid)
    assert eng2.summary.startswith("## Goal") and len(eng2.history) == len(hist) + 2
    eng2.close()


async def test_context_overflow_compacts_then_retries_once(make_settings, server, recorder) -> None:
    eng = engine_for(make_settings, server, recorder, small_window(10_000, 2_000, 1_000, keep=10))
    server.push({"text": "a1"}, {"text": "a2"})
    await eng.send("q1")
    await eng.send("q2")
    server.push(
        {"error": 400, "message": "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens."},
        {"text": "NO_REPLY"},  # the flush before compaction (issue 24: a flush on the overflow path too)
        {"text": "## Goal\n- q1 and q2"},  # keeps the user's identifiers: passes the summary check
        {"text": "answer after compaction"},
    )
    result = await eng.send("q3")
    assert result.text == "answer after compaction" and result.error is None
    assert eng.counters()["compactionCount"] == 1
    assert recorder.of(events.CompactionStarted)[0].reason == "overflow"
    assert [e.reason for e in recorder.of(events.FlushStarted)] == ["overflow"]
    # a second overflow in the same turn is not retried again (and the flush ran once this cycle)
    server.push({"error": 400, "message": "maximum context length exceeded"}, {"text": "NO_REPLY"}, {"text": "## Goal\n- q1, q2, q3"},
                {"error": 400, "message": "maximum context length exceeded"})
    result = await eng.send("q4")
    assert result.error and "context window" in result.error
    eng.close()


# ------------------------------------------------------------------ provider errors


@pytest.mark.parametrize("status", [401, 403])
async def test_auth_errors_fail_at_once_with_the_provider_named(make_settings, server, recorder, status) -> None:
    server.push({"error": status, "message": f"Incorrect API key provided: {SECRET_KEY}"}, {"text": "back again"})
    eng = engine_for(make_settings, server, recorder)
    result = await eng.send("hello")
    assert result.error and "openai" in result.error and str(status) in result.error
    assert len(server.chat_requests()) == 1  # not retried
    err = recorder.of(events.ProviderError)[0]
    assert err.status == status and not err.retryable and ("key" in err.action or "permission" in err.action)
    assert recorder.of(events.ProviderRetry) == []
    ok = await eng.send("again")  # the session goes on
    assert ok.text == "back again"
    blob = recorder.dump() + eng.transcript_path.read_text() + (eng.settings.sessions_dir / "sessions.json").read_text()
    assert SECRET_KEY not in blob and SECRET_KEY[8:] not in blob
    assert server.requests[0]["headers"]["authorization"] == f"Bearer {SECRET_KEY}"  # it was really sent
    eng.close()


async def test_429_honours_retry_after_then_succeeds(make_settings, server, recorder) -> None:
    server.push({"error": 429, "headers": {"retry-after": "3"}}, {"text": "finally"})
    eng = engine_for(make_settings, server, recorder)
    result = await eng.send("hi")
    assert result.text == "finally" and result.error is None
    retry = recorder.of(events.ProviderRetry)
    assert len(retry) == 1 and retry[0].attempt == 1 and "wait 3s" in retry[0].message
    assert retry[0].delay_s == FAST_RETRY.retry_after_cap_s  # capped in tests
    eng.close()


@pytest.mark.parametrize("step,kind", [({"error": 500}, "internal error"), ({"malformed": True}, "stream"), ({"error": 503, "message": "overloaded"}, "")])
async def test_server_errors_are_retried_then_reported(make_settings, server, recorder, step, kind) -> None:
    server.push(step, step, step, {"text": "recovered"})
    eng = engine_for(make_settings, server, recorder)
    result = await eng.send("hi")
    assert result.error and kind in result.error
    assert len(recorder.of(events.ProviderRetry)) == 2 and len(server.chat_requests()) == 3
    assert recorder.of(events.ProviderError)[0].retryable
    assert recorder.of(events.TurnFinished)
    again = await eng.send("still there?")
    assert again.text == "recovered"
    eng.close()


async def test_timeout_is_retried_and_reported(make_settings, server, recorder, monkeypatch) -> None:
    monkeypatch.setenv("OPENCLAW_LLM_TIMEOUT_S", "1.5")
    server.push({"hang": 4.0, "text": "late"}, {"hang": 4.0, "text": "late"}, {"text": "fine"})
    from openclaw_tui.llm.client import RetryPolicy

    eng = engine_for(make_settings, server, recorder, policy=RetryPolicy(attempts=2, base_s=0.01, max_s=0.01))
    result = await eng.send("hi")
    assert result.error and "timed out" in result.error
    assert len(recorder.of(events.ProviderRetry)) == 1
    assert (await eng.send("again")).text == "fine"
    eng.close()


# ------------------------------------------------------------------ cancellation


async def test_cancel_keeps_and_marks_the_partial_answer(make_settings, server, recorder) -> None:
    server.push({"text": "partial answer that goes on and on and on", "stall_after": 2, "stall_s": 30})
    eng = engine_for(make_settings, server, recorder)
    task = asyncio.create_task(eng.send("tell me a long story"))
    for _ in range(1500):
        if len(recorder.of(events.TextDelta)) >= 2:
            break
        await asyncio.sleep(0.02)
    eng.cancel()
    result = await asyncio.wait_for(task, 5)
    assert result.cancelled and result.text == "partial answer t"
    fin = recorder.of(events.TurnFinished)[-1]
    assert fin.cancelled and fin.text == "partial answer t"
    last = eng.history[-1]
    assert last["role"] == "assistant" and last["content"].startswith("partial answer t") and "interrupted" in last["content"]
    entries = read_transcript(eng.transcript_path)
    assert any(e.get("partial") for e in entries if e["type"] == "message") and entries[-1]["type"] == "cancelled"
    server.push({"text": "next"})
    assert (await eng.send("go on")).text == "next"
    eng.close()


async def test_cancel_during_tool_calls_leaves_no_dangling_call(make_settings, server, recorder) -> None:
    server.push(
        {"tool_calls": [{"name": "read", "arguments": {"path": "SOUL.md"}}]},
        {"text": "slow answer after the tool", "stall_after": 1, "stall_s": 30},
    )
    eng = engine_for(make_settings, server, recorder)
    task = asyncio.create_task(eng.send("read and answer"))
    for _ in range(1500):
        if recorder.of(events.TextDelta):
            break
        await asyncio.sleep(0.02)
    eng.cancel()
    result = await asyncio.wait_for(task, 5)
    assert result.cancelled
    roles = [m["role"] for m in eng.history]
    assert roles[:3] == ["user", "assistant", "tool"]
    server.push({"text": "fine"})
    await eng.send("next")
    msgs = server.chat_requests()[-1]["messages"]
    call_ids = {tc["id"] for m in msgs if m["role"] == "assistant" for tc in m.get("tool_calls") or []}
    result_ids = {m["tool_call_id"] for m in msgs if m["role"] == "tool"}
    assert call_ids == result_ids
    eng.close()


def test_token_snapshot_reports_thresholds(make_settings, server, recorder) -> None:
    eng = engine_for(make_settings, server, recorder, small_window(30_000, 20_000, 4_000))
    snap = eng.token_snapshot()
    assert (snap.context_window, snap.flush_threshold, snap.compaction_threshold) == (30_000, 6_000, 10_000)
    assert snap.estimated and 0 < snap.used < 6_000
    assert eng.model_label == MODEL and not eng.is_offline
    eng.close()


async def test_manual_compaction_can_be_cancelled_and_history_is_untouched(make_settings, server, recorder) -> None:
    server.push({"text": "a1"}, {"text": "a2"})
    eng = engine_for(make_settings, server, recorder)
    await eng.send("q1")
    await eng.send("q2")
    before = eng.history
    server.push({"text": "## Goal\n- slow summary", "stall_after": 1, "stall_s": 30})
    task = asyncio.create_task(eng.compact())
    for _ in range(1500):
        if len(server.chat_requests()) == 3:
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.1)
    eng.cancel()
    await asyncio.wait_for(task, 5)
    assert eng.history == before and eng.counters()["compactionCount"] == 0
    assert any(isinstance(e, events.Notice) and "cancelled" in e.message for e in recorder.events)
    assert not eng.busy
    eng.close()


async def test_bad_tool_calls_become_tool_errors_and_the_turn_goes_on(make_settings, server, recorder) -> None:
    server.push(
        {"tool_calls": [
            {"name": "read", "arguments": "{not json"},
            {"name": "delete_everything", "arguments": {"path": "USER.md"}},
            {"name": "read", "arguments": {"path": "no/such/file.md"}},
        ]},
        {"text": "sorry"},
    )
    eng = engine_for(make_settings, server, recorder)
    result = await eng.send("do odd things")
    assert result.text == "sorry"
    errs = [r.error for r in recorder.of(events.ToolResult)]
    assert "not valid JSON" in errs[0] and "not available" in errs[1] and "does not exist" in errs[2]
    assert recorder.of(events.ToolCalled)[0].arguments == {"_raw": "{not json"}
    tool_msgs = [m for m in server.chat_requests()[1]["messages"] if m["role"] == "tool"]
    assert len(tool_msgs) == 3 and all("error" in json.loads(m["content"]) for m in tool_msgs)
    eng.close()


async def test_provider_usage_is_preferred_over_the_estimate(make_settings, server, recorder) -> None:
    server.push({"text": "big", "usage": {"prompt_tokens": 50_000, "completion_tokens": 7}})
    eng = engine_for(make_settings, server, recorder)
    estimate = eng.token_snapshot()
    assert estimate.estimated and estimate.used < 5_000
    result = await eng.send("count me")
    assert (result.usage.used, result.usage.estimated, result.usage.prompt_tokens) == (50_007, False, 50_000)
    eng.close()


async def test_a_resumed_session_counts_from_the_last_reported_usage(make_settings, server, recorder) -> None:
    """After --continue the meter showed our estimate (3,699) where the model had last reported
    2,926: the reported count is kept in the transcript and a resume starts from it."""
    server.push({"text": "big", "usage": {"prompt_tokens": 50_000, "completion_tokens": 7}})
    eng = engine_for(make_settings, server, recorder)
    await eng.send("count me")
    sid = eng.session_id
    eng.close()
    again = engine_for(make_settings, server, recorder)
    again.resume(sid)
    snap = again.token_snapshot()
    assert (snap.used, snap.estimated) == (50_007, False)
    settings = make_settings(None, model="openai/another-model", api_base=server.base_url, api_key=SECRET_KEY)
    other = SessionEngine(settings, sink=recorder, retry_policy=FAST_RETRY)  # another model, another tokenizer: estimate
    other.resume(sid)
    assert other.token_snapshot().estimated and other.token_snapshot().used < 5_000
    server.push({"text": "- talked"})
    await again.compact()
    assert again.token_snapshot().estimated  # the summary replaced what was measured
    again.close()
    other.close()
    (entry,) = [e for e in read_transcript(again.transcript_path) if e.get("type") == "usage"]
    assert {k: entry[k] for k in ("model", "promptTokens", "completionTokens")} == {
        "model": MODEL, "promptTokens": 50_000, "completionTokens": 7}


async def test_usage_is_an_estimate_when_the_provider_sends_none(make_settings, server, recorder) -> None:
    """litellm invents a usage block when the stream carried none; the meter must still say
    "estimate" and count with our own per-message numbers."""
    server.push({"text": "no usage from me", "no_usage": True, "usage": {"prompt_tokens": 50_000, "completion_tokens": 7}})
    eng = engine_for(make_settings, server, recorder)
    result = await eng.send("count me")
    assert result.error is None and result.usage.estimated is True
    assert result.usage.prompt_tokens is None and result.usage.used < 5_000
    assert result.usage.used == eng._meter.estimate()
    server.push({"text": "now with usage", "usage": {"prompt_tokens": 40_000, "completion_tokens": 3}})
    result = await eng.send("again")
    assert result.usage.estimated is False and result.usage.prompt_tokens == 40_000
    eng.close()


async def test_set_model_switches_between_server_and_offline_agent(make_settings, server, recorder) -> None:
    server.push({"text": "from the server"})
    eng = engine_for(make_settings, server, recorder)
    assert (await eng.send("one")).text == "from the server"
    eng.set_model("offline")
    assert eng.is_offline and "not an LLM" in eng.model_label
    reply = await eng.send("just chatting")
    assert "Offline agent" in reply.text and len(server.chat_requests()) == 1
    eng.set_model(MODEL)
    server.push({"text": "server again"})
    assert (await eng.send("three")).text == "server again"
    msgs = server.chat_requests()[-1]["messages"]
    assert [m["content"] for m in msgs if m["role"] == "user"] == ["one", "just chatting", "three"]
    entries = read_transcript(eng.transcript_path)
    assert [e["model"] for e in entries if e["type"] == "model"] == ["offline", MODEL]
    for bad in ("foo bar", "", "   "):
        with pytest.raises(ValueError, match="not a model name"):
            eng.set_model(bad)
    assert eng.model_label == MODEL  # unchanged
    eng.close()


async def test_compaction_resyncs_transcripts_when_they_are_a_memory_source(make_settings, server, recorder) -> None:
    ov = {"agents": {"defaults": {"memorySearch": {"sources": ["memory", "sessions"], "experimental": {"sessionMemory": True}}}}}
    server.push({"text": "The launch codename is BLUEFINCH."}, {"text": "## Goal\n- s"})
    eng = engine_for(make_settings, server, recorder, ov)
    await eng.send("what is the launch codename?")
    recorder.clear()
    await eng.compact()
    synced = [e for e in recorder.of(events.IndexSynced) if e.reason == "compaction"]
    assert synced, [e.to_dict() for e in recorder.events]
    eng.close()


async def test_damaged_sessions_json_is_rebuilt_from_the_transcripts(make_settings, server, recorder, workspace) -> None:
    """A damaged sessions.json must not reset the flush/compaction counters (which would
    flush twice in one cycle): the bytes are kept aside and the entry is rebuilt."""
    overrides = small_window(10_000, 2_000, 1_000, keep=10)
    eng = engine_for(make_settings, server, recorder, overrides)
    F, C = eng.flush_threshold, eng.compaction_threshold
    sid = eng.session_id
    today = daily_rel()
    server.push({"text": "one", "usage": usage(F + 10)})
    await eng.send("first message")
    server.push(
        {"tool_calls": [{"name": "append", "arguments": {"path": today, "content": "- user prefers tea"}}]},
        {"text": "NO_REPLY"},
        {"text": "two", "usage": usage(F + 20)},
    )
    assert (await eng.send("second message")).flushed
    before = eng.counters()
    assert before["memoryFlushCompactionCount"] == 0 and before["memoryFlushAt"]
    eng.close()

    store = eng.settings.sessions_dir / "sessions.json"
    damaged = b'{"' + sid.encode() + b'": {"compactionCount": 0, "memoryFl'  # torn write
    store.write_bytes(damaged)

    recorder.clear()
    eng2 = engine_for(make_settings, server, recorder, overrides, session_id=sid)
    assert eng2.counters()["memoryFlushCompactionCount"] == 0
    assert abs(eng2.counters()["memoryFlushAt"] - before["memoryFlushAt"]) < 1_000
    # same cycle, above F: no second flush; the crossing of C compacts and counts on from 0
    server.push({"text": "three", "usage": usage(C + 50)}, {"text": "## Goal\n- plan"})
    r3 = await eng2.send("third message")
    assert recorder.of(events.FlushStarted) == [] and r3.compacted
    assert eng2.counters()["compactionCount"] == 1
    notices = [n.message for n in recorder.of(events.Notice) if n.level == "warning"]
    assert any("sessions.json was damaged" in n for n in notices)
    aside = list(store.parent.glob("sessions.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == damaged
    entry = json.loads(store.read_text())[sid]
    assert entry["recovered"] is True and entry["title"] == "first message" and entry["compactionCount"] == 1
    eng2.close()


async def test_cancel_before_the_model_is_ready_keeps_the_prompt(make_settings, server, recorder) -> None:
    # cancelled while the engine still gets ready (a local model loading, memory opening):
    # the prompt was typed, so it is kept, after the session header, and a resume shows it
    eng = engine_for(make_settings, server, recorder)
    task = asyncio.create_task(eng.send("a prompt typed while the model loads"))
    await asyncio.sleep(0)
    eng.cancel()
    result = await asyncio.wait_for(task, 5)
    assert result.cancelled and result.text == ""
    entries = read_transcript(eng.transcript_path)
    kinds = [e["type"] for e in entries]
    assert kinds[0] == "session" and kinds[-1] == "cancelled", kinds
    prompts = [e["message"]["content"] for e in entries if e["type"] == "message" and e["message"]["role"] == "user"]
    assert prompts == ["a prompt typed while the model loads"]
    sid = eng.session_id
    eng.close()
    again = engine_for(make_settings, server, recorder, session_id=sid)
    again.resume(sid)
    assert [m["content"] for m in again.history if m["role"] == "user"] == ["a prompt typed while the model loads"]
    server.push({"text": "answered"})
    assert (await again.send("go on")).text == "answered"
    again.close()
