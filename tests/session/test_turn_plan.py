"""The turn's plan comes from the message's one reading (a table of cases): what the engine
stores now, whether the model gets tools, whether it gets the tools that write."""

from __future__ import annotations

import pytest

from openclaw_tui.language import Intent, MessageReading
from openclaw_tui.session.turn_plan import plan_turn


def _r(intent: Intent, facts: tuple[str, ...] = (), *, known: bool = True) -> MessageReading:
    return MessageReading(text="…", language="en" if known else "und", intent=intent, facts=facts, known=known)


FACT = ("My VPN host is vpn-east.acme.io.",)

# (reading, local, engine_notes) -> (store_now, no_tools, no_writes)
CASES = [
    ("statement, local", _r(Intent.STATEMENT, FACT), True, True, (True, True, True)),
    ("request to remember, local", _r(Intent.REMEMBER, FACT), True, True, (True, True, True)),
    ("statement without facts: the model answers", _r(Intent.STATEMENT), True, True, (False, False, True)),
    ("fact inside a question: stored, answered with tools", _r(Intent.QUESTION, FACT), True, True, (True, False, True)),
    ("plain question", _r(Intent.QUESTION), True, True, (False, False, True)),
    ("request to change a file: writing tools", _r(Intent.FILE_CHANGE), True, True, (False, False, False)),
    ("do not keep: nothing stored", _r(Intent.DO_NOT_KEEP, FACT), True, True, (False, False, True)),
    ("unknown language: the model in charge", _r(Intent.UNKNOWN, known=False), True, True, (False, False, False)),
    ("hosted model: its own tools", _r(Intent.STATEMENT, FACT), False, True, (False, False, False)),
    ("flush mode model: the model keeps its notes", _r(Intent.STATEMENT, FACT), True, False, (False, False, False)),
]


@pytest.mark.parametrize(("reading", "local", "engine_notes", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_plan_from_the_reading(reading: MessageReading, local: bool, engine_notes: bool, want: tuple[bool, bool, bool]) -> None:
    plan = plan_turn(reading, local=local, engine_notes=engine_notes, access="rw", memory_on=True)
    assert (plan.store_now, plan.no_tools, plan.no_writes) == want


@pytest.mark.parametrize(("access", "memory_on"), [("ro", True), ("none", False), ("rw", False)])
def test_nothing_is_stored_without_a_writable_memory(access: str, memory_on: bool) -> None:
    plan = plan_turn(_r(Intent.STATEMENT, FACT), local=True, engine_notes=True, access=access, memory_on=memory_on)
    assert not plan.store_now and plan.no_tools
