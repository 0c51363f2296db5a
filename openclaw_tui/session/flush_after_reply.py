"""A model-run memory flush does not hold the user's prompt back (issue 27).

When ``memoryFlush.mode`` resolves to ``model`` or ``hybrid``, the silent flush is a model
turn of its own (157 s measured on the local 1.5B, ``flushing…`` the whole time). Before the
prompt that reaches the flush threshold it ran first and the prompt waited. Now, when no
compaction is due before that prompt, the flush waits instead: the prompt is answered, then
the flush runs on the conversation as it stands (the new exchange included). A prompt typed
meanwhile queues behind it (the TUI says so). The rules stay:

- once per compaction cycle (``MemoryFlush.wanted`` decides, the counters are written when
  the flush has run);
- before compaction: when the prompt itself would pass the compaction threshold the flush
  runs first as before, and a reply that passes it is followed by the flush, then compaction;
- nothing of it is shown (``silent`` turn, ``NO_REPLY`` dropped); skipped for ``ro``/``none``
  (``wanted`` is False then);
- in ``engine`` mode (no model call, ~0.01 s) nothing changes.

Cancelling (Ctrl+C) while the flush or compaction after a reply runs stops that work only:
the reply stays as it was answered, and the flush is due again.

A base of ``SessionEngine`` (like ``TurnEnding``): the parts of the engine used are declared.
"""

from __future__ import annotations

import asyncio

from openclaw_tui import events
from openclaw_tui.session.surface import TurnResult
from openclaw_tui.session.task_slot import TaskSlot
from openclaw_tui.session.thresholds import should_compact

#: the flush modes that call a model (engine notes alone are instant and run where they did)
MODEL_FLUSH_MODES = ("model", "hybrid")


class FlushAfterReply:
    _tasks: TaskSlot
    #: the flush due before this turn's prompt runs after its reply
    _flush_waits: bool = False

    @property
    def compaction_threshold(self) -> int:
        raise NotImplementedError

    @property
    def flush_threshold(self) -> int:
        raise NotImplementedError

    def _emit(self, event: events.Event) -> None:
        raise NotImplementedError

    def _flush_mode(self) -> str:
        raise NotImplementedError

    def _want_flush(self, projected: int) -> bool:
        raise NotImplementedError

    async def _run_flush(self, reason: str, tokens: int) -> bool:
        raise NotImplementedError

    async def _compact(self, reason: str, instructions: str | None = None) -> bool:
        raise NotImplementedError

    def _flush_first(self, want_flush: bool, projected: int) -> bool:
        """Whether the flush due now runs before the prompt (True) or after its reply."""
        self._flush_waits = (want_flush and self._flush_mode() in MODEL_FLUSH_MODES
                             and not should_compact(projected, self.compaction_threshold))
        return want_flush and not self._flush_waits

    async def _after_reply(self, done: TurnResult, used: int) -> None:
        """The flush that waited for the reply; flush and compaction when the context passed
        the compaction threshold."""
        waited, self._flush_waits = self._flush_waits, False
        compact = should_compact(used, self.compaction_threshold)
        if not (compact or waited):
            return
        try:
            if self._want_flush(max(used, self.flush_threshold) if waited else used):
                done.flushed = await self._run_flush("threshold", used) or done.flushed
            if compact:
                done.compacted = await self._compact("threshold") or done.compacted
        except asyncio.CancelledError:
            if not self._tasks.cancel_requested:
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            self._emit(events.Notice("info", "memory upkeep after the reply cancelled; the reply is kept"))
