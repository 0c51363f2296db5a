"""How far a llama.cpp server has read the prompt, while it reads it (issue 27).

A request with ``"return_progress": true`` (llama.cpp's server, in a streaming
``/v1/chat/completions``) gets chunks carrying ``prompt_progress`` —
``{"total", "cache", "processed", "time_ms"}`` — one when the prompt starts and one after each
batch of ``n_batch`` tokens (``server.ServerConfig.prompt_batch``). ``processed`` counts the
cached tokens too. litellm drops that field from the chunks it hands on, so ``tap_progress``
reads it from the raw stream underneath (the OpenAI SDK's chunks keep unknown fields); with
another litellm that keeps no such stream nothing is tapped and the label keeps its
estimate. Only our own managed server is asked: hosted APIs reject unknown fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class PromptProgress:
    processed: int  # tokens of the prompt read so far, the cached ones included
    total: int
    cache: int = 0  # tokens reused from the server's cache (not read again)
    time_ms: int = 0


ProgressFn = Callable[[PromptProgress], None]

#: the request fields for llama.cpp's server: progress chunks, and the prompt kept in the
#: slot's cache so the next request reads only what follows the part it shares (issue 38)
REQUEST_FIELDS = {"return_progress": True, "cache_prompt": True}


def read_progress(chunk: Any) -> PromptProgress | None:
    """The ``prompt_progress`` of one raw chunk (an SDK object or a dict), else None."""
    raw = chunk.get("prompt_progress") if isinstance(chunk, dict) else getattr(chunk, "prompt_progress", None)
    if raw is None:
        extra = getattr(chunk, "model_extra", None)
        raw = extra.get("prompt_progress") if isinstance(extra, dict) else None
    if not isinstance(raw, dict):
        return None
    try:
        total, processed = int(raw.get("total") or 0), int(raw.get("processed") or 0)
        cache, time_ms = int(raw.get("cache") or 0), int(raw.get("time_ms") or 0)
    except (TypeError, ValueError):
        return None
    if total <= 0 or processed < 0:
        return None
    return PromptProgress(min(processed, total), total, max(0, cache), max(0, time_ms))


class _Tapped:
    """An async iterator over the raw chunks that reports each progress chunk on the way."""

    def __init__(self, inner: Any, on_progress: ProgressFn | None, on_chunk: Callable[[Any], None] | None = None):
        self._inner = inner
        self._it: Any = None
        self._on_progress = on_progress
        self._on_chunk = on_chunk

    def __aiter__(self) -> "_Tapped":
        return self

    async def __anext__(self) -> Any:
        if self._it is None:
            self._it = self._inner.__aiter__()
        chunk = await self._it.__anext__()
        progress = read_progress(chunk) if self._on_progress is not None else None
        try:
            if progress is not None and self._on_progress is not None:
                self._on_progress(progress)
            if self._on_chunk is not None:
                self._on_chunk(chunk)
        except Exception:  # noqa: BLE001 - a display or measuring problem must not end the answer
            pass
        return chunk

    def __getattr__(self, name: str) -> Any:  # close(), aclose(), response … of the SDK stream
        return getattr(self._inner, name)


def tap_progress(stream: Any, on_progress: ProgressFn | None, on_chunk: Callable[[Any], None] | None = None) -> bool:
    """Report the progress chunks of litellm's ``stream`` to ``on_progress`` and hand every
    raw chunk to ``on_chunk`` (the server's ``timings``: ``llm/local/request_stats.py``);
    False when the stream keeps no raw stream to read them from."""
    inner = getattr(stream, "completion_stream", None)
    if inner is None or not hasattr(inner, "__aiter__"):
        return False
    stream.completion_stream = _Tapped(inner, on_progress, on_chunk)
    return True
