"""A user's turn, start to end, and the token count it is measured by: flush and compact
ahead of the prompt when it would pass the thresholds, run the turn's own loop (its
:class:`~openclaw_tui.session.tool_loop.RunScratch` kept for a cancel or an error), compact
after it when the context grew past the threshold. A base of ``SessionEngine`` (beside
``TurnEnding``, how a turn ends without an answer); the parts of the engine these steps use
are declared here."""

from __future__ import annotations

import asyncio
from typing import Any

from openclaw_tui import events
from openclaw_tui.llm.errors import LLMError
from openclaw_tui.llm.profiles import ModelProfile, offered_tools
from openclaw_tui.memory.api import SearchResult
from openclaw_tui.session.budget import TokenBudget
from openclaw_tui.session.flush_after_reply import FlushAfterReply
from openclaw_tui.session.flush import MemoryFlush
from openclaw_tui.session.offline import call_id
from openclaw_tui.session.recall import names_something
from openclaw_tui.records.session_store import SessionStore, session_title
from openclaw_tui.session.surface import TurnResult
from openclaw_tui.session.task_slot import TaskSlot
from openclaw_tui.records.no_reply import is_no_reply
from openclaw_tui.session.thresholds import should_compact
from openclaw_tui.session.tokens import TokenCounter
from openclaw_tui.session.tool_loop import LoopRun, RunScratch, ToolLoop
from openclaw_tui.session.turn_end import TurnEnding
from openclaw_tui.session.turn_plan import plan_turn, reply_check_for
from openclaw_tui.tools.registry import ToolBox
from openclaw_tui.unicode_clean import clean_surrogates


class TurnFlow(TurnEnding, FlushAfterReply):
    _budget: TokenBudget
    _toolbox: ToolBox
    _tasks: TaskSlot
    _turn_no: int
    _summary: str
    _store: SessionStore
    _turn_scratch: RunScratch
    _loop: ToolLoop
    _flusher: MemoryFlush

    @property
    def profile(self) -> ModelProfile:
        raise NotImplementedError

    @property
    def busy(self) -> bool:
        raise NotImplementedError

    @property
    def access(self) -> str:
        raise NotImplementedError

    @property
    def memory_plugin_on(self) -> bool:
        raise NotImplementedError

    @property
    def history(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    @property
    def counter(self) -> TokenCounter:
        raise NotImplementedError

    async def _ready(self) -> None:
        raise NotImplementedError

    def _system_text(self, extra: str | None = None) -> str:
        raise NotImplementedError

    # _flush_mode, _want_flush, _run_flush, _compact: declared by FlushAfterReply

    # ================================================================== tokens

    @property
    def context_window(self) -> int:
        return self._budget.context_window

    @property
    def flush_threshold(self) -> int:
        return self._budget.flush_threshold

    @property
    def compaction_threshold(self) -> int:
        return self._budget.compaction_threshold

    def _recount_fixed(self) -> None:
        self._budget.count_fixed(self._system_text())

    def _offered(self) -> list[dict[str, Any]]:
        return offered_tools(self._toolbox.schemas(), self.profile)

    def _estimate(self) -> int:
        return self._budget.estimate(self._offered(), self._history.tokens)

    def used_tokens(self) -> int:
        """Tokens the next prompt carries (``TokenBudget.used``)."""
        return self._budget.used(self._offered(), self._history.tokens)

    def token_snapshot(self) -> events.TokenUsage:
        if self._budget.system_tokens is None:
            self._recount_fixed()
        return self._budget.snapshot(self.used_tokens())

    # ================================================================== turns

    async def memory_search(self, query: str) -> SearchResult:
        """/memory search: same path as the tool (emits MemoryRetrieved)."""
        await self._ready()
        return await self._toolbox.memory_search({"query": query})

    def cancel(self) -> None:
        """Cancel the running turn; the partial answer is kept and marked."""
        self._tasks.cancel()

    async def send(self, text: str) -> TurnResult:
        if self.busy:
            return TurnResult(text="", session_id=self.session_id, error="a turn is already running")
        self._turn_no += 1
        return await self._tasks.run(self._send(clean_surrogates(text)))

    async def _send(self, text: str) -> TurnResult:
        done = TurnResult("", self.session_id)  # flushed / compacted, filled in as the turn goes
        user_msg = {"role": "user", "content": text}
        try:
            await self._ready()
            await self._before_turn(user_msg, done)
            first = not self._history.has_user() and not self._summary
            self._add(user_msg)
            if first:
                self._store.update(self.session_id, title=session_title(text))
            self._emit(events.TurnStarted(session_id=self.session_id, prompt=text))
            scratch = self._turn_scratch = RunScratch()  # this turn's own: a flush inside it has another
            local, mark = self.profile.name == "local", len(self._toolbox.files.writes)
            plan = plan_turn(text, local=local, engine_notes=self._flush_mode() != "model", access=self.access, memory_on=self.memory_plugin_on)
            check = reply_check_for(plan, scratch, self._toolbox.files, mark, local=local, access=self.access,
                                    memory_on=self.memory_plugin_on, system=self._system_text)
            run = LoopRun(self._system_text, lambda: self.history, self._add, "turn", self._toolbox, False,
                          no_tools=plan.no_tools, no_writes=plan.no_writes, check=check, scratch=scratch)
            try:
                if plan.store_now:
                    self._store_now(text)
                if not plan.no_tools:
                    await self._loop.auto_recall(text, run, writable=self.access == "rw", previous=self._history.last_user_text(where=names_something))
                final = await self._loop.run(run)
            except LLMError as exc:
                return self._ended_by_error(exc, done)
            done.no_reply = is_no_reply(final.text)
            done.text = "" if done.no_reply else final.text
            self._emit(events.TurnFinished(session_id=self.session_id, text=done.text, corrected=final.corrected))
            await self._after_reply(done, self.used_tokens())  # a flush that waited for the reply, compaction
            return self._finished(done)
        except asyncio.CancelledError:
            if not self._tasks.cancel_requested:
                raise
            return self._ended_by_cancel(done, user_msg)

    def _store_now(self, text: str) -> None:
        """A statement to a local model: the engine appends its fact sentences to today's log."""
        since = len(self._toolbox.files.changes)
        self._flusher.store_notes([{"role": "user", "content": text}], self._toolbox)
        self._loop.emit_changes(self._toolbox.files, since, call_id("note"), self._turn_scratch)

    async def _before_turn(self, user_msg: dict[str, Any], done: TurnResult) -> None:
        """Flush and compact ahead of the prompt when it would pass the thresholds."""
        projected = self.used_tokens() + self.counter.count_message(user_msg)
        want_flush = self._flush_first(self._want_flush(projected), projected)  # a model's flush waits for the reply
        want_compact = should_compact(projected, self.compaction_threshold)
        if want_flush or want_compact:
            # The prompt waits behind a flush/compaction turn: keep it on disk now so a
            # crash there does not lose it (resume() restores it).
            self._transcript.append({"type": "pending", "message": user_msg})
        if want_flush:
            done.flushed = await self._run_flush("threshold", projected)
        if want_compact:
            done.compacted = await self._compact("threshold")
