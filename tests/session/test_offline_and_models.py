"""Offline agent rules, model resolution and context-window resolution."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from openclaw_tui.llm.context import DEFAULT_CONTEXT_WINDOW, resolve_context_window
from openclaw_tui.llm.resolve import resolve_model
from openclaw_tui.session.compaction import SUMMARY_SECTIONS, extractive_summary, render_for_summary
from openclaw_tui.session.offline import OfflineModel, best_lines, is_question, stated_facts


@pytest.fixture(autouse=True)
def _no_provider_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    from openclaw_tui.llm.resolve import ENV_DEFAULTS

    for var, _p, _m in ENV_DEFAULTS:
        monkeypatch.delenv(var, raising=False)


@pytest.mark.parametrize("text,expected", [
    ("What did we decide about the logo?", True),
    ("when is the standup", True),
    ("Remind me of the budget", True),
    ("I prefer tea.", False),
    ("The deploy is on Friday", False),
])
def test_is_question(text: str, expected: bool) -> None:
    assert is_question(text) is expected


def test_stated_facts_pick_user_statements_only() -> None:
    msgs = [
        {"role": "user", "content": "I prefer tea over coffee. What time is it?"},
        {"role": "assistant", "content": "I like answering."},
        {"role": "user", "content": "remember that my sister lives in Porto"},
        {"role": "user", "content": "/flush"},
        {"role": "user", "content": "ok"},
    ]
    assert stated_facts(msgs) == ["I prefer tea over coffee", "My sister lives in Porto"]


def test_best_lines_pick_the_matching_lines_with_numbers() -> None:
    text = "- alpha\n- the budget is 12000 euros\n- gamma\n"
    assert best_lines(text, "budget euros", 10) == [("- the budget is 12000 euros", 11)]


async def test_offline_flush_reads_the_log_then_appends_only_new_facts() -> None:
    m = OfflineModel()
    tools = [{"type": "function", "function": {"name": n}} for n in ("read", "append")]
    convo = [
        {"role": "user", "content": "My flight lands at 09:40 on Monday."},
        {"role": "user", "content": "Remember that my seat is 14C."},
    ]
    flush = {"role": "user", "content": "Write any lasting notes to memory/2026-01-05.md; reply with NO_REPLY if nothing to store."}
    step1 = await m.complete(convo + [flush], tools, on_delta=lambda _p: None, purpose="flush")
    assert step1.tool_calls[0].name == "read" and json.loads(step1.tool_calls[0].arguments) == {"path": "memory/2026-01-05.md"}
    read_result = {"role": "tool", "name": "read", "content": json.dumps({"text": "- my seat is 14C\n"})}
    step2 = await m.complete(convo + [flush, step1.assistant_message(), read_result], tools, on_delta=lambda _p: None, purpose="flush")
    args = json.loads(step2.tool_calls[0].arguments)
    assert step2.tool_calls[0].name == "append" and args == {"path": "memory/2026-01-05.md", "content": "- My flight lands at 09:40 on Monday"}
    done = {"role": "tool", "name": "append", "content": json.dumps({"ok": True})}
    step3 = await m.complete(convo + [flush, step1.assistant_message(), read_result, step2.assistant_message(), done], tools, on_delta=lambda _p: None, purpose="flush")
    assert step3.text == "NO_REPLY"
    # a later flush in the same session finds nothing new
    again = await m.complete(convo + [flush, step1.assistant_message(), read_result], tools, on_delta=lambda _p: None, purpose="flush")
    assert again.text == "NO_REPLY" and not again.tool_calls


def test_extractive_summary_has_every_section_and_keeps_identifiers() -> None:
    rendered = render_for_summary([
        {"role": "user", "content": "Goal: migrate billing to Postgres 16. I prefer blue-green deploys."},
        {"role": "assistant", "content": "We decided to use pgbouncer. Next step: update config/db.yaml."},
        {"role": "tool", "content": "x" * 2000},
    ])
    s = extractive_summary(rendered, "focus on the database")
    for sec in SUMMARY_SECTIONS:
        assert f"## {sec}" in s
    assert "config/db.yaml" in s and "blue-green" in s and "pgbouncer" in s and "focus on the database" in s
    assert "x" * 700 not in rendered


def test_model_resolution_order(make_settings, monkeypatch) -> None:
    monkeypatch.setenv("OPENCLAW_OLLAMA_URL", "http://127.0.0.1:9")
    from openclaw_tui.llm.resolve import ENV_DEFAULTS

    for var, _p, _m in ENV_DEFAULTS:
        monkeypatch.delenv(var, raising=False)
    assert resolve_model(make_settings()).offline
    assert resolve_model(make_settings(model="offline")).offline
    c = resolve_model(make_settings(model="openai/gpt-4o-mini", api_base="http://127.0.0.1:1/v1", api_key="k"))
    assert (c.model, c.api_base, c.api_key, c.provider) == ("openai/gpt-4o-mini", "http://127.0.0.1:1/v1", "k", "openai")
    cfg = {"models": {"providers": {"groq": {"apiKey": "gk", "baseUrl": "http://x/v1", "models": [{"id": "llama-3"}]}}}}
    c = resolve_model(make_settings(cfg))
    assert (c.model, c.api_key, c.api_base) == ("groq/llama-3", "gk", "http://x/v1")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "ak")
    assert resolve_model(make_settings()).model.startswith("anthropic/")
    monkeypatch.setenv("OPENAI_API_KEY", "ok")
    assert resolve_model(make_settings()).model == "openai/gpt-4o-mini"


def test_api_base_without_model_uses_the_first_listed_model(make_settings, server, monkeypatch) -> None:
    monkeypatch.setenv("OPENCLAW_OLLAMA_URL", "http://127.0.0.1:9")
    c = resolve_model(make_settings(api_base=server.base_url, api_key="k"))
    assert c.model == "openai/fake-model" and c.api_base == server.base_url
    assert server.requests[-1]["headers"]["authorization"] == "Bearer k"


def test_local_ollama_is_found_quickly(make_settings, monkeypatch) -> None:
    class H(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            body = json.dumps({"models": [{"name": "llama3.2:1b"}]}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_a) -> None:
            return None

    srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, args=(0.02,), daemon=True).start()
    try:
        monkeypatch.setenv("OPENCLAW_OLLAMA_URL", f"http://127.0.0.1:{srv.server_address[1]}")
        c = resolve_model(make_settings())
        assert c.model == "ollama_chat/llama3.2:1b" and c.source == "ollama"
        assert c.api_base == f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()


def test_context_window_resolution_chain(make_settings) -> None:
    s = make_settings({"agents": {"defaults": {"contextTokens": 32_000}}})
    assert resolve_context_window(s.config, "openai/gpt-4o") == (32_000, "contextTokens")
    s = make_settings({"models": {"providers": {"acme": {"models": [{"id": "big-1", "contextWindow": 1_000_000}]}}}})
    assert resolve_context_window(s.config, "acme/big-1") == (1_000_000, "provider")
    window, source = resolve_context_window(s.config, "openai/gpt-4o")
    assert source == "litellm" and window == 128_000
    assert resolve_context_window(s.config, "openai/no-such-model-xyz") == (DEFAULT_CONTEXT_WINDOW, "default")
    assert resolve_context_window(s.config, "offline") == (DEFAULT_CONTEXT_WINDOW, "default")


def test_core_imports_neither_textual_nor_litellm() -> None:
    import subprocess
    import sys

    code = (
        "import sys; import openclaw_tui.session.engine, openclaw_tui.scenario.runner, openclaw_tui.commands.chat_cmd; "
        "print(any(m == 'textual' or m.startswith('textual.') for m in sys.modules), 'litellm' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]


async def test_offline_flush_on_a_day_without_a_log_is_not_a_refusal(make_settings, workspace) -> None:
    """Reading today's log before it exists is a plain "not there yet", not an access refusal."""
    from openclaw_tui import events
    from openclaw_tui.session.engine import SessionEngine
    from openclaw_tui.workspace.daily import daily_rel

    seen: list[events.Event] = []
    daily = workspace / daily_rel()
    assert not daily.exists()
    eng = SessionEngine(make_settings(), sink=seen.append)
    assert eng.is_offline
    await eng.send("My flight lands at 09:40 on Monday.")
    await eng.flush()
    eng.close()
    assert [e for e in seen if isinstance(e, events.AccessRefused)] == []
    done = [e for e in seen if isinstance(e, events.FlushFinished)]
    assert done  # the statement was stored at once (the offline agent, like the local profile): nothing left to flush
    assert "My flight lands at 09:40 on Monday" in daily.read_text()


def test_offline_tool_call_ids_are_unique_and_cost_the_same_tokens() -> None:
    """The TUI snapshot after a flush showed the meter's estimate one token apart between runs:
    the offline agent's ids were random hex, which tokenizes to 16–23 tokens in a message."""
    from openclaw_tui.session.offline import call_id
    from openclaw_tui.session.tokens import make_text_counter

    count, _ = make_text_counter("offline")
    ids = [call_id() for _ in range(500)]
    assert len(set(ids)) == len(ids)
    assert len({count(json.dumps({"id": i, "type": "function"})) for i in ids}) == 1
    assert len({count(call_id("recall")) for _ in range(200)}) == 1


def test_the_model_never_sees_a_search_timing() -> None:
    """A CI run's TUI snapshot read one token more: a search slower than a second printed
    ``searchMs: 1234.5`` into the model's context. The timing stays on screen, not in context."""
    from openclaw_tui.memory.api import SearchHit, SearchResult
    from openclaw_tui.session.compaction import tool_result_content

    hit = SearchHit(path="MEMORY.md", start_line=1, end_line=1, score=0.5)
    result = SearchResult(backend="builtin", results=(hit,), provider="none", search_ms=1234.5)
    sent = json.loads(tool_result_content(result))
    assert "searchMs" not in sent and sent["results"] == [hit.to_dict()] and sent["provider"] == "none"
    assert result.to_dict()["searchMs"] == 1234.5  # the event's value, which the side panel reads, keeps it
    assert json.loads(tool_result_content(["a"])) == ["a"]


def test_counting_for_the_managed_local_model_never_imports_litellm() -> None:
    """Issue 38: `chat -p /flush` with the local model took 20–51 s and started no server: the
    token meter imported litellm (~10 s idle) to count with cl100k, which tiktoken does alone."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from openclaw_tui.session.tokens import make_text_counter\n"
        "count, method = make_text_counter('local/qwen2.5-coder-1.5b-instruct-q4_k_m')\n"
        "print(count('Hello wörld, 日本語 def f(x): return x'), method, 'litellm' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True).stdout.split()
    assert out[1:] == ["tiktoken:cl100k_base", "False"], out
    assert int(out[0]) > 5
