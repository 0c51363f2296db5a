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

The engine orchestrates; the parts live beside it: the conversation and its pure replay
(``conversation.py``), the token budget (``budget.py``), the model ↔ tools loop
(``tool_loop.py``), a turn's steps and token count (``turn_flow.py``) and how a turn ends
without an answer (``turn_end.py``), the flush (``flush.py``), compaction's steps (``compaction.py``),
opening memory (``memory_link.py``) and the transcript format (``transcript.py``).
"""

from __future__ import annotations

import asyncio
import re
import uuid
from pathlib import Path
from typing import Any, Awaitable, Callable

from openclaw_tui import events
from openclaw_tui.config import AgentSettings
from openclaw_tui.events import EventSink
from openclaw_tui.llm.client import ChatModel, RetryPolicy
from openclaw_tui.llm.profiles import ModelProfile
from openclaw_tui.mcp.session_tools import McpTools
from openclaw_tui.memory.api import MemoryBackend
from openclaw_tui.session.budget import TokenBudget
from openclaw_tui.session.compaction import SUMMARY_HEADER, Compactor
from openclaw_tui.session.conversation import History, replay
from openclaw_tui.session.flush import FlushTurn, MemoryFlush, flush_mode
from openclaw_tui.session.flush_model import FlushModel
from openclaw_tui.session.memory_link import SessionMemory
from openclaw_tui.session.model_slot import ModelSlot, make_model
from openclaw_tui.records.session_store import SessionStore, session_title
from openclaw_tui.session.surface import CANCEL_MARK, TurnResult
from openclaw_tui.session.task_slot import TaskSlot
from openclaw_tui.session.thresholds import compaction_cut_for
from openclaw_tui.session.tokens import TokenCounter
from openclaw_tui.session.toolsmith import Toolsmith
from openclaw_tui.session.turn_flow import TurnFlow
from openclaw_tui.session.loop_host import SessionLoopHost
from openclaw_tui.session.tool_loop import NO_ANSWER, REPEATED_CALL, RunScratch, ToolLoop
from openclaw_tui.records.transcript import TranscriptWriter, read_transcript, usage_entry
from openclaw_tui.tools.files import FileTools
from openclaw_tui.tools.registry import ToolBox
from openclaw_tui.workspace.bootstrap import build_system_prompt, startup_notes
from openclaw_tui.records.change_diff import change_event
from openclaw_tui.records.history import ChangeOrigin, MemoryHistory
from openclaw_tui.records.restore import undo_last

__all__ = ["CANCEL_MARK", "NO_ANSWER", "REPEATED_CALL", "SessionEngine", "TurnResult", "make_model", "valid_session_id"]

SESSION_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")


def valid_session_id(session_id: str) -> bool:
    return bool(SESSION_ID_RE.match(session_id or "")) and ".." not in session_id


def workspace_problem(ws: Path) -> str | None:
    """Why notes cannot be kept in workspace ``ws`` (missing, or not a folder), else None."""
    if ws.is_dir():
        return None
    if ws.exists():
        return f"workspace {ws} is a file, not a folder: memory files cannot be read or saved; pass --workspace DIR"
    return (
        f"workspace {ws} does not exist yet: no bootstrap files or memory to read (the first saved "
        f"note creates it); set it up with `openclaw-tui init --workspace {ws}`"
    )


# the notice when a resume restores a prompt that a crash cut off behind a flush or compaction
RECOVERED_PROMPT = "restored your last prompt, which was cut off by a crash during a memory flush or compaction: "


class SessionEngine(TurnFlow):
    def __init__(
        self,
        settings: AgentSettings,
        *,
        sink: EventSink,
        memory: MemoryBackend | None = None,
        session_id: str | None = None,
        model: ChatModel | None = None,
        retry_policy: RetryPolicy | None = None,
        probe_ollama: bool = True,
    ):
        self.settings = settings
        self._sink = sink
        self._mem = SessionMemory(settings, self._emit, memory)
        self.mcp = McpTools(settings, self._emit, lambda: self.profile, offline=lambda: self.is_offline)
        self._slot = ModelSlot(settings, model, probe_ollama=probe_ollama, emit=self._emit)
        self._budget = TokenBudget(settings.config, self._model.model, offline=self.is_offline)
        self._tasks = TaskSlot()
        self._store = SessionStore(settings.sessions_dir)
        self._transcript: TranscriptWriter = None  # type: ignore[assignment]  # opened by _open_session below, before any use
        self._closed = False
        self.memory_history = MemoryHistory.for_agent(settings.agent_dir)
        self._smith = Toolsmith(settings, self.memory_history, self._emit, lambda: ChangeOrigin("model", self.session_id, self._turn_no))
        self._turn_no = 0
        self._turn_scratch = RunScratch()  # the running (or last) turn's: its partial answer on a cancel or an error
        self._make_parts(retry_policy or RetryPolicy.from_env())
        self._open_session(session_id)
        problem = self.workspace_problem()
        if problem:
            self._emit(events.Notice("warning", problem))

    def _make_parts(self, policy: RetryPolicy) -> None:
        hooks = SessionLoopHost(lambda: self._model, lambda: self.profile, self._emit, self._on_usage, self._overflow, self._mem.touch)
        self._loop = ToolLoop(self.settings, policy, hooks)
        self._flush_model = FlushModel(self.settings, policy, hooks)
        self._flusher = MemoryFlush(
            self.settings, self._store, self._emit, self._loop,
            tools_for=lambda target: self._make_toolbox(self._smith.file_tools(flush_mode=True, today_rel=lambda: target)),
            on_stored=self._mem.touch, mode=self._flush_mode, flush_loop=self._flush_model.loop,
        )
        self._compactor = Compactor(self.settings, self._store, self._emit, policy=policy, on_retry=self._loop.on_retry)

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
            self._recount_fixed()

    def workspace_problem(self) -> str | None:
        """Why notes cannot be kept in the workspace (missing, or not a folder), else None."""
        return None if self.access == "none" else workspace_problem(Path(self.settings.workspace))

    # ================================================================== properties

    @property
    def _model(self) -> ChatModel:
        return self._slot.model

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
        return self._history.messages

    @property
    def summary(self) -> str:
        return self._summary

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

    def _system_text(self, extra: str | None = None) -> str:
        parts = [self._system]
        if self._notes:
            parts.append(self._notes)
        if self._summary:
            parts.append(SUMMARY_HEADER + "\n" + self._summary)
        if extra:
            parts.append(extra)
        return "\n\n".join(parts)

    @property
    def system_prompt(self) -> str:
        return self._system_text()

    def counters(self) -> dict[str, Any]:
        """The sessions.json entry for this session (compactionCount, memoryFlush*)."""
        return self._store.counters(self.session_id)

    # ================================================================== session lifecycle

    def _reset_state(self, session_id: str) -> None:
        if self._transcript is not None:
            self._transcript.close()
        self.session_id = session_id
        self._transcript = TranscriptWriter(self._transcript_path(session_id))
        self._history = History(lambda msg: self._budget.count_message(msg))
        self._summary = ""
        self._notes = ""
        self._budget.reset()
        self._persisted = False
        self._system = self._build_system()
        self._files = self._smith.file_tools()
        self._toolbox = self._make_toolbox(self._files)

    def _start_new(self, session_id: str) -> None:
        self._reset_state(session_id)
        self._notes = startup_notes(self.settings.workspace, workspace_access=self.access)

    def _refuse_if_busy(self, what: str) -> None:
        if self.busy:
            raise RuntimeError(f"cannot {what} while a turn is running; cancel it first")

    def new_session(self) -> str:
        self._refuse_if_busy("start a new session")
        self._end_flush("new")
        self._start_new(str(uuid.uuid4()))
        self._recount_fixed()
        return self.session_id

    def resume(self, session_id: str) -> None:
        self._refuse_if_busy("resume a session")
        if not valid_session_id(session_id):
            raise ValueError(f"invalid session id {session_id!r}")
        entries = read_transcript(self._transcript_path(session_id))
        self._store.resumable(session_id, self.session_key, has_transcript=bool(entries))
        self._reset_state(session_id)
        convo = replay(entries)
        self._notes, self._summary = convo.notes, convo.summary
        self._history.extend(convo.messages)
        if convo.usage is not None and convo.usage.model == self._model.model:
            self._budget.usage_base = (convo.usage.tokens, self._history.tokens_of_first(convo.usage.messages))
        if convo.recovered is not None:
            # The process died during the flush/compaction that ran before this prompt:
            # the prompt is part of the conversation again, and goes into the transcript
            # so a later resume sees it as a normal message.
            self._transcript.append({"type": "message", "message": convo.messages[-1], "recovered": True})
            self._emit(events.Notice("warning", RECOVERED_PROMPT + session_title(convo.recovered)))
        self._persisted = bool(entries)
        self._recount_fixed()

    def list_sessions(self) -> list[dict[str, Any]]:
        """sessions.json entries, most recently active first (``SessionStore.recent``)."""
        return self._store.recent(self.session_id)

    def set_model(self, model: str) -> None:
        self._refuse_if_busy("switch models")
        self._slot.switch(model)
        self._budget.use_model(self._model.model, offline=self.is_offline)
        self._history.recount(lambda msg: self._budget.count_message(msg))
        self._recount_fixed()
        if self._persisted:
            self._transcript.append({"type": "model", "model": self._model.model})
        self._emit(events.Notice("info", f"model: {self.model_label}"))

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._tasks.stop()
        self._end_flush("quit")
        if self._transcript is not None:
            self._transcript.close()
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

    async def _ensure_memory(self) -> None:
        """Open memory on first use when no host passed it in (``chat -p``, scenarios, tests)."""
        if await self._mem.ensure(self.memory_tools_on):
            self._toolbox.memory = self._mem.memory

    def _persist_header(self) -> None:
        if not self._persisted:
            self._persisted = True
            self._store.persist(
                self.session_id, self._transcript, self._notes, agentId=self.settings.agent_id, sessionKey=self.session_key,
                workspace=str(self.settings.workspace), workspaceAccess=self.access, model=self._model.model,
            )

    async def _settle_profile(self) -> None:
        if await self._slot.settle_profile():
            system = self._build_system()
            if system != self._system:
                self._system = system
                self._recount_fixed()

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

    async def _ready(self) -> None:
        await self.warm_up()
        await self._settle_profile()
        await self._ensure_memory()
        await self.mcp.ensure()
        await self._budget.resolve_window()
        warning = self._budget.no_room_warning()
        if warning:
            self._emit(events.Notice("warning", warning))
        if self._budget.system_tokens is None:
            await asyncio.to_thread(self._recount_fixed)
        self._persist_header()
        notice = self._store.take_recovery_notice()
        if notice:
            self._emit(events.Notice("warning", notice))

    def _on_usage(self, usage: dict[str, int]) -> None:
        """The model's count for the prompt and answer now in the history: the meter's base,
        kept in the transcript so a resumed session starts from it, not from an estimate."""
        self._budget.report(usage, self._history.tokens)
        self._transcript.append(usage_entry(self._model.model, usage))

    def _add(self, msg: dict[str, Any], **meta: Any) -> None:
        self._history.add(msg)
        self._transcript.append({"type": "message", "message": msg, **meta})

    # ================================================================== flush and compaction

    async def _run_cancellable(self, what: str, factory: Callable[[], Awaitable[None]]) -> bool:
        """Run a /flush or /compact as the engine's current task so cancel() stops it."""
        if self.busy:
            self._emit(events.Notice("warning", f"cannot {what} while a turn is running"))
            return False
        if await self._tasks.run_cancellable(factory):
            return True
        self._emit(events.Notice("info", f"{what} cancelled"))
        return False

    def _want_flush(self, projected: int) -> bool:
        return self._flusher.wanted(self.session_id, projected, self.flush_threshold)

    def _flush_mode(self) -> str:
        cfg = self.settings.config.agents.defaults.compaction.memory_flush
        return flush_mode(cfg.mode, local=self.profile.name == "local", offline=self.is_offline, flush_model=bool(cfg.model))

    def _end_flush(self, reason: str) -> None:
        """/new and quitting: the engine's notes for what no flush stored (memoryFlush.onSessionEnd)."""
        on_end = self.settings.config.agents.defaults.compaction.memory_flush.on_session_end
        if on_end and self._persisted and self._transcript is not None and self._flush_mode() != "model":
            self._flusher.engine_notes(self._flush_turn(), reason)

    def _flush_turn(self) -> FlushTurn:
        return FlushTurn(self.session_id, self.history, self._system_text, self._transcript, self.flush_threshold)

    async def _overflow(self) -> bool:
        """The provider said the context overflowed: flush (once per cycle), then compact."""
        used = self.used_tokens()
        if self._want_flush(max(used, self.flush_threshold)):
            await self._run_flush("overflow", used)
        return await self._compact("overflow")

    async def _run_flush(self, reason: str, tokens: int) -> bool:
        return await self._flusher.run(self._flush_turn(), reason, tokens)

    async def flush(self) -> None:
        """/flush: a silent flush turn now, whatever the thresholds say."""

        async def run() -> None:
            await self._ready()
            await self._run_flush("manual", self.used_tokens())

        await self._run_cancellable("flush", run)

    async def _compact(self, reason: str, instructions: str | None = None) -> bool:
        tokens_before = self.used_tokens()
        keep = self._compactor.keep_tokens(self.compaction_threshold)
        cut = compaction_cut_for(reason, self._history.token_counts, self._history.roles, keep)
        if cut == 0:
            if reason == "manual":
                self._emit(events.Notice("info", "nothing to compact yet"))
            return False
        if self._flush_mode() != "model":  # no fact leaves the context unstored (no model call)
            self._flusher.engine_notes(FlushTurn(self.session_id, self.history[:cut], self._system_text, self._transcript, 0), "compaction")
        self._emit(events.CompactionStarted(session_id=self.session_id, tokens_before=tokens_before, reason=reason))
        summary = await self._compactor.summarise(
            self._model, self.history[:cut], previous=self._summary, instructions=instructions,
            plain=self.profile.plain_summary, context_window=self.context_window, must=reason in ("overflow", "manual"),
        )
        if summary is None:  # compaction.mode "safeguard": a summary that failed its check twice is not used
            return False
        self._history.drop_head(cut)
        self._summary = summary
        self._budget.usage_base = None
        self._recount_fixed()
        entry = {"reason": reason, "summary": summary, "tokensBefore": tokens_before, "tokensAfter": self.used_tokens(),
                 "kept": len(self._history), "instructions": instructions}
        self._compactor.record(self.session_id, self._transcript, entry)
        await self._compactor.resync_memory(self._mem.memory)
        return True

    async def compact(self, instructions: str | None = None) -> None:
        """/compact [instructions]."""

        async def run() -> None:
            await self._ready()
            await self._compact("manual", instructions)

        await self._run_cancellable("compaction", run)
        self._emit(self.token_snapshot())
