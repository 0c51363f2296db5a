"""The offline agent acts on the one reading of a message, in any language with a table."""

from __future__ import annotations

import json

import pytest

from openclaw_tui.session.offline import OfflineModel, stated_facts

TOOLS = [{"type": "function", "function": {"name": n}} for n in ("append", "memory_search", "read")]


async def _turn(text: str) -> tuple[str, dict[str, object], str]:
    done = await OfflineModel().complete([{"role": "user", "content": text}], TOOLS, on_delta=lambda _p: None)
    if done.tool_calls:
        call = done.tool_calls[0]
        return call.name, json.loads(call.arguments), ""
    return "", {}, done.text


@pytest.mark.parametrize(("text", "fact"), [
    ("Remember that my seat is 14C.", "My seat is 14C."),
    ("¿Puedes recordar que prefiero té?", "té"),
    ("Merk dir, dass mein Zahnarzt Dr. Weber heißt.", "Dr. Weber"),
])
async def test_a_request_to_remember_appends_its_facts(text: str, fact: str) -> None:
    name, args, _ = await _turn(text)
    assert name == "append" and fact in str(args["content"])


@pytest.mark.parametrize("text", ["¿Dónde vive mi hermana?", "Wann ist das Standup?", "What did we decide about the logo?"])
async def test_a_question_searches_memory(text: str) -> None:
    name, args, _ = await _turn(text)
    assert name == "memory_search" and args["query"]


async def test_a_message_asking_not_to_keep_it_is_not_stored() -> None:
    name, _, text = await _turn("No lo apuntes: mi PIN es 1234.")
    assert name == "" and "1234" not in text


def test_flush_facts_skip_what_the_user_asked_not_to_keep() -> None:
    msgs = [{"role": "user", "content": "Prefiero el té."},
            {"role": "user", "content": "Off the record, my PIN is 4417."},
            {"role": "user", "content": "¿Qué hora es?"}]
    assert stated_facts(msgs) == ["Prefiero el té"]
