"""Issue 37, item 5: the token meter only grows between compactions. A statement's turn sends
the local model no tool schemas, so the provider reported a smaller prompt (983 estimated,
then 209 "reported"; 1,780 then 1,237 with no compaction): the meter takes every report as the
same prompt measure (the conversation plus the tools the next prompt is offered)."""

from __future__ import annotations

import json

from openclaw_tui.session.plain_answer import PLAIN_SYSTEM

from openclaw_tui.session.engine import SessionEngine
from tests.fakes.chat_server import ChatServer
from tests.session.conftest import FAST_RETRY, SECRET_KEY, make_settings, recorder, workspace  # noqa: F401


def _counting(req: dict) -> dict:
    """A provider that counts what it was sent, tool schemas included (about 4 characters a token)."""
    sent = sum(len(json.dumps(m)) for m in req.get("messages", [])) + len(json.dumps(req.get("tools") or []))
    return {"text": "Noted.", "usage": {"prompt_tokens": sent // 4, "completion_tokens": 2}}


async def test_the_meter_does_not_fall_when_a_turn_sends_no_tools(make_settings, recorder) -> None:  # noqa: F811
    with ChatServer(responder=_counting) as server:
        settings = make_settings({"agents": {"defaults": {"toolProfile": "local"}}}, model="openai/fake-model",
                                 api_base=server.base_url, api_key=SECRET_KEY)
        eng = SessionEngine(settings, sink=recorder, retry_policy=FAST_RETRY)
        shown = [eng.token_snapshot().used]
        for message in ("What did we decide about the billing database?", "My neighbour is Frau Berger.",
                        "Which port does the staging proxy listen on?", "She waters our plants when we travel."):
            done = await eng.send(message)
            shown.append(done.usage.used)
        eng.close()
        # the turns' requests (a question answered only "Noted." is asked again alone, without
        # tools: plain_answer's own prompt, not a turn's)
        sent_tools = [bool(r.get("tools")) for r in server.chat_requests() if r["messages"][0].get("content") != PLAIN_SYSTEM]
    assert all(sent_tools), sent_tools  # a stable prompt start (issue 38): every turn carries the whole tool list
    assert shown == sorted(shown), shown  # never down between compactions
