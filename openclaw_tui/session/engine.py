"""The session engine: one conversation with tools, memory flush and compaction.

The TUI, ``chat -p``, scenarios and tests all drive this class through its surface
(``session/surface.py``); it reports only through ``openclaw_tui.events`` dataclasses sent
to ``sink`` and never imports Textual.

    engine = SessionEngine(settings, sink=print)
    result = await engine.send("what did we decide about the logo?")

A turn: flush if the prompt about to be sent reaches the flush threshold (once per
compaction cycle), compact if it exceeds the compaction threshold, stream the model with
the tool schemas, run tool calls until the model answers without tools (step cap), append
everything to the transcript, compact afterwards if the context grew past the threshold.

The engine composes its parts and holds no turn of its own: what the session holds
(``context.py``), the token count (``meter.py``, over ``budget.py``), a turn (``turn.py``:
the reading, the plan, the scratch, the tool box, the messages), the model ↔ tools loop
(``tool_loop.py``), the flush and compaction around a turn (``upkeep.py``, over ``flush.py``
and ``compaction.py``), the one note writer (``note_writer.py``), opening memory
(``memory_link.py``), the conversation's pure replay (``conversation.py``) and the
transcript format (``records/transcript.py``).
"""

from __future__ import annotations

import asyncio
import re
import uuid
from pathlib import Path
from typing import Any, Awaitable, Callable

from openclaw_tui import events
from openclaw_tui.config import AgentSettings
from openclaw_tui.config.honoured import not_honoured, summary_line
from openclaw_tui.events import EventSink
from openclaw_tui.llm.client import ChatModel, RetryPolicy
from openclaw_tui.llm.profiles import ModelProfile
from openclaw_tui.mcp.session_tools import McpTools
from openclaw_tui.memory.api import MemoryBackend, SearchResult
from openclaw_tui.records.change_diff import change_event
from openclaw_tui.records.history import ChangeOrigin, MemoryHistory
from openclaw_tui.records.restore import undo_last
from openclaw_tui.records.session_store import SessionStore, session_title
from openclaw_tui.records.transcript import TranscriptWriter, read_transcript
from openclaw_tui.session.budget import TokenBudget
from openclaw_tui.session.compaction import Compactor
from openclaw_tui.session.context import SessionContext, session_header
from openclaw_tui.session.conversation import History, replay
from openclaw_tui.session.flush import MemoryFlush
from openclaw_tui.session.forget_live import LiveScrub, Stones, scrub_session
from openclaw_tui.session.flush_model import FlushModel
from openclaw_tui.session.loop_host import SessionLoopHost
from openclaw_tui.session.memory_link import SessionMemory
from openclaw_tui.session.meter import Meter
from openclaw_tui.session.model_slot import ModelSlot, make_model
from openclaw_tui.session.note_writer import NoteWriter
from openclaw_tui.session.surface import CANCEL_MARK, TurnResult
from openclaw_tui.session.task_slot import TaskSlot
from openclaw_tui.session.tokens import TokenCounter
from openclaw_tui.session.tool_loop import NO_ANSWER, REPEATED_CALL, ToolLoop
from openclaw_tui.session.toolsmith import Toolsmith
from openclaw_tui.session.turn import Turn, Turns
from openclaw_tui.session.upkeep import Upkeep
from openclaw_tui.tools.files import FileTools
from openclaw_tui.tools.registry import ToolBox
from openclaw_tui.unicode_clean import clean_surrogates
from openclaw_tui.workspace.bootstrap import build_system_prompt, startup_notes, today_file_line
from openclaw_tui.workspace.problems import workspace_problem

__all__ = ["CANCEL_MARK", "NO_ANSWER", "REPEATED_CALL", "SessionEngine", "TurnResult", "make_model", "valid_session_id"]

SESSION_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")


def valid_session_id(session_id: str) -> bool:
    return bool(SESSION_ID_RE.match(session_id or "")) and ".." not in session_id


# the notice when a resume restores a prompt that a crash cut off behind a flush or compaction
RECOVERED_PROMPT = "restored your last prompt, which was cut off by a crash during a memory flush or compaction: "


class SessionEngine:
    def __init__(self, settings: AgentSettings, *, sink: EventSink, memory: MemoryBackend | None = None,
                 session_id: str | None = None, model: ChatModel | None = None, retry_policy: RetryPolicy | None = None,
                 probe_ollama: bool = True):
        self.settings = settings
        self._sink = sink
        self._ctx = SessionContext()
        self._mem = SessionMemory(settings, self._emit, memory)
        self.mcp = McpTools(settings, self._emit, lambda: self.profile, offline=lambda: self.is_offline)
        self._slot = ModelSlot(settings, model, probe_ollama=probe_ollama, emit=self._emit)
        self._budget = TokenBudget(settings.config, self._model.model, offline=self.is_offline)
        self._meter = Meter(self._budget, self._slot, self._ctx)
        self._tasks = TaskSlot()
        self._store = SessionStore(settings.sessions_dir)
        self._closed = False
        self.memory_history = MemoryHistory.for_agent(settings.agent_dir)
        self._smith = Toolsmith(settings, self.memory_history, self._emit, lambda: ChangeOrigin("model", self.session_id, self._turn_no))
        self._turn_no = 0
        self.last_turn: Turn | None = None  # the running (or last) turn: its partial answer on a cancel or an error
        self._make_parts(retry_policy or RetryPolicy.from_env())
        self._open_session(session_id)
        if problem := self.workspace_problem():  # a workspace not made yet is every first start: said, not warned
            self._emit(events.Notice("warning" if Path(self.settings.workspace).exists() else "info", problem))
        if unhonoured := summary_line(not_honoured(settings.config)):
            self._emit(events.Notice("warning", unhonoured))
        if key := self._slot.key_problem():
            self._emit(events.Notice("error", key))

    def _make_parts(self, policy: RetryPolicy) -> None:
        host = SessionLoopHost(self._slot, self._emit, self._budget, self._ctx, self._mem)
        loop = ToolLoop(self.settings, policy, host)
        self._flush_model = FlushModel(self.settings, policy, host)
        notes = NoteWriter(self.settings)
        flusher = MemoryFlush(
            self.settings, self._store, self._emit, loop,
            tools_for=lambda target: self._make_toolbox(self._smith.file_tools(flush_mode=True, today_rel=lambda: target)),
            on_stored=self._mem.touch, mode=lambda: self._upkeep.mode(), flush_loop=self._flush_model.loop, notes=notes,
        )
        compactor = Compactor(self.settings, self._store, self._emit, policy=policy, on_retry=loop.on_retry)
        self._upkeep = host.upkeep = Upkeep(self.settings, self._ctx, self._meter, self._slot, self._mem, flusher, compactor,
                                            self._tasks, self._emit)
        self._turns = Turns(self.settings, self._ctx, self._slot, self._meter, self._upkeep, loop, notes, self._store, self._emit)

    def _open_session(self, session_id: str | None) -> None:
        if session_id is not None:
            if not valid_session_id(session_id):
                raise ValueError(f"invalid session id {session_id!r}: use letters, digits, '-', '_' or '.' (max 128)")
            if self._transcript_path(session_id).exists():
                self.resume(session_id)
            else:
                self._start_new(session_id)
        else:
            self._start_new(str(uuid.uuid4()))
        if self._budget.system_tokens is None:
            # Load the tokenizer now (the UI builds the engine in a worker thread), so
            # token_snapshot() on the UI thread never pays for it.
            self._meter.recount()

    def workspace_problem(self) -> str | None:
        """Why notes cannot be kept in the workspace (missing, or not a folder), else None."""
        return None if self.access == "none" else workspace_problem(Path(self.settings.workspace))

    # ================================================================== properties

    @property
    def _model(self) -> ChatModel:
        return self._slot.model

    @property
    def session_id(self) -> str:
        return self._ctx.session_id

    @session_id.setter
    def session_id(self, value: str) -> None:
        self._ctx.session_id = value

    @property
    def model_label(self) -> str:
        return self._slot.label

    @property
    def is_offline(self) -> bool:
        return self._slot.is_offline

    @property
    def access(self) -> str:
        return self.settings.workspace_access

    @property
    def session_key(self) -> str:
        return self.settings.session_key

    @property
    def memory_plugin_on(self) -> bool:
        return self.settings.config.memory_plugin_enabled and self.access != "none"

    @property
    def memory_tools_on(self) -> bool:
        return self.memory_plugin_on and self.settings.memory_search.enabled

    @property
    def counter(self) -> TokenCounter:
        return self._budget.counter

    @property
    def history(self) -> list[dict[str, Any]]:
        return self._ctx.history.messages

    @property
    def summary(self) -> str:
        return self._ctx.summary

    @property
    def transcript_path(self) -> Path:
        return self._transcript_path(self.session_id)

    def _transcript_path(self, session_id: str) -> Path:
        return self.settings.sessions_dir / f"{session_id}.jsonl"

    @property
    def profile(self) -> ModelProfile:
        """How this model is talked to (llm/profiles.py); settled by _ready()."""
        return self._slot.profile

    @property
    def busy(self) -> bool:
        return self._tasks.busy

    @property
    def system_prompt(self) -> str:
        return self._ctx.system()

    def counters(self) -> dict[str, Any]:
        """The sessions.json entry for this session (compactionCount, memoryFlush*)."""
        return self._store.counters(self.session_id)

    # ================================================================== tokens

    @property
    def context_window(self) -> int:
        return self._meter.context_window

    @property
    def flush_threshold(self) -> int:
        return self._meter.flush_threshold

    @property
    def compaction_threshold(self) -> int:
        return self._meter.compaction_threshold

    def used_tokens(self) -> int:
        """Tokens the next prompt carries (``TokenBudget.used``)."""
        return self._meter.used()

    def token_snapshot(self) -> events.TokenUsage:
        return self._meter.snapshot()

    # ================================================================== session lifecycle

    def _reset_state(self, session_id: str) -> None:
        self._budget.reset()
        self._ctx.start(session_id, TranscriptWriter(self._transcript_path(session_id)), History(self._budget.count_message),
                        self._build_system(), self._make_toolbox(self._smith.file_tools()))
        self._ctx.today = self._today_line()

    def _start_new(self, session_id: str) -> None:
        self._reset_state(session_id)
        self._ctx.notes = startup_notes(self.settings.workspace, workspace_access=self.access,
                                        session_key=self.settings.session_key)

    def _refuse_if_busy(self, what: str) -> None:
        if self.busy:
            raise RuntimeError(f"cannot {what} while a turn is running; cancel it first")

    def new_session(self) -> str:
        self._refuse_if_busy("start a new session")
        self._upkeep.end_notes("new")
        self._start_new(str(uuid.uuid4()))
        self._meter.recount()
        return self.session_id

    def resume(self, session_id: str) -> None:
        self._refuse_if_busy("resume a session")
        if not valid_session_id(session_id):
            raise ValueError(f"invalid session id {session_id!r}")
        entries = read_transcript(self._transcript_path(session_id))
        self._store.resumable(session_id, self.session_key, has_transcript=bool(entries))
        self._reset_state(session_id)
        ctx, convo = self._ctx, replay(entries)
        ctx.notes, ctx.summary = convo.notes, convo.summary
        ctx.history.extend(convo.messages)
        if convo.usage is not None and convo.usage.model == self._model.model:
            self._budget.resume_from(convo.usage.tokens, ctx.history.tokens_of_first(convo.usage.messages), self._meter.offered())
        if convo.recovered is not None:
            # The process died during the flush/compaction that ran before this prompt:
            # the prompt is part of the conversation again, and goes into the transcript
            # so a later resume sees it as a normal message.
            ctx.log.append({"type": "message", "message": convo.messages[-1], "recovered": True})
            self._emit(events.Notice("warning", RECOVERED_PROMPT + session_title(convo.recovered)))
        ctx.persisted = bool(entries)
        self._meter.recount()

    def list_sessions(self) -> list[dict[str, Any]]:
        """sessions.json entries, most recently active first (``SessionStore.recent``)."""
        return self._store.recent(self.session_id)

    def set_model(self, model: str) -> None:
        self._refuse_if_busy("switch models")
        self._slot.switch(model)
        self._budget.use_model(self._model.model, offline=self.is_offline)
        self._ctx.history.recount(self._budget.count_message)
        self._meter.recount()
        if self._ctx.persisted:
            self._ctx.log.append({"type": "model", "model": self._model.model})
        self._emit(events.Notice("info", f"model: {self.model_label}"))
        if key := self._slot.key_problem():
            self._emit(events.Notice("error", key))

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._tasks.stop()
        self._upkeep.end_notes("quit")
        self._ctx.close()
        self._slot.close()
        self._flush_model.close()
        self._mem.close()
        self.mcp.close()

    # ================================================================== plumbing

    def _emit(self, event: events.Event) -> None:
        try:
            self._sink(event)
        except Exception:  # noqa: BLE001 - a broken sink must not break the session
            pass

    def _make_toolbox(self, files: FileTools) -> ToolBox:
        return self._smith.toolbox(files, memory=self._mem.memory, memory_enabled=self.memory_tools_on,
                                   before_search=self._mem.before_search, extra=self.mcp)

    def undo_memory(self) -> events.MemoryChanged:
        """/undo: revert this session's last memory change (raises HistoryError when it cannot)."""
        self._refuse_if_busy("undo")
        change = undo_last(self.settings.workspace, self.memory_history, self.session_id, ChangeOrigin("user", self.session_id, self._turn_no))
        self._mem.touch()
        event = change_event(change, actor="user")
        self._emit(event)
        return event

    def forgotten(self, stones: Stones) -> LiveScrub:
        """/forget: the facts leave the prompt, notes, summary and history (``forget_live.py``)."""
        return scrub_session(self._ctx, stones, self._build_system(), self._budget.count_message, self._meter.recount)

    async def _ensure_memory(self) -> None:
        """Open memory on first use when no host passed it in (``chat -p``, scenarios, tests)."""
        if await self._mem.ensure(self.memory_tools_on):
            self._ctx.tools.memory = self._mem.memory

    async def _settle_profile(self) -> None:
        if await self._slot.settle_profile():
            system, line = self._build_system(), self._today_line()
            if system != self._ctx.prompt or line != self._ctx.today:
                self._ctx.prompt, self._ctx.today = system, line
                self._meter.recount()

    def _today_line(self) -> str:  # after the fixed start, compact prompt only (bootstrap.today_file_line)
        on = self.profile.compact_prompt and self.memory_tools_on and self.access != "none"
        return today_file_line(self.session_key) if on else ""

    def _build_system(self) -> str:
        return build_system_prompt(
            self.settings.workspace,
            session_key=self.session_key,
            workspace_access=self.access,
            memory_enabled=self.memory_tools_on,
            citations=self.settings.config.memory.citations,
            compact=self.profile.compact_prompt,
        ).text

    async def warm_up(self) -> None:
        """Start a local model's server now (the TUI calls this after the first frame);
        a failure becomes one error notice and the offline agent serves."""
        problem = await self._slot.warm_up()
        if problem:
            self._emit(events.Notice("error", problem))

    async def _ready(self, *, model: bool = True) -> None:
        """The session ready for a turn; ``model=False``: for a command that needs no model
        (``/memory search``, an engine-mode ``/flush``), whose server is not started for it."""
        if model:
            await self.warm_up()
        await self._settle_profile()
        await self._ensure_memory()
        await self.mcp.ensure()
        await self._budget.resolve_window()
        warning = self._budget.no_room_warning()
        if warning:
            self._emit(events.Notice("warning", warning))
        if self._budget.system_tokens is None:
            await asyncio.to_thread(self._meter.recount)
        self._ctx.persist(self._store, session_header(self.settings, self._model.model))
        notice = self._store.take_recovery_notice()
        if notice:
            self._emit(events.Notice("warning", notice))

    # ================================================================== turns and commands

    async def send(self, text: str) -> TurnResult:
        if self.busy:
            return TurnResult(text="", session_id=self.session_id, error="a turn is already running")
        self._turn_no += 1
        return await self._tasks.run(self._send(clean_surrogates(text)))

    async def _send(self, text: str) -> TurnResult:
        turn = self.last_turn = self._turns.begin(text, self._turn_no)
        try:
            await self._ready()
            return await self._turns.play(turn)
        except asyncio.CancelledError:
            if not self._tasks.cancel_requested:
                raise
            return self._turns.ended_by_cancel(turn)

    def cancel(self) -> None:
        """Cancel the running turn; the partial answer is kept and marked."""
        self._tasks.cancel()

    async def memory_search(self, query: str) -> SearchResult:
        """/memory search: same path as the tool (emits MemoryRetrieved); no model started."""
        await self._ready(model=False)
        return await self._ctx.tools.memory_search({"query": query})

    async def _run_cancellable(self, what: str, factory: Callable[[], Awaitable[None]]) -> bool:
        """Run a /flush or /compact as the engine's current task so cancel() stops it."""
        if self.busy:
            self._emit(events.Notice("warning", f"cannot {what} while a turn is running"))
            return False
        if await self._tasks.run_cancellable(factory):
            return True
        self._emit(events.Notice("info", f"{what} cancelled"))
        return False

    async def flush(self) -> None:
        """/flush: a silent flush turn now, whatever the thresholds say."""

        async def run() -> None:
            await self._ready(model=False)
            if self._upkeep.mode() != "engine":  # the engine's own notes need no model (issue 38)
                await self.warm_up()
            await self._upkeep.flush("manual", self.used_tokens())

        await self._run_cancellable("flush", run)

    async def compact(self, instructions: str | None = None) -> None:
        """/compact [instructions]."""

        async def run() -> None:
            await self._ready()
            await self._upkeep.compact("manual", instructions)

        await self._run_cancellable("compaction", run)
        self._emit(self.token_snapshot())
