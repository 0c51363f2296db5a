"""Issue 24 with the real local model: facts stated in conversation reach memory, statements
are not answered as questions or with the prompt repeated, summaries invent nothing, and a
new session answers from the memory files (one seeded conversation of ``eval survival``)."""

from __future__ import annotations

import asyncio

import pytest

from openclaw_tui.evals.survival import SurvivalOptions
from openclaw_tui.evals.survival_run import run_survival

pytestmark = pytest.mark.timeout(1500)  # ~15 model turns of a 1.5B model on two busy cores


def test_stated_facts_survive_with_the_real_local_model(real_llm: list[str]) -> None:
    # one English conversation of plain facts (the six-language run is ``eval survival`` itself),
    # each asked only in a new session: what must survive is what is on disk (the same-session
    # questions are three more model turns of the slowest test in the suite)
    common = dict(conversations=1, facts=3, seed=7, context_tokens=2600, languages=("en",), kinds=("facts",), same_session=False)
    opts = SurvivalOptions(**common)
    if real_llm:  # OPENCLAW_E2E_API_BASE: a llama.cpp server already running
        opts = SurvivalOptions(**common, model=real_llm[1], api_base=real_llm[3], api_key=real_llm[5])
    report = asyncio.run(run_survival(opts))
    assert report["storedPct"] == 100.0, report
    assert report["echoes"] == 0 and report["unanswerableStatements"] == 0, report["examples"]
    assert report["summariesInvented"] == 0 and report["sourceLinesUnfound"] == 0, report
    assert report["saveClaimsUnflagged"] == 0 and report["appendsOutsideToday"] == 0, report
    assert report["junkPct"] <= 10.0, report
    assert report["answeredNewPct"] >= 66.0, report  # 2 of 3 from the memory files alone
    assert report["answeredSamePct"] is None, report
