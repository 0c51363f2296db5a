"""Which tool calls printed as text are the model's own, and may run.

Text recovery (``llm/toolcall_text.py``) finds any JSON that names an offered tool. Much of
what a model prints is not its own call: it quotes a recalled note, echoes a tool result,
shows the JSON example the user asked to see. Running those would let stored memory (or
any file the model read) write to memory. A call found in the text runs only when:

- it is not written anywhere in what the model was given (system prompt with the bootstrap
  files, the user's messages, tool results, recalled notes, the engine's hints): a call that
  appears there, compared as parsed JSON, is an echo;
- it is not presented as an example (the prose right before it says so, or the user's message
  asks what a call looks like);
- with a hosted model (``strict``), it is in call tags, or nothing but a short lead-in
  precedes it and no prose follows it: a hosted model sends real calls natively.

The offline agent never has its text recovered (it acts only through native calls; its text
quotes notes). Pure functions, no I/O.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator, Sequence

from openclaw_tui.language.words import cues
from openclaw_tui.llm.toolcall_text import TextToolCall, recover_tool_calls, tool_names

# the words of each language (language/data/cues.<lang>.json): prose right before a block that
# presents it as an example, not as a call being made ("example", "por ejemplo", "zum Beispiel");
# a user message asking to see what a call looks like, and its words about calls
EXAMPLE = cues("example_lead")
ASKS_FOR_FORMAT = cues("asks_for_format")
ABOUT_CALLS = cues("about_calls")
LOOKBACK = 240  # characters of prose before a block read for example wording
MAX_LEAD_IN = 400  # hosted: prose allowed before a call printed as text
MIN_SOURCE = 12  # shorter strings cannot hold a call


@dataclass(frozen=True)
class CallContext:
    """What one model call was given, as far as deciding which printed calls are its own."""

    given: frozenset[str]  # keys (TextToolCall.key) of calls written in the model's input
    asks_for_format: bool  # the user's last message asks what a call looks like
    strict: bool  # hosted model: only tagged or stand-alone printed calls
    names: tuple[str, ...] = ()  # the watched tools


def context_for(
    messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]], *, extra: Sequence[str] = (), strict: bool = False
) -> CallContext:
    """The context of a model call: ``messages`` as sent (system prompt first), ``extra``
    text the engine added (a hint), ``tools`` the tools watched for printed calls."""
    names = tuple(sorted(tool_names(tools)))
    given: set[str] = set()
    for text in [*_texts(messages), *extra]:
        given.update(_keys_in(text, names))
    last_user: dict[str, Any] = next((m for m in reversed(messages) if m.get("role") == "user"), {})
    asking = " ".join(_strings_of(last_user.get("content")))
    asks = ASKS_FOR_FORMAT.search(asking) and (ABOUT_CALLS.search(asking) or any(n in asking for n in names))
    return CallContext(frozenset(given), asks, strict, names)


def is_own_call(ctx: CallContext, call: TextToolCall, text: str) -> bool:
    """Whether ``call`` (found in the model's answer ``text``) is the model's own and may run."""
    if call.key in ctx.given or ctx.asks_for_format:
        return False
    start, end = call.span
    before = text[max(0, start - LOOKBACK) : start]
    if EXAMPLE.search(before):
        return False
    if ctx.strict and call.kind != "tag":
        lead, after = text[:start].strip(), text[end:].strip()
        if len(lead) > MAX_LEAD_IN or _has_prose(after, ctx.names):
            return False
    return True


def _has_prose(after: str, names: tuple[str, ...]) -> bool:
    """Whether text after a block is more than further printed calls."""
    return bool(after) and bool(recover_tool_calls(after, _loose_schemas(names)).text)


def _loose_schemas(names: tuple[str, ...]) -> list[dict[str, Any]]:
    return [{"type": "function", "function": {"name": n, "parameters": {"type": "object"}}} for n in names]


# ---------------------------------------------------------------------------- sources


def _texts(messages: Sequence[dict[str, Any]]) -> Iterator[str]:
    """Every string the model was given: message text and, for JSON content (tool results),
    the strings inside it (a recalled note's snippet is a JSON string there)."""
    for m in messages:
        yield from _strings_of(m.get("content"))
        for tc in m.get("tool_calls") or []:  # a native call's arguments may hold note text
            fn = tc.get("function") if isinstance(tc, dict) else None
            if isinstance(fn, dict) and isinstance(fn.get("arguments"), str):
                yield from _strings_of(fn["arguments"])


def _strings_of(content: object) -> Iterator[str]:
    todo = [content]
    while todo:
        v = todo.pop()
        if isinstance(v, str):
            if len(v) < MIN_SOURCE:
                continue
            yield v
            stripped = v.lstrip()
            if stripped[:1] in ("{", "[") and len(v) <= 4_000_000:
                try:
                    todo.append(json.loads(v))
                except (ValueError, RecursionError):
                    pass
        elif isinstance(v, dict):
            todo.extend(v.values())
        elif isinstance(v, list):
            todo.extend(v)


@lru_cache(maxsize=512)
def _keys_in(text: str, names: tuple[str, ...]) -> frozenset[str]:
    if "{" not in text or not any(n in text for n in names):
        return frozenset()
    return frozenset(c.key for c in recover_tool_calls(text, _loose_schemas(names)).calls)
