"""The model ↔ tools loop: stream the model with the offered tools, run the tool calls it
makes, and go again until it answers without tools (or the step cap).

One :class:`ToolLoop` per engine; ``run`` serves a turn and a silent flush turn alike (the
caller says where messages go). It keeps the text streamed so far (``partial``: a
cancelled or failed turn keeps it), the memory results seen in this turn (for the local
profile's ``Source:`` line) and the one-line hint sent with the user's message. What a tool
means for the session comes from the tool registry (``tools/registry.py``), never a name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from openclaw_tui import events
from openclaw_tui.config import AgentSettings
from openclaw_tui.events import EventSink
from openclaw_tui.llm.client import ChatModel, Completion, RetryPolicy, ToolCall, complete_with_retries
from openclaw_tui.llm.errors import LLMError, LLMErrorInfo
from openclaw_tui.llm.holdback import StreamHoldback
from openclaw_tui.llm.profiles import ModelProfile, offered_tools, render_messages
from openclaw_tui.llm.toolcall_text import recover_completion, tool_names
from openclaw_tui.memory.api import SearchResult
from openclaw_tui.session.citations import source_suffix
from openclaw_tui.session.compaction import tool_result_content
from openclaw_tui.session.offline import call_id
from openclaw_tui.session.own_calls import context_for, is_own_call
from openclaw_tui.session.quote import quote_best_hit
from openclaw_tui.session.recall import recall_query, store_hint, wants_recall
from openclaw_tui.session.thresholds import is_no_reply
from openclaw_tui.session.triggered import inject_triggered
from openclaw_tui.tools.files import FileTools
from openclaw_tui.tools.registry import ToolBox, recall_tool, registered, spec_for
from openclaw_tui.workspace.change_diff import change_event
from openclaw_tui.workspace.daily import daily_rel
from openclaw_tui.workspace.guard import is_memory_rel

REPEATED_CALL = "this exact call already ran in this turn and its result is above; answer the user now"
INTERRUPTED = "interrupted by the user; the tool may not have finished"
# the answer when a model told to answer without tools printed a tool call again, and nothing else
NO_ANSWER = "I could not answer that from what I found."
# a model that printed its call again instead of answering: the best note found is shown
QUOTE_LEAD = "The model gave no answer of its own; the closest note in memory:"


@dataclass(frozen=True)
class LoopRun:
    """Where one loop reads its prompt from and writes its messages to."""

    system: Callable[[], str]
    convo: Callable[[], list[dict[str, Any]]]
    add: Callable[..., None]
    purpose: str  # turn | flush
    toolbox: ToolBox
    silent: bool  # a flush turn streams nothing to the user
    no_tools: bool = False  # answer without tools (a statement, local profile: session/turn_plan.py)
    no_writes: bool = False  # offer only the tools that write nothing (a question, local profile)
    check: Callable[[str], str] | None = None  # the final answer's check (citations, claims; turn_plan.ReplyCheck)


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


@dataclass(frozen=True)
class LoopHooks:
    """What the loop asks of its session: the model and profile of the moment, and where
    events, usage, a context overflow and a memory write are reported."""

    model: Callable[[], ChatModel]
    profile: Callable[[], ModelProfile]
    emit: EventSink
    on_usage: Callable[[dict[str, int]], None]
    on_overflow: Callable[[], Awaitable[bool]]
    on_memory_write: Callable[[], None]


class ToolLoop:
    def __init__(self, settings: AgentSettings, policy: RetryPolicy, hooks: LoopHooks):
        self.settings = settings
        self.policy = policy
        self._hooks = hooks
        self.partial: list[str] = []
        self.hint: str | None = None  # sent after the user's message in this turn's first request
        self.turn_hits: list[dict[str, Any]] = []  # memory_search results seen in this turn
        self.turn_query = ""  # the last memory_search query of this turn
        self.recalled: set[str] = set()  # call_key of this turn's automatic lookup
        self.overflow_retried = False
        self.turn_calls: list[tuple[str, dict[str, Any], dict[str, Any]]] = []  # (name, args, result) of this turn
        self.corrected = False  # the final answer differs from what was streamed (the check changed it)

    def start_turn(self) -> None:
        self.turn_hits = []
        self.turn_query = ""
        self.recalled = set()
        self.overflow_retried = False
        self.turn_calls = []
        self.corrected = False

    def on_retry(self, info: LLMErrorInfo, attempt: int, wait: float) -> None:
        self._hooks.emit(info.retry_event(attempt, wait))

    def on_search(self, query: str, result: SearchResult) -> None:
        self.turn_hits.extend(hit.for_model() for hit in result.results)  # as the model read them
        self.turn_query = query
        self._hooks.emit(events.MemoryRetrieved(query=query, result=result))

    def emit_changes(self, files: FileTools, since: int, call_id: str) -> None:
        for change in files.changes[since:]:
            self._hooks.on_memory_write()
            self._hooks.emit(change_event(change, call_id=call_id))

    # ------------------------------------------------------------------ one model call

    async def call(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], purpose: str, silent: bool,
        withheld: list[dict[str, Any]] | None = None,
    ) -> Completion:
        """One model call. A tool call printed as text is recovered into ``tool_calls`` and never
        shown: streamed text that may be one is held back until the answer is complete. A call
        to a ``withheld`` tool (offered before, not now) is neither run nor shown."""
        self.partial = []

        def show(piece: str) -> None:
            self.partial.append(piece)
            if not silent:
                self._hooks.emit(events.TextDelta(text=piece))

        profile = self._hooks.profile()
        watched = withheld or tools or []  # every tool of the session: a printed call to one not offered is hidden too
        hold = StreamHoldback(show, tool_names(watched), lead_in=profile.hold_lead_in) if watched else None
        rendered = render_messages(messages, profile)
        if purpose == "turn" and self.hint and messages[-1].get("role") == "user":  # the user's message, not results
            rendered = rendered[:-1] + [{**rendered[-1], "content": f"{rendered[-1].get('content', '')}\n\n{self.hint}"}]
        done = await complete_with_retries(
            self._hooks.model(),
            rendered,
            tools or None,
            on_delta=hold.feed if hold else show,
            purpose=purpose,
            policy=self.policy,
            on_retry=self.on_retry,
        )
        done = self._own_calls(done, watched, messages, profile)
        held_back = set(tool_names(watched)) - set(tool_names(tools))  # the session's tools not offered now
        kept = [tc for tc in done.tool_calls if tc.name not in held_back]
        if done.tool_calls and not kept:  # printed although not offered now: the prose only
            shown = hold.shown.strip() if hold else ""
            text = shown or done.text or quote_best_hit(self.turn_hits, self.turn_query, lead=QUOTE_LEAD) or NO_ANSWER
            done = Completion(text=text, usage=done.usage, finish_reason=done.finish_reason)
            if not shown:
                show(done.text)
        elif hold is not None and not done.tool_calls:
            hold.release()
        elif len(kept) < len(done.tool_calls):  # a call to a tool not offered now is not run
            done = Completion(text=done.text, tool_calls=kept, usage=done.usage, finish_reason=done.finish_reason)
        return done

    def _own_calls(self, done: Completion, watched: list[dict[str, Any]], messages: list[dict[str, Any]], profile: ModelProfile) -> Completion:
        """Calls printed as text moved into ``tool_calls``: only the model's own (own_calls.py);
        never for the offline agent, whose text quotes notes."""
        if getattr(self._hooks.model(), "is_offline", False) or not watched or done.tool_calls:
            return done
        ctx = context_for(messages, watched, extra=[self.hint or ""], strict=profile.name != "local")
        return recover_completion(done, watched, limit=profile.text_calls_per_step, accept=lambda c, text: is_own_call(ctx, c, text))

    # ------------------------------------------------------------------ tools

    async def run_tool_call(self, tc: ToolCall, toolbox: ToolBox, add: Callable[..., None]) -> None:
        args, _err = tc.parsed()
        self._hooks.emit(events.ToolCalled(call_id=tc.id, name=tc.name, arguments=args if args is not None else {"_raw": tc.arguments}))
        changed = len(toolbox.files.changes)
        result, err = ({"error": tc.invalid}, tc.invalid) if tc.invalid else await toolbox.run(tc.name, tc.arguments, recovered=tc.recovered)
        self.emit_changes(toolbox.files, changed, tc.id)
        self.turn_calls.append((tc.name, args if isinstance(args, dict) else {}, result if isinstance(result, dict) else result.to_dict()))
        self._hooks.emit(events.ToolResult(call_id=tc.id, name=tc.name, result=result, error=err))
        add({"role": "tool", "tool_call_id": tc.id, "name": tc.name, "content": tool_result_content(result)})
        spec = spec_for(tc.name)
        if not err and spec is not None and spec.writes and args and is_memory_rel(str(args.get("path", "")).strip()):
            self._hooks.on_memory_write()

    def cite_if_missing(self, completion: Completion, silent: bool) -> None:
        """Local profile: an answer drawn from this turn's memory results gets their Source: line."""
        cite = self._hooks.profile().cite_sources and completion.text != NO_ANSWER
        suffix = source_suffix(completion.text, self.turn_hits) if cite else ""
        if suffix and not is_no_reply(completion.text):
            completion.text += suffix
            self.partial.append(suffix)
            if not silent:
                self._hooks.emit(events.TextDelta(text=suffix))

    async def auto_recall(self, text: str, toolbox: ToolBox, add: Callable[..., None], *, writable: bool,
                          previous: str | None = None) -> None:
        """The local profile's memory help (recall.py): a lookup before the model answers a
        question, a reminder of today's log with a request to remember something. A follow-up
        with no words of its own ("And when was that?") is looked up with ``previous``, the
        session's last user message, in front."""
        self.hint = None
        for tc in await inject_triggered(self.run_tool_call, toolbox, add, self._hooks.emit, self.settings.workspace, toolbox.session_key, text):
            self.recalled.add(call_key(tc))  # trigger recall (session/triggered.py): every profile, private sessions
        profile = self._hooks.profile()
        if not profile.auto_recall:
            return
        store = [spec for spec in registered(offered_tools(toolbox.schemas(), profile)) if spec.stores]
        if writable and store:
            self.hint = store_hint(text, daily_rel(), store[0].name)
        if not (toolbox.memory_available and wants_recall(text)):
            return
        args = {"query": recall_query(text, previous), "maxResults": profile.recall_results}
        tc = ToolCall(call_id("recall"), recall_tool().name, json.dumps(args, ensure_ascii=False))
        add(Completion(tool_calls=[tc]).assistant_message(), autoRecall=True)
        self.recalled.add(call_key(tc))  # the model printing this same call is a repeat
        await self.run_tool_call(tc, toolbox, add)

    # ------------------------------------------------------------------ the loop

    async def run(self, run: LoopRun) -> Completion:
        """Model ↔ tools until an answer without tool calls (or the step cap)."""
        max_steps = self.settings.config.agents.defaults.max_tool_steps
        step = _Step([], set())
        ran = set(self.recalled) if run.purpose == "turn" else set()  # call_key of the calls run in this turn
        answer_now = False  # a repeated call: the next request offers no tools
        assistant_added = False
        try:
            for _ in range(max_steps):
                assistant_added = False
                completion = await self._answer(run, answer_now)
                if completion is None:  # overflow: compacted, ask again
                    continue
                if not completion.tool_calls and run.purpose == "turn":
                    self.cite_if_missing(completion, run.silent)
                    self._check(completion, run)
                run.add(completion.assistant_message())
                assistant_added = True
                if completion.usage and run.purpose == "turn":
                    self._hooks.on_usage(completion.usage)
                if not completion.tool_calls:
                    return completion
                step = _Step(list(completion.tool_calls), set())
                answer_now = await self._run_calls(run, step, ran) or answer_now
                step = _Step([], set())
            stop = Completion(text=f"[stopped after {max_steps} tool steps without a final answer]")
            run.add(stop.assistant_message())
            return stop
        except BaseException:
            # Never leave a tool call without a result, and keep a partial answer.
            if not assistant_added and self.partial:
                run.add({"role": "assistant", "content": "".join(self.partial)}, partial=True)
            for tc in step.pending:
                if tc.id not in step.answered:
                    run.add({"role": "tool", "tool_call_id": tc.id, "name": tc.name, "content": json.dumps({"error": INTERRUPTED})})
            raise

    def _check(self, completion: Completion, run: LoopRun) -> None:
        if run.check is None or is_no_reply(completion.text):
            return
        checked = run.check(completion.text)
        if checked != completion.text:
            completion.text = checked
            self.corrected = True

    async def _answer(self, run: LoopRun, answer_now: bool) -> Completion | None:
        """The model's next answer; None when the provider reported an overflow and the
        conversation was compacted (once per turn): the caller asks again."""
        every = offered_tools(run.toolbox.schemas(), self._hooks.profile())
        offered = [s for s in every if not any(spec.writes for spec in registered([s]))] if run.no_writes else every
        tools = [] if answer_now or run.no_tools else offered
        messages = [{"role": "system", "content": run.system()}] + run.convo()
        try:
            return await self.call(messages, tools, run.purpose, run.silent, withheld=every)
        except LLMError as exc:
            if exc.info.is_overflow and run.purpose == "turn" and not self.overflow_retried:
                self.overflow_retried = True
                self._hooks.emit(events.Notice("warning", "context overflow reported by the provider: compacting, then retrying once"))
                if await self._hooks.on_overflow():
                    return None
            raise

    async def _run_calls(self, run: LoopRun, step: _Step, ran: set[str]) -> bool:
        """Run one answer's tool calls; True when one repeated a call already run in this loop."""
        repeated = False
        for tc in step.pending:
            key = call_key(tc)
            if self._hooks.profile().answer_after_repeat and key in ran:
                run.add({"role": "tool", "tool_call_id": tc.id, "name": tc.name, "content": json.dumps({"error": REPEATED_CALL})})
                repeated = True
            else:
                ran.add(key)
                await self.run_tool_call(tc, run.toolbox, run.add)
            step.answered.add(tc.id)
        return repeated
