"""What a resumed conversation looked like: transcript entries → chat items, in order.

Pure data (no Textual): the chat replays these items after ``/resume`` or ``--continue`` so
tool calls, their results, provider errors and cancelled replies show as they did, not only
the user and assistant text. Only what is still in the conversation is replayed: a
compaction keeps its ``kept`` most recent messages (and what happened among them) and its
summary; older items are dropped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from openclaw_tui.session.conversation import kept_count
from openclaw_tui.session.surface import CANCEL_MARK


@dataclass(frozen=True)
class ReplayItem:
    kind: str  # user | assistant | tool (a call) | result (of call_id) | error | cancelled
    text: str = ""
    cancelled: bool = False
    call_id: str = ""
    name: str = ""
    arguments: dict[str, Any] = field(default_factory=dict)
    result: Any = None
    error: str | None = None
    action: str = ""


@dataclass(frozen=True)
class Replay:
    summary: str
    items: tuple[ReplayItem, ...]


def _arguments(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw or "{}")
    except (TypeError, ValueError):
        return {"arguments": raw}
    return value if isinstance(value, dict) else {"arguments": value}


def _tool_result(content: Any) -> tuple[Any, str | None]:
    try:
        value = json.loads(content) if isinstance(content, str) else content
    except ValueError:
        return content, None
    if isinstance(value, dict) and value.get("error") and len(value) <= 2:
        return value, str(value["error"])
    return value, None


def _message_items(msg: dict[str, Any]) -> list[ReplayItem]:
    role, content = msg.get("role"), msg.get("content")
    if role == "user" and isinstance(content, str) and content.strip():
        return [ReplayItem("user", content)]
    if role == "assistant":
        out = []
        if isinstance(content, str) and content.strip():
            text = content.rstrip()
            cancelled = text.endswith(CANCEL_MARK)
            out.append(ReplayItem("assistant", text[: -len(CANCEL_MARK)].rstrip() if cancelled else text, cancelled=cancelled))
        for tc in msg.get("tool_calls") or []:
            fn = tc.get("function") or {}
            out.append(ReplayItem("tool", call_id=str(tc.get("id") or ""), name=str(fn.get("name") or "?"), arguments=_arguments(fn.get("arguments"))))
        return out
    if role == "tool":
        result, error = _tool_result(content)
        return [ReplayItem("result", call_id=str(msg.get("tool_call_id") or ""), result=result, error=error)]
    return []


def _cancelled(items: list[tuple[int, ReplayItem]], partial: str) -> ReplayItem:
    """The cancelled mark for ``partial``: when the engine already kept that partial reply as
    the last assistant message, that message is the one marked (shown once, not twice)."""
    if items and items[-1][1].kind == "assistant" and items[-1][1].text.rstrip() == partial.rstrip():
        return replace(items.pop()[1], cancelled=True)
    return ReplayItem("cancelled", partial)


def replay(entries: list[dict[str, Any]]) -> Replay:
    """The conversation a transcript holds now, as chat items (oldest first)."""
    items: list[tuple[int, ReplayItem]] = []  # (message ordinal at that point, item)
    seq = 0
    summary = ""
    for e in entries:
        kind = e.get("type")
        if kind == "message" and isinstance(e.get("message"), dict):
            items += [(seq, item) for item in _message_items(e["message"])]
            seq += 1
        elif kind == "cancelled":
            items.append((seq, _cancelled(items, str(e.get("partial") or ""))))
        elif kind == "error":
            items.append((seq, ReplayItem("error", str(e.get("message") or "error"), action=str(e.get("action") or ""))))
        elif kind == "compaction":
            kept = kept_count(e)
            cutoff = seq - kept
            items = [(s, item) for s, item in items if s >= cutoff and kept]
            summary = str(e.get("summary") or "")
    return Replay(summary, tuple(item for _s, item in items))
