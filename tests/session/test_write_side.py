"""The write side through the real engine and a scripted OpenAI-compatible server (issue 24):
statements stored by the engine for a local model, replies checked (citations, save claims,
echoes), a flush on every path (hybrid, overflow, a jump into compaction, /new, quit,
memoryFlush.model), appends only to today's log, compaction that keeps identifiers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openclaw_tui import events
from openclaw_tui.llm.profiles import LOCAL_TOOLS
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.workspace.daily import daily_rel
from tests.fakes.chat_server import ChatServer
from tests.session.conftest import FAST_RETRY, SECRET_KEY, small_window

MODEL = "openai/fake-model"
LOCAL = {"agents": {"defaults": {"toolProfile": "local"}}}


def engine_for(make_settings, server, recorder, overrides=None, **kw) -> SessionEngine:
    settings = make_settings(overrides, model=MODEL, api_base=server.base_url, api_key=SECRET_KEY, **kw)
    return SessionEngine(settings, sink=recorder, retry_policy=FAST_RETRY)


LOCAL_TOOL_NAMES = list(LOCAL_TOOLS)


def offered(request: dict) -> list[str]:
    return sorted(t["function"]["name"] for t in request.get("tools") or [])


def log(workspace: Path) -> str:
    path = workspace / daily_rel()
    return path.read_text() if path.exists() else ""


async def test_a_statement_to_a_local_model_is_stored_by_the_engine_and_answered_without_tools(
        make_settings, server, recorder, workspace) -> None:
    # the 1.5B model repeated the system prompt's memory section back to statements
    server.push({"text": "To remember something the user tells you, call `append` with path memory/x.md and the fact as content."})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    result = await eng.send("Our VPN hostname is now vpn-east-12.acme.net.")
    assert f"- User: Our VPN hostname is now vpn-east-12.acme.net." in log(workspace)
    assert result.text == f"Noted — saved to {daily_rel()}."
    (request,) = server.chat_requests()
    # the schemas a question gets too: every request starts with the same bytes (issue 38)
    assert offered(request) == sorted(LOCAL_TOOL_NAMES)
    (change,) = recorder.of(events.MemoryChanged)
    assert change.path == daily_rel() and change.tool == "append"
    assert recorder.of(events.TurnFinished)[-1].corrected  # the streamed echo is replaced on screen
    eng.close()
    assert log(workspace).count("vpn-east-12") == 1  # quitting does not store it twice


# the 1.5B's replies to statements that cite something: the turn searched nothing, so it is made up
MADE_UP_CITATIONS = [
    # tmux: the whole reply to "My build server is ci-7.example.net." (a host, not a file)
    ("My build server is ci-7.example.net.", "Source: ci-7.example.net#L10-12", "ci-7.example.net"),
    # tmux walk: the whole reply, a file with no line range
    ("My VPN host is vpn-east.acme.io", "Source: {today}", "vpn-east.acme.io"),
    # its usual reply: the fact restated "from" a log line it never read
    ("My VPN host is vpn-east.acme.io", "Your VPN host is vpn-east.acme.io (memory/2026-12-01.md#L4).", "vpn-east.acme.io"),
]


@pytest.mark.parametrize(("said", "reply", "fact"), MADE_UP_CITATIONS)
async def test_a_statement_reply_that_cites_anything_becomes_the_acknowledgement(
        make_settings, server, recorder, workspace, said: str, reply: str, fact: str) -> None:
    server.push({"text": reply.format(today=daily_rel())})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    result = await eng.send(said)
    assert result.text == f"Noted — saved to {daily_rel()}."
    assert fact in log(workspace)
    eng.close()


async def test_a_local_models_own_short_reply_to_a_statement_is_kept(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "Thanks, Priya it is."})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    result = await eng.send("Priya Raman is our on-call lead for the database team.")
    assert result.text == "Thanks, Priya it is." and "Priya Raman" in log(workspace)
    eng.close()


async def test_a_question_to_a_local_model_offers_no_tool_that_writes(make_settings, server, recorder, workspace) -> None:
    # the 1.5B model appended its answer ("12 times 7 equals 84.") to the daily log
    call = json.dumps({"name": "append", "arguments": {"path": daily_rel(), "content": "12 times 7 equals 84."}})
    server.push({"text": call})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    result = await eng.send("What is 12 times 7?")
    # the whole list is sent (a stable prompt start, issue 38); the engine refuses the call when it arrives
    assert offered(server.chat_requests()[0]) == sorted(LOCAL_TOOL_NAMES)
    assert not log(workspace) and not recorder.of(events.MemoryChanged)
    assert "append" not in result.text and '"name"' not in result.text  # neither run nor shown
    eng.close()


async def test_a_hosted_models_unfound_citation_is_removed_and_a_real_one_kept(make_settings, server, recorder, workspace) -> None:
    (workspace / "memory" / "2026-11-30.md").write_text("# 2026-11-30\n\n- We picked teal for the logo.\n")
    server.push(
        {"tool_calls": [{"name": "memory_search", "arguments": {"query": "logo colour"}}]},
        {"text": "Teal.\n\nSource: memory/2026-11-30.md#L3\nSource: memory/2026-05-17.md#L16-L20"},
        {"text": "2 + 2 equals 4. Source: memory/2026-12-04.md#L1-2"},
    )
    eng = engine_for(make_settings, server, recorder)
    first = await eng.send("What colour did we pick for the logo?")
    assert first.text == "Teal.\n\nSource: memory/2026-11-30.md#L3"
    second = await eng.send("What is 2 + 2?")
    assert second.text == "2 + 2 equals 4."  # a "Source:" inside the line goes like a Source: line
    assert [e.corrected for e in recorder.of(events.TurnFinished)] == [True, True]
    assert eng.history[-1]["content"] == second.text  # the history and transcript keep the checked reply
    eng.close()


async def test_a_found_hit_the_answer_draws_nothing_from_is_not_its_source(make_settings, server, recorder,
                                                                         workspace) -> None:
    # the 1.5B: "12 times 7 equals 84. Source: USER.md#L1-L6", a hit of the turn that says nothing of it
    (workspace / "memory" / "2026-11-30.md").write_text("# 2026-11-30\n\n- We picked teal for the logo.\n")
    server.push(
        {"tool_calls": [{"name": "memory_search", "arguments": {"query": "logo"}}]},
        {"text": "12 times 7 equals 84.\n\nSource: memory/2026-11-30.md#L3"},
        {"tool_calls": [{"name": "memory_search", "arguments": {"query": "logo"}}]},
        {"text": "The logo is teal.\n\nSource: memory/2026-11-30.md#L3"},
    )
    eng = engine_for(make_settings, server, recorder)
    first = await eng.send("What is 12 times 7?")
    hits = [e for e in recorder.of(events.ToolResult) if e.name == "memory_search"]
    assert hits and "2026-11-30.md" in str(hits[0].result)  # the search did return the note
    assert first.text == "12 times 7 equals 84."
    second = await eng.send("What colour is the logo?")
    assert second.text == "The logo is teal.\n\nSource: memory/2026-11-30.md#L3"
    assert [e.corrected for e in recorder.of(events.TurnFinished)] == [True, False]
    eng.close()


async def test_a_save_claim_in_read_only_mode_gets_a_visible_note(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "I remember that your dentist appointment is on Friday at 9am."})
    eng = engine_for(make_settings, server, recorder, workspace_access="ro")
    result = await eng.send("My dentist appointment is on Friday at 9am.")
    assert result.text.startswith("I remember that") and "Nothing was stored: the workspace is read-only" in result.text
    assert not log(workspace)
    eng.close()


async def test_a_hybrid_flush_adds_the_facts_a_hosted_model_left_out(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "ok"}, {"text": "ok"})
    eng = engine_for(make_settings, server, recorder)
    await eng.send("The account code for travel is FIN-2231-B.")
    await eng.send("The review moved to next Tuesday.")
    server.push({"tool_calls": [{"name": "append", "arguments": {"path": daily_rel(), "content": "- Travel code FIN-2231-B"}}]},
                {"text": "NO_REPLY"})
    recorder.clear()
    await eng.flush()
    (done,) = recorder.of(events.FlushFinished)
    text = log(workspace)
    assert "- Travel code FIN-2231-B" in text and text.count("FIN-2231-B") == 1  # the model's note, not a second one
    assert "- User: The review moved to next Tuesday (20" in text  # the engine's, the user's words with the date beside them
    assert done.stored and done.lines_appended == 2
    entry = [json.loads(x) for x in eng.transcript_path.read_text().splitlines() if '"flush"' in x][-1]
    assert entry["by"] == "hybrid" and entry["reply"] == "NO_REPLY"
    eng.close()


async def test_new_and_quit_store_what_no_flush_did_and_the_setting_turns_it_off(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "ok"}, {"text": "ok"})
    eng = engine_for(make_settings, server, recorder)
    await eng.send("The gate code is 4471.")
    eng.new_session()
    assert "The gate code is [secret withheld: access code]." in log(workspace)  # a code is never written (issue 35)
    assert "4471" not in log(workspace)
    assert [e.reason for e in recorder.of(events.FlushStarted)] == ["new"]
    await eng.send("The printer is in room B214.")
    eng.close()
    assert "room B214" in log(workspace)
    off = {"agents": {"defaults": {"compaction": {"memoryFlush": {"onSessionEnd": False}}}}}
    server.push({"text": "ok"})
    eng = engine_for(make_settings, server, recorder, off)
    await eng.send("The spare key is in locker 17.")
    eng.close()
    assert "locker 17" not in log(workspace)


async def test_one_turn_that_jumps_over_the_soft_threshold_flushes_before_compacting(make_settings, server, recorder, workspace) -> None:
    cfg = small_window(6_000, 1_000, 1_000, keep=200)
    server.push({"text": "ok"}, {"text": "ok"})
    eng = engine_for(make_settings, server, recorder, cfg)
    await eng.send("The offsite budget is 12000 euros.")
    await eng.send("Tell me more about planning, in general.")
    server.push({"text": "NO_REPLY"}, {"text": "- The offsite budget is 12000 euros"}, {"text": "done"})
    recorder.clear()
    await eng.send("Here is a long paste: " + "lorem ipsum dolor sit amet " * 700)
    kinds = [type(e).__name__ for e in recorder.events if isinstance(e, (events.FlushStarted, events.CompactionStarted))]
    assert kinds[:2] == ["FlushStarted", "CompactionStarted"]
    assert "12000 euros" in log(workspace)
    eng.close()


async def test_memory_flush_model_runs_the_flush_on_another_model(make_settings, server, recorder, workspace) -> None:
    with ChatServer() as flusher:
        flusher.push({"tool_calls": [{"name": "append", "arguments": {"path": daily_rel(), "content": "- flushed by the other model"}}]},
                     {"text": "NO_REPLY"})
        cfg = {"agents": {"defaults": {"compaction": {"memoryFlush": {"model": "openai/flush-model"}},
                                       "memorySearch": {"provider": "none"}}},
               "models": {"providers": {"openai": {"baseUrl": flusher.base_url, "apiKey": SECRET_KEY}}}}
        server.push({"text": "ok"})
        eng = engine_for(make_settings, server, recorder, cfg)
        await eng.send("hello")
        await eng.flush()
        assert len(server.chat_requests()) == 1 and len(flusher.chat_requests()) == 2
        assert flusher.chat_requests()[0]["model"] == "flush-model"
        assert "- flushed by the other model" in log(workspace)
        eng.close()


async def test_a_summary_that_drops_identifiers_is_retried_then_repaired(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "ok"}, {"text": "ok"}, {"text": "ok"})
    eng = engine_for(make_settings, server, recorder, small_window(10_000, 2_000, 1_000, keep=10))
    for msg in ("The account code for travel is FIN-2231-B.", "Our VPN hostname is vpn-east-12.acme.net.", "ok then"):
        await eng.send(msg)
    invented = "- User: I need to update the calendar for the upcoming week and book the flights"
    server.push({"text": invented}, {"text": invented})
    await eng.compact()
    reqs = server.chat_requests()
    retry = reqs[-1]["messages"][-1]["content"]
    assert "Keep these exactly as written: FIN-2231-B" in retry and "vpn-east-12.acme.net" in retry.split("Keep these")[1]
    (done,) = recorder.of(events.CompactionFinished)
    assert "FIN-2231-B" in done.summary and "vpn-east-12.acme.net" in done.summary and "calendar" not in done.summary
    assert any("repaired" in n.message for n in recorder.of(events.Notice))
    eng.close()


async def test_safeguard_mode_keeps_the_older_turns_when_the_summary_fails_twice(make_settings, server, recorder, workspace) -> None:
    cfg = small_window(10_000, 2_000, 1_000, keep=10, compaction={"mode": "safeguard", "memoryFlush": {"enabled": False}})
    server.push({"text": "ok"}, {"text": "ok"})
    eng = engine_for(make_settings, server, recorder, cfg)
    await eng.send("The account code for travel is FIN-2231-B.")
    await eng.send("ok then")
    kept = len(eng.history)
    assert not await eng._upkeep.compact("threshold") and not recorder.of(events.CompactionFinished)  # noqa: SLF001
    assert len(eng.history) == kept and any("older turns are kept" in n.message for n in recorder.of(events.Notice))
    eng.close()


async def test_small_talk_to_a_local_model_offers_no_tool_that_writes_but_a_request_to_edit_does(
        make_settings, server, recorder, workspace) -> None:
    # the 1.5B appended "Let me think about that for a moment." to a future day's log
    call = json.dumps({"name": "append", "arguments": {"path": daily_rel(), "content": "Let me think about that for a moment."}})
    server.push({"text": call}, {"text": "ok"})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    await eng.send("Let me think about that for a moment.")
    assert not log(workspace) and not recorder.of(events.MemoryChanged)  # the write was called, and not run
    await eng.send("Please update the note in MEMORY.md about the logo colour")
    first, second = server.chat_requests()
    assert offered(first) == offered(second) == sorted(LOCAL_TOOL_NAMES)  # one list: the prompt's start stays (issue 38)
    assert not log(workspace)
    eng.close()
