"""``bench/local_turn.py`` counts a request's *new* tokens from what its history really holds
(issue 38): the previous reply counts as read only when the history keeps it word for word,
and never its last sampled token, which llama.cpp stops on without reading it in."""

from __future__ import annotations

from bench.local_turn import Sent, new_tokens, reply_kept
from openclaw_tui.llm.local.request_stats import RequestStats

SYSTEM = {"role": "system", "content": "fixed start"}
ASK = {"role": "user", "content": "My VPN host is vpn-east-4.acme.io."}
RAW = {"role": "assistant", "content": "Got it.\nSource: memory/2026-12-07.md#L11-L12"}


def _stats(prompt: int, generated: int) -> RequestStats:
    return RequestStats("turn", prompt, prompt, 0, 0.0, generated, 0.0, None, 0.0)


def _sent(*messages: dict[str, str], reply: dict[str, str] = RAW, finish: str | None = "stop") -> Sent:
    return Sent(list(messages), dict(reply), finish)


def test_a_reply_kept_verbatim_counts_as_read_but_its_last_sampled_token() -> None:
    prev = _sent(SYSTEM, ASK)
    cur = _sent(SYSTEM, ASK, RAW, {"role": "user", "content": "What is my VPN host?"})
    assert reply_kept(prev, cur, generated=23) == 22
    assert new_tokens(_stats(1344, 13), _stats(1200, 23), 22) == 122


def test_a_reply_the_engine_replaced_is_new_to_the_server() -> None:
    # the false citation is replaced by the acknowledgement the user saw: its words are new
    prev = _sent(SYSTEM, ASK)
    cur = _sent(SYSTEM, ASK, {"role": "assistant", "content": "Noted."}, {"role": "user", "content": "What is my VPN host?"})
    assert reply_kept(prev, cur, generated=23) == 0
    assert new_tokens(_stats(1344, 13), _stats(1200, 23), 0) == 144


def test_a_history_that_does_not_start_with_the_previous_request_has_no_new_count() -> None:
    prev = _sent(SYSTEM, ASK)
    cur = _sent({"role": "system", "content": "another start"}, ASK, RAW)
    assert reply_kept(prev, cur, generated=23) is None


def test_a_tool_call_reply_is_kept_call_for_call() -> None:
    call = {"role": "assistant", "content": "",
            "tool_calls": [{"id": "a", "type": "function", "function": {"name": "memory_search", "arguments": '{"query": "VPN"}'}}]}
    other = {**call, "tool_calls": [{"id": "a", "type": "function",
                                     "function": {"name": "memory_search", "arguments": '{"query": "host"}'}}]}
    prev = _sent(SYSTEM, ASK, reply=call, finish="tool_calls")
    assert reply_kept(prev, _sent(SYSTEM, ASK, call, {"role": "tool", "content": "[]"}), generated=20) == 19
    assert reply_kept(prev, _sent(SYSTEM, ASK, other, {"role": "tool", "content": "[]"}), generated=20) == 0


def test_without_a_kept_count_the_whole_reply_is_taken_as_read() -> None:
    assert new_tokens(_stats(1395, 20), _stats(1344, 13)) == 38
    assert new_tokens(_stats(1200, 20), _stats(1344, 13)) is None
