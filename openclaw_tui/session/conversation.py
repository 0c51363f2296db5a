"""The conversation a session holds: the value a transcript replays to, and the live history.

``replay(entries)`` is pure: transcript entries (``records/transcript.py``) in, a frozen
:class:`Conversation` out — the messages still in context after the last compaction (its
``kept`` most recent ones), the compaction summary, the startup notes, the model's last
reported usage (``usage`` entries) and a prompt that a crash cut off while it waited behind
a flush or compaction (``pending``). Tool calls left
without results by a crash get an ``interrupted`` result, so the model never sees a call
without its answer.

:class:`History` is the running conversation: messages with their token counts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from openclaw_tui.session.engine_notes import model_view


@dataclass(frozen=True)
class ReportedUsage:
    """A ``usage`` entry: the tokens a model reported for the prompt and answer that ended
    at ``messages`` messages of the replayed conversation."""

    model: str
    tokens: int
    messages: int


def _usage(entry: dict[str, Any], messages: int) -> ReportedUsage | None:
    try:
        tokens = int(entry.get("promptTokens") or 0) + int(entry.get("completionTokens") or 0)
    except (TypeError, ValueError):  # a hand-edited entry: estimate instead
        return None
    model = entry.get("model")
    return ReportedUsage(model, tokens, messages) if isinstance(model, str) and tokens > 0 else None


@dataclass(frozen=True)
class Conversation:
    messages: tuple[dict[str, Any], ...] = ()
    summary: str = ""
    notes: str = ""
    #: the text of a prompt written as ``pending`` whose turn never started (restored as a message)
    recovered: str | None = None
    #: the last usage the model reported since the last compaction, if any
    usage: ReportedUsage | None = None


def kept_count(entry: dict[str, Any]) -> int:
    """How many recent messages a ``compaction`` entry kept (0 for a damaged entry)."""
    try:
        return max(0, int(entry.get("kept") or 0))
    except (TypeError, ValueError):  # a hand-edited entry: keep only the summary
        return 0


def replay(entries: Iterable[dict[str, Any]]) -> Conversation:
    """What a transcript's entries leave in the conversation (oldest message first)."""
    history: list[dict[str, Any]] = []
    pending: dict[str, Any] | None = None
    usage: ReportedUsage | None = None
    summary = notes = ""
    for e in entries:
        kind = e.get("type")
        if kind == "message" and isinstance(e.get("message"), dict):
            added = e.get("engineNotes")
            history.append(model_view(e["message"], [str(n) for n in added] if isinstance(added, list) else ()))
            if e["message"].get("role") == "user":
                pending = None
        elif kind == "pending" and isinstance(e.get("message"), dict):
            pending = e["message"]
        elif kind == "context":
            notes = str(e.get("notes") or "")
        elif kind == "usage":
            usage = _usage(e, len(history))
        elif kind == "compaction":
            kept = kept_count(e)
            history = history[len(history) - kept :] if kept else []
            summary = str(e.get("summary") or "")
            usage = None  # the prompt it measured holds the older turns
    history = close_dangling_tool_calls(history)
    recovered = pending.get("content") if pending is not None else None
    if isinstance(recovered, str):
        history.append({"role": "user", "content": recovered})
    else:
        recovered = None
    return Conversation(tuple(history), summary, notes, recovered, usage)


def close_dangling_tool_calls(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A transcript cut by a crash may end with tool calls that never got results."""
    out = list(history)
    k = len(out) - 1
    while k >= 0 and out[k].get("role") == "tool":
        k -= 1
    if k >= 0 and out[k].get("role") == "assistant" and out[k].get("tool_calls"):
        got = {m.get("tool_call_id") for m in out[k + 1 :]}
        for tc in out[k]["tool_calls"]:
            if tc.get("id") not in got:
                name = (tc.get("function") or {}).get("name")
                out.append({"role": "tool", "tool_call_id": tc.get("id"), "name": name, "content": json.dumps({"error": "interrupted"})})
    return out


@dataclass
class _Entry:
    message: dict[str, Any]
    tokens: int


@dataclass
class History:
    """The live conversation: each message with its token count, and their sum."""

    count: Callable[[dict[str, Any]], int]
    _entries: list[_Entry] = field(default_factory=list)
    tokens: int = 0

    def add(self, msg: dict[str, Any]) -> None:
        entry = _Entry(msg, self.count(msg))
        self._entries.append(entry)
        self.tokens += entry.tokens

    def extend(self, messages: Iterable[dict[str, Any]]) -> None:
        for msg in messages:
            self.add(msg)

    @property
    def messages(self) -> list[dict[str, Any]]:
        return [e.message for e in self._entries]

    def tokens_of_first(self, n: int) -> int:
        return sum(e.tokens for e in self._entries[:n])

    @property
    def token_counts(self) -> list[int]:
        return [e.tokens for e in self._entries]

    @property
    def roles(self) -> list[str]:
        return [str(e.message.get("role")) for e in self._entries]

    def __len__(self) -> int:
        return len(self._entries)

    def last(self) -> dict[str, Any] | None:
        return self._entries[-1].message if self._entries else None

    def has_user(self) -> bool:
        return any(e.message.get("role") == "user" for e in self._entries)

    def last_user_text(self, where: Callable[[str], object] = bool) -> str | None:
        """The latest user message's text for which ``where`` is true (None when there is none)."""
        for e in reversed(self._entries):
            text = e.message.get("content")
            if e.message.get("role") == "user" and isinstance(text, str) and where(text):
                return text
        return None

    def drop_head(self, cut: int) -> list[dict[str, Any]]:
        """Remove and return the ``cut`` oldest messages (compaction)."""
        head, self._entries = self._entries[:cut], self._entries[cut:]
        self.tokens = sum(e.tokens for e in self._entries)
        return [e.message for e in head]

    def recount(self, count: Callable[[dict[str, Any]], int]) -> None:
        """Count every message again (another model: another tokenizer)."""
        self.count = count
        for e in self._entries:
            e.tokens = count(e.message)
        self.tokens = sum(e.tokens for e in self._entries)
