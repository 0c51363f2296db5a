"""The session engine: one conversation with tools, memory flush and compaction.

The TUI, ``chat -p``, scenarios and tests all drive this class; it reports only through
``openclaw_tui.events`` dataclasses sent to ``sink`` and never imports Textual.

    engine = SessionEngine(settings, sink=print)
    result = await engine.send("what did we decide about the logo?")

A turn: flush if the prompt about to be sent reaches the flush threshold (once per
compaction cycle), compact if it exceeds the compaction threshold, stream the model with
the tool schemas, run tool calls until the model answers without tools (step cap), append
everything to the transcript, compact afterwards if the context grew past the threshold.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from openclaw_tui import events
from openclaw_tui.config import AgentSettings
from openclaw_tui.events import EventSink
from openclaw_tui.llm.client import ChatModel, Completion, LiteLLMModel, RetryPolicy, ToolCall, complete_with_retries
from openclaw_tui.llm.context import resolve_context_window
from openclaw_tui.llm.errors import LLMError, LLMErrorInfo, redact
from openclaw_tui.llm.holdback import StreamHoldback
from openclaw_tui.llm.profiles import (
    HOSTED,
    ModelProfile,
    is_loopback,
    offered_tools,
    profile_for,
    render_messages,
    serves_local_model,
)
from openclaw_tui.llm.toolcall_text import recover_completion, tool_names
from openclaw_tui.memory.api import MemoryBackend
from openclaw_tui.llm.resolve import ModelChoice, choice_for_model, listed_models, resolve_model
from openclaw_tui.session.compaction import (
    SUMMARY_HEADER,
    compaction_request,
    extractive_summary,
    has_content,
    render_for_summary,
    tool_result_content,
)
from openclaw_tui.session.citations import source_suffix
from openclaw_tui.session.offline import OfflineModel
from openclaw_tui.session.recall import RECALL_MAX_RESULTS, recall_query, store_hint, wants_recall
from openclaw_tui.session.store import SessionStore, session_title
from openclaw_tui.session.thresholds import (
    compaction_cut,
    compaction_threshold,
    flush_skip_reason,
    flush_threshold,
    is_no_reply,
    should_compact,
    should_flush,
)
from openclaw_tui.session.tokens import TokenCounter
from openclaw_tui.session.transcript import TranscriptWriter, read_transcript
from openclaw_tui.tools.files import FileTools
from openclaw_tui.tools.registry import ToolBox
from openclaw_tui.workspace.bootstrap import build_system_prompt, startup_notes
from openclaw_tui.workspace.change_diff import change_event
from openclaw_tui.workspace.daily import daily_rel, today
from openclaw_tui.workspace.guard import is_memory_rel
from openclaw_tui.workspace.history import ChangeOrigin, MemoryHistory
from openclaw_tui.workspace.restore import undo_last
from openclaw_tui.unicode_clean import clean_surrogates
from openclaw_tui.workspace.session_keys import is_direct_session

SESSION_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")
CANCEL_MARK = "[answer interrupted by the user]"
REPEATED_CALL = "this exact call already ran in this turn and its result is above; answer the user now"
# the answer when a model told to answer without tools printed a tool call again, and nothing else
NO_ANSWER = "I could not answer that from what I found."


@dataclass
class TurnResult:
    text: str  # visible reply ("" when silent / NO_REPLY)
    session_id: str
    cancelled: bool = False
    error: str | None = None  # one-line provider error, when the turn ended on one
    usage: events.TokenUsage | None = None
    flushed: bool = False
    compacted: bool = False
    no_reply: bool = False


@dataclass
class _Entry:
    message: dict[str, Any]
    tokens: int


def make_model(choice: ModelChoice, settings: AgentSettings | None = None) -> ChatModel:
    if choice.offline:
        return OfflineModel()
    if choice.local_path is not None:
        from openclaw_tui.llm.local.runtime import LocalModel, runtime_config  # noqa: PLC0415

        return LocalModel(choice, runtime_config(settings), fallback=OfflineModel)
    # agents.defaults.timeoutSeconds caps one whole model call (connect + stream)
    cap = settings.config.agents.defaults.timeout_seconds if settings is not None else None
    return LiteLLMModel(choice, call_cap_s=cap)


def valid_session_id(session_id: str) -> bool:
    return bool(SESSION_ID_RE.match(session_id or "")) and ".." not in session_id


class SessionEngine:
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
        self._policy = retry_policy or RetryPolicy.from_env()
        self._memory = memory
        self._own_memory = memory is None
        self._own_model = model is None  # a model passed in is the caller's to close
        self._memory_opened = memory is not None
        self._memory_dirty = False
        if model is not None:
            self._model: ChatModel = model
            self._choice: ModelChoice | None = None
        else:
            self._choice = resolve_model(settings, probe=probe_ollama)
            self._model = make_model(self._choice, settings)
        self._counter: TokenCounter | None = None
        self._window: int | None = None
        self._window_source = ""
        self._warned_window: int | None = None
        self._task: asyncio.Future[Any] | None = None
        self._cancel_requested = False
        self._partial: list[str] = []
        self._store = SessionStore(settings.sessions_dir)
        self._transcript: TranscriptWriter | None = None
        self._tools_tokens: dict[int, int] = {}
        self._profile: ModelProfile | None = None  # decided in _ready() (may ask a local server)
        self._turn_hits: list[dict[str, Any]] = []  # memory_search results seen in this turn
        self._hint: str | None = None  # sent after the user's message in this turn's first request
        self._closed = False
        self.memory_history = MemoryHistory.for_agent(settings.agent_dir)
        self._turn_no = 0
        if session_id is not None:
            if not valid_session_id(session_id):
                raise ValueError(f"invalid session id {session_id!r}: use letters, digits, '-', '_' or '.' (max 128)")
            if self._transcript_path(session_id).exists():
                self.resume(session_id)
            else:
                self._start_new(session_id)
        else:
            self._start_new(str(uuid.uuid4()))
        if self._system_tokens is None:
            # Load the tokenizer now (the UI builds the engine in a worker thread), so
            # token_snapshot() on the UI thread never pays for it.
            self._recount_fixed()
        problem = self.workspace_problem()
        if problem:
            self._emit(events.Notice("warning", problem))

    def workspace_problem(self) -> str | None:
        """Why notes cannot be kept in the workspace (missing, or not a folder), else None."""
        if self.access == "none":
            return None
        ws = Path(self.settings.workspace)
        if ws.is_dir():
            return None
        if ws.exists():
            return f"workspace {ws} is a file, not a folder: memory files cannot be read or saved; pass --workspace DIR"
        return (
            f"workspace {ws} does not exist yet: no bootstrap files or memory to read (the first saved "
            f"note creates it); set it up with `openclaw-tui init --workspace {ws}`"
        )

    # ================================================================== properties

    @property
    def model_label(self) -> str:
        return self._model.label

    @property
    def is_offline(self) -> bool:
        return bool(getattr(self._model, "is_offline", False))

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
        if self._counter is None:
            self._counter = TokenCounter(self._model.model)
        return self._counter

    @property
    def history(self) -> list[dict[str, Any]]:
        return [e.message for e in self._history]

    @property
    def summary(self) -> str:
        return self._summary

    @property
    def transcript_path(self) -> Path:
        return self._transcript_path(self.session_id)

    def _transcript_path(self, session_id: str) -> Path:
        return self.settings.sessions_dir / f"{session_id}.jsonl"

    # ================================================================== thresholds & tokens

    @property
    def context_window(self) -> int:
        if self._window is None or self._window_source == "default-pending":
            window, source = resolve_context_window(self.settings.config, self._model.model, allow_import=False)
            if source == "default" and not self.is_offline:
                source = "default-pending"  # litellm may know better once it is loaded
            self._window, self._window_source = window, source
        return self._window

    async def _resolve_window(self) -> None:
        if self._window_source in ("", "default-pending") and not self.is_offline:
            window, source = await asyncio.to_thread(resolve_context_window, self.settings.config, self._model.model)
            self._window, self._window_source = window, source

    @property
    def flush_threshold(self) -> int:
        c = self.settings.config.agents.defaults.compaction
        return flush_threshold(self.context_window, c.reserve_tokens_floor, c.memory_flush.soft_threshold_tokens)

    @property
    def compaction_threshold(self) -> int:
        c = self.settings.config.agents.defaults.compaction
        return compaction_threshold(self.context_window, c.reserve_tokens, c.reserve_tokens_floor)

    def _system_text(self, extra: str | None = None) -> str:
        parts = [self._system]
        if self._notes:
            parts.append(self._notes)
        if self._summary:
            parts.append(SUMMARY_HEADER + "\n" + self._summary)
        if extra:
            parts.append(extra)
        return "\n\n".join(parts)

    def _recount_fixed(self) -> None:
        self._system_tokens = self.counter.count_message({"role": "system", "content": self._system_text()})

    def _tools_cost(self, tools: list[dict[str, Any]]) -> int:
        key = len(tools)
        if key not in self._tools_tokens:
            self._tools_tokens[key] = self.counter.count_tools(tools)
        return self._tools_tokens[key]

    def _estimate(self) -> int:
        return self._system_tokens + self._tools_cost(offered_tools(self._toolbox.schemas(), self.profile)) + self._hist_tokens

    def used_tokens(self) -> int:
        """Tokens the next prompt carries: provider-reported usage of the last call plus
        estimates of what was added since, else the cached per-message estimate."""
        if self._usage_base is not None:
            reported, hist_then = self._usage_base
            return reported + (self._hist_tokens - hist_then)
        return self._estimate()

    def token_snapshot(self) -> events.TokenUsage:
        if self._system_tokens is None:
            self._recount_fixed()
        return events.TokenUsage(
            used=self.used_tokens(),
            context_window=self.context_window,
            flush_threshold=self.flush_threshold,
            compaction_threshold=self.compaction_threshold,
            estimated=self._usage_base is None,
            prompt_tokens=self._last_usage.get("prompt_tokens") if self._last_usage else None,
            completion_tokens=self._last_usage.get("completion_tokens") if self._last_usage else None,
        )

    def counters(self) -> dict[str, Any]:
        """The sessions.json entry for this session (compactionCount, memoryFlush*)."""
        entry = self._store.get(self.session_id) or {}
        return {
            "compactionCount": int(entry.get("compactionCount") or 0),
            "memoryFlushCompactionCount": entry.get("memoryFlushCompactionCount"),
            "memoryFlushAt": entry.get("memoryFlushAt"),
        }

    # ================================================================== session lifecycle

    def _reset_state(self, session_id: str) -> None:
        if self._transcript is not None:
            self._transcript.close()
        self.session_id = session_id
        self._transcript = TranscriptWriter(self._transcript_path(session_id))
        self._history: list[_Entry] = []
        self._hist_tokens = 0
        self._summary = ""
        self._notes = ""
        self._usage_base: tuple[int, int] | None = None
        self._last_usage: dict[str, int] | None = None
        self._persisted = False
        self._overflow_retried = False
        self._system = self._build_system()
        self._system_tokens: int | None = None
        self._files = FileTools(
            Path(self.settings.workspace),
            access=self.access,
            session_key=self.session_key,
            on_refused=self._on_refused,
            history=self.memory_history,
            origin=self._origin,
        )
        self._toolbox = self._make_toolbox(self._files)

    def _start_new(self, session_id: str) -> None:
        self._reset_state(session_id)
        self._notes = startup_notes(self.settings.workspace, workspace_access=self.access)

    def _refuse_if_busy(self, what: str) -> None:
        if self.busy:
            raise RuntimeError(f"cannot {what} while a turn is running; cancel it first")

    def new_session(self) -> str:
        self._refuse_if_busy("start a new session")
        self._start_new(str(uuid.uuid4()))
        self._recount_fixed()
        return self.session_id

    def resume(self, session_id: str) -> None:
        self._refuse_if_busy("resume a session")
        if not valid_session_id(session_id):
            raise ValueError(f"invalid session id {session_id!r}")
        path = self._transcript_path(session_id)
        entries = read_transcript(path)
        stored = self._store.get(session_id)
        if not entries and stored is None:
            raise ValueError(f"no session {session_id!r} in {self.settings.sessions_dir}")
        owner = stored.get("sessionKey") if stored else None
        if owner and owner != self.session_key and not is_direct_session(self.session_key):
            # its history may quote MEMORY.md (direct chat) or another group's messages
            raise ValueError(
                f"session {session_id!r} belongs to {owner}; a group or channel session key cannot resume it "
                "(start a new session id)"
            )
        self._reset_state(session_id)
        history: list[dict[str, Any]] = []
        pending: dict[str, Any] | None = None
        for e in entries:
            kind = e.get("type")
            if kind == "message" and isinstance(e.get("message"), dict):
                history.append(e["message"])
                if e["message"].get("role") == "user":
                    pending = None
            elif kind == "pending" and isinstance(e.get("message"), dict):
                pending = e["message"]
            elif kind == "context":
                self._notes = str(e.get("notes") or "")
            elif kind == "compaction":
                try:
                    kept = max(0, int(e.get("kept") or 0))
                except (TypeError, ValueError):  # a hand-edited entry: keep only the summary
                    kept = 0
                history = history[len(history) - kept :] if kept else []
                self._summary = str(e.get("summary") or "")
        history = _close_dangling_tool_calls(history)
        if pending is not None and isinstance(pending.get("content"), str):
            # The process died during the flush/compaction that ran before this prompt:
            # the prompt is part of the conversation, so it goes back into the history
            # (and into the transcript, so a later resume sees it as a normal message).
            history.append({"role": "user", "content": pending["content"]})
            if self._transcript is not None:
                self._transcript.append({"type": "message", "message": history[-1], "recovered": True})
            self._emit(
                events.Notice(
                    "warning",
                    "restored your last prompt, which was cut off by a crash during a memory flush or compaction: "
                    + session_title(pending["content"]),
                )
            )
        for msg in history:
            tok = self.counter.count_message(msg)
            self._history.append(_Entry(msg, tok))
            self._hist_tokens += tok
        self._persisted = bool(entries)
        self._recount_fixed()

    def list_sessions(self) -> list[dict[str, Any]]:
        """sessions.json entries, most recently active first (``lastActivity``: transcript mtime, ms)."""
        out = []
        for entry in self._store.list():
            sid = str(entry.get("sessionId", ""))
            path = self._transcript_path(sid)
            try:
                last = int(path.stat().st_mtime * 1000)
            except OSError:
                last = int(entry.get("updatedAt") or 0)
            out.append({**entry, "transcript": str(path), "current": sid == self.session_id, "lastActivity": max(last, int(entry.get("updatedAt") or 0))})
        out.sort(key=lambda e: e["lastActivity"], reverse=True)
        return out

    def set_model(self, model: str) -> None:
        self._refuse_if_busy("switch models")
        model = (model or "").strip()
        if not model or any(ch.isspace() for ch in model):
            raise ValueError(
                f"not a model name: {model!r} (one litellm model string without spaces, e.g. openai/gpt-4o-mini or offline)"
            )
        self._choice = choice_for_model(model, self.settings, "/model")
        self._close_model()
        self._model = make_model(self._choice, self.settings)
        self._own_model = True
        self._profile = None
        self._counter = None
        self._window = None
        self._window_source = ""
        self._tools_tokens.clear()
        self._usage_base = None
        self._hist_tokens = 0
        for e in self._history:
            e.tokens = self.counter.count_message(e.message)
            self._hist_tokens += e.tokens
        self._recount_fixed()
        if self._persisted and self._transcript is not None:
            self._transcript.append({"type": "model", "model": self._model.model})
        self._emit(events.Notice("info", f"model: {self.model_label}"))

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._task is not None and not self._task.done():
            self._task.cancel()
        if self._transcript is not None:
            self._transcript.close()
        self._close_model()
        if self._own_memory and self._memory is not None:
            try:
                self._memory.close()
            except Exception:  # noqa: BLE001 - closing must not raise
                pass
            self._memory = None

    # ================================================================== plumbing

    def _emit(self, event: events.Event) -> None:
        try:
            self._sink(event)
        except Exception:  # noqa: BLE001 - a broken sink must not break the session
            pass

    def _on_refused(self, tool: str, path: str, reason: str) -> None:
        self._emit(events.AccessRefused(tool=tool, path=path, reason=reason))

    def _origin(self) -> ChangeOrigin:
        return ChangeOrigin("model", self.session_id, self._turn_no)

    def _emit_changes(self, files: FileTools, since: int, call_id: str) -> None:
        for change in files.changes[since:]:
            self._memory_dirty = True
            self._emit(change_event(change, call_id=call_id))

    def undo_memory(self) -> events.MemoryChanged:
        """/undo: revert this session's last memory change (raises HistoryError when it cannot)."""
        self._refuse_if_busy("undo")
        change = undo_last(self.settings.workspace, self.memory_history, self.session_id, ChangeOrigin("user", self.session_id, self._turn_no))
        self._memory_dirty = True
        event = change_event(change, actor="user")
        self._emit(event)
        return event

    def _on_search(self, query: str, result: dict[str, Any]) -> None:
        hits = result.get("results") if isinstance(result, dict) else None
        self._turn_hits.extend(h for h in hits or [] if isinstance(h, dict))
        self._emit(events.MemoryRetrieved(query=query, result=result))

    async def _before_search(self) -> None:
        if self._memory_dirty and self._memory is not None:
            self._memory_dirty = False
            try:
                await asyncio.to_thread(lambda: self._memory.sync(force=False, reason="write"))
            except Exception as exc:  # noqa: BLE001
                self._emit(events.Notice("warning", f"memory sync failed: {exc}"))

    def _make_toolbox(self, files: FileTools) -> ToolBox:
        return ToolBox(
            files,
            memory=self._memory,
            memory_enabled=self.memory_tools_on,
            session_key=self.session_key,
            on_search=self._on_search,
            before_search=self._before_search,
        )

    async def _ensure_memory(self) -> None:
        if self._memory_opened or not self.memory_tools_on:
            return
        self._memory_opened = True
        try:
            from openclaw_tui.memory.backend import open_memory  # noqa: PLC0415

            self._memory = await asyncio.to_thread(open_memory, self.settings, sink=self._sink)
        except Exception as exc:  # noqa: BLE001 - memory trouble must not stop the chat
            self._memory = None
            self._emit(events.Notice("warning", f"memory unavailable: {redact(str(exc))}"))
        self._toolbox.memory = self._memory
        if self._memory is not None and self.settings.memory_search.sync.on_session_start:
            memory = self._memory
            try:
                await asyncio.to_thread(lambda: memory.sync(force=False, reason="session start"))
            except Exception as exc:  # noqa: BLE001 - a failed sync leaves the old index usable
                self._emit(events.Notice("warning", f"memory sync failed: {redact(str(exc))}"))

    def _persist_header(self) -> None:
        if self._persisted or self._transcript is None:
            return
        self._persisted = True
        self._transcript.write_header(
            self.session_id,
            agentId=self.settings.agent_id,
            sessionKey=self.session_key,
            workspace=str(self.settings.workspace),
            workspaceAccess=self.access,
            model=self._model.model,
        )
        if self._notes:
            self._transcript.append({"type": "context", "notes": self._notes})
        self._store.update(
            self.session_id,
            sessionKey=self.session_key,
            agentId=self.settings.agent_id,
            model=self._model.model,
            transcript=self.transcript_path.name,
        )

    @property
    def profile(self) -> ModelProfile:
        """How this model is talked to (llm/profiles.py); settled by _ready()."""
        return HOSTED if self._profile is None or self.is_offline else self._profile

    async def _settle_profile(self) -> None:
        if self._profile is not None:
            return
        d = self.settings.config.agents.defaults
        choice = getattr(self._model, "choice", None)
        api_base = getattr(choice, "api_base", None)
        local_server = False
        if d.tool_profile == "auto" and is_loopback(api_base):
            listing = await asyncio.to_thread(listed_models, str(api_base), getattr(choice, "api_key", None), 2.0)
            local_server = serves_local_model(listing)
        self._profile = profile_for(model=self._model.model, local_server=local_server, setting=d.tool_profile, auto_recall=d.auto_recall)
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

    def _close_model(self) -> None:
        """Stop what our model runs (a local model's server); the offline agent has nothing."""
        close = getattr(self._model, "close", None) if self._own_model else None
        if close is not None:
            try:
                close()
            except Exception:  # noqa: BLE001 - closing must not raise
                pass

    async def warm_up(self) -> None:
        """Start a local model's server now (the TUI calls this after the first frame);
        a failure becomes one error notice and the offline agent serves."""
        start = getattr(self._model, "ensure_started", None)
        if start is None:
            return
        problem = await start()
        if problem:
            self._emit(events.Notice("error", problem))

    async def _ready(self) -> None:
        await self.warm_up()
        await self._settle_profile()
        await self._ensure_memory()
        await self._resolve_window()
        self._warn_if_no_room()
        if self._system_tokens is None:
            await asyncio.to_thread(self._recount_fixed)
        self._persist_header()
        aside = self._store.recovered_to
        if aside is not None:
            self._store.recovered_to = None
            self._emit(
                events.Notice(
                    "warning",
                    f"sessions.json was damaged: rebuilt from the transcripts (the damaged file is kept as {aside.name})",
                )
            )

    def _warn_if_no_room(self) -> None:
        """Once per window: a reserve that eats the whole window makes every turn flush and compact."""
        window = self.context_window
        if self._warned_window == window or (self.flush_threshold > 0 and self.compaction_threshold > 0):
            return
        self._warned_window = window
        c = self.settings.config.agents.defaults.compaction
        self._emit(
            events.Notice(
                "warning",
                f"the context window ({window} tokens) leaves no room after compaction.reserveTokensFloor ({c.reserve_tokens_floor})"
                f" and memoryFlush.softThresholdTokens ({c.memory_flush.soft_threshold_tokens}): every turn will flush and compact;"
                " lower them under agents.defaults.compaction or raise agents.defaults.contextTokens",
            )
        )

    def _add(self, msg: dict[str, Any], **meta: Any) -> None:
        tok = self.counter.count_message(msg)
        self._history.append(_Entry(msg, tok))
        self._hist_tokens += tok
        if self._transcript is not None:
            self._transcript.append({"type": "message", "message": msg, **meta})

    def _on_retry(self, info: LLMErrorInfo, attempt: int, wait: float) -> None:
        note = info.line()
        if info.retry_after_s is not None:
            note += f" (server asked to wait {info.retry_after_s:g}s)"
        self._emit(events.ProviderRetry(provider=info.provider, attempt=attempt, delay_s=round(wait, 3), message=note))

    def _provider_error(self, info: LLMErrorInfo) -> None:
        self._emit(
            events.ProviderError(
                provider=info.provider,
                message=info.line(),
                action=info.action,
                status=info.status,
                retryable=info.retryable,
            )
        )

    async def _call(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], purpose: str, silent: bool, withheld: list[dict[str, Any]] | None = None
    ) -> Completion:
        """One model call. A tool call printed as text is recovered into ``tool_calls`` and never
        shown: streamed text that may be one is held back until the answer is complete. A call
        to a ``withheld`` tool (offered before, not now) is neither run nor shown."""
        self._partial = []

        def show(piece: str) -> None:
            self._partial.append(piece)
            if not silent:
                self._emit(events.TextDelta(text=piece))

        watched = tools or withheld or []
        hold = StreamHoldback(show, tool_names(watched), lead_in=self.profile.hold_lead_in) if watched else None
        rendered = render_messages(messages, self.profile)
        if purpose == "turn" and self._hint and messages[-1].get("role") == "user":  # the user's message, not results
            rendered = rendered[:-1] + [{**rendered[-1], "content": f"{rendered[-1].get('content', '')}\n\n{self._hint}"}]
        done = await complete_with_retries(
            self._model,
            rendered,
            tools or None,
            on_delta=hold.feed if hold else show,
            purpose=purpose,
            policy=self._policy,
            on_retry=self._on_retry,
        )
        done = recover_completion(done, watched, limit=self.profile.text_calls_per_step)
        if done.tool_calls and not tools:  # printed although no tools were offered: the prose only
            shown = hold.shown.strip() if hold else ""
            done = Completion(text=shown or done.text or NO_ANSWER, usage=done.usage, finish_reason=done.finish_reason)
            if not shown:
                show(done.text)
        elif hold is not None and not done.tool_calls:
            hold.release()
        return done

    async def _run_tool_call(self, tc: ToolCall, toolbox: ToolBox, add: Callable[..., None]) -> None:
        args, _err = tc.parsed()
        self._emit(events.ToolCalled(call_id=tc.id, name=tc.name, arguments=args if args is not None else {"_raw": tc.arguments}))
        changed = len(toolbox.files.changes)
        result, err = ({"error": tc.invalid}, tc.invalid) if tc.invalid else await toolbox.run(tc.name, tc.arguments)
        self._emit_changes(toolbox.files, changed, tc.id)
        self._emit(events.ToolResult(call_id=tc.id, name=tc.name, result=result, error=err))
        add({"role": "tool", "tool_call_id": tc.id, "name": tc.name, "content": tool_result_content(result)})
        if not err and tc.name in ("write", "edit", "append") and args and is_memory_rel(str(args.get("path", "")).strip()):
            self._memory_dirty = True

    def _cite_if_missing(self, completion: Completion, silent: bool) -> None:
        """Local profile: an answer drawn from this turn's memory results gets their Source: line."""
        cite = self.profile.cite_sources and completion.text != NO_ANSWER
        suffix = source_suffix(completion.text, self._turn_hits) if cite else ""
        if suffix and not is_no_reply(completion.text):
            completion.text += suffix
            self._partial.append(suffix)
            if not silent:
                self._emit(events.TextDelta(text=suffix))

    async def _auto_recall(self, text: str) -> None:
        """The local profile's memory help (recall.py): a lookup before the model answers a
        question, a reminder of today's log with a request to remember something."""
        self._hint = None
        if not self.profile.auto_recall:
            return
        if self.access == "rw" and "append" in {t["function"]["name"] for t in offered_tools(self._toolbox.schemas(), self.profile)}:
            self._hint = store_hint(text, daily_rel())
        if not (self._toolbox.memory_available and wants_recall(text)):
            return
        args = {"query": recall_query(text), "maxResults": RECALL_MAX_RESULTS}
        tc = ToolCall(f"recall_{uuid.uuid4().hex[:12]}", "memory_search", json.dumps(args, ensure_ascii=False))
        self._add(Completion(tool_calls=[tc]).assistant_message(), autoRecall=True)
        await self._run_tool_call(tc, self._toolbox, self._add)

    async def _loop(
        self,
        *,
        system: Callable[[], str],
        convo: Callable[[], list[dict[str, Any]]],
        add: Callable[..., None],
        purpose: str,
        toolbox: ToolBox,
        silent: bool,
    ) -> Completion:
        """Model ↔ tools until an answer without tool calls (or the step cap)."""
        max_steps = self.settings.config.agents.defaults.max_tool_steps
        pending: list[Any] = []
        answered: set[str] = set()
        assistant_added = False
        try:
            ran: set[str] = set()  # name + arguments of the calls run in this loop
            answer_now = False  # a repeated call: the next request offers no tools
            for _step in range(max_steps):
                tools = [] if answer_now else offered_tools(toolbox.schemas(), self.profile)
                messages = [{"role": "system", "content": system()}] + convo()
                assistant_added = False
                try:
                    completion = await self._call(messages, tools, purpose, silent, withheld=offered_tools(toolbox.schemas(), self.profile))
                except LLMError as exc:
                    if exc.info.is_overflow and purpose == "turn" and not self._overflow_retried:
                        self._overflow_retried = True
                        self._emit(events.Notice("warning", "context overflow reported by the provider: compacting, then retrying once"))
                        if await self._compact("overflow"):
                            continue
                    raise
                if not completion.tool_calls and purpose == "turn":
                    self._cite_if_missing(completion, silent)
                add(completion.assistant_message())
                assistant_added = True
                if completion.usage and purpose == "turn":
                    self._last_usage = completion.usage
                    reported = int(completion.usage.get("prompt_tokens", 0)) + int(completion.usage.get("completion_tokens", 0))
                    self._usage_base = (reported, self._hist_tokens)
                if not completion.tool_calls:
                    return completion
                pending = list(completion.tool_calls)
                answered = set()
                for tc in completion.tool_calls:
                    if self.profile.answer_after_repeat and f"{tc.name} {tc.arguments}" in ran:
                        add({"role": "tool", "tool_call_id": tc.id, "name": tc.name, "content": json.dumps({"error": REPEATED_CALL})})
                        answer_now = True
                    else:
                        ran.add(f"{tc.name} {tc.arguments}")
                        await self._run_tool_call(tc, toolbox, add)
                    answered.add(tc.id)
                pending = []
            stop = Completion(text=f"[stopped after {max_steps} tool steps without a final answer]")
            add(stop.assistant_message())
            return stop
        except BaseException:
            # Never leave a tool call without a result, and keep a partial answer.
            if not assistant_added and self._partial:
                add({"role": "assistant", "content": "".join(self._partial)}, partial=True)
            for tc in pending:
                if tc.id not in answered:
                    add({"role": "tool", "tool_call_id": tc.id, "name": tc.name, "content": json.dumps({"error": "interrupted by the user; the tool may not have finished"})})
            raise

    # ================================================================== flush

    def _flush_skip(self) -> str | None:
        c = self.settings.config.agents.defaults.compaction.memory_flush
        if not self.settings.config.memory_plugin_enabled:
            return "memory plugin is off (plugins.slots.memory = none)"
        return flush_skip_reason(enabled=c.enabled, workspace_access=self.access, memory_enabled=self.access != "none")

    def _want_flush(self, projected: int) -> bool:
        c = self.settings.config.agents.defaults.compaction.memory_flush
        ctr = self.counters()
        return should_flush(
            projected,
            self.flush_threshold,
            enabled=c.enabled and self.settings.config.memory_plugin_enabled,
            workspace_access=self.access,
            memory_enabled=self.access != "none",
            compaction_count=ctr["compactionCount"],
            memory_flush_compaction_count=ctr["memoryFlushCompactionCount"],
            memory_flush_at=ctr["memoryFlushAt"],
        )

    async def _run_flush(self, reason: str, tokens: int) -> bool:
        skip = self._flush_skip()
        if skip:
            self._emit(events.FlushFinished(session_id=self.session_id, path=None, lines_appended=0, stored=False, skipped_reason=skip))
            return False
        cfg = self.settings.config.agents.defaults.compaction.memory_flush
        day = today()
        target = daily_rel(day)
        self._emit(events.FlushStarted(session_id=self.session_id, tokens=tokens, threshold=self.flush_threshold, reason=reason))
        files = FileTools(
            Path(self.settings.workspace),
            access=self.access,
            session_key=self.session_key,
            flush_mode=True,
            today_rel=lambda: target,
            on_refused=self._on_refused,
            history=self.memory_history,
            origin=self._origin,
        )
        toolbox = self._make_toolbox(files)
        prompt = cfg.prompt.replace("YYYY-MM-DD", day.isoformat())
        local: list[dict[str, Any]] = [{"role": "user", "content": prompt}]
        base = self.history
        reply = ""
        error: str | None = None
        try:
            final = await self._loop(
                system=lambda: self._system_text(cfg.system_prompt),
                convo=lambda: base + local,
                add=lambda msg, **_meta: local.append(msg),
                purpose="flush",
                toolbox=toolbox,
                silent=True,
            )
            reply = final.text
        except LLMError as exc:
            self._provider_error(exc.info)
            error = exc.info.line()
        appended = [w for w in files.writes if w.tool == "append"]
        path = appended[0].path if appended else None
        lines = sum(w.lines for w in appended)
        written = "\n".join(w.text.rstrip("\n") for w in appended)
        if appended:
            self._memory_dirty = True
        if self._transcript is not None:
            self._transcript.append(
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
            ctr = self.counters()
            self._store.update(
                self.session_id,
                memoryFlushCompactionCount=ctr["compactionCount"],
                memoryFlushAt=int(time.time() * 1000),
            )
        self._emit(
            events.FlushFinished(
                session_id=self.session_id,
                path=path,
                lines_appended=lines,
                stored=bool(appended),
                skipped_reason=f"provider error: {error}" if error else None,
                written=written,
            )
        )
        return error is None

    async def _run_cancellable(self, what: str, factory: Callable[[], Any]) -> bool:
        """Run a /flush or /compact as the engine's current task so cancel() stops it."""
        if self.busy:
            self._emit(events.Notice("warning", f"cannot {what} while a turn is running"))
            return False
        self._cancel_requested = False
        self._task = asyncio.ensure_future(factory())
        try:
            await self._task
            return True
        except asyncio.CancelledError:
            if not self._cancel_requested:
                raise
            self._emit(events.Notice("info", f"{what} cancelled"))
            return False
        finally:
            self._task = None

    async def flush(self) -> None:
        """/flush: a silent flush turn now, whatever the thresholds say."""

        async def run() -> None:
            await self._ready()
            await self._run_flush("manual", self.used_tokens())

        await self._run_cancellable("flush", run)

    # ================================================================== compaction

    async def _compact(self, reason: str, instructions: str | None = None) -> bool:
        tokens_before = self.used_tokens()
        cfg = self.settings.config.agents.defaults.compaction
        keep = min(cfg.keep_recent_tokens, max(0, self.compaction_threshold // 2))
        counts = [e.tokens for e in self._history]
        roles = [str(e.message.get("role")) for e in self._history]
        cut = compaction_cut(counts, roles, keep)
        if cut == 0 and reason != "threshold" and self._history:
            # Nothing is "old" by the token rule: keep only the latest user turn.
            last_user = max((i for i, r in enumerate(roles) if r == "user"), default=0)
            cut = last_user if last_user > 0 else (len(self._history) if reason == "manual" else 0)
        if cut == 0:
            if reason == "manual":
                self._emit(events.Notice("info", "nothing to compact yet"))
            return False
        self._emit(events.CompactionStarted(session_id=self.session_id, tokens_before=tokens_before, reason=reason))
        head = [e.message for e in self._history[:cut]]
        max_chars = max(4_000, (self.context_window - 2_000) * 3)
        rendered = render_for_summary(head, previous_summary=self._summary, max_chars=max_chars)
        summary = ""
        try:
            done = await complete_with_retries(
                self._model,
                compaction_request(rendered, instructions, plain=self.profile.plain_summary),
                None,
                on_delta=lambda _p: None,
                purpose="compaction",
                policy=self._policy,
                on_retry=self._on_retry,
            )
            summary = done.text.strip() if has_content(done.text) else ""
            if not summary:
                self._emit(events.Notice("warning", "the model's summary was empty; using an extractive summary instead"))
        except LLMError as exc:
            self._provider_error(exc.info)
            self._emit(events.Notice("warning", "the model could not summarise; using an extractive summary instead"))
        if not summary:
            summary = extractive_summary(rendered, instructions)
        self._history = self._history[cut:]
        self._hist_tokens = sum(e.tokens for e in self._history)
        self._summary = summary
        self._usage_base = None
        self._recount_fixed()
        tokens_after = self.used_tokens()
        ctr = self.counters()
        count = ctr["compactionCount"] + 1
        self._store.update(self.session_id, compactionCount=count)
        if self._transcript is not None:
            self._transcript.append(
                {
                    "type": "compaction",
                    "reason": reason,
                    "summary": summary,
                    "tokensBefore": tokens_before,
                    "tokensAfter": tokens_after,
                    "compactionCount": count,
                    "kept": len(self._history),
                    "instructions": instructions,
                }
            )
        self._emit(
            events.CompactionFinished(
                session_id=self.session_id,
                tokens_before=tokens_before,
                tokens_after=tokens_after,
                compaction_count=count,
                summary=summary,
            )
        )
        ms = self.settings.memory_search
        if self._memory is not None and ms.experimental.session_memory and "sessions" in ms.sources:
            memory = self._memory
            try:  # transcripts are a memory source: re-sync after each compaction (DESIGN §7)
                await asyncio.to_thread(lambda: memory.sync(force=False, reason="compaction"))
            except Exception as exc:  # noqa: BLE001
                self._emit(events.Notice("warning", f"memory sync after compaction failed: {redact(str(exc))}"))
        return True

    async def compact(self, instructions: str | None = None) -> None:
        """/compact [instructions]."""

        async def run() -> None:
            await self._ready()
            await self._compact("manual", instructions)

        await self._run_cancellable("compaction", run)
        self._emit(self.token_snapshot())

    # ================================================================== turns

    async def memory_search(self, query: str) -> dict[str, Any]:
        """/memory search: same path as the tool (emits MemoryRetrieved)."""
        await self._ready()
        return await self._toolbox.memory_search({"query": query})

    def cancel(self) -> None:
        """Cancel the running turn; the partial answer is kept and marked."""
        task = self._task
        if task is None or task.done():
            return
        self._cancel_requested = True
        loop = task.get_loop()
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            task.cancel()
        else:  # called from another thread (e.g. a UI thread)
            loop.call_soon_threadsafe(task.cancel)

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    async def send(self, text: str) -> TurnResult:
        if self.busy:
            return TurnResult(text="", session_id=self.session_id, error="a turn is already running")
        self._cancel_requested = False
        self._turn_no += 1
        self._task = asyncio.ensure_future(self._send(clean_surrogates(text)))
        try:
            return await self._task
        finally:
            self._task = None

    async def _send(self, text: str) -> TurnResult:
        flushed = compacted = False
        self._overflow_retried = False
        try:
            await self._ready()
            user_msg = {"role": "user", "content": text}
            projected = self.used_tokens() + self.counter.count_message(user_msg)
            want_flush = self._want_flush(projected)
            want_compact = should_compact(projected, self.compaction_threshold)
            if (want_flush or want_compact) and self._transcript is not None:
                # The prompt waits behind a flush/compaction turn: keep it on disk now so a
                # crash there does not lose it (resume() restores it).
                self._transcript.append({"type": "pending", "message": user_msg})
            if want_flush:
                flushed = await self._run_flush("threshold", projected)
            if want_compact:
                compacted = await self._compact("threshold")
            first = not any(e.message.get("role") == "user" for e in self._history) and not self._summary
            self._add(user_msg)
            if first:
                self._store.update(self.session_id, title=session_title(text))
            self._emit(events.TurnStarted(session_id=self.session_id, prompt=text))
            self._turn_hits = []
            try:
                await self._auto_recall(text)
                final = await self._loop(
                    system=self._system_text,
                    convo=lambda: self.history,
                    add=self._add,
                    purpose="turn",
                    toolbox=self._toolbox,
                    silent=False,
                )
            except LLMError as exc:
                self._provider_error(exc.info)
                if self._transcript is not None:  # so a resumed session shows it where it happened
                    self._transcript.append({"type": "error", "message": exc.info.line(), "action": exc.info.action or ""})
                partial = "".join(self._partial)
                self._emit(events.TurnFinished(session_id=self.session_id, text=partial))
                usage = self.token_snapshot()
                self._emit(usage)
                return TurnResult(partial, self.session_id, error=exc.info.line(), usage=usage, flushed=flushed, compacted=compacted)
            no_reply = is_no_reply(final.text)
            visible = "" if no_reply else final.text
            self._emit(events.TurnFinished(session_id=self.session_id, text=visible))
            used = self.used_tokens()
            if should_compact(used, self.compaction_threshold):
                if self._want_flush(used):
                    flushed = await self._run_flush("threshold", used) or flushed
                compacted = await self._compact("threshold") or compacted
            usage = self.token_snapshot()
            self._emit(usage)
            return TurnResult(visible, self.session_id, usage=usage, flushed=flushed, compacted=compacted, no_reply=no_reply)
        except asyncio.CancelledError:
            if not self._cancel_requested:
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            partial = "".join(self._partial)
            if self._transcript is not None:
                self._transcript.append({"type": "cancelled", "partial": partial})
            if self._history and self._history[-1].message.get("role") == "assistant" and partial:
                last = self._history[-1].message
                if last.get("content") == partial:
                    last["content"] = partial + "\n" + CANCEL_MARK
            self._emit(events.TurnFinished(session_id=self.session_id, text=partial, cancelled=True))
            usage = self.token_snapshot()
            self._emit(usage)
            return TurnResult(partial, self.session_id, cancelled=True, usage=usage, flushed=flushed, compacted=compacted)


def _close_dangling_tool_calls(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A transcript cut by a crash may end with tool calls that never got results."""
    out = list(history)
    k = len(out) - 1
    while k >= 0 and out[k].get("role") == "tool":
        k -= 1
    if k >= 0 and out[k].get("role") == "assistant" and out[k].get("tool_calls"):
        got = {m.get("tool_call_id") for m in out[k + 1 :]}
        for tc in out[k]["tool_calls"]:
            if tc.get("id") not in got:
                name = (tc.get("function") or {}).get("name")
                out.append({"role": "tool", "tool_call_id": tc.get("id"), "name": name, "content": json.dumps({"error": "interrupted"})})
    return out
