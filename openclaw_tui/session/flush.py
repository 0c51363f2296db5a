"""The memory flush (DESIGN §6): a silent turn, before compaction, that lets the model store
durable notes in today's daily log.

:class:`MemoryFlush` decides whether a flush is due (``thresholds.should_flush``, once per
compaction cycle) and runs one: the flush prompt after the conversation, the model
restricted to reading and appending to ``memory/<today>.md``, nothing streamed to the
user. The result is one ``flush`` transcript entry, the cycle recorded in sessions.json
(unless the provider failed) and a ``FlushFinished`` event.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from openclaw_tui import events
from openclaw_tui.config import AgentSettings
from openclaw_tui.events import EventSink
from openclaw_tui.llm.errors import LLMError
from openclaw_tui.session.store import SessionStore
from openclaw_tui.session.thresholds import flush_skip_reason, is_no_reply, should_flush
from openclaw_tui.session.tool_loop import LoopRun, ToolLoop
from openclaw_tui.session.transcript import TranscriptWriter
from openclaw_tui.tools.registry import ToolBox
from openclaw_tui.workspace.daily import daily_rel, today


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
    ):
        self.settings = settings
        self.store = store
        self._emit = emit
        self._loop = loop
        self._tools_for = tools_for  # a flush-mode tool box that may append only to this daily log
        self._on_stored = on_stored

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
        toolbox = self._tools_for(daily_rel(day))
        reply, error = await self._ask(turn, toolbox, day.isoformat())
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
                    "reply": "NO_REPLY" if is_no_reply(reply) else reply[:500],
                    "error": error,
                }
            )
        if error is None:
            ctr = self.store.counters(turn.session_id)
            self.store.update(turn.session_id, memoryFlushCompactionCount=ctr["compactionCount"], memoryFlushAt=int(time.time() * 1000))
        skipped = f"provider error: {error}" if error else None
        self._emit(
            events.FlushFinished(
                session_id=turn.session_id, path=path, lines_appended=lines, stored=bool(appended), skipped_reason=skipped, written=written
            )
        )
        return error is None

    async def _ask(self, turn: FlushTurn, toolbox: ToolBox, day: str) -> tuple[str, str | None]:
        """(the model's final reply, the provider error line or None)."""
        cfg = self.settings.config.agents.defaults.compaction.memory_flush
        local: list[dict[str, Any]] = [{"role": "user", "content": cfg.prompt.replace("YYYY-MM-DD", day)}]
        try:
            final = await self._loop.run(
                LoopRun(
                    system=lambda: turn.system(cfg.system_prompt),
                    convo=lambda: turn.history + local,
                    add=lambda msg, **_meta: local.append(msg),
                    purpose="flush",
                    toolbox=toolbox,
                    silent=True,
                )
            )
        except LLMError as exc:
            self._emit(exc.info.event())
            return "", exc.info.line()
        return final.text, None
