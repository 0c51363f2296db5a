"""``openclaw-tui eval questions``: thirty general questions through the real engine, scored
for Source lines naming nothing, save claims without a write and stray writes (issue 24)."""

from __future__ import annotations

import json
from pathlib import Path

from openclaw_tui import events
from openclaw_tui.evals.questions import QUESTIONS, QuestionOptions, QuestionRun
from openclaw_tui.workspace.daily import daily_rel
from tests.inproc import run_cli


def test_thirty_varied_questions_ship() -> None:
    assert len(QUESTIONS) == 30 and len(set(QUESTIONS)) == 30
    assert sum(q.endswith("?") for q in QUESTIONS) >= 25  # a request or two among them


def test_offline_agent_cites_only_what_exists_and_writes_nothing() -> None:
    done = run_cli("--model", "offline", "eval", "questions", "--json", "--quiet")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["questions"] == 30
    # the questions about the past (after the twelve general ones) found the seeded notes; a
    # general question ("What is 12 times 7?") cites none since issue 37 (it cited one each)
    assert 0 < report["sources"] < 30
    assert report["sources_unfound"] == 0 and report["save_claims_unflagged"] == 0, report["examples"]
    assert report["writes_on_questions"] == 0 and report["appends_elsewhere"] == 0, report["examples"]


def _run(tmp_path: Path) -> QuestionRun:
    return QuestionRun(QuestionOptions(model="offline"), tmp_path, lambda _label: None)


def test_scoring_counts_a_made_up_source_and_a_claim_with_no_write(tmp_path: Path) -> None:
    run = _run(tmp_path)
    run._score("q", "Paris.\nSource: memory/1999-01-01.md#L1-L2", [])
    run._score("q", "I've saved that to memory.", [])
    run._score("q", "Saved. _(Nothing was stored: read-only workspace)_", [])
    assert run.tally.sources == 1 and run.tally.sources_unfound == 1
    assert run.tally.save_claims_unflagged == 1


def test_scoring_counts_writes_and_appends_to_another_day(tmp_path: Path) -> None:
    run = _run(tmp_path)
    today = events.MemoryChanged(path=daily_rel(), tool="append", summary="+1", diff="")
    other = events.MemoryChanged(path="memory/2020-01-01.md", tool="append", summary="+1", diff="")
    run._score("q", "ok", [today])
    run._score("q", "ok", [other])
    assert run.tally.writes_on_questions == 2 and run.tally.appends_elsewhere == 1


def test_scoring_counts_a_host_named_on_a_source_line(tmp_path: Path) -> None:
    run = _run(tmp_path)
    run._score("q", "ok\nSource: ci-7.example.net#L10-12", [])
    assert run.tally.sources == 1 and run.tally.sources_unfound == 1


def test_a_source_naming_a_file_the_turn_never_searched_up_or_read_is_counted() -> None:
    from openclaw_tui.evals.questions import cited_not_from_turn
    from openclaw_tui.memory.api import SearchHit, SearchResult

    found = SearchResult(backend="builtin", results=(SearchHit(path="memory/a.md", start_line=1, end_line=3, score=1.0),))
    turn = [events.MemoryRetrieved(query="q", result=found), events.ToolCalled(call_id="1", name="read", arguments={"path": "USER.md"})]
    assert cited_not_from_turn("84. Source: memory/2026-12-05.md", turn) == ["memory/2026-12-05.md"]
    assert cited_not_from_turn("Teal.\nSources: memory/a.md#L1, USER.md, x.md", turn) == ["x.md"]
    assert cited_not_from_turn("Teal (Source: memory/a.md#L2).", turn) == []
    assert cited_not_from_turn("Teal.\nSource: memory/a.md#L1-L2", []) == ["memory/a.md"]
