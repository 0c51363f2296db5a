"""Session transcripts: ``<stateDir>/agents/<agentId>/sessions/<sessionId>.jsonl``.

One JSON object per line. The first line is the header::

    {"type": "session", "version": 1, "id": ..., "timestamp": ..., "agentId": ..., "sessionKey": ...}

then entries, each with ``type`` and ``timestamp``:

- ``message``: ``{"message": {"role", "content", "tool_calls"?, "tool_call_id"?, "name"?}}``,
  optional ``"cancelled": true`` (partial answer kept) or ``"error": "..."``.
- ``context``: startup notes (today's and yesterday's daily logs) captured once.
- ``flush``: ``{"path", "linesAppended", "stored", "reason", "reply"}`` — a silent flush turn.
- ``compaction``: ``{"summary", "tokensBefore", "tokensAfter", "compactionCount", "kept"}``
  where ``kept`` is how many of the most recent history messages stayed verbatim.
- ``model``: the model changed (``{"model"}``).
- ``error``: ``{"message", "action"}`` — a turn ended by a provider error (shown again on resume).
- ``cancelled``: ``{"partial"}`` — the user cancelled the reply; the text streamed so far.
- ``pending``: ``{"message"}`` — a user prompt written before the flush/compaction that runs
  ahead of it; its ``message`` entry follows once the turn starts. If the process dies in
  between, resume restores it as a message (``"recovered": true``).

Every entry is appended, flushed and fsynced; a torn last line is skipped on read.
"""

from __future__ import annotations

import json
import os
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from openclaw_tui.redaction import redact
from openclaw_tui.unicode_clean import clean_surrogates

TRANSCRIPT_VERSION = 1


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def read_transcript(path: str | Path) -> list[dict[str, Any]]:
    """All parseable entries (header first). Torn or garbled lines are skipped, never raised."""
    out: list[dict[str, Any]] = []
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return out
    for raw in data.split(b"\n"):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            continue
        if isinstance(obj, dict):
            out.append(obj)
    return out


class TranscriptWriter:
    def __init__(self, path: Path):
        self.path = Path(path)
        self._fh: Any = None

    def _open(self) -> Any:
        if self._fh is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            # A torn last line from a crash must not glue onto the next entry.
            size = os.fstat(fd).st_size
            if size:
                with open(self.path, "rb") as fr:
                    fr.seek(size - 1)
                    if fr.read(1) != b"\n":
                        os.write(fd, b"\n")
            self._fh = os.fdopen(fd, "ab", buffering=0)
        return self._fh

    @property
    def exists(self) -> bool:
        return self.path.exists() and self.path.stat().st_size > 0

    def write_header(self, session_id: str, **fields: Any) -> None:
        self.append({"type": "session", "version": TRANSCRIPT_VERSION, "id": session_id, **fields}, stamp=True)

    def append(self, entry: dict[str, Any], *, stamp: bool = True) -> None:
        if stamp and "timestamp" not in entry:
            entry = {**entry, "timestamp": now_iso()}
        line = (redact(clean_surrogates(json.dumps(entry, ensure_ascii=False, default=str))) + "\n").encode("utf-8")
        fh = self._open()
        fh.write(line)
        fh.flush()
        os.fsync(fh.fileno())

    def close(self) -> None:
        if self._fh is not None:
            try:
                self._fh.close()
            finally:
                self._fh = None


def epoch_ms() -> int:
    return int(time.time() * 1000)
