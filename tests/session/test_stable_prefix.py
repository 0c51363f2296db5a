"""Every request of a session starts with the same bytes (issue 38): the workspace's system
prompt and the whole tool list, whatever the turn (a statement, a question, the answer after
a repeated call); the notes and the summary come after them in a system message of their
own. Which tools a turn may run is decided when a call arrives."""

from __future__ import annotations

import json
from pathlib import Path

from openclaw_tui import events
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.workspace.daily import daily_rel
from tests.session.conftest import FAST_RETRY, SECRET_KEY

MODEL = "openai/fake-model"
LOCAL = {"agents": {"defaults": {"toolProfile": "local"}}}


def _engine(make_settings, server, recorder) -> SessionEngine:
    settings = make_settings(LOCAL, model=MODEL, api_base=server.base_url, api_key=SECRET_KEY)
    return SessionEngine(settings, sink=recorder, retry_policy=FAST_RETRY)


async def _three_statements_compacted(make_settings, server, recorder) -> SessionEngine:
    """A local session of three statements, then ``/compact`` (the summary is the next reply pushed)."""
    eng = _engine(make_settings, server, recorder)
    await eng.send("Our VPN hostname is now vpn-east-12.acme.net.")
    await eng.send("My dentist appointment moved to Tuesday.")
    await eng.send("The car goes in for service on the 14th.")
    await eng.compact()
    return eng


def _start(req: dict) -> str:
    """What a request starts with: its first message and its tools, as bytes."""
    return json.dumps([req["messages"][0], req.get("tools")], sort_keys=True)


async def test_statements_and_questions_send_the_same_start_and_the_notes_after_it(make_settings, server, recorder,
                                                                                    workspace: Path) -> None:
    (workspace / daily_rel()).parent.mkdir(exist_ok=True)
    (workspace / daily_rel()).write_text("# today\n\n- The standup moved to 9:30.\n")
    server.push({"text": "Noted."}, {"text": "It is vpn-east-12."}, {"text": "Got it."})
    eng = _engine(make_settings, server, recorder)
    await eng.send("Our VPN hostname is now vpn-east-12.acme.net.")  # a statement: no tool may run
    await eng.send("What is our VPN hostname?")  # a question: the lookup, then only tools that write nothing
    await eng.send("My dentist appointment moved to Tuesday.")
    reqs = server.chat_requests()
    assert len(reqs) == 3 and len({_start(r) for r in reqs}) == 1
    assert reqs[0]["tools"]  # the schemas are sent with a statement too
    for r in reqs:
        assert "standup moved" not in r["messages"][0]["content"]  # today's notes: after the fixed start
        assert r["messages"][1]["role"] == "system" and "standup moved" in r["messages"][1]["content"]
    # each request is the one before it, its reply and what the turn added: nothing earlier changes
    assert reqs[1]["messages"][:3] == reqs[0]["messages"][:3]
    assert reqs[2]["messages"][: len(reqs[1]["messages"])] == reqs[1]["messages"]
    eng.close()


async def test_a_call_made_where_no_tool_may_run_is_not_run(make_settings, server, recorder, workspace: Path) -> None:
    # with the schemas in every request the 1.5B may call one after a statement: it is not run,
    # and the reply is the engine's acknowledgement of the note it wrote itself
    call = json.dumps({"name": "append", "arguments": {"path": daily_rel(), "content": "VPN: vpn-east-12"}})
    server.push({"text": call})
    eng = _engine(make_settings, server, recorder)
    result = await eng.send("Our VPN hostname is now vpn-east-12.acme.net.")
    assert not recorder.of(events.ToolCalled)
    text = (workspace / daily_rel()).read_text()
    assert text.count("vpn-east-12") == 1 and "VPN: vpn-east-12" not in text  # the engine's note only
    assert result.text == f"Noted — saved to {daily_rel()}." and '"name"' not in result.text
    eng.close()


async def test_a_local_compaction_asks_for_its_summary_after_the_cached_start(make_settings, server, recorder,
                                                                              workspace: Path) -> None:
    # the summary is one more user message after the session's own start and turns: the server
    # finds the rest in its cache and reads only the instruction (issue 38)
    server.push({"text": "Noted."}, {"text": "Noted."}, {"text": "Noted."},
                {"text": "- The user's VPN host is vpn-east-12.acme.net.\n- The dentist moved to Tuesday."})
    eng = await _three_statements_compacted(make_settings, server, recorder)
    reqs = server.chat_requests()
    last_turn, summary = reqs[-2], reqs[-1]
    asked = summary["messages"][-1]
    assert asked["role"] == "user" and "Summarise the conversation above" in asked["content"]
    start = summary["messages"][:-1]
    assert len(start) >= 3 and last_turn["messages"][: len(start)] == start  # the cached start, byte for byte
    assert summary["tools"] == last_turn["tools"]
    assert "vpn-east-12" in eng.summary and not recorder.of(events.Notice) or all(
        "extractive" not in n.text for n in recorder.of(events.Notice))
    eng.close()


async def test_a_call_instead_of_the_summary_falls_back_to_the_prompt_of_its_own(make_settings, server, recorder,
                                                                               workspace: Path) -> None:
    call = json.dumps({"name": "memory_search", "arguments": {"query": "VPN"}})
    server.push({"text": "Noted."}, {"text": "Noted."}, {"text": "Noted."}, {"text": call},
                {"text": "- The VPN host is vpn-east-12.acme.net.\n- The dentist moved to Tuesday."})
    eng = await _three_statements_compacted(make_settings, server, recorder)
    reqs = server.chat_requests()
    assert len(reqs) == 5, [r["messages"][-1]["content"][:60] for r in reqs]
    in_place, alone = reqs[3], reqs[4]
    assert "Summarise the conversation above" in in_place["messages"][-1]["content"]
    assert len(alone["messages"]) == 2 and not alone.get("tools")  # the summariser's own prompt
    assert "vpn-east-12" in eng.summary and "memory_search" not in eng.summary
    eng.close()


async def test_a_head_with_a_withheld_message_is_summarised_in_a_prompt_of_its_own(make_settings, server, recorder,
                                                                                 workspace: Path) -> None:
    # consent: what the user asked not to keep is taken out of what is summarised, so the turns
    # differ from the cache and the summary is asked without them
    server.push({"text": "Noted."}, {"text": "Understood."}, {"text": "Noted."},
                {"text": "- The VPN host is vpn-east-12.acme.net."})
    eng = _engine(make_settings, server, recorder)
    await eng.send("Our VPN hostname is now vpn-east-12.acme.net.")
    await eng.send("My brother owes me 400 euros, don't write that down.")
    await eng.send("The car goes in for service on the 14th.")
    await eng.compact()
    summary = server.chat_requests()[-1]
    assert len(summary["messages"]) == 2 and not summary.get("tools")
    assert "400 euros" not in json.dumps(summary)
    eng.close()


async def test_a_copied_call_line_is_left_out_of_the_summary_not_asked_again(make_settings, server, recorder,
                                                                             workspace: Path) -> None:
    # the 1.5B copies a call the turns made into its bullets: that line goes, the rest is the
    # summary, and no second prompt is paid for (bench.local_turn, 2026-12-07)
    call = json.dumps({"name": "memory_search", "arguments": {"query": "VPN"}})
    server.push({"text": "Noted."}, {"text": "Noted."}, {"text": "Noted."},
                {"text": f"- The VPN host is vpn-east-12.acme.net.\n- Assistant: {call}\n- The dentist moved to Tuesday."})
    eng = await _three_statements_compacted(make_settings, server, recorder)
    reqs = server.chat_requests()
    assert len(reqs) == 4 and "Summarise the conversation above" in reqs[3]["messages"][-1]["content"]
    assert "vpn-east-12" in eng.summary and "Tuesday" in eng.summary
    assert '"name"' not in eng.summary and "memory_search" not in eng.summary
    eng.close()
