"""Memory upkeep around a turn: the memory flush and compaction, before the prompt, after the
reply, on a context overflow, on ``/flush`` and ``/compact``, and the engine's notes on
``/new`` and quitting. One object the engine holds, over the session's context.

A model-run flush does not hold the user's prompt back (issue 27). When ``memoryFlush.mode``
resolves to ``model`` or ``hybrid`` the silent flush is a model turn of its own (157 s measured
on the local 1.5B). When no compaction is due before the prompt that reaches the flush
threshold, the flush waits instead: the prompt is answered, then the flush runs on the
conversation as it stands. The rules stay: once per compaction cycle (``MemoryFlush.wanted``);
before compaction (a prompt that would pass the compaction threshold waits behind the flush
as before, and a reply that passes it is followed by the flush, then compaction); nothing of it
is shown; in ``engine`` mode (no model call) nothing changes. Cancelling while the upkeep after
a reply runs stops that work only: the reply stays, and the flush is due again.
"""

from __future__ import annotations

import asyncio
from typing import Any

from openclaw_tui import events
from openclaw_tui.config import AgentSettings
from openclaw_tui.events import EventSink
from openclaw_tui.llm.profiles import render_messages
from openclaw_tui.session.compaction import Compactor
from openclaw_tui.session.context import SessionContext
from openclaw_tui.session.flush import FlushTurn, MemoryFlush, flush_mode
from openclaw_tui.session.forget_live import without_forgotten
from openclaw_tui.session.memory_link import SessionMemory
from openclaw_tui.session.meter import Meter
from openclaw_tui.session.model_slot import ModelSlot
from openclaw_tui.session.surface import TurnResult
from openclaw_tui.session.task_slot import TaskSlot
from openclaw_tui.session.summary_in_place import InPlace
from openclaw_tui.session.thresholds import compaction_cut_for, preserve_recent_turns, should_compact
from openclaw_tui.session.tool_loop import without_engine_fallbacks
from openclaw_tui.session.withheld import without_withheld

#: the flush modes that call a model (engine notes alone are instant and run where they did)
MODEL_FLUSH_MODES = ("model", "hybrid")


class Upkeep:
    def __init__(self, settings: AgentSettings, ctx: SessionContext, meter: Meter, slot: ModelSlot, memory: SessionMemory,
                 flusher: MemoryFlush, compactor: Compactor, tasks: TaskSlot, emit: EventSink):
        self.settings = settings
        self._ctx, self._meter, self._slot, self._mem = ctx, meter, slot, memory
        self.flusher, self.compactor = flusher, compactor
        self._tasks, self._emit = tasks, emit
        self.flush_waits = False  # the flush due before this turn's prompt runs after its reply

    def mode(self) -> str:
        """``memoryFlush.mode`` made concrete for the model of the moment (``flush_mode``)."""
        cfg = self.settings.config.agents.defaults.compaction.memory_flush
        return flush_mode(cfg.mode, local=self._slot.profile.name == "local", offline=self._slot.is_offline, flush_model=bool(cfg.model))

    def want_flush(self, projected: int) -> bool:
        return self.flusher.wanted(self._ctx.session_id, projected, self._meter.flush_threshold)

    def transcript_flush_due(self) -> bool:
        """OpenClaw's ``forceFlushTranscriptBytes``: the transcript file has reached the size,
        whatever the token counts say (they can be stale); still once per compaction cycle."""
        limit = self.settings.config.agents.defaults.compaction.memory_flush.force_flush_transcript_bytes
        transcript = self._ctx.transcript
        if not limit or transcript is None:
            return False
        try:
            size = transcript.path.stat().st_size
        except OSError:
            return False
        return size >= limit and self.flusher.wanted(self._ctx.session_id, 1, 0)

    def _flush_turn(self, history: list[dict[str, Any]] | None = None, threshold: int | None = None) -> FlushTurn:
        ctx = self._ctx
        return FlushTurn(ctx.session_id, ctx.messages() if history is None else history, ctx.system, ctx.transcript,
                         self._meter.flush_threshold if threshold is None else threshold)

    async def flush(self, reason: str, tokens: int) -> bool:
        return await self.flusher.run(self._flush_turn(), reason, tokens)

    def end_notes(self, reason: str) -> None:
        """/new and quitting: the engine's notes for what no flush stored (memoryFlush.onSessionEnd)."""
        on_end = self.settings.config.agents.defaults.compaction.memory_flush.on_session_end
        if on_end and self._ctx.persisted and self._ctx.transcript is not None and self.mode() != "model":
            self.flusher.engine_notes(self._flush_turn(), reason)

    async def overflow(self) -> bool:
        """The provider said the context overflowed: flush (once per cycle), then compact."""
        used = self._meter.used()
        if self.want_flush(max(used, self._meter.flush_threshold)):
            await self.flush("overflow", used)
        return await self.compact("overflow")

    async def compact(self, reason: str, instructions: str | None = None) -> bool:
        ctx, meter = self._ctx, self._meter
        tokens_before = meter.used()
        keep = self.compactor.keep_tokens(meter.compaction_threshold)
        cut = compaction_cut_for(reason, ctx.history.token_counts, ctx.history.roles, keep)
        preserved = preserve_recent_turns(cut, ctx.history.roles, self.settings.config.agents.defaults.compaction.recent_turns_preserve)
        cut = preserved if preserved or reason != "overflow" else cut  # an overflow must free room
        if cut == 0:
            if reason == "manual":
                self._emit(events.Notice("info", "nothing to compact yet"))
            return False
        if self.mode() != "model":  # no fact leaves the context unstored (no model call)
            self.flusher.engine_notes(self._flush_turn(ctx.messages()[:cut], 0), "compaction")
        self._emit(events.CompactionStarted(session_id=ctx.session_id, tokens_before=tokens_before, reason=reason))
        self.compactor.notify(f"compacting the conversation: the older turns ({tokens_before:,} tokens in context) are being summarised")
        head = ctx.messages()[:cut]
        kept = without_withheld(head, self.flusher.notes.reading_of)  # consent
        summary = await self.compactor.summarise(
            self._slot.model, kept, previous=ctx.summary, instructions=instructions,
            plain=self._slot.profile.plain_summary, context_window=meter.context_window, must=reason in ("overflow", "manual"),
            in_place=self._in_place(head) if kept == head else None,
        )
        if summary is None:  # compaction.mode "safeguard": a summary that failed its check twice is not used
            return False
        summary = without_forgotten(summary, self.settings.workspace)  # a forgotten fact is never summarised back in
        ctx.history.drop_head(cut)
        ctx.summary = summary
        meter.budget.usage_base = None
        meter.recount()
        entry = {"reason": reason, "summary": summary, "tokensBefore": tokens_before, "tokensAfter": meter.used(),
                 "kept": len(ctx.history), "instructions": instructions}
        count = self.compactor.record(ctx.session_id, ctx.transcript, entry)
        self.compactor.notify(f"compaction {count} done: {tokens_before:,} → {meter.used():,} tokens in context")
        await self.compactor.resync_memory(self._mem.memory)
        return True

    def _in_place(self, head: list[dict[str, Any]]) -> InPlace | None:
        """The session's request start through ``head`` as the turns sent it, for a summary
        asked where the server's cache already is (the profile's ``summary_in_place``)."""
        profile = self._slot.profile
        if not profile.summary_in_place:
            return None
        start = render_messages(without_engine_fallbacks(self._ctx.leading() + head), profile)
        return InPlace(tuple(start), tuple(self._meter.offered()))

    # ------------------------------------------------------------------ around a turn

    async def before_turn(self, prompt: dict[str, Any], done: TurnResult) -> None:
        """Flush and compact ahead of the prompt when it would pass the thresholds."""
        meter = self._meter
        projected = meter.used() + meter.budget.counter.count_message(prompt)
        by_size = not self.want_flush(projected) and self.transcript_flush_due()
        want_flush = self.want_flush(projected) or by_size
        self.flush_waits = (want_flush and self.mode() in MODEL_FLUSH_MODES
                            and not should_compact(projected, meter.compaction_threshold))  # a model's flush waits for the reply
        want_compact = should_compact(projected, meter.compaction_threshold)
        if want_flush and not self.flush_waits or want_compact:
            # The prompt waits behind a flush/compaction turn: keep it on disk now so a
            # crash there does not lose it (resume() restores it).
            self._ctx.log.append({"type": "pending", "message": prompt})
        if want_flush and not self.flush_waits:
            done.flushed = await self.flush("transcript-size" if by_size else "threshold", projected)
        if want_compact:
            done.compacted = await self.compact("threshold")

    async def after_reply(self, done: TurnResult) -> None:
        """The flush that waited for the reply; flush and compaction when the context passed
        the compaction threshold."""
        used = self._meter.used()
        waited, self.flush_waits = self.flush_waits, False
        compact = should_compact(used, self._meter.compaction_threshold)
        if not (compact or waited):
            return
        try:
            if self.want_flush(max(used, self._meter.flush_threshold) if waited else used):
                done.flushed = await self.flush("threshold", used) or done.flushed
            if compact:
                done.compacted = await self.compact("threshold") or done.compacted
        except asyncio.CancelledError:
            if not self._tasks.cancel_requested:
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            self._emit(events.Notice("info", "memory upkeep after the reply cancelled; the reply is kept"))
