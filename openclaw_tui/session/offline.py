"""The offline agent: a deterministic, rule-based stand-in for an LLM (it is NOT one).

It serves when no model, provider key or local Ollama is configured, so every memory path
works on a fresh machine without a key. It sits behind the same ``complete()`` interface as
``LiteLLMModel`` and acts only through tool calls, so flush, compaction, tools and events
are the real code paths:

- a question → ``memory_search``; then it quotes the best snippet with its source;
- a request to remember → ``append`` of its facts to ``memory/<today>.md``;
- the flush prompt → ``append`` of the user-stated facts not yet stored, or ``NO_REPLY``;
- a compaction request → an extractive checkpoint (no invented text).

What a message is, and which facts it states, is the language package's one reading of it
(:func:`openclaw_tui.language.read_message`), in any language with a table; a message asking
not to keep something is never stored.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from openclaw_tui.language import Intent, MessageReading, read_message
from openclaw_tui.language.stopwords import ALL as STOPWORDS
from openclaw_tui.llm.client import Completion, DeltaFn, ToolCall
from openclaw_tui.llm.messages import ChatMessage
from openclaw_tui.session.compaction import extractive_summary
from openclaw_tui.session.quote import best_lines, quote_lines
from openclaw_tui.workspace.daily import daily_rel

LABEL = "offline agent (rule-based, not an LLM)"
#: the best hits of one file read together, when they lie within this many lines
NOTES_READ = 3
SPAN_READ = 40
_DAILY_RE = re.compile(r"memory/\d{4}-\d{2}-\d{2}\.md")
_WORD_RE = re.compile(r"[\w'-]+")


def _text(msg: Mapping[str, Any]) -> str:
    c = msg.get("content")
    return c if isinstance(c, str) else ""


def is_question(text: str) -> bool:
    """Whether the message asks something (the one reading's ``asks``)."""
    return read_message(text).asks


def search_query(reading: MessageReading) -> str:
    """What to search for a question: its lookup words without the stopwords of any language."""
    text = reading.query or reading.text
    kept = [w for w in _WORD_RE.findall(text.lower()) if w not in STOPWORDS and len(w) > 1]
    return " ".join(kept) or text.strip()


def _is_command(text: str) -> bool:
    return not text or text.startswith("/") or bool(_DAILY_RE.search(text)) and "NO_REPLY" in text


def user_readings(messages: Sequence[Mapping[str, Any]]) -> list[MessageReading]:
    """The reading of each user message (commands and flush prompts left out), each read
    with the user's message before it."""
    out: list[MessageReading] = []
    previous: str | None = None
    for m in messages:
        if m.get("role") != "user":
            continue
        text = _text(m).strip()
        if _is_command(text):
            continue
        out.append(read_message(text, previous=previous))
        previous = text
    return out


def stated_facts(messages: Sequence[Mapping[str, Any]]) -> list[str]:
    """The facts the user stated or asked to keep, in their words (the readings' ``facts``;
    nothing of a message asking not to keep it)."""
    out: list[str] = []
    for reading in user_readings(messages):
        if not reading.keeps:
            continue
        for fact in reading.facts:
            s = fact.strip().rstrip(".").strip()
            if s and s not in out:
                out.append(s)
    return out


def _stream(text: str, on_delta: DeltaFn) -> None:
    for piece in re.findall(r"\S+\s*|\s+", text):
        on_delta(piece)


def call_id(prefix: str = "call") -> str:
    """A unique tool-call id of fixed token length: ten random digits (tokenizers split digits
    into groups of three, so every id costs the same tokens and the meter's estimate of a
    replayed session never wobbles by one with the id's letters)."""
    return f"{prefix}_{uuid.uuid4().int % 10**10:010d}"


class OfflineModel:
    is_offline = True
    model = "offline"
    provider = "offline"
    label = LABEL

    def __init__(self, *, memory_on: bool = True) -> None:
        self._stored: set[str] = set()  # facts this agent already wrote in this session
        self.memory_on = memory_on  # False: plugins.slots.memory is none, so no note is stored

    def _call(self, name: str, args: dict[str, Any]) -> Completion:
        return Completion(tool_calls=[ToolCall(call_id(), name, json.dumps(args))], finish_reason="tool_calls")

    def _answer(self, text: str, on_delta: DeltaFn) -> Completion:
        _stream(text, on_delta)
        return Completion(text=text, finish_reason="stop")

    async def complete(
        self, messages: list[ChatMessage], tools: list[dict[str, Any]] | None, *, on_delta: DeltaFn, purpose: str = "turn"
    ) -> Completion:
        tool_names = {t["function"]["name"] for t in tools or []}
        if purpose == "compaction":
            rendered = _text(messages[-1]) if messages else ""
            instr = None
            if "Extra instructions from the user:" in rendered:
                rendered, instr = rendered.rsplit("Extra instructions from the user:", 1)
            return Completion(text=extractive_summary(rendered, instr), finish_reason="stop")
        last: Mapping[str, Any] = messages[-1] if messages else {}
        if purpose == "flush":
            return self._flush(messages, last, tool_names)
        if last.get("role") == "tool":
            return self._after_tool(messages, last, on_delta, tool_names)
        previous = next((_text(m) for m in reversed(messages[:-1]) if m.get("role") == "user"), None)
        return self._turn(read_message(_text(last), previous=previous), tool_names, on_delta)

    # ------------------------------------------------------------------ flush

    def _flush(self, messages: Sequence[Mapping[str, Any]], last: Mapping[str, Any], tool_names: set[str]) -> Completion:
        """read today's log (to skip what is already there) → append new facts → NO_REPLY."""
        prompt_i = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=len(messages) - 1)
        m = _DAILY_RE.search(_text(messages[prompt_i])) if messages else None
        target = m.group(0) if m else daily_rel()
        if last.get("role") == "tool":
            if last.get("name") != "read":
                return Completion(text="NO_REPLY", finish_reason="stop")
            try:
                existing = str(json.loads(_text(last)).get("text") or "")
            except (ValueError, AttributeError):
                existing = ""
            return self._append_facts(messages[:prompt_i], target, existing, tool_names)
        if "read" in tool_names and "append" in tool_names:
            return self._call("read", {"path": target})
        return self._append_facts(messages[:prompt_i], target, "", tool_names)

    def _append_facts(self, convo: Sequence[Mapping[str, Any]], target: str, existing: str, tool_names: set[str]) -> Completion:
        have = existing.casefold()
        facts = [f for f in stated_facts(convo) if f not in self._stored and f.casefold() not in have]
        if not facts or "append" not in tool_names:
            return Completion(text="NO_REPLY", finish_reason="stop")
        self._stored.update(facts)
        body = "\n".join(f"- {f}" for f in facts)
        return self._call("append", {"path": target, "content": body})

    # ------------------------------------------------------------------ turns

    def _turn(self, reading: MessageReading, tool_names: set[str], on_delta: DeltaFn) -> Completion:
        if reading.intent is Intent.REMEMBER and reading.keeps:
            if not self.memory_on:
                return self._answer("Not stored: memory is off for this agent (plugins.slots.memory is none).", on_delta)
            if "append" not in tool_names:
                return self._answer("I can't store that: workspace access is off in this session.", on_delta)
            self._stored.update(f.rstrip(".").strip() for f in reading.facts)
            return self._call("append", {"path": daily_rel(), "content": "\n".join(f"- {f}" for f in reading.facts)})
        if reading.intent is Intent.DO_NOT_KEEP:
            return self._answer("Not kept. (Offline agent: rule-based, not an LLM.)", on_delta)
        if reading.asks:
            if "memory_search" not in tool_names:
                return self._answer(
                    "I'm the offline agent (rule-based, not an LLM) and memory search is off in this session, so I can't look that up.",
                    on_delta,
                )
            return self._call("memory_search", {"query": search_query(reading), "minScore": 0.01})
        return self._answer(
            "Noted. (Offline agent: rule-based, not an LLM.)",
            on_delta,
        )

    @staticmethod
    def _last_call_args(messages: Sequence[Mapping[str, Any]], name: str | None = None) -> dict[str, Any]:
        for m in reversed(messages):
            for tc in reversed(m.get("tool_calls") or []) if m.get("role") == "assistant" else []:
                fn = tc.get("function") or {}
                if name is None or fn.get("name") == name:
                    try:
                        args = json.loads(fn.get("arguments") or "{}")
                    except (ValueError, RecursionError):
                        return {}
                    return args if isinstance(args, dict) else {}
        return {}

    def _last_query(self, messages: Sequence[Mapping[str, Any]]) -> str:
        return str(self._last_call_args(messages, "memory_search").get("query", ""))

    def _quote(self, text: str, path: str, start_line: int | str | None, query: str, on_delta: DeltaFn) -> Completion:
        return self._answer(quote_lines(text, path, start_line, query, lead="From memory:"), on_delta)

    def _after_tool(self, messages: Sequence[Mapping[str, Any]], last: Mapping[str, Any], on_delta: DeltaFn, tool_names: set[str] | None = None) -> Completion:
        tool_names = tool_names or set()
        name = last.get("name") or ""
        try:
            result = json.loads(_text(last))
        except ValueError:
            result = {"error": _text(last)}
        if not isinstance(result, dict):
            result = {}
        if name == "append":
            if result.get("error"):
                return self._answer(f"I could not save that: {result['error']}", on_delta)
            return self._answer(f"Saved to {result.get('path')}.", on_delta)
        if name == "memory_search":
            hits = result.get("results") or []
            if result.get("error") and not hits:
                return self._answer(f"Memory search is unavailable: {result['error']}", on_delta)
            if not hits:
                return self._answer("I searched memory and found nothing about that.", on_delta)
            best = hits[0]
            if "memory_get" in tool_names and best.get("startLine"):
                # a day's notes are hits of their own: read the best ones of its file together
                # ("I am planning the Lisbon offsite." and "My budget is 12000 euros." answer one question)
                same = [h for h in hits[:NOTES_READ] if h.get("path") == best.get("path") and h.get("startLine")]
                start = min(int(h.get("startLine") or 1) for h in same)
                end = max(int(h.get("endLine") or h.get("startLine") or 1) for h in same)
                if end - start >= SPAN_READ:
                    start, end = int(best.get("startLine") or 1), int(best.get("endLine") or best.get("startLine") or 1)
                return self._call("memory_get", {"path": best.get("path"), "from": start, "lines": max(1, end - start + 1)})
            return self._quote(str(best.get("snippet", "")), best.get("path"), best.get("startLine"), self._last_query(messages), on_delta)
        if name == "memory_get":
            call = self._last_call_args(messages)
            text = str(result.get("text") or "")
            if result.get("error") or not text.strip():
                return self._answer(f"I found a match but could not read it: {result.get('error') or 'empty'}", on_delta)
            return self._quote(text, str(call.get("path")), call.get("from", 1), self._last_query(messages), on_delta)
        if result.get("error"):
            return self._answer(f"The {name} tool failed: {result['error']}", on_delta)
        return self._answer("Done.", on_delta)
