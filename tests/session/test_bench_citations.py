"""The citation measurement (bench/citations.py) runs end to end: a scripted hosted model that
cites another fact's line as the 1.5B did, its replies checked by the engine (issue 37)."""

from __future__ import annotations

import asyncio

from bench.citations import judge, run, sloppy_host
from tests.fakes.chat_server import ChatServer


def test_a_sloppy_citer_ends_with_no_citation_naming_another_facts_line() -> None:
    with ChatServer(responder=sloppy_host) as srv:
        report = asyncio.run(run("openai/scripted-sloppy", srv.base_url, "sk-scripted", 4, False))
    assert report["rawOtherFact"] >= 3, report  # the model's own references named the next note
    assert report["citations"] >= 3 and report["otherFact"] == 0 and report["ownLine"] == report["citations"], report


def test_judge_tells_the_facts_line_from_another(tmp_path) -> None:
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "d.md").write_text("# d\n\n- Pixel is 7\n- Okafor is my dentist\n", encoding="utf-8")
    table = [{"token": "Pixel is 7"}, {"token": "Okafor"}]
    assert judge("7.\n\nSource: memory/d.md#L3", 0, table, tmp_path)["ownLine"] == 1
    assert judge("7.\n\nSource: memory/d.md#L4", 0, table, tmp_path)["otherFact"] == 1
    assert judge("7.\n\nSource: memory/d.md#L1-L4", 0, table, tmp_path)["otherFact"] == 1
    assert judge("7.\n\nSource: memory/d.md#L40", 0, table, tmp_path)["unfound"] == 1
