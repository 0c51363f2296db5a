"""Issue 30, point 8: hostile bytes from a model, a memory file or a server never act on the
terminal or abort a turn (real HTTP to the scripted server, the real CLI entry point)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from hypothesis import given, settings as hsettings, strategies as st

from openclaw_tui import events
from openclaw_tui.cli import main
from openclaw_tui.config import load_config, resolve_agent
from openclaw_tui.llm.client import RetryPolicy
from openclaw_tui.llm.stream_decoding import clean_line, install
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.terminal_text import for_terminal

HOSTILE = "ok \x1b]52;c;cHduZWQ=\x07 \x1b[2J\x1b[H \x1b]0;owned\x07 \r\u202eevil\x9b31m done"
FAST = RetryPolicy(attempts=3, base_s=0.01, max_s=0.02, retry_after_cap_s=0.02)


def _no_controls(text: str) -> bool:
    return not any((ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F or c == "\u202e" for c in text)


def test_chat_p_prints_a_models_control_sequences_as_text(capsys, workspace: Path, server) -> None:
    server.push({"text": HOSTILE})
    code = main(["--workspace", str(workspace), "--model", "openai/fake-model", "--api-base", server.base_url,
                 "--api-key", "k-123456", "chat", "-p", "hi"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert _no_controls(out.out) and _no_controls(out.err)
    assert "\\x1b]52;c;cHduZWQ=" in out.out and "done" in out.out


def test_memory_get_prints_a_files_control_sequences_as_text(capsys, workspace: Path) -> None:
    (workspace / "memory").mkdir(exist_ok=True)
    (workspace / "memory" / "2026-01-05.md").write_text("# note\n" + HOSTILE + "\n")
    assert main(["--workspace", str(workspace), "memory", "get", "memory/2026-01-05.md"]) == 0
    out = capsys.readouterr().out
    assert _no_controls(out) and "\\x1b[2J" in out and "# note\n" in out


@hsettings(max_examples=80, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=60))
def test_for_terminal_leaves_no_control_character(text: str) -> None:
    shown = for_terminal(text)
    assert _no_controls(shown)
    if _no_controls(text) and not any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        assert shown == text  # ordinary text is untouched


def _send(server, *steps) -> tuple[object, list]:
    server.push(*steps)
    seen: list = []
    settings = resolve_agent(load_config(None), workspace=str(server.ws), model="openai/fake-model", api_base=server.base_url, api_key="k-123456")
    eng = SessionEngine(settings, sink=seen.append, retry_policy=FAST)
    try:
        return asyncio.run(eng.send("hi")), seen
    finally:
        eng.close()


def _chunk(content_bytes: bytes) -> bytes:
    head = b'{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"'
    return head + content_bytes + b'"},"finish_reason":null}]}'


def test_invalid_utf8_and_a_garbage_usage_block_never_abort_a_turn(workspace: Path, server) -> None:
    server.ws = workspace
    result, _ = _send(server, {"raw_data": [_chunk(b"A\xff\xfe\xc3B")], "text": " fine", "usage_raw": {"prompt_tokens": "lots", "completion_tokens": [1]}})
    assert result.error is None and result.text == "A\ufffd\ufffd\ufffdB fine"
    assert len(server.chat_requests()) == 1  # no retry was needed


def test_a_lone_surrogate_in_a_tool_path_is_refused_and_the_turn_goes_on(workspace: Path, server) -> None:
    server.ws = workspace
    args = '{"path": "a\\udc80\\ud800.md"}'
    result, seen = _send(server, {"tool_calls": [{"name": "read", "arguments": json.loads(args)}]}, {"text": "could not read it"})
    assert result.error is None and result.text == "could not read it"
    (res,) = [e for e in seen if isinstance(e, events.ToolResult)]
    assert res.result["refused"] and "\\x80" in res.result["path"]
    sent = server.chat_requests()[-1]["messages"][-1]
    assert sent["role"] == "tool" and "refused" in sent["content"]


def test_the_sdk_decoder_is_made_lenient() -> None:
    assert install() is True  # fails loudly when an SDK update moves the decoder
    assert clean_line(b'data: {"usage": {"prompt_tokens": -1}}') == 'data: {}'
    assert clean_line(b'data: {"usage": {"prompt_tokens": 3, "completion_tokens": 1}}').startswith('data: {"usage"')
    assert clean_line(b"data: \xff") == "data: \ufffd"


def test_chat_p_json_escapes_c1_and_bidi_controls_too(capsys, workspace: Path, server) -> None:
    server.push({"text": HOSTILE})
    code = main(["--workspace", str(workspace), "--model", "openai/fake-model", "--api-base", server.base_url,
                 "--api-key", "k-123456", "chat", "-p", "hi", "--json"])
    out = capsys.readouterr().out
    assert code == 0 and _no_controls(out.rstrip("\n"))
    assert json.loads(out)["text"] == HOSTILE  # the same text, only escaped on the wire
