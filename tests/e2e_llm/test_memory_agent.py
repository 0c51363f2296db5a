"""The memory behaviours with the real local model (Qwen2.5-Coder GGUF on llama.cpp).

Wording varies from run to run; the assertions are about behaviour: the tool that ran, the
file that changed, the citation shown, and that no tool-call JSON reached the user.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from openclaw_tui import events
from openclaw_tui.config import load_config, resolve_agent
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.workspace.daily import daily_rel
from tests.e2e_llm.conftest import chat, leaked_call_json

pytestmark = pytest.mark.timeout(900)  # a 1.5B model on two busy cores; ~30 s per test on an idle machine


def _calls(data: dict, name: str) -> list[dict]:
    return [e for e in data["events"] if e["type"] == "tool_called" and e["name"] == name]


def test_a_question_about_the_past_is_searched_and_answered_with_a_source(conv26: Path, real_llm: list[str]) -> None:
    data = chat(conv26, real_llm, "Search your memory: what is Caroline's identity?")
    assert data["offline"] is False
    if not real_llm:  # the app's own model order found the installed GGUF
        assert data["model"].startswith("local · "), data["model"]
    searches = _calls(data, "memory_search")
    assert searches and "caroline" in searches[0]["arguments"]["query"].lower()
    text = data["text"]
    assert text.strip() and "Source: memory/" in text, text
    assert not leaked_call_json(text), text
    # The behaviour above gates; naming the fact itself is the 1.5B model's answer quality: at
    # temperature 0.8 it named it in 1 of 4 runs with hybrid search, at the managed server's 0.2 in
    # 4 of 5 through the CLI (docs/local-llm.md) — better, not certain. A miss is reported as xfail,
    # not hidden: issue 11 stays open on it and bench/memory_agent.py measures it.
    if not re.search(r"\btrans(gender)?\b", text, re.IGNORECASE):  # "transgender woman", "trans woman"
        pytest.xfail(f"the local model did not name her identity: {text[:200]!r}")


def test_remember_appends_to_todays_log_and_leaves_memory_md_alone(conv26: Path, real_llm: list[str]) -> None:
    before = (conv26 / "MEMORY.md").read_bytes()
    data = chat(conv26, real_llm, "Remember that my favourite colour is teal-4711.")
    assert data["offline"] is False
    daily = conv26 / daily_rel()
    assert daily.is_file() and "teal-4711" in daily.read_text(), json.dumps(data["events"])[:2000]
    assert (conv26 / "MEMORY.md").read_bytes() == before
    assert not leaked_call_json(data["text"]), data["text"]


def _engine(workspace: Path, cli: list[str], sink) -> SessionEngine:
    opts = dict(zip(cli[::2], cli[1::2]))
    cfg = load_config(None, overrides={})
    settings = resolve_agent(cfg, workspace=workspace, model=opts.get("--model"), api_base=opts.get("--api-base"), api_key=opts.get("--api-key"))
    return SessionEngine(settings, sink=sink, probe_ollama=False)


def test_flush_shows_nothing_and_compaction_summarises_with_the_model(conv26: Path, real_llm: list[str]) -> None:
    seen: list[events.Event] = []
    eng = _engine(conv26, real_llm, seen.append)

    async def run() -> None:
        await eng.send("My dog is called Rex-93; he is a beagle who loves the beach.")
        seen.clear()
        await eng.flush()
        flush_events = list(seen)
        seen.clear()
        await eng.compact()
        return flush_events

    try:
        flush_events = asyncio.run(run())
    finally:
        eng.close()
    assert not eng.is_offline
    shown = [e for e in flush_events if isinstance(e, events.TextDelta)]
    assert shown == [], "the flush showed text"
    (done,) = [e for e in flush_events if isinstance(e, events.FlushFinished)]
    assert done.skipped_reason is None
    if done.stored:  # a flush may store nothing; when it stores, only today's log
        assert done.path == daily_rel()
    (compacted,) = [e for e in seen if isinstance(e, events.CompactionFinished)]
    assert "could not summarise" not in json.dumps([e.to_dict() for e in seen])  # the model wrote it, not the fallback
    assert "rex" in compacted.summary.lower(), compacted.summary
    assert not leaked_call_json(compacted.summary)
