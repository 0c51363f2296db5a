"""Fault matrix, chat provider rows: each failure reaches the user as one clear line, and
nothing is lost — the prompt is in the transcript, earlier turns and the daily log are
intact, and the next turn in the same session carries the whole conversation.

Each test drives the real CLI (``openclaw-tui chat -p``) in-process against a real
loopback SSE server; litellm makes real HTTP calls.
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from openclaw_tui.cli import main
from openclaw_tui.workspace.daily import daily_rel
from tests.fakes.chat_server import ChatServer
from tests.faults.conftest import SENTINEL, messages, transcript_entries

SESSION = "fault-session"


class EmptyChoicesServer(ChatServer):
    """The scripted server plus one step: ``{"empty_choices": True}`` streams chunks whose
    ``choices`` list is empty (no text, no tool calls, no finish reason)."""

    def _answer(self, h: Any, req: dict[str, Any], step: dict[str, Any]) -> None:
        if not step.get("empty_choices"):
            return super()._answer(h, req, step)
        h.send_response(200)
        h.send_header("Content-Type", "text/event-stream")
        h.send_header("Connection", "close")
        h.end_headers()
        h.close_connection = True
        for _ in range(2):
            chunk = {"id": "chatcmpl-empty", "object": "chat.completion.chunk", "created": int(time.time()), "model": "fake-model", "choices": []}
            h.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        h.wfile.write(b"data: [DONE]\n\n")
        h.wfile.flush()


def chat(capsys: pytest.CaptureFixture[str], ws: Path, base_url: str, prompt: str) -> tuple[int, str, str]:
    rc = main([
        "--workspace", str(ws), "--model", "openai/fake-model", "--api-base", base_url, "--api-key", SENTINEL,
        "chat", "-p", prompt, "--session", SESSION,
    ])
    out, err = capsys.readouterr()
    return rc, out, err


def provider_lines(err: str) -> list[str]:
    return [ln for ln in err.splitlines() if ln.startswith("openclaw-tui: provider error:")]


def check_fault(
    capsys: pytest.CaptureFixture[str],
    workspace: Path,
    state_dir: Path,
    server: ChatServer,
    steps: list[dict[str, Any]],
    fragment: str,
    *,
    base_url: str | None = None,
    expect_retries: int | None = None,
) -> str:
    """One good turn, one faulty turn (``steps``), one good turn. Returns the fault's stderr."""
    daily = workspace / daily_rel()
    daily.write_text("- decided: the logo is teal\n", encoding="utf-8")
    before = daily.read_bytes()

    server.push({"text": "first answer"})
    rc, out, err = chat(capsys, workspace, server.base_url, "first question")
    assert rc == 0, err
    assert "first answer" in out

    n_before = len(server.chat_requests())
    server.push(*steps)
    rc, out, err = chat(capsys, workspace, base_url or server.base_url, "second question about the logo")
    # the user sees exactly one clear line naming the problem, no traceback, no key
    assert rc == 1
    lines = provider_lines(err)
    assert len(lines) == 1, err
    assert fragment in lines[0], lines[0]
    assert "Traceback" not in err and "Traceback" not in out
    assert SENTINEL not in err + out
    if expect_retries is not None:
        assert err.count("openclaw-tui: retry ") == expect_retries, err
        assert len(server.chat_requests()) - n_before == expect_retries + 1

    # nothing lost: the prompt is in the transcript, the daily log is untouched
    entries = transcript_entries(state_dir, SESSION)
    users = [m["content"] for m in messages(entries) if m["role"] == "user"]
    assert users == ["first question", "second question about the logo"]
    assert daily.read_bytes() == before

    # the same session goes on and the model sees the whole conversation
    server.push({"text": "third answer"})
    rc, out, err3 = chat(capsys, workspace, server.base_url, "third question")
    assert rc == 0, err3
    assert "third answer" in out
    sent = server.chat_requests()[-1]["messages"]
    sent_users = [m["content"] for m in sent if m["role"] == "user"]
    assert sent_users == ["first question", "second question about the logo", "third question"]
    text = (state_dir / "agents" / "main" / "sessions" / f"{SESSION}.jsonl").read_text()
    assert SENTINEL not in text
    return err


def test_401_fails_at_once_naming_provider(capsys, workspace, state_dir, server) -> None:
    err = check_fault(capsys, workspace, state_dir, server, [{"error": 401}], "rejected the API key (401)", expect_retries=0)
    assert "check the key" in err


def test_403_fails_at_once_naming_provider(capsys, workspace, state_dir, server) -> None:
    step = {"error": 403, "message": "You do not have access to this model"}
    err = check_fault(capsys, workspace, state_dir, server, [step], "refused access to this model (403)", expect_retries=0)
    assert "permission" in err


def test_429_retry_after_is_honoured_then_reported(capsys, workspace, state_dir, server) -> None:
    steps = [{"error": 429, "headers": {"retry-after": "1"}}] * 3
    err = check_fault(capsys, workspace, state_dir, server, steps, "rate limit reached (429)", expect_retries=2)
    assert "server asked to wait 1s" in err


def test_429_then_success_answers_normally(capsys, workspace, state_dir, server) -> None:
    server.push({"error": 429, "headers": {"retry-after": "0"}}, {"text": "after the wait"})
    rc, out, err = chat(capsys, workspace, server.base_url, "hello")
    assert rc == 0 and "after the wait" in out
    assert "retry 1" in err and "429" in err


def test_500_is_retried_then_reported(capsys, workspace, state_dir, server) -> None:
    check_fault(capsys, workspace, state_dir, server, [{"error": 500}] * 3, "internal error (5xx)", expect_retries=2)


def test_503_is_retried_then_reported(capsys, workspace, state_dir, server) -> None:
    steps = [{"error": 503, "message": "overloaded"}] * 3
    check_fault(capsys, workspace, state_dir, server, steps, "unavailable (503)", expect_retries=2)


def test_connection_refused(capsys, workspace, state_dir, server) -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    check_fault(capsys, workspace, state_dir, server, [], "cannot reach openai", base_url=f"http://127.0.0.1:{port}/v1")


def test_timeout_mid_stream_keeps_the_partial_answer(capsys, workspace, state_dir, server, monkeypatch) -> None:
    monkeypatch.setenv("OPENCLAW_LLM_TIMEOUT_S", "3")
    step = {"text": "the logo decision was teal and then the stream stalls forever", "stall_after": 2, "stall_s": 10}
    err = check_fault(capsys, workspace, state_dir, server, [step], "timed out")
    entries = transcript_entries(state_dir, SESSION)
    partial = [m for m in messages(entries) if m["role"] == "assistant" and m["content"].startswith("the logo")]
    assert partial and partial[0]["content"] == "the logo decision was teal and then the stream stalls forever"[:16]
    assert "retry" not in err  # text had reached the user: never shown twice


def test_malformed_sse(capsys, workspace, state_dir, server) -> None:
    check_fault(capsys, workspace, state_dir, server, [{"malformed": True}] * 3, "stream broke off", expect_retries=2)


def test_empty_choices(capsys, workspace, state_dir) -> None:
    with EmptyChoicesServer() as srv:
        check_fault(capsys, workspace, state_dir, srv, [{"empty_choices": True}] * 3, "stream broke off", expect_retries=2)
