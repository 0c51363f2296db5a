"""bench/prompt_sections.py: the local prompt counted section by section, headless (no model),
and its rows add up to what the session itself counts for the request."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bench import prompt_sections as ps
from openclaw_tui.llm.profiles import LOCAL_TOOLS
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.session.tokens import TokenCounter
from openclaw_tui.workspace.bootstrap import build_system_prompt
from openclaw_tui.workspace.template import init_workspace


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> list[ps.Request]:
    mp = pytest.MonkeyPatch()
    root = tmp_path_factory.mktemp("sections")
    mp.setenv("OPENCLAW_STATE_DIR", str(root / "state"))
    mp.setenv("OPENCLAW_BUNDLED_EMBEDDINGS", "off")
    try:
        return ps.measure(root)
    finally:
        mp.undo()


def test_rows_add_up_to_the_whole_request_and_name_every_part(measured: list[ps.Request]) -> None:
    statement, question = measured
    for req in measured:
        assert sum(s.tokens for s in req.sections) == req.total
        names = [s.name for s in req.sections]
        for f in ("AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md"):
            assert f"system: {f}" in names
        for f in ("TOOLS.md", "MEMORY.md"):  # as shipped: not in the local prompt (SHIPPED_NOT_LOADED_LOCAL)
            assert f"system: {f} (left out)" in names
        assert {n.removeprefix("tool: ") for n in names if n.startswith("tool: ")} == set(LOCAL_TOOLS)
        assert all(s.tokens > 0 for s in req.sections if not s.name.endswith(("framing (list)", "joins", "(left out)")))
    assert statement.fixed == question.fixed  # the same prefix starts both
    # after the fixed start: today's note file always, the notes of today when there are some
    assert "today's note file" in [s.name for s in statement.sections]
    assert {"today's note file + startup notes", "recall block (results + the question again)"} <= {s.name for s in question.sections}
    assert question.total > statement.total


def test_the_count_is_the_sessions_own(tmp_path: Path) -> None:
    # the engine's meter before the first message (system prompt + offered tools) plus the
    # message as sent is the bench's whole-request figure: the same tokenizer, the same framing
    ws = tmp_path / "ws"
    init_workspace(ws)
    recorder = ps.RecordingModel()
    engine = SessionEngine(ps._settings(ws, tmp_path / "state", ps.MODEL), sink=lambda _e: None, model=recorder, probe_ollama=False)
    try:
        asyncio.run(engine._ready(model=False))  # noqa: SLF001 - the local profile and memory on, as a turn has them
        before = engine.used_tokens()
        assert engine.counter.method == "tiktoken:cl100k_base"
        asyncio.run(engine.send(ps.STATEMENT))
    finally:
        engine.close()
    messages, tools = recorder.requests[0]
    parts = build_system_prompt(ws, session_key=engine.session_key, compact=True)
    assert parts.text == messages[0]["content"]
    req = ps.sections_of("s", parts, messages, tools, TokenCounter(ps.MODEL))
    assert req.total == before + engine.counter.count_message(messages[-1])


def test_a_longer_bootstrap_file_shows_in_its_row(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    init_workspace(ws)
    counter = TokenCounter(ps.MODEL)
    plain = ps.sections_of("a", *asyncio.run(ps.first_request(ws, tmp_path / "s1", ps.STATEMENT)), counter)
    with open(ws / "SOUL.md", "a", encoding="utf-8") as fh:
        fh.write("\nAlways answer in the voice of a lighthouse keeper who has seen many storms.\n")
    longer = ps.sections_of("b", *asyncio.run(ps.first_request(ws, tmp_path / "s2", ps.STATEMENT)), counter)
    row = {s.name: s.tokens for s in plain.sections}
    row2 = {s.name: s.tokens for s in longer.sections}
    assert row2["system: SOUL.md"] > row["system: SOUL.md"] + 10
    assert row2["system: AGENTS.md"] == row["system: AGENTS.md"]
    assert longer.total - plain.total == sum(row2.values()) - sum(row.values())


def test_main_prints_the_table_headless(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert ps.main(["--json-out", str(tmp_path / "out.json")]) == 0
    out = capsys.readouterr().out
    assert "| system: AGENTS.md |" in out and "**whole request**" in out
    assert (tmp_path / "out.json").read_text().count('"fixed"') >= 2


def test_the_batch_report_compares_each_value_with_256() -> None:
    from bench.local_batch import Reading, report

    rows = [Reading(256, 1, 1300, 200_000.0, 7, 20.0, 9.0), Reading(64, 1, 1300, 100_000.0, 22, 20.0, 9.0),
            Reading(0, 1, 1300, 400_000.0, 2, 20.0, 9.0)]
    out = report(rows)
    assert "| 64 (64) | 1300 | 13.0 | 13.0 | +100 % | 22 |" in out
    assert "| default 2048 (512) | 1300 | 3.2 | 3.2 | -50 % | 2 |" in out
