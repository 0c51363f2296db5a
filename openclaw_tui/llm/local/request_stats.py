"""What each request to the managed llama.cpp server cost (issue 38): prompt tokens in all,
read now and reused from the server's cache, generated tokens, the server's own times, and
the wall-clock time to the first streamed piece and to the whole reply.

llama.cpp's streamed chat completion ends with a chunk carrying ``timings``
(``prompt_n`` tokens read, ``cache_n`` reused, ``prompt_ms``, ``predicted_n``,
``predicted_ms``); ``read_timings`` takes them from a raw chunk. ``LocalModel`` keeps the
last requests in ``requests`` and, when ``OPENCLAW_LOCAL_REQUEST_LOG`` names a file, appends
one JSON line per request to it (owner-only), so a headless run (``chat -p``) can be
measured from outside (``bench/local_turn.py``).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

REQUEST_LOG_ENV = "OPENCLAW_LOCAL_REQUEST_LOG"


@dataclass(frozen=True)
class ServerTimings:
    """The ``timings`` block of one llama.cpp answer."""

    processed: int  # prompt tokens read for this request (prompt_n)
    reused: int  # prompt tokens taken from the slot's cache (cache_n)
    prompt_ms: float
    generated: int  # predicted_n
    gen_ms: float


@dataclass(frozen=True)
class RequestStats:
    purpose: str  # turn | flush | compaction | …, as the caller named the request
    prompt_tokens: int  # the whole prompt: processed + reused
    processed: int
    reused: int
    prompt_ms: float
    generated: int
    gen_ms: float
    first_piece_s: float | None  # request sent → first streamed piece (None: nothing streamed as text)
    total_s: float  # request sent → stream ended
    at: float = 0.0  # time.time() when the request was sent

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def read_timings(chunk: Any) -> ServerTimings | None:
    """The ``timings`` of one raw chunk (an SDK object or a dict), else None."""
    raw = chunk.get("timings") if isinstance(chunk, dict) else getattr(chunk, "timings", None)
    if raw is None:
        extra = getattr(chunk, "model_extra", None)
        raw = extra.get("timings") if isinstance(extra, dict) else None
    if not isinstance(raw, dict):
        return None
    try:
        return ServerTimings(int(raw.get("prompt_n") or 0), int(raw.get("cache_n") or 0), float(raw.get("prompt_ms") or 0.0),
                             int(raw.get("predicted_n") or 0), float(raw.get("predicted_ms") or 0.0))
    except (TypeError, ValueError):
        return None


def append_log(stats: RequestStats, path: str | os.PathLike[str] | None = None) -> None:
    """One JSON line for ``stats`` in ``path`` (or ``OPENCLAW_LOCAL_REQUEST_LOG``); nothing
    when neither names a file. The file is created readable by its owner only."""
    target = path or os.environ.get(REQUEST_LOG_ENV, "").strip()
    if not target:
        return
    p = Path(target)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(p, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(stats.to_dict()) + "\n")
    except OSError:
        pass  # a measurement aid must never fail a turn


def read_log(path: str | os.PathLike[str]) -> list[RequestStats]:
    """The requests a log holds (lines that do not parse are skipped)."""
    out: list[RequestStats] = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError:
        return out
    for line in lines:
        try:
            out.append(RequestStats(**json.loads(line)))
        except (ValueError, TypeError):
            continue
    return out
