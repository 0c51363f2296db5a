"""Decoding a provider's stream never aborts a turn.

The OpenAI SDK (under litellm) decodes each server-sent-event line as strict UTF-8 and
validates a chunk's ``usage`` block: one invalid byte in a delta, or a usage block with a
string where a count belongs, raised mid-answer, and the turn failed after its retries. At
this edge :func:`install` makes the SSE line decoder replace invalid bytes with U+FFFD and
drop a usage block that is not a mapping of non-negative integer counts (the meter then
estimates, as it does for a provider that reports none). Lone surrogates in the text are
handled where text enters the engine (``unicode_clean``).

It wraps one method of the SDK's decoder when that method exists with the expected
signature; with another SDK version it does nothing (and a test says so).
"""

from __future__ import annotations

import json
import logging
from typing import Any, Iterator

log = logging.getLogger(__name__)
_MARK = "_openclaw_lenient"


def clean_line(raw: bytes) -> str:
    """One SSE line as text: invalid UTF-8 replaced, a garbage usage block dropped."""
    line = raw.decode("utf-8", errors="replace")
    if '"usage"' in line and line.startswith("data:"):
        payload = line[5:].strip()
        try:
            obj = json.loads(payload)
        except ValueError:
            return line
        if isinstance(obj, dict) and "usage" in obj and not usage_ok(obj["usage"]):
            log.warning("the provider sent an unreadable usage block; ignoring it")
            obj.pop("usage")
            return "data: " + json.dumps(obj, ensure_ascii=False)
    return line


def usage_ok(usage: Any) -> bool:
    """None, or a mapping whose counts are non-negative integers (nested details may be mappings)."""
    if usage is None:
        return True
    if not isinstance(usage, dict):
        return False
    for key, value in usage.items():
        if isinstance(value, dict):
            if not usage_ok(value) and key.endswith("_details"):
                return False
        elif key.endswith("_tokens") and not (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
            return False
    return True


def install() -> bool:
    """Make the SDK's SSE decoder lenient; True when it is (idempotent)."""
    try:
        from openai import _streaming  # noqa: PLC0415 - litellm's dependency, loaded with it
    except ImportError:
        return False
    decoder = getattr(_streaming, "SSEDecoder", None)
    if decoder is None or not hasattr(decoder, "_decode_lines") or not hasattr(decoder, "decode"):
        return False
    if getattr(decoder._decode_lines, _MARK, False):
        return True

    def _decode_lines(self: Any, lines: Iterator[bytes]) -> Iterator[Any]:
        for raw_line in lines:
            sse = self.decode(clean_line(raw_line))
            if sse:
                yield sse

    setattr(_decode_lines, _MARK, True)
    decoder._decode_lines = _decode_lines
    return True
