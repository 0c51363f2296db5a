"""The memory flush (DESIGN §6): a silent turn, before compaction, that lets the model store
durable notes in today's daily log.

:class:`MemoryFlush` decides whether a flush is due (``thresholds.should_flush``, once per
compaction cycle) and runs one: the flush prompt after the conversation, the model
restricted to reading and appending to ``memory/<today>.md``, nothing streamed to the
user. The result is one ``flush`` transcript entry, the cycle recorded in sessions.json
(unless the provider failed) and a ``FlushFinished`` event.

Who writes the notes is ``memoryFlush.mode`` (``flush_mode``): the model through its tools,
the engine (``note_writer.py``: the user's own fact sentences, a date beside a relative one only
when certain, what today's log holds skipped), or both — the model first, then the engine adds what the model
left out. Measured with ``openclaw-tui eval survival`` (docs/session.md#fact-survival): the
1.5B local model stored nothing in its flushes, so local models and the offline agent get
engine notes by default and hosted models keep their own tool calls with the engine behind.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import date
from typing import Any, Callable

from openclaw_tui import events
from openclaw_tui.config import AgentSettings
from openclaw_tui.events import EventSink
from openclaw_tui.llm.errors import LLMError
from openclaw_tui.session.note_writer import NoteOutcome, NoteWriter
from openclaw_tui.records.session_store import SessionStore
from openclaw_tui.records.no_reply import is_no_reply
from openclaw_tui.session.thresholds import flush_skip_reason, should_flush
from openclaw_tui.session.withheld import without_withheld
from openclaw_tui.session.tool_loop import LoopRun, MessageLog, ToolLoop
from openclaw_tui.records.transcript import TranscriptWriter
from openclaw_tui.tools.registry import ToolBox
from openclaw_tui.workspace.daily import today
from openclaw_tui.workspace.tiers import daily_log_rel


ENGINE_NOTE_REASONS = events.ENGINE_NOTE_REASONS
#: OpenClaw's (src/auto-reply/reply/agent-runner-memory.ts): consecutive failures before the
#: flush is skipped for the rest of the compaction cycle, and the stored error's length
MAX_FLUSH_FAILURES = 3
MAX_FLUSH_ERROR_CHARS = 200
#: a flush that worked clears the failure counters
FLUSH_SUCCEEDED: dict[str, Any] = {"memoryFlushFailureCount": 0, "memoryFlushLastFailedAt": None, "memoryFlushLastFailureError": None}


def maintenance_failed_notice(count: int, error: str) -> str:
    return (f"memory maintenance failed: the memory flush failed {count} times in a row and is skipped until the next "
            f"compaction (last error: {error[:MAX_FLUSH_ERROR_CHARS]})")


def flush_mode(setting: str, *, local: bool, offline: bool, flush_model: bool = False) -> str:
    """``memoryFlush.mode`` made concrete: auto → engine for local models and the offline
    agent (they store nothing reliably on their own), hybrid for hosted models and whenever
    ``memoryFlush.model`` names a model to flush with."""
    if setting != "auto":
        return setting
    return "engine" if (local or offline) and not flush_model else "hybrid"


@dataclass(frozen=True)
class FlushTurn:
    """The session a flush runs in."""

    session_id: str
    history: list[dict[str, Any]]  # the conversation the flush prompt follows
    system: Callable[[str], str]  # the system prompt with the flush system prompt appended
    transcript: TranscriptWriter | None
    threshold: int


class MemoryFlush:
    def __init__(
        self,
        settings: AgentSettings,
        store: SessionStore,
        emit: EventSink,
        loop: ToolLoop,
        *,
        tools_for: Callable[[str], ToolBox],
        on_stored: Callable[[], None],
        mode: Callable[[], str] = lambda: "model",
        flush_loop: Callable[[ToolLoop], ToolLoop] = lambda loop: loop,
        notes: NoteWriter | None = None,
    ):
        self.settings = settings
        self.notes = notes or NoteWriter(settings)  # the engine's notes (the same writer as the turn's)
        self.store = store
        self._emit = emit
        self._loop = loop
        self._tools_for = tools_for  # a flush-mode tool box that may append only to this daily log
        self._on_stored = on_stored
        self._mode = mode  # model | engine | hybrid (flush_mode)
        self._flush_loop = flush_loop  # memoryFlush.model: another model's loop (flush_model.py)

    def skip_reason(self) -> str | None:
        c = self.settings.config.agents.defaults.compaction.memory_flush
        access = self.settings.workspace_access
        if not self.settings.config.memory_plugin_enabled:
            return "memory plugin is off (plugins.slots.memory = none)"
        return flush_skip_reason(enabled=c.enabled, workspace_access=access, memory_enabled=access != "none")

    def wanted(self, session_id: str, projected: int, threshold: int) -> bool:
        c = self.settings.config.agents.defaults.compaction.memory_flush
        access = self.settings.workspace_access
        ctr = self.store.counters(session_id)
        return should_flush(
            projected,
            threshold,
            enabled=c.enabled and self.settings.config.memory_plugin_enabled,
            workspace_access=access,
            memory_enabled=access != "none",
            compaction_count=ctr["compactionCount"],
            memory_flush_compaction_count=ctr["memoryFlushCompactionCount"],
            memory_flush_at=ctr["memoryFlushAt"],
        )

    async def run(self, turn: FlushTurn, reason: str, tokens: int) -> bool:
        """One flush turn; False when it was skipped or the provider failed."""
        skip = self.skip_reason()
        if skip:
            self._emit(events.FlushFinished(session_id=turn.session_id, path=None, lines_appended=0, stored=False, skipped_reason=skip))
            return False
        self._emit(events.FlushStarted(session_id=turn.session_id, tokens=tokens, threshold=turn.threshold, reason=reason))
        day = today()
        toolbox = self._tools_for(daily_log_rel(day, self.settings.session_key))
        mode = self._mode()
        reply, error = ("NO_REPLY", None)
        if mode in ("model", "hybrid"):
            reply, error = await self._ask(turn, toolbox, day.isoformat())
        if mode in ("engine", "hybrid"):
            self.store_notes(turn.history, toolbox)
        path, lines, written = self._record(turn, toolbox, reason=reason, reply=reply, error=error, by=mode)
        if error is None:
            ctr = self.store.counters(turn.session_id)
            self.store.update(turn.session_id, memoryFlushCompactionCount=ctr["compactionCount"], memoryFlushAt=int(time.time() * 1000),
                              **FLUSH_SUCCEEDED)
        else:
            self._failed(turn.session_id, error)
        skipped = f"provider error: {error}" if error else None
        self._emit(
            events.FlushFinished(
                session_id=turn.session_id, path=path, lines_appended=lines, stored=bool(lines), skipped_reason=skipped, written=written
            )
        )
        return error is None

    def _failed(self, session_id: str, error: str) -> None:
        """OpenClaw's failure counters in sessions.json; after ``MAX_FLUSH_FAILURES`` in a row the
        flush is given up until the next compaction, and the user is told."""
        entry = self.store.get(session_id) or {}
        count = max(0, int(entry.get("memoryFlushFailureCount") or 0)) + 1
        now = int(time.time() * 1000)
        fields: dict[str, Any] = {"memoryFlushFailureCount": count, "memoryFlushLastFailedAt": now,
                                  "memoryFlushLastFailureError": error[:MAX_FLUSH_ERROR_CHARS]}
        if count >= MAX_FLUSH_FAILURES:  # this cycle counts as flushed: no flush before every prompt
            fields.update(memoryFlushCompactionCount=self.store.counters(session_id)["compactionCount"], memoryFlushAt=now)
            self._emit(events.Notice("warning", maintenance_failed_notice(count, error)))
        self.store.update(session_id, **fields)

    def store_notes(self, history: list[dict[str, Any]], toolbox: ToolBox) -> NoteOutcome:
        """The engine's notes: the user's unstored facts (``NoteWriter``, the one note writer),
        appended through the flush tool box."""
        return self.notes.write_all(self.notes.readings(history), toolbox.files, session_key=self.settings.session_key,
                                    replaying=True)

    def _record(self, turn: FlushTurn, toolbox: ToolBox, *, reason: str, reply: str, error: str | None,
                by: str) -> tuple[str | None, int, str]:
        """The flush's transcript entry; (path, lines appended, text written)."""
        appended = [w for w in toolbox.files.writes if w.tool == "append"]
        path = appended[0].path if appended else None
        lines = sum(w.lines for w in appended)
        written = "\n".join(w.text.rstrip("\n") for w in appended)
        if appended:
            self._on_stored()
        if turn.transcript is not None:
            turn.transcript.append(
                {
                    "type": "flush",
                    "reason": reason,
                    "path": path,
                    "linesAppended": lines,
                    "stored": bool(appended),
                    "written": written,
                    "by": by,
                    "reply": "NO_REPLY" if is_no_reply(reply) else reply[:500],
                    "error": error,
                }
            )
        return path, lines, written

    def engine_notes(self, turn: FlushTurn, reason: str) -> int:
        """The engine's notes for what no flush stored, with no model call: before compaction
        drops turns (the once-per-cycle flush may have run turns earlier), on /new and when the
        session ends (quitting stays instant). Lines appended; events only when some were."""
        if self.skip_reason() or not any(m.get("role") == "user" for m in turn.history):
            return 0
        toolbox = self._tools_for(daily_log_rel(today(), self.settings.session_key))
        try:
            self.store_notes(turn.history, toolbox)
        except Exception as exc:  # noqa: BLE001 - ending a session must not fail on a note
            self._emit(events.Notice("warning", f"notes at session end not stored: {exc}"))
        if not toolbox.files.writes:
            return 0
        self._emit(events.FlushStarted(session_id=turn.session_id, tokens=0, threshold=turn.threshold, reason=reason))
        path, lines, written = self._record(turn, toolbox, reason=reason, reply="NO_REPLY", error=None, by="engine")
        self._emit(events.FlushFinished(session_id=turn.session_id, path=path, lines_appended=lines, stored=True, written=written))
        return lines

    async def _ask(self, turn: FlushTurn, toolbox: ToolBox, day: str) -> tuple[str, str | None]:
        """(the model's final reply, the provider error line or None)."""
        cfg = self.settings.config.agents.defaults.compaction.memory_flush
        target = daily_log_rel(date.fromisoformat(day), self.settings.session_key)  # the session's tier
        prompt = cfg.prompt.replace("memory/YYYY-MM-DD.md", target).replace("YYYY-MM-DD", day)
        local: list[dict[str, Any]] = [{"role": "user", "content": prompt}]
        try:
            # consent: the model flushing from the conversation never sees what the user asked not to keep
            history = without_withheld(turn.history, self.notes.reading_of)
            log = MessageLog(turn.system(cfg.system_prompt), history, local)
            final = await self._flush_loop(self._loop).run(LoopRun(log, purpose="flush", toolbox=toolbox, silent=True))
        except LLMError as exc:
            self._emit(exc.info.event())
            return "", exc.info.line()
        return final.text, None
