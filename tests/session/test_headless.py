"""`chat -p` and `scenario` through the real CLI entry point, with the offline agent and the
scripted server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openclaw_tui.cli import main
from openclaw_tui.llm.resolve import ENV_DEFAULTS
from openclaw_tui.workspace.daily import daily_rel
from tests.session.conftest import SECRET_KEY

ROOT = Path(__file__).resolve().parents[2]
ENV_KEYS = [var for var, _p, _m in ENV_DEFAULTS]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


@pytest.fixture(autouse=True)
def _no_ollama(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENCLAW_OLLAMA_URL", "http://127.0.0.1:9")  # nothing listens: offline agent
    for var in ENV_KEYS:
        monkeypatch.delenv(var, raising=False)


def chat(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_chat_json_offline_remember_then_recall_in_one_session(capsys, workspace: Path, state_dir: Path) -> None:
    code, out, err = chat(capsys, "--workspace", str(workspace), "chat", "-p", "Remember that the deploy window is Thursday 14:00.", "--session", "s1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) >= {"text", "sessionId", "usage", "events"}
    assert data["sessionId"] == "s1" and data["offline"] is True
    assert data["text"] == f"Saved to {daily_rel()}."
    assert {"tool_called", "tool_result", "turn_started", "turn_finished", "token_usage"} <= {e["type"] for e in data["events"]}
    assert data["usage"]["context_window"] == 200_000 and data["usage"]["flush_threshold"] == 176_000
    assert data["usage"]["estimated"] is True and 0 < data["usage"]["used"] < 176_000
    assert "Thursday 14:00" in (workspace / daily_rel()).read_text()

    code, out, _ = chat(capsys, "--workspace", str(workspace), "chat", "-p", "When is the deploy window?", "--session", "s1", "--json")
    data = json.loads(out)
    assert "Thursday 14:00" in data["text"] and f"Source: {daily_rel()}#L1" in data["text"]
    assert any(e["type"] == "memory_retrieved" for e in data["events"])
    # the second call continued the same session
    from openclaw_tui.records.transcript import read_transcript

    entries = read_transcript(state_dir / "agents/main/sessions/s1.jsonl")
    users = [e["message"]["content"] for e in entries if e["type"] == "message" and e["message"]["role"] == "user"]
    assert users == ["Remember that the deploy window is Thursday 14:00.", "When is the deploy window?"]
    assert [e["type"] for e in entries].count("session") == 1


def test_chat_plain_text_streams_and_labels_offline(capsys, workspace: Path) -> None:
    code, out, err = chat(capsys, "--workspace", str(workspace), "chat", "-p", "hello there")
    assert code == 0
    assert "Offline agent" in out and "rule-based, not an LLM" in err


def test_chat_against_the_server_and_errors(capsys, workspace: Path, server) -> None:
    server.push({"text": "hi from the server"})
    base = ["--workspace", str(workspace), "--model", "openai/fake-model", "--api-base", server.base_url, "--api-key", SECRET_KEY]
    code, out, err = chat(capsys, *base, "chat", "-p", "hi", "--json")
    data = json.loads(out)
    assert code == 0 and data["text"] == "hi from the server" and data["usage"]["estimated"] is False
    server.push({"error": 401})
    code, out, err = chat(capsys, *base, "chat", "-p", "hi")
    assert code == 1 and "provider error" in err and "openai" in err
    assert SECRET_KEY not in out + err


@pytest.mark.parametrize("bad", ["", "   "])
def test_chat_rejects_an_empty_prompt(capsys, workspace: Path, bad: str) -> None:
    code, _out, err = chat(capsys, "--workspace", str(workspace), "chat", "-p", bad)
    assert code == 1 and "prompt is empty" in err


def test_chat_rejects_a_bad_session_id(capsys, workspace: Path) -> None:
    code, _out, err = chat(capsys, "--workspace", str(workspace), "chat", "-p", "x", "--session", "../etc")
    assert code == 1 and "invalid session id" in err and "Traceback" not in err


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_shipped_scenario_passes_with_the_offline_agent(capsys, path: Path) -> None:
    code, out, err = chat(capsys, "--model", "offline", "scenario", str(path), "--json")
    report = json.loads(out)
    failed = [c for c in report["expectations"] if not c["ok"]]
    assert code == 0 and report["passed"], json.dumps(failed, indent=1)
    assert report["expectations"]


def test_shipped_scenarios_cover_the_required_cases() -> None:
    text = "\n".join(p.read_text() for p in SCENARIOS)
    for needle in ("flushBeforeTurn", "compactionCount", "workspaceAccess: ro", "group:", "memorySearch", "noNoReply"):
        assert needle in text


def test_a_failing_expectation_exits_non_zero_with_a_diff(capsys, tmp_path: Path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(
        "name: wrong on purpose\nmodel: offline\nturns:\n  - user: 'Remember that my cat is called Miso.'\n"
        "expect:\n  - fileContains: {path: 'memory/{today}.md', text: 'my dog'}\n  - compactionCount: 3\n"
        "  - fileContains: {path: 'memory/{today}.md', text: 'Miso'}\n"
    )
    code, out, err = chat(capsys, "scenario", str(f))
    assert code == 1
    assert "FAIL fileContains" in out and "- memory/" in out and "+   - My cat is called Miso." in out
    assert "- compactionCount 3" in out and "+ compactionCount 0" in out
    assert "ok   fileContains" in out and "FAILED (2 of 3 expectations)" in out
    assert "failed" in err


@pytest.mark.parametrize("content,msg", [
    ("turns: []\n", "non-empty list"),
    ("name: x\nturns: [{user: hi}]\nexpect: [{bogus: 1}]\n", "unknown expectation 'bogus'"),
    ("name: x\nturns: [{user: hi}]\nwat: 1\n", "unknown key"),
    ("turns: [ {user: 'a'\n", "not valid YAML"),
    ("name: x\nturns: [{user: hi}]\nconfig: {agents: {defaults: {contextTokens: 5}}}\n", "contextTokens"),
    # malformed expectations, turns and files are rejected before any turn runs
    ("turns: [{user: hi}]\nexpect: [{flushCount: abc}]\n", "expect[1].flushCount: must be a whole number"),
    ("turns: [{user: hi}]\nexpect: [{replyContains: Noted}]\n", "expect[1].replyContains: must be a mapping"),
    ("turns: [{user: hi}]\nexpect: [{memorySearch: 5}]\n", "expect[1].memorySearch: must be a mapping"),
    ("turns: [{user: hi}]\nexpect: [{memorySearch: {query: x}}]\n", "needs 'path' or 'notPath'"),
    ("turns: [{user: hi}]\nexpect: [{fileContains: {text: x}}]\n", "expect[1].fileContains: missing path"),
    ("turns: [{user: hi, expect: {replyContains: zzz}}]\n", "turns[1]: unknown key(s) ['expect']"),
    ("turns: [{user: hi}]\nfiles: {'/tmp/openclaw-escape.md': x}\n", "must be a path relative to the workspace"),
    ("turns: [{user: hi}]\nfiles: {'../escape.md': x}\n", "must be a path relative to the workspace"),
    ("turns: [{user: hi}]\nsessionKey: 5\n", "'sessionKey' must be a text (got 5)"),
    ("turns: [{user: hi}]\nmodel: [offline]\n", "'model' must be a text"),
    ("turns: [{user: hi}]\nfiles: {'memory/a.md': [1, 2]}\n", "the content of 'memory/a.md' must be a text"),
])
def test_invalid_scenarios_get_one_line_errors(capsys, tmp_path: Path, content: str, msg: str) -> None:
    f = tmp_path / "s.yaml"
    f.write_text(content)
    code, out, err = chat(capsys, "scenario", str(f))
    assert code == 2 and msg in err and "Traceback" not in err and "unexpected" not in err
    assert len(err.strip().splitlines()) == 1 and out == ""


def test_missing_scenario_file(capsys, tmp_path: Path) -> None:
    code, _out, err = chat(capsys, "scenario", str(tmp_path / "nope.yaml"))
    assert code == 2 and "does not exist" in err


def test_a_bad_scenario_config_section_names_the_scenario_not_the_user_config(capsys, tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text("turns: [{user: hi}]\nconfig: {agents: {defaults: {contextTokens: abc}}}\n")
    code, _out, err = chat(capsys, "scenario", str(f))
    assert code == 2 and "agents.defaults.contextTokens" in err
    assert f"{f} (its config: section)" in err and "openclaw.json" not in err


def test_a_group_session_key_cannot_resume_a_direct_session_that_quoted_memory_md(capsys, workspace: Path, state_dir: Path) -> None:
    (workspace / "MEMORY.md").write_text("# MEMORY.md\n- Secret project codename: BLUEFOX.\n")
    code, out, err = chat(capsys, "--workspace", str(workspace), "chat", "-p", "What is the project codename?", "--session", "s1")
    assert code == 0 and "BLUEFOX" in out, err
    group = ("--workspace", str(workspace), "--session-key", "agent:main:discord:group:1")
    code, out, err = chat(capsys, *group, "chat", "-p", "hello again", "--session", "s1", "--json")
    assert code == 1 and out == "" and "BLUEFOX" not in err
    assert "belongs to agent:main:main" in err and len(err.strip().splitlines()) == 1
    from openclaw_tui.records.transcript import read_transcript

    users = [e["message"]["content"] for e in read_transcript(state_dir / "agents/main/sessions/s1.jsonl") if e.get("type") == "message" and e["message"]["role"] == "user"]
    assert users == ["What is the project codename?"]
    # the same group key may resume its own session; the direct key may resume anything
    assert chat(capsys, *group, "chat", "-p", "hi", "--session", "g1")[0] == 0
    assert chat(capsys, *group, "chat", "-p", "hi again", "--session", "g1")[0] == 0
    assert chat(capsys, "--workspace", str(workspace), "chat", "-p", "and again", "--session", "s1")[0] == 0


def test_a_scenario_whose_turn_errored_does_not_pass(capsys, tmp_path: Path, server) -> None:
    server.push({"error": 401})
    f = tmp_path / "s.yaml"
    f.write_text("turns: [{user: hi}]\nexpect:\n  - replyNotContains: {turn: 1, text: secret}\n  - workspaceUnchanged: true\n")
    base = ["--model", "openai/fake-model", "--api-base", server.base_url, "--api-key", SECRET_KEY]
    code, out, err = chat(capsys, *base, "scenario", str(f))
    assert code == 1 and "[error:" in out
    assert "FAILED (0 of 2 expectations; turn(s) [1] ended with an error)" in out and "failed" in err


def test_a_window_smaller_than_the_reserves_is_warned_about(capsys, workspace: Path, tmp_path: Path) -> None:
    cfg = tmp_path / "c.json"
    cfg.write_text('{agents: {defaults: {contextTokens: 4000}}}')  # reserveTokensFloor 20000 by default
    code, _out, err = chat(capsys, "--config", str(cfg), "--workspace", str(workspace), "chat", "-p", "hello there")
    assert code == 0
    assert "warning: the context window (4000 tokens) leaves no room after compaction.reserveTokensFloor (20000)" in err
    assert "every turn will flush and compact" in err and err.count("leaves no room") == 1
    code, _out, err = chat(capsys, "--workspace", str(workspace), "chat", "-p", "hello there")
    assert code == 0 and "leaves no room" not in err


def test_resume_survives_a_damaged_compaction_entry_and_sessions_json_entry(capsys, workspace: Path, state_dir: Path) -> None:
    sessions = state_dir / "agents/main/sessions"
    sessions.mkdir(parents=True)
    lines = [
        {"type": "session", "version": 1, "id": "x2"},
        {"type": "message", "message": {"role": "user", "content": "old question"}},
        {"type": "compaction", "summary": "the user asked an old question", "kept": "abc", "compactionCount": 1},
        {"type": "message", "message": {"role": "user", "content": "newer question"}},
    ]
    (sessions / "x2.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    (sessions / "sessions.json").write_text('{"x2": 5}')
    code, out, err = chat(capsys, "--workspace", str(workspace), "chat", "-p", "hello there", "--session", "x2", "--json")
    assert code == 0, err
    assert json.loads(out)["sessionId"] == "x2"


def test_a_missing_or_file_workspace_is_warned_about(tmp_path, monkeypatch) -> None:
    from openclaw_tui import events
    from openclaw_tui.config import load_config, resolve_agent
    from openclaw_tui.session.engine import SessionEngine

    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path / "state"))
    # a missing workspace is how a first start begins: a neutral line (issue 37), not a warning
    cases = {"missing": (tmp_path / "nope", "new workspace", "info"), "file": (tmp_path / "afile", "is a file", "warning")}
    (tmp_path / "afile").write_text("x")
    for name, (ws, words, level) in cases.items():
        seen: list = []
        eng = SessionEngine(resolve_agent(load_config(None), workspace=str(ws)), sink=seen.append)
        eng.close()
        said = [e for e in seen if isinstance(e, events.Notice) and "workspace" in e.message]
        assert len(said) == 1 and words in said[0].message and "--workspace" in said[0].message, (name, said)
        assert said[0].level == level, (name, said)
    seen = []
    (tmp_path / "ok").mkdir()
    SessionEngine(resolve_agent(load_config(None), workspace=str(tmp_path / "ok")), sink=seen.append).close()
    assert not [e for e in seen if isinstance(e, events.Notice) and "workspace" in e.message]


def test_the_scenario_docstring_names_every_registered_expectation() -> None:
    import re

    from openclaw_tui.scenario import runner as scenario
    from openclaw_tui.scenario.expectations import EXPECTATIONS

    documented = set(re.findall(r"\b([a-z]+[A-Z]\w*)\b", scenario.__doc__ or "")) & set(EXPECTATIONS)
    assert documented == set(EXPECTATIONS)


def test_chat_ends_on_the_checked_reply_when_the_check_changed_it(capsys, workspace: Path, server) -> None:
    # the 1.5B, headless: "…6543. Source: memory/2026-12-05.md#L11-L14" streamed, the session kept it marked
    server.push({"text": "Teal. Source: memory/2026-01-01.md#L11-L14"})
    base = ["--workspace", str(workspace), "--model", "openai/fake-model", "--api-base", server.base_url, "--api-key", SECRET_KEY]
    code, out, err = chat(capsys, *base, "chat", "-p", "what colour?")
    assert code == 0 and "reply checked" in err
    streamed, kept = out.rstrip("\n").split("\n", 1)
    assert streamed == "Teal. Source: memory/2026-01-01.md#L11-L14"
    assert kept == "Teal."  # the unfound reference taken out, the checked reply last on screen
    server.push({"text": "Teal."})
    code, out, err = chat(capsys, *base, "chat", "-p", "again?")
    assert out == "Teal.\n" and "reply checked" not in err


def test_chat_runs_flush_and_compact_itself(capsys, workspace: Path, server) -> None:
    # the 1.5B answered "-p /flush" with a printed {"name": "flush", "arguments": {}}
    base = ["--workspace", str(workspace), "--model", "openai/fake-model", "--api-base", server.base_url, "--api-key", SECRET_KEY]
    server.push({"text": "Noted."}, {"text": "NO_REPLY"})
    assert chat(capsys, *base, "chat", "-p", "The offsite budget is 12,400 dollars.", "--session", "s1")[0] == 0
    code, out, _err = chat(capsys, *base, "chat", "-p", "/flush", "--session", "s1", "--json")
    report = json.loads(out)
    assert code == 0 and report["text"] == ""
    kinds = [(e["type"], e.get("reason")) for e in report["events"]]
    assert ("flush_started", "manual") in kinds and any(k == "flush_finished" for k, _ in kinds)
    flush_request = server.chat_requests()[-1]["messages"]
    assert not any(m.get("role") == "user" and m.get("content") == "/flush" for m in flush_request)
    code, out, _err = chat(capsys, *base, "chat", "-p", "/compact keep the amounts", "--session", "s1", "--json")
    report = json.loads(out)
    assert code == 0 and ("compaction_started", "manual") in [(e["type"], e.get("reason")) for e in report["events"]]
    sent = [m.get("content") for r in server.chat_requests() for m in r["messages"] if m.get("role") == "user"]
    assert not [c for c in sent if str(c).startswith(("/flush", "/compact"))]  # never a message to the model
