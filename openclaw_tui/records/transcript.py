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

What is text (one rule for every reader: the session memory source, the QMD export):
the user and assistant messages, their text content parts joined and whitespace
collapsed. Silent: everything else — the header, tool calls and results, context, flush,
compaction, model, error, cancelled and pending entries — and an assistant reply that is
``NO_REPLY`` (never shown, DESIGN §6). A message entry holds its message under
``"message"``; the flat form (``role``/``content`` on the entry itself) reads the same.
"""

from __future__ import annotations

import json
import os
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from openclaw_tui.language import Intent, read_message
from openclaw_tui.language.secrets import redact_for_disk
from openclaw_tui.owner_only import private_dir
from openclaw_tui.redaction import redact
from openclaw_tui.records.no_reply import is_no_reply
from openclaw_tui.unicode_clean import clean_surrogates

TRANSCRIPT_VERSION = 1
ROLE_LABEL = {"user": "User", "assistant": "Assistant"}
_TEXT_PARTS = ("text", "output_text", "input_text")


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def usage_entry(model: str, usage: dict[str, int]) -> dict[str, Any]:
    """A ``usage`` entry: what ``model`` reported for the prompt and answer just written."""
    return {"type": "usage", "model": model, "promptTokens": int(usage.get("prompt_tokens", 0)),
            "completionTokens": int(usage.get("completion_tokens", 0))}


def read_transcript(path: str | Path) -> list[dict[str, Any]]:
    """All parseable entries (header first). Torn or garbled lines are skipped, never raised."""
    out: list[dict[str, Any]] = []
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return out
    for raw in data.split(b"\n"):
        obj = parse_line(raw) if raw.strip() else None
        if obj is not None:
            out.append(obj)
    return out


def entry_message(entry: Any) -> dict[str, Any] | None:
    """The message a ``message`` entry holds (nested or flat form), else None."""
    if not isinstance(entry, dict) or entry.get("type") not in (None, "message"):
        return None
    msg = entry.get("message", entry)
    return msg if isinstance(msg, dict) and "role" in msg else None


def content_text(content: Any) -> str:
    """The text of a message's content: a string, or its text parts joined by spaces."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):  # None for an assistant turn holding only tool calls
        return ""
    parts = []
    for part in content:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict) and part.get("type", "text") in _TEXT_PARTS and isinstance(part.get("text"), str):
            parts.append(part["text"])
    return " ".join(p for p in parts if p)


def spoken(entry: Any) -> tuple[str, str] | None:
    """(role, text) when ``entry`` is a user or assistant message with text to show, index or
    export (whitespace collapsed to single spaces); None for every silent entry."""
    msg = entry_message(entry)
    if msg is None:
        return None
    role = str(msg.get("role") or "").lower()
    if role not in ROLE_LABEL:
        return None
    text = " ".join(content_text(msg.get("content", msg.get("text"))).split())
    if not text or (role == "assistant" and is_no_reply(text)):
        return None
    return role, text


def searchable(said: tuple[str, str]) -> tuple[str, str]:
    """A spoken message as a memory source may hold it (the session sources index and export
    transcripts): secrets become markers as in every memory file, and a user message that asked
    not to be kept ("… don't write that down", in any language the reader knows) is left out."""
    role, text = said
    if role == "user" and read_message(text).intent is Intent.DO_NOT_KEEP:
        return role, NOT_KEPT_MARK
    return role, redact_for_disk(text).text


#: what a session source holds in place of a message the user asked not to keep
NOT_KEPT_MARK = "[not kept: asked not to keep]"


def spoken_line(entry: Any) -> str:
    """``User: …`` / ``Assistant: …`` for a spoken entry as a memory source indexes it (see
    ``searchable``), "" for a silent one."""
    said = spoken(entry)
    if not said:
        return ""
    role, text = searchable(said)
    return f"{ROLE_LABEL[role]}: {text}"


def parse_line(raw: bytes) -> dict[str, Any] | None:
    """One JSONL line as an entry; None for a torn, garbled or non-object line."""
    try:
        obj = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return obj if isinstance(obj, dict) else None


def _withheld(value: Any) -> Any:
    """``value`` with every text in it as it may be written to disk (secrets as markers)."""
    if isinstance(value, str):
        return redact_for_disk(value).text
    if isinstance(value, list):
        return [_withheld(v) for v in value]
    if isinstance(value, dict):
        return {k: (_withheld(v) if k in ("content", "text", "arguments", "function") or isinstance(v, (list, dict)) else v)
                for k, v in value.items()}
    return value


def withheld_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A message entry with the secrets of its texts withheld, as in every memory file ("Please
    don't write this down: my PIN is 4821." kept the PIN in the transcript, which a resumed
    session then showed the model again); other entries unchanged."""
    msg = entry.get("message")
    if entry.get("type") == "message" and isinstance(msg, dict):
        return {**entry, "message": _withheld(msg)}
    return entry


class TranscriptWriter:
    def __init__(self, path: Path):
        self.path = Path(path)
        self._fh: Any = None

    def _open(self) -> Any:
        if self._fh is None:
            private_dir(self.path.parent)
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
        entry = withheld_entry(entry)
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
