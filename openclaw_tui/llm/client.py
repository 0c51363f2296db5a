"""Streaming chat completions behind one small interface.

``ChatModel.complete(messages, tools, on_delta=..., purpose=...)`` returns a ``Completion``
(text, tool calls, usage). ``LiteLLMModel`` streams through ``litellm.acompletion``;
the offline agent (``openclaw_tui.session.offline``) implements the same interface, so the
turn loop, flush, compaction and tool code are shared. ``complete_with_retries`` adds the
retry policy of the error table.
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Awaitable, Callable, Mapping, Protocol

from openclaw_tui.llm.errors import LLMError, LLMErrorInfo, RetryPolicy, classify
from openclaw_tui.llm.messages import ChatMessage
from openclaw_tui.llm.prompt_progress import REQUEST_FIELDS, ProgressFn, tap_progress
from openclaw_tui.llm.resolve import ModelChoice
from openclaw_tui.unicode_clean import clean_surrogates

DeltaFn = Callable[[str], None]


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: str  # raw JSON text as the model sent it
    invalid: str | None = None  # recovered from text with arguments that break the schema: not run
    recovered: bool = False  # printed as text by the model (llm/toolcall_text.py), not sent as a call

    def parsed(self) -> tuple[dict[str, Any] | None, str | None]:
        raw = self.arguments.strip() or "{}"
        try:
            val = json.loads(raw)
        except json.JSONDecodeError as exc:
            return None, f"arguments are not valid JSON ({exc.msg})"
        except RecursionError:  # a model (or a hostile endpoint) can nest without end
            return None, "arguments are nested too deeply to be a tool call"
        if not isinstance(val, dict):
            return None, "arguments must be a JSON object"
        return val, None

    def to_message(self) -> dict[str, Any]:
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.arguments}}


@dataclass
class Completion:
    text: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: dict[str, int] | None = None  # prompt_tokens / completion_tokens when reported
    finish_reason: str | None = None

    def assistant_message(self) -> ChatMessage:
        msg: ChatMessage = {"role": "assistant", "content": self.text}
        if self.tool_calls:
            msg["tool_calls"] = [tc.to_message() for tc in self.tool_calls]
        return msg


class ChatModel(Protocol):
    """What the session needs of a chat model. The four names are read-only here: a model
    may keep them as attributes or compute them (``LocalModel`` falls back to the offline
    agent when its runtime cannot start, and says so through ``label``/``is_offline``)."""

    @property
    def model(self) -> str: ...

    @property
    def provider(self) -> str: ...

    @property
    def label(self) -> str: ...

    @property
    def is_offline(self) -> bool: ...

    async def complete(
        self, messages: list[ChatMessage], tools: list[dict[str, Any]] | None, *, on_delta: DeltaFn, purpose: str = "turn"
    ) -> Completion: ...


class StreamStarted(Exception):
    """Internal marker: the failure happened after text reached the user (no retry)."""


#: one answer (text plus tool-call arguments) may not stream more than this many characters
MAX_RESPONSE_CHARS = 1_000_000


class CallCapped(TimeoutError):
    """A model call ran past ``timeoutSeconds`` or streamed more than the size cap. The
    engine keeps the text already shown; the message says which cap ended the turn."""


async def _capped(stream: Any, deadline: float | None, seconds: float | None) -> Any:
    """The stream's chunks, ending with ``CallCapped`` once the deadline passes (the
    per-read timeout alone lets a provider that keeps sending chunks run forever)."""
    it = stream.__aiter__()
    loop = asyncio.get_running_loop()
    while True:
        left = None if deadline is None else deadline - loop.time()
        if left is not None and left <= 0:
            raise CallCapped(f"the model call ran past timeoutSeconds ({seconds:g} s); the answer so far is kept")
        try:
            chunk = await asyncio.wait_for(it.__anext__(), left) if left is not None else await it.__anext__()
        except StopAsyncIteration:
            return
        except asyncio.TimeoutError:
            raise CallCapped(f"the model call ran past timeoutSeconds ({seconds:g} s); the answer so far is kept") from None
        yield chunk


DEFAULT_CALL_CAP_S = 600.0  # one whole streamed answer, when agents.defaults.timeoutSeconds is unset


def default_call_cap_s() -> float:
    """The total time cap of one model call by default (``OPENCLAW_LLM_CALL_CAP_S`` overrides;
    a provider that keeps streaming distinct chunks must not keep ``chat -p`` running forever)."""
    raw = os.environ.get("OPENCLAW_LLM_CALL_CAP_S", "")
    try:
        value = float(raw) if raw else DEFAULT_CALL_CAP_S
    except ValueError:
        value = DEFAULT_CALL_CAP_S
    return value if value > 0 else DEFAULT_CALL_CAP_S


class LiteLLMModel:
    is_offline = False
    #: set (by ``LocalModel``) for our own llama.cpp server: ask it for prompt progress
    on_progress: ProgressFn | None = None
    #: set (by ``LocalModel``) to read each raw chunk (llama.cpp's ``timings``)
    on_chunk: Callable[[Any], None] | None = None
    #: set (by ``LocalModel``): a lower cap on the answer for some purposes ({"compaction": 512})
    answer_caps: Mapping[str, int] = MappingProxyType({})

    def __init__(self, choice: ModelChoice, *, timeout_s: float | None = None, call_cap_s: float | None = None,
                 max_response_chars: int = MAX_RESPONSE_CHARS):
        self.choice = choice
        self.call_cap_s = call_cap_s if call_cap_s is not None else default_call_cap_s()
        self.max_response_chars = max_response_chars
        self.model = choice.model
        self.provider = choice.provider
        self.label = choice.label
        env_timeout = os.environ.get("OPENCLAW_LLM_TIMEOUT_S")
        self.timeout_s = timeout_s if timeout_s is not None else float(env_timeout) if env_timeout else 120.0

    @property
    def secrets(self) -> tuple[str, ...]:
        vals = [self.choice.api_key or ""] + list(self.choice.headers.values())
        return tuple(v for v in vals if v)

    def _choice_options(self, purpose: str = "turn") -> dict[str, Any]:
        """The request fields the model choice sets: endpoint, key, headers, sampling; the answer
        cap, lowered for ``purpose`` when ``answer_caps`` has one."""
        c = self.choice
        cap = self.answer_caps.get(purpose)
        max_tokens = min(c.max_tokens or cap, cap) if cap else c.max_tokens
        opts = {"api_base": c.api_base, "api_key": c.api_key, "extra_headers": dict(c.headers) if c.headers else None, "temperature": c.temperature,
                "max_tokens": max_tokens}
        return {k: v for k, v in opts.items() if v is not None and v != ""}

    async def complete(
        self, messages: list[ChatMessage], tools: list[dict[str, Any]] | None, *, on_delta: DeltaFn, purpose: str = "turn"
    ) -> Completion:
        from openclaw_tui._offline import import_litellm

        litellm = await asyncio.to_thread(import_litellm)
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "stream": True,
            "stream_options": {"include_usage": True},
            "timeout": self.timeout_s,
            "max_retries": 0,  # our retry policy, not the SDK's
        }
        if tools:
            kwargs["tools"] = tools
        kwargs.update(self._choice_options(purpose))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.call_cap_s if self.call_cap_s else None
        if deadline is not None:  # the HTTP timeout bounds the connection; _capped bounds the stream
            kwargs["timeout"] = min(self.timeout_s, self.call_cap_s or self.timeout_s)
        if self.on_progress is not None or self.on_chunk is not None:  # our own llama.cpp server only
            kwargs["extra_body"] = dict(REQUEST_FIELDS)
        stream = await litellm.acompletion(**kwargs)
        if self.on_progress is not None or self.on_chunk is not None:
            tap_progress(stream, self.on_progress, self.on_chunk)
        out = Completion()
        text_parts: list[str] = []
        calls: dict[int, dict[str, str]] = {}
        size = 0
        async for chunk in _capped(stream, deadline, self.call_cap_s):
            usage = getattr(chunk, "usage", None)
            if usage is not None and getattr(usage, "prompt_tokens", None) is not None:
                out.usage = {
                    "prompt_tokens": int(usage.prompt_tokens or 0),
                    "completion_tokens": int(getattr(usage, "completion_tokens", 0) or 0),
                }
            choices = getattr(chunk, "choices", None) or []
            if not choices:
                continue
            choice = choices[0]
            if getattr(choice, "finish_reason", None):
                out.finish_reason = choice.finish_reason
            delta = getattr(choice, "delta", None)
            if delta is None:
                continue
            piece = getattr(delta, "content", None)
            if piece:
                piece = clean_surrogates(piece)
                size += len(piece)
                text_parts.append(piece)
                on_delta(piece)
            for tc in getattr(delta, "tool_calls", None) or []:
                idx = getattr(tc, "index", None)
                idx = len(calls) if idx is None else int(idx)
                slot = calls.setdefault(idx, {"id": "", "name": "", "arguments": ""})
                if getattr(tc, "id", None):
                    slot["id"] = tc.id
                fn = getattr(tc, "function", None)
                if fn is not None:
                    if getattr(fn, "name", None):
                        slot["name"] = fn.name
                    if getattr(fn, "arguments", None):
                        slot["arguments"] += clean_surrogates(fn.arguments)
                        size += len(fn.arguments)
            if size > self.max_response_chars:
                raise CallCapped(
                    f"the answer passed the size cap ({self.max_response_chars:,} characters); the text so far is kept"
                )
        if out.usage is not None and not _provider_sent_usage(stream):
            # litellm fills in a usage block of its own when the provider sent none; that is
            # an estimate, and the meter must say so (the engine then uses its own counts).
            out.usage = None
        out.text = "".join(text_parts)
        for i, idx in enumerate(sorted(calls)):
            slot = calls[idx]
            if slot["name"]:
                out.tool_calls.append(ToolCall(slot["id"] or f"call_{i}", slot["name"], slot["arguments"]))
        return out


def _provider_sent_usage(stream: Any) -> bool:
    """Whether the provider itself reported usage in this stream. litellm keeps the raw
    chunks on its stream wrapper; when that attribute is missing (another litellm version)
    the usage is trusted as before."""
    chunks = getattr(stream, "chunks", None)
    if not isinstance(chunks, list):
        return True
    return any(getattr(c, "usage", None) is not None for c in chunks)


async def complete_with_retries(
    model: ChatModel,
    messages: list[ChatMessage],
    tools: list[dict[str, Any]] | None,
    *,
    on_delta: DeltaFn,
    purpose: str = "turn",
    policy: RetryPolicy | None = None,
    on_retry: Callable[[LLMErrorInfo, int, float], None] | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> Completion:
    """Call ``model.complete`` with the error table's retry rules; raise ``LLMError`` at the end.

    A failure after text was streamed to the user is not retried (the user would see the
    answer twice); the partial text is lost to the caller only if it does not keep it itself.
    """
    policy = policy or RetryPolicy.from_env()
    secrets = tuple(getattr(model, "secrets", ()) or ())
    attempt = 0
    while True:
        attempt += 1
        streamed = False

        def delta(piece: str) -> None:
            nonlocal streamed
            streamed = True
            on_delta(piece)

        try:
            return await model.complete(messages, tools, on_delta=delta, purpose=purpose)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - classified below
            info = classify(exc, provider=model.provider, secrets=secrets, endpoint=_endpoint(model))
            if streamed or not policy.retries(info.retryable, attempt):
                raise LLMError(info) from None
            wait = policy.delay(attempt, info.retry_after_s)
            if on_retry is not None:
                on_retry(info, attempt, wait)
            await sleep(wait)


def _endpoint(model: Any) -> str | None:
    """The model's --api-base / baseUrl for an error line, any credentials in it masked."""
    from openclaw_tui.config.loader import mask_url  # noqa: PLC0415

    base = getattr(getattr(model, "choice", None), "api_base", None)
    return mask_url(str(base)) if base else None
