"""Typed events the core emits. Plain dataclasses: no Textual, no I/O.

The session engine, the memory index and the QMD backend report through these; the TUI
turns them into Textual messages, ``chat --json`` serialises them, scenarios assert on them.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field, fields
from typing import Any, Callable

from openclaw_tui.memory.api import SearchResult


@dataclass
class Event:
    ts: float = field(default_factory=time.time, kw_only=True)

    @property
    def type(self) -> str:
        name = type(self).__name__
        out = []
        for i, ch in enumerate(name):
            if ch.isupper() and i:
                out.append("_")
            out.append(ch.lower())
        return "".join(out)

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON (``chat --json``, scenarios): a typed result as its ``to_dict()``."""
        data = {f.name: _plain(getattr(self, f.name)) for f in fields(self)}
        data["type"] = self.type
        return data


def _plain(value: Any) -> Any:
    return value.to_dict() if isinstance(value, SearchResult) else copy.deepcopy(value)


# --- turn lifecycle -------------------------------------------------------------------


@dataclass
class TurnStarted(Event):
    session_id: str
    prompt: str


@dataclass
class TextDelta(Event):
    text: str


@dataclass
class PromptProgress(Event):
    """The model's server is reading the prompt: ``processed`` of ``total`` tokens so far
    (``cache`` of them reused). Sent by our managed llama.cpp server only."""

    processed: int
    total: int
    cache: int = 0


@dataclass
class TurnFinished(Event):
    session_id: str
    text: str  # the visible reply ("" when the reply was NO_REPLY)
    cancelled: bool = False
    corrected: bool = False  # the engine changed the streamed reply (citations, save claims): show ``text``


@dataclass
class ToolCalled(Event):
    call_id: str
    name: str
    arguments: dict[str, Any]


@dataclass
class ToolResult(Event):
    call_id: str
    name: str
    result: Any  # the tool's JSON object; memory_search's typed SearchResult
    error: str | None = None


@dataclass
class MemoryRetrieved(Event):
    """A memory_search ran (tool call or /memory search); ``result`` is the backend's answer
    as it is, read by the side panel field by field."""

    query: str
    result: SearchResult


@dataclass
class MemoryTriggered(Event):
    """Annotated MEMORY.md/USER.md entries a message triggered (memory/triggers.py), read in
    before the model answers; ``entries`` are ``Triggered.to_dict()`` (path, lines, trigger,
    score, importance). Private sessions only."""

    message: str
    entries: list[dict[str, Any]]


@dataclass
class AccessRefused(Event):
    tool: str
    path: str
    reason: str


@dataclass
class MemoryChanged(Event):
    """A memory file changed through a tool, a restore or /undo; its old version is kept.

    ``summary`` is one line ("+2 −0 · - likes teal"); ``diff`` a bounded unified diff.
    ``call_id`` names the tool call that made the change ("" for restore / undo).
    """

    path: str
    tool: str  # write | edit | append | restore | undo | forget
    summary: str
    diff: str
    entry_id: str = ""  # history id ("" when no history store is kept)
    call_id: str = ""
    actor: str = "model"


# --- tokens, flush, compaction -----------------------------------------------------------


@dataclass
class TokenUsage(Event):
    used: int
    context_window: int
    flush_threshold: int
    compaction_threshold: int
    estimated: bool = True  # False when the provider reported usage
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


@dataclass
class FlushStarted(Event):
    session_id: str
    tokens: int
    threshold: int
    reason: str = "threshold"  # threshold | manual


# the reasons of the engine's notes outside a flush turn (session/flush.py ``engine_notes``):
# reported as flushes with their reason, but not flush turns of the once-per-cycle rule
ENGINE_NOTE_REASONS = frozenset({"compaction", "new", "quit"})


@dataclass
class FlushFinished(Event):
    session_id: str
    path: str | None  # file appended to, None when nothing stored
    lines_appended: int
    stored: bool
    skipped_reason: str | None = None
    written: str = ""  # the text appended during the flush (empty when nothing stored)


@dataclass
class CompactionStarted(Event):
    session_id: str
    tokens_before: int
    reason: str = "threshold"  # threshold | overflow | manual


@dataclass
class CompactionFinished(Event):
    session_id: str
    tokens_before: int
    tokens_after: int
    compaction_count: int
    summary: str = ""


# --- providers, index, qmd ----------------------------------------------------------------


@dataclass
class ProviderRetry(Event):
    provider: str
    attempt: int
    delay_s: float
    message: str


@dataclass
class ProviderError(Event):
    provider: str
    message: str  # friendly, one line, no secrets
    action: str = ""  # what the user can do
    status: int | None = None
    retryable: bool = False


@dataclass
class IndexSynced(Event):
    agent_id: str
    files_indexed: int
    files_removed: int
    chunks: int
    full_rebuild: bool = False
    duration_ms: float = 0.0
    reason: str = ""


@dataclass
class QmdFallback(Event):
    reason: str
    query: str = ""


@dataclass
class McpServerChanged(Event):
    """An MCP server the session uses started, failed to start or stopped (``mcp/``)."""

    server: str
    state: str  # ready | failed | stopped | trimmed (some of its tools are not offered)
    message: str = ""  # one line: why it failed or stopped, or which tools were left out
    tools: int = 0


@dataclass
class Notice(Event):
    level: str  # info | warning | error
    message: str


EventSink = Callable[[Event], None]


def null_sink(_event: Event) -> None:
    return None
