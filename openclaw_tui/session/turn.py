"""A user's turn, composed: a :class:`Turn` holds the message's one reading, the plan made from
it, the turn's scratch, its tool box and the messages it writes to (the session's context);
:class:`Turns` plays one from the prompt to the answer.

A turn: the message is read once (``openclaw_tui.language.read_message``, with the session's
last message that named something for a follow-up); flush and compaction ahead of the prompt
when it would pass the thresholds (``Upkeep``); the plan; the facts the engine keeps now
(``NoteWriter``, announced as the turn's memory changes); the local profile's lookups; the
model ↔ tools loop on the turn's own :class:`LoopRun` (kept in its scratch for a cancel or an
error); the upkeep that waited for the reply. A turn that ends without an answer ends here too:
a provider error (the partial answer kept, the error in the transcript where it happened) or
a cancel (the partial answer kept and marked).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from openclaw_tui import events
from openclaw_tui.config import AgentSettings
from openclaw_tui.events import EventSink
from openclaw_tui.language import Intent, MessageReading, read_message
from openclaw_tui.language.lexicon import common
from openclaw_tui.llm.errors import LLMError
from openclaw_tui.records.no_reply import is_no_reply
from openclaw_tui.records.session_store import SessionStore, session_title
from openclaw_tui.session.acknowledge import forgotten_line, refusal
from openclaw_tui.session.context import SessionContext, session_header
from openclaw_tui.session.meter import Meter
from openclaw_tui.session.model_slot import ModelSlot
from openclaw_tui.session.note_writer import FORGOTTEN, NoteOutcome, NoteWriter
from openclaw_tui.session.offline import call_id
from openclaw_tui.session.surface import CANCEL_MARK, TurnResult
from openclaw_tui.session.tool_loop import LoopRun, RunScratch, ToolLoop, announce_changes
from openclaw_tui.session.turn_plan import ReplyCheck, TurnPlan, plan_turn
from openclaw_tui.session.upkeep import Upkeep
from openclaw_tui.tools.registry import ToolBox

#: the plan of a turn not planned yet (cancelled while the session got ready): the model in charge
UNPLANNED = TurnPlan(text="", statement=False, cue=False, store_now=False, no_tools=False, no_writes=False)


@dataclass
class Turn:
    number: int
    reading: MessageReading  # the message, read once
    toolbox: ToolBox
    messages: SessionContext  # where the turn reads its prompt and writes its messages
    plan: TurnPlan = UNPLANNED  # decided once the session is ready (the model's profile is known)
    scratch: RunScratch = field(default_factory=RunScratch)
    result: TurnResult = field(default_factory=lambda: TurnResult("", ""))  # flushed / compacted, filled in as it goes
    notes: NoteOutcome = NoteOutcome()  # what the engine kept of the message, and what not
    mark: int = 0  # the tool box's writes before the turn (the reply check's evidence starts here)
    refused_mark: int = 0  # the tool box's refusals before the turn (the reply tells the ones after)
    forgot_mark: int = 0  # the tool box's refusals of forgotten facts before the turn
    prompt: dict[str, Any] = field(init=False)  # the user's message as the history keeps it

    @property
    def text(self) -> str:
        return self.reading.text

    def __post_init__(self) -> None:
        self.prompt = {"role": "user", "content": self.reading.text}
        self.result.session_id = self.messages.session_id
        self.mark = len(self.toolbox.files.writes)
        self.refused_mark = len(self.toolbox.files.refusals)
        self.forgot_mark = len(self.toolbox.files.forgotten_refusals)

    def loop_run(self, *, local: bool, access: str, memory_on: bool) -> LoopRun:
        check = ReplyCheck(self.plan, self.scratch, self.toolbox.files, self.mark, local=local, access=access, memory_on=memory_on,
                           notes=self.notes, language=self.reading.language, refused_mark=self.refused_mark,
                           forgot_mark=self.forgot_mark)
        return LoopRun(self.messages, "turn", self.toolbox, False, no_tools=self.plan.no_tools, no_writes=self.plan.no_writes,
                       check=check, scratch=self.scratch)


class Turns:
    """Plays the session's turns over its parts (built once, read where they stand)."""

    def __init__(self, settings: AgentSettings, ctx: SessionContext, slot: ModelSlot, meter: Meter, upkeep: Upkeep,
                 loop: ToolLoop, notes: NoteWriter, store: SessionStore, emit: EventSink):
        self.settings = settings
        self._ctx, self._slot, self._meter, self._upkeep = ctx, slot, meter, upkeep
        self._loop, self._notes, self._store, self._emit = loop, notes, store, emit

    def begin(self, text: str, number: int) -> Turn:
        """Read the message (once) and open its turn."""
        previous = self._ctx.history.last_user_text(where=self._names_something)
        reading = read_message(text, previous=previous)
        self._notes.know(reading)
        return Turn(number, reading, self._ctx.tools, self._ctx)

    def _names_something(self, text: str) -> bool:
        """An earlier message a follow-up takes its words from (its reading is kept, not redone)."""
        return not self._notes.reading_of(text).follow_up

    def plan(self, reading: MessageReading) -> TurnPlan:
        return plan_turn(reading, local=self._local, engine_notes=self._upkeep.mode() != "model", access=self._access,
                         memory_on=self._memory_on, offline=self._slot.is_offline)

    @property
    def _local(self) -> bool:
        return self._slot.profile.name == "local"

    @property
    def _access(self) -> str:
        return self.settings.workspace_access

    @property
    def _memory_on(self) -> bool:
        return self.settings.config.memory_plugin_enabled and self._access != "none"

    async def play(self, turn: Turn) -> TurnResult:
        """The turn once the session is ready, to its answer (or its provider error)."""
        ctx, done = self._ctx, turn.result
        await self._upkeep.before_turn(turn.prompt, done)
        first = not ctx.history.has_user() and not ctx.summary
        ctx.add(turn.prompt)
        if first:
            self._store.update(ctx.session_id, title=session_title(turn.text))
        self._emit(events.TurnStarted(session_id=ctx.session_id, prompt=turn.text))
        turn.plan = self.plan(turn.reading)
        if turn.plan.refused:
            return self.refused(turn)
        if turn.plan.store_now or turn.plan.withholds:
            self.store_now(turn)  # before the model answers: a question's lookup finds the fact told with it
        run = turn.loop_run(local=self._local, access=self._access, memory_on=self._memory_on)
        try:
            if not turn.plan.no_tools:
                await self._loop.auto_recall(turn.reading, run, writable=self._access == "rw")
            final = await self._loop.run(run)
        except LLMError as exc:
            return self.ended_by_error(turn, exc)
        done.no_reply = is_no_reply(final.text)
        done.text = "" if done.no_reply else final.text
        self._emit(events.TurnFinished(session_id=ctx.session_id, text=done.text, corrected=final.corrected))
        await self._upkeep.after_reply(done)  # a flush that waited for the reply, compaction
        return self.finished(done)

    def store_now(self, turn: Turn) -> None:
        """The engine writes the message's facts before the model answers (announced as the turn's
        changes); a message that withholds something gets its outcome too (nothing written of it)."""
        turn.notes = self._notes.write(turn.reading, turn.toolbox.files, session_key=self.settings.session_key)
        announce_changes(turn.notes.changes, call_id("note"), turn.scratch, self._emit)
        if any(n.reason == FORGOTTEN for n in turn.notes.not_kept):  # the timeline says it too, not only the reply
            self._emit(events.AccessRefused(tool="append", path=turn.toolbox.files.today_rel(),
                                            reason=forgotten_line(turn.reading.language)))

    def refused(self, turn: Turn) -> TurnResult:
        """A request to change a file the workspace cannot take: a plain refusal in the user's
        language, in the chat and on the timeline, and no model call (it would claim the change)."""
        done, line = turn.result, refusal(self._access, turn.reading.language)
        named = common().file_name.search(turn.text) if turn.reading.intent is Intent.FILE_CHANGE else None
        tool, path = ("write", named.group(0)) if named else ("write", "") if turn.reading.intent is Intent.FILE_CHANGE \
            else ("append", turn.toolbox.files.today_rel())
        self._emit(events.AccessRefused(tool=tool, path=path, reason=line))  # the timeline's refusal line
        self._ctx.add({"role": "assistant", "content": line})
        done.text = line
        self._emit(events.TurnFinished(session_id=self._ctx.session_id, text=line))
        return self.finished(done)

    # ------------------------------------------------------------------ how a turn ends

    def finished(self, done: TurnResult) -> TurnResult:
        done.usage = self._meter.snapshot()
        self._emit(done.usage)
        return done

    def ended_by_error(self, turn: Turn, exc: LLMError) -> TurnResult:
        done = turn.result
        self._emit(exc.info.event())
        # so a resumed session shows it where it happened
        self._ctx.log.append({"type": "error", "message": exc.info.line(), "action": exc.info.action or ""})
        done.text, done.error = "".join(turn.scratch.partial), exc.info.line()
        self._emit(events.TurnFinished(session_id=self._ctx.session_id, text=done.text))
        return self.finished(done)

    def ended_by_cancel(self, turn: Turn) -> TurnResult:
        """The user cancelled: the partial answer kept and marked."""
        task = asyncio.current_task()
        if task is not None:
            task.uncancel()
        ctx, done = self._ctx, turn.result
        if all(m is not turn.prompt for m in ctx.history.messages):  # cancelled while getting ready
            ctx.persist(self._store, session_header(self.settings, self._slot.model.model))
            ctx.add(turn.prompt)
        partial = "".join(turn.scratch.partial)
        ctx.log.append({"type": "cancelled", "partial": partial})
        last = ctx.history.last()
        if last is not None and last.get("role") == "assistant" and partial and last.get("content") == partial:
            last["content"] = partial + "\n" + CANCEL_MARK
        self._emit(events.TurnFinished(session_id=ctx.session_id, text=partial, cancelled=True))
        done.text, done.cancelled = partial, True
        return self.finished(done)
