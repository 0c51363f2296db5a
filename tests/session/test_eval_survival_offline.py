"""``eval survival`` without a model (the rule-based offline agent): a missed answer is
reported with its question, the session it was asked in, what was expected and the reply."""

from __future__ import annotations

import asyncio

import pytest

from openclaw_tui.evals.conversations import Fact
from openclaw_tui.evals.survival import SurvivalOptions, holds
from openclaw_tui.evals.survival_run import run_survival


def test_a_missed_answer_is_listed_with_what_was_expected() -> None:
    # no flush and a small window: the offline agent stores nothing, so its answers miss
    report = asyncio.run(run_survival(SurvivalOptions(model="offline", conversations=1, facts=3, seed=2, flush=False,
                                                      context_tokens=1200)))
    assert report["answeredSamePct"] < 100.0
    missed = [e for e in report["examples"] if "missed" in e]
    assert missed, report["examples"]
    for e in missed:
        assert e["missed"].endswith("?") and e["session"] in ("same", "new") and e["expected"]
        assert e["expected"].lower() not in e["reply"].lower()


DATE_FACT = Fact(kind="date", statement="We hired the designer yesterday.", question="On which date did we hire the designer?",
                 token="2026-12-04", alt=("yesterday",))


@pytest.mark.parametrize(("reply", "ok"), [
    ("We hired the designer on 2026-12-04.", True),
    # the real 1.5B's answer, counted as a miss before: the date written out
    ("We hired the designer on December 4, 2026.\n\nSource: memory/2026-12-05.md#L1", True),
    ("On Dec. 4th.", True),
    ("On the 4th of December 2026.", True),
    ("4 December", True),
    ("On December 4, 2025.", False),  # another year
    ("On December 14, 2026.", False),
    ("On November 4, 2026.", False),
    # the date of a Source path is not the answer
    ("I don't know.\n\nSource: memory/2026-12-04.md#L1", False),
    ("I don't know (memory/2026-12-04.md#L3).", False),
])
def test_a_date_answer_counts_however_it_is_written(reply: str, ok: bool) -> None:
    assert holds(reply, DATE_FACT) is ok


def test_an_answer_in_the_users_words_counts_in_the_same_session_only() -> None:
    assert holds("You said yesterday.", DATE_FACT, alt=True) and not holds("You said yesterday.", DATE_FACT)
