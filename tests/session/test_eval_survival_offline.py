"""``eval survival`` without a model (the rule-based offline agent): a missed answer is
reported with its question, the session it was asked in, what was expected and the reply."""

from __future__ import annotations

import asyncio

from openclaw_tui.evals.survival import SurvivalOptions
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
