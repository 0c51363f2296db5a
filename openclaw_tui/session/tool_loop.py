"""The model ↔ tools loop: stream the model with the offered tools, run the tool calls it
makes, and go again until it answers without tools (or the step cap).

One :class:`ToolLoop` per engine; ``run(turn)`` serves a turn and a silent flush turn alike
(the :class:`LoopRun` says where messages go) and returns a :class:`LoopOutcome`. What one
run collects lives in that run's own :class:`RunScratch`, never on the shared loop: the text
streamed so far (``partial``: a cancelled or failed turn keeps it), the memory results seen
(for the local profile's ``Source:`` line), the one-line hint sent with the user's message,
and whether a memory file was written. A flush run inside a turn (an overflow) has a scratch
of its own and leaves the turn's alone. A run is data: where its messages are (a
:class:`RunLog`: the session's conversation, or a :class:`MessageLog` of its own), its tool box,
what it may offer and its answer's :class:`AnswerCheck`. The session is reached through one
narrow :class:`LoopHost`. What a tool means for the session comes from the tool registry
(``tools/registry.py``), never a name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

from openclaw_tui import events
from openclaw_tui.config import AgentSettings
from openclaw_tui.llm.client import ChatModel, Completion, RetryPolicy, ToolCall, complete_with_retries
from openclaw_tui.llm.errors import LLMError, LLMErrorInfo
from openclaw_tui.llm.holdback import StreamHoldback
from openclaw_tui.llm.profiles import ModelProfile, offered_tools, render_messages
from openclaw_tui.llm.toolcall_text import recover_completion, tool_names
from openclaw_tui.memory.api import SearchResult
from openclaw_tui.session.citations import source_suffix
from openclaw_tui.session.compaction import tool_result_content
from openclaw_tui.session.offline import call_id
from openclaw_tui.session.engine_notes import added_paragraphs
from openclaw_tui.session.own_calls import context_for, is_own_call
from openclaw_tui.session.plain_answer import last_user_text, plain_answer
from openclaw_tui.session.quote import quote_best_hit
from openclaw_tui.language import Intent, MessageReading
from openclaw_tui.records.history import MemoryChange
from openclaw_tui.records.no_reply import is_no_reply
from openclaw_tui.session.triggered import inject_triggered
from openclaw_tui.tools.registry import ToolBox, ToolOutput, recall_tool, registered, spec_for
from openclaw_tui.records.change_diff import change_event
from openclaw_tui.workspace.guard import is_memory_rel

REPEATED_CALL = "this exact call already ran in this turn and its result is above; answer the user now"
INTERRUPTED = "interrupted by the user; the tool may not have finished"
# the answer when a model told to answer without tools printed a tool call again, and nothing else
NO_ANSWER = "I could not answer that from what I found."


def without_engine_fallbacks(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The history the model reads, without the engine's own ``NO_ANSWER`` replies of earlier
    turns: they are the engine's words, not the model's, and a small model copied the sentence
    as its answer to every later question of a resumed session."""
    return [m for m in messages
            if not (m.get("role") == "assistant" and not m.get("tool_calls") and m.get("content") == NO_ANSWER)]
# a model that printed its call again instead of answering: the best note found is shown
QUOTE_LEAD = "The model gave no answer of its own; the closest note in memory:"
# sent with a request to remember (without it the 1.5B model sometimes only said it would)
STORE_HINT = "(Save this now: call {tool} with path {path} and the fact as content.)"


def announce_changes(changes: Sequence[MemoryChange], call_id: str, scratch: RunScratch, emit: Callable[[events.Event], None]) -> None:
    """Memory changes a run made: one event each, and the run's scratch marks the write."""
    for change in changes:
        scratch.wrote_memory = scratch.unsynced = True
        emit(change_event(change, call_id=call_id))


@dataclass
class RunScratch:
    """What one run (a turn with its automatic lookups, or a flush) collects as it goes."""

    partial: list[str] = field(default_factory=list)  # the text streamed by the last model call
    hint: str | None = None  # sent after the user's message in this turn's first request
    hits: list[dict[str, Any]] = field(default_factory=list)  # memory_search hits seen, as the model read them
    query: str = ""  # the last memory_search query
    recalled: set[str] = field(default_factory=set)  # call_key of the automatic lookups
    overflow_retried: bool = False
    calls: list[tuple[str, dict[str, Any], dict[str, Any]]] = field(default_factory=list)  # (name, args, result)
    corrected: bool = False  # the final answer differs from what was streamed (the check changed it)
    wrote_memory: bool = False  # a memory file changed in this run
    unsynced: bool = False  # ... and the host was not told yet
    sent_tools: list[dict[str, Any]] = field(default_factory=list)  # the tool schemas the last model call carried

    def note_search(self, query: str, result: SearchResult) -> None:
        self.hits.extend(hit.for_model() for hit in result.results)
        self.query = query


class RunLog(Protocol):
    """Where a run reads its prompt from and writes its messages to (read at every model call:
    a compaction after an overflow changes both)."""

    def system(self) -> str: ...

    def leading(self) -> list[dict[str, Any]]:
        """The messages a request starts with, before ``messages()``: the system prompt, then
        what the session carries besides its history (notes, a summary)."""
        ...

    def messages(self) -> list[dict[str, Any]]: ...

    def add(self, msg: Any, **meta: Any) -> None: ...  # a message dict (a ``ChatMessage``)


@dataclass
class MessageLog:
    """A run's own messages after a fixed context (a flush turn's prompt, a test's conversation)."""

    prompt: str
    context: Sequence[dict[str, Any]] = ()
    added: list[dict[str, Any]] = field(default_factory=list)

    def system(self) -> str:
        return self.prompt

    def leading(self) -> list[dict[str, Any]]:
        return [{"role": "system", "content": self.prompt}]

    def messages(self) -> list[dict[str, Any]]:
        return [*self.context, *self.added]

    def add(self, msg: Any, **meta: Any) -> None:  # a message dict (``ChatMessage``)
        self.added.append(msg)


class AnswerCheck(Protocol):
    """The check of a run's final answer before it is kept (``turn_plan.ReplyCheck``)."""

    def check(self, text: str, *, system: str) -> str: ...

    def wants_answer(self, text: str) -> bool:
        """Whether ``text`` only acknowledges where the user asked something (the 1.5B copying
        its "Noted." of the turns before): the question is then asked again alone."""
        ...


@dataclass(frozen=True)
class LoopRun:
    """One run of the loop, as data: its messages, its tools, what it may offer, the check of
    its answer and its scratch (a fresh one per run unless the caller made it before: a turn's
    automatic lookups)."""

    log: RunLog
    purpose: str  # turn | flush
    toolbox: ToolBox
    silent: bool  # a flush turn streams nothing to the user
    no_tools: bool = False  # answer without tools (a statement, local profile: session/turn_plan.py)
    no_writes: bool = False  # offer only the tools that write nothing (a question, local profile)
    check: AnswerCheck | None = None  # the final answer's check (citations, claims)
    scratch: RunScratch = field(default_factory=RunScratch)


@dataclass(frozen=True)
class LoopOutcome:
    """How a run ended: its final answer, whether the check changed it, whether it wrote a
    memory file (the host was told once), and what it saw."""

    completion: Completion
    corrected: bool = False
    wrote_memory: bool = False
    hits: tuple[dict[str, Any], ...] = ()

    @property
    def text(self) -> str:
        return self.completion.text


@dataclass
class _Step:
    """The calls of one model answer: which are still without a result."""

    pending: list[ToolCall]
    answered: set[str]


def call_key(tc: ToolCall) -> str:
    """A call's name and arguments, compared as parsed JSON (key order and spacing aside): the
    0.5B model printed the automatic lookup's call again verbatim, and it ran twice."""
    args, _err = tc.parsed()
    return f"{tc.name} {json.dumps(args, sort_keys=True) if args is not None else tc.arguments}"


class LoopHost(Protocol):
    """What the loop asks of its session: the model and profile of the moment, and where
    events, usage, a context overflow and a memory write are reported."""

    def model(self) -> ChatModel: ...

    def profile(self) -> ModelProfile: ...

    def emit(self, event: events.Event) -> None: ...

    def on_usage(self, usage: dict[str, int], sent_tools: list[dict[str, Any]]) -> None:
        """The provider's count for a call that carried ``sent_tools`` (none in a statement's turn)."""
        ...

    async def on_overflow(self) -> bool:
        """Compact after the provider reported an overflow; True when the model may be asked again."""
        ...

    def memory_written(self) -> None:
        """A memory file changed: the next search re-syncs first."""
        ...


class ToolLoop:
    def __init__(self, settings: AgentSettings, policy: RetryPolicy, host: LoopHost):
        self.settings = settings
        self.policy = policy
        self.host = host

    def on_retry(self, info: LLMErrorInfo, attempt: int, wait: float) -> None:
        self.host.emit(info.retry_event(attempt, wait))

    def emit_changes(self, changes: Sequence[MemoryChange], call_id: str, scratch: RunScratch) -> None:
        announce_changes(changes, call_id, scratch, self.host.emit)

    def _tell_written(self, scratch: RunScratch) -> None:
        """Tell the host once about the writes not told yet (before a search, at the run's end)."""
        if scratch.unsynced:
            scratch.unsynced = False
            self.host.memory_written()

    # ------------------------------------------------------------------ one model call

    async def call(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], purpose: str, silent: bool,
        withheld: list[dict[str, Any]] | None = None, scratch: RunScratch | None = None,
        allowed: list[dict[str, Any]] | None = None,
    ) -> Completion:
        """One model call. A tool call printed as text is recovered into ``tool_calls`` and never
        shown: streamed text that may be one is held back until the answer is complete. A call
        to a ``withheld`` tool (offered before, not now) is neither run nor shown. ``allowed``
        (default: ``tools``) is what this call may run: the schemas sent stay the session's
        whole list so the request starts with the same bytes every time (the server reuses
        its cache, issue 38); the engine enforces the turn's tools when a call arrives."""
        scratch = scratch if scratch is not None else RunScratch()
        scratch.partial = []

        def show(piece: str) -> None:
            scratch.partial.append(piece)
            if not silent:
                self.host.emit(events.TextDelta(text=piece))

        profile = self.host.profile()
        watched = withheld or tools or []  # every tool of the session: a printed call to one not offered is hidden too
        hold = StreamHoldback(show, tool_names(watched), lead_in=profile.hold_lead_in) if watched else None
        rendered = render_messages(without_engine_fallbacks(messages), profile)
        if purpose == "turn" and scratch.hint and messages[-1].get("role") == "user":  # the user's message, not results
            rendered = rendered[:-1] + [{**rendered[-1], "content": f"{rendered[-1].get('content', '')}\n\n{scratch.hint}"}]
        done = await complete_with_retries(
            self.host.model(),
            rendered,
            tools or None,
            on_delta=hold.feed if hold else show,
            purpose=purpose,
            policy=self.policy,
            on_retry=self.on_retry,
        )
        done = self._own_calls(done, watched, messages, profile, scratch.hint)
        held_back = set(tool_names(watched)) - set(tool_names(tools if allowed is None else allowed))  # not allowed now
        kept = [tc for tc in done.tool_calls if tc.name not in held_back]
        if done.tool_calls and not kept:  # printed although not offered now: the prose only
            shown = hold.shown.strip() if hold else ""
            text = shown or done.text or quote_best_hit(scratch.hits, scratch.query, lead=QUOTE_LEAD) or ""
            # only searches ran and found nothing: the question asked again, alone, without tools
            # (not when nothing ran: a statement's turn offers no tools, and the 1.5B printed a
            # search for "Could you make a note that …?"; its reply is the acknowledgement)
            only_searched = bool(scratch.calls) and all(spec_for(name) is recall_tool() for name, _a, _r in scratch.calls)
            if not text and purpose == "turn" and not silent and only_searched:
                text = await plain_answer(self.host.model(), last_user_text(messages), self.policy) or NO_ANSWER
            text = text or NO_ANSWER
            done = Completion(text=text, usage=done.usage, finish_reason=done.finish_reason)
            if not shown:
                show(done.text)
        elif hold is not None and not done.tool_calls:
            hold.release()
        elif len(kept) < len(done.tool_calls):  # a call to a tool not offered now is not run
            done = Completion(text=done.text, tool_calls=kept, usage=done.usage, finish_reason=done.finish_reason)
        return done

    def _own_calls(self, done: Completion, watched: list[dict[str, Any]], messages: list[dict[str, Any]], profile: ModelProfile,
                   hint: str | None) -> Completion:
        """Calls printed as text moved into ``tool_calls``: only the model's own (own_calls.py);
        never for the offline agent, whose text quotes notes."""
        if getattr(self.host.model(), "is_offline", False) or not watched or done.tool_calls:
            return done
        ctx = context_for(messages, watched, extra=[hint or ""], strict=profile.name != "local")
        return recover_completion(done, watched, limit=profile.text_calls_per_step, accept=lambda c, text: is_own_call(ctx, c, text))

    # ------------------------------------------------------------------ tools

    async def run_tool_call(self, tc: ToolCall, toolbox: ToolBox, add: Callable[..., None], scratch: RunScratch) -> None:
        args, _err = tc.parsed()
        self.host.emit(events.ToolCalled(call_id=tc.id, name=tc.name, arguments=args if args is not None else {"_raw": tc.arguments}))
        spec = spec_for(tc.name)
        if spec is not None and spec.memory:
            self._tell_written(scratch)  # a search after a write in this run finds it
        changed = len(toolbox.files.changes)
        result: ToolOutput
        result, err = ({"error": tc.invalid}, tc.invalid) if tc.invalid else await toolbox.run(tc.name, tc.arguments, recovered=tc.recovered)
        self.emit_changes(toolbox.files.changes[changed:], tc.id, scratch)
        if isinstance(result, SearchResult):
            scratch.note_search(str((args or {}).get("query", "")), result)
        scratch.calls.append((tc.name, args if isinstance(args, dict) else {}, result if isinstance(result, dict) else result.to_dict()))
        self.host.emit(events.ToolResult(call_id=tc.id, name=tc.name, result=result, error=err))
        add({"role": "tool", "tool_call_id": tc.id, "name": tc.name, "content": tool_result_content(result)})
        if not err and spec is not None and spec.writes and args and is_memory_rel(str(args.get("path", "")).strip()):
            scratch.wrote_memory = scratch.unsynced = True

    def cite_if_missing(self, completion: Completion, silent: bool, scratch: RunScratch) -> None:
        """Local profile: an answer drawn from this turn's memory results gets their Source: line."""
        cite = self.host.profile().cite_sources and completion.text != NO_ANSWER
        suffix = source_suffix(completion.text, scratch.hits) if cite else ""
        if suffix and not is_no_reply(completion.text):
            completion.text += suffix
            scratch.partial.append(suffix)
            if not silent:
                self.host.emit(events.TextDelta(text=suffix))

    async def auto_recall(self, reading: MessageReading, run: LoopRun, *, writable: bool) -> None:
        """The local profile's memory help: a lookup of ``reading.query`` (a follow-up's query
        carries the message before it) before the model answers, a reminder of today's log with
        a request to remember. What it finds goes into ``run``'s scratch."""
        scratch, toolbox, add, text = run.scratch, run.toolbox, run.log.add, reading.text
        scratch.hint = None

        async def run_call(tc: ToolCall, box: ToolBox, to: Callable[..., None]) -> None:
            await self.run_tool_call(tc, box, to, scratch)

        for tc in await inject_triggered(run_call, toolbox, add, self.host.emit, self.settings.workspace, toolbox.session_key, text):
            scratch.recalled.add(call_key(tc))  # trigger recall (session/triggered.py): every profile, private sessions
        profile = self.host.profile()
        if not profile.auto_recall:
            return
        store = [spec for spec in registered(offered_tools(toolbox.schemas(), profile)) if spec.stores]
        if writable and store and reading.intent is Intent.REMEMBER:
            scratch.hint = STORE_HINT.format(tool=store[0].name, path=toolbox.files.today_rel())  # the session's tier
        if not (toolbox.memory_available and reading.query):
            return
        args = {"query": reading.query, "maxResults": profile.recall_results}
        tc = ToolCall(call_id("recall"), recall_tool().name, json.dumps(args, ensure_ascii=False))
        add(Completion(tool_calls=[tc]).assistant_message(), autoRecall=True)
        scratch.recalled.add(call_key(tc))  # the model printing this same call is a repeat
        await self.run_tool_call(tc, toolbox, add, scratch)

    # ------------------------------------------------------------------ the loop

    async def run(self, run: LoopRun) -> LoopOutcome:
        """Model ↔ tools until an answer without tool calls (or the step cap). The host hears
        of this run's memory writes once (at its end, or before a search that must see them)."""
        try:
            completion = await self._steps(run)
        finally:
            self._tell_written(run.scratch)
        s = run.scratch
        return LoopOutcome(completion, corrected=s.corrected, wrote_memory=s.wrote_memory, hits=tuple(s.hits))

    async def _steps(self, run: LoopRun) -> Completion:
        max_steps = self.settings.config.agents.defaults.max_tool_steps
        scratch = run.scratch
        step = _Step([], set())
        ran = set(scratch.recalled) if run.purpose == "turn" else set()  # call_key of the calls run in this turn
        answer_now = False  # a repeated call: the next request offers no tools
        assistant_added = False
        try:
            for _ in range(max_steps):
                assistant_added = False
                completion = await self._answer(run, answer_now)
                if completion is None:  # overflow: compacted, ask again
                    continue
                notes: tuple[str, ...] = ()
                if not completion.tool_calls and run.purpose == "turn":
                    await self._answer_instead_of_acknowledging(completion, run)
                    self.cite_if_missing(completion, run.silent, scratch)
                    notes = self._check(completion, run)
                run.log.add(completion.assistant_message(), **({"engineNotes": list(notes)} if notes else {}))
                assistant_added = True
                if completion.usage and run.purpose == "turn":
                    self.host.on_usage(completion.usage, scratch.sent_tools)
                if not completion.tool_calls:
                    return completion
                step = _Step(list(completion.tool_calls), set())
                answer_now = await self._run_calls(run, step, ran) or answer_now
                step = _Step([], set())
            stop = Completion(text=f"[stopped after {max_steps} tool steps without a final answer]")
            run.log.add(stop.assistant_message())
            return stop
        except BaseException:
            # Never leave a tool call without a result, and keep a partial answer.
            if not assistant_added and scratch.partial:
                run.log.add({"role": "assistant", "content": "".join(scratch.partial)}, partial=True)
            for tc in step.pending:
                if tc.id not in step.answered:
                    run.log.add({"role": "tool", "tool_call_id": tc.id, "name": tc.name, "content": json.dumps({"error": INTERRUPTED})})
            raise

    async def _answer_instead_of_acknowledging(self, completion: Completion, run: LoopRun) -> None:
        """A question answered only "Noted." (a small model continuing the acknowledgements
        before it): the question asked again alone, without tools (``plain_answer``)."""
        if run.silent or run.check is None or not run.check.wants_answer(completion.text):
            return
        answer = await plain_answer(self.host.model(), last_user_text(run.log.messages()), self.policy)
        if answer:
            completion.text = answer
            run.scratch.corrected = True

    def _check(self, completion: Completion, run: LoopRun) -> tuple[str, ...]:
        """Check the final answer in place; the paragraphs the engine added to it (the model's
        history leaves them out: ``engine_notes``)."""
        if run.check is None or is_no_reply(completion.text):
            return ()
        checked = run.check.check(completion.text, system=run.log.system())
        if checked == completion.text:
            return ()
        notes = added_paragraphs(completion.text, checked)
        completion.text = checked
        run.scratch.corrected = True
        return notes

    async def _answer(self, run: LoopRun, answer_now: bool) -> Completion | None:
        """The model's next answer; None when the provider reported an overflow and the
        conversation was compacted (once per turn): the caller asks again."""
        every = offered_tools(run.toolbox.schemas(), self.host.profile())
        offered = [s for s in every if not any(spec.writes for spec in registered([s]))] if run.no_writes else every
        allowed = [] if answer_now or run.no_tools else offered
        run.scratch.sent_tools = every  # the whole list goes in every request (a stable prompt start)
        messages = run.log.leading() + run.log.messages()
        try:
            return await self.call(messages, every, run.purpose, run.silent, withheld=every, scratch=run.scratch, allowed=allowed)
        except LLMError as exc:
            if exc.info.is_overflow and run.purpose == "turn" and not run.scratch.overflow_retried:
                run.scratch.overflow_retried = True
                self.host.emit(events.Notice("warning", "context overflow reported by the provider: compacting, then retrying once"))
                if await self.host.on_overflow():
                    return None
            raise

    async def _run_calls(self, run: LoopRun, step: _Step, ran: set[str]) -> bool:
        """Run one answer's tool calls; True when one repeated a call already run in this loop."""
        repeated = False
        for tc in step.pending:
            key = call_key(tc)
            if self.host.profile().answer_after_repeat and key in ran:
                run.log.add({"role": "tool", "tool_call_id": tc.id, "name": tc.name, "content": json.dumps({"error": REPEATED_CALL})})
                repeated = True
            else:
                ran.add(key)
                await self.run_tool_call(tc, run.toolbox, run.log.add, run.scratch)
            step.answered.add(tc.id)
        return repeated
