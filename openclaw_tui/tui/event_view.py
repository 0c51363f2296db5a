"""Engine events onto the screen: the chat, the Timeline, the memory panel and the meter.

Streamed text is coalesced (one Markdown write per ``STREAM_INTERVAL``). Flush and
compaction run as spans between their start and finish events: the tool work inside them
shows in the Timeline only, and each leaves a dimmed mark in the chat where it happened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Callable, Protocol

from textual.timer import Timer

from openclaw_tui import events as ev
from openclaw_tui.tui.format import chat_mark, mark_details, n, one_line

if TYPE_CHECKING:
    from openclaw_tui.tui.busy import BusyIndicator
    from openclaw_tui.tui.widgets.chat import ChatView
    from openclaw_tui.tui.widgets.markdown_blocks import AgentResponse
    from openclaw_tui.tui.widgets.memory_panel import MemoryPanel
    from openclaw_tui.tui.widgets.meter import TokenMeter
    from openclaw_tui.tui.widgets.queue import PromptQueue
    from openclaw_tui.tui.widgets.side_panel import SidePanel
    from openclaw_tui.tui.widgets.timeline import Timeline

DEFAULT_ERROR_ACTION = "check --model, --api-base and the API key, then send the message again"
STREAM_INTERVAL = 1 / 30  # seconds between Markdown writes while a reply streams
SPAN_OF = {ev.FlushStarted: "flush", ev.FlushFinished: "flush", ev.CompactionStarted: "compaction", ev.CompactionFinished: "compaction"}
BUSY_OF = {"flush": "flushing", "compaction": "compacting"}


class EventHost(Protocol):
    """What the events are drawn on (the main screen satisfies it; mypy checks it)."""

    @property
    def chat(self) -> "ChatView": ...

    @property
    def side(self) -> "SidePanel": ...

    @property
    def timeline(self) -> "Timeline": ...

    @property
    def memory_panel(self) -> "MemoryPanel": ...

    @property
    def meter(self) -> "TokenMeter": ...

    @property
    def busy(self) -> "BusyIndicator": ...

    @property
    def turn_running(self) -> bool: ...

    @property
    def queue(self) -> "PromptQueue": ...

    @property
    def is_attached(self) -> bool: ...

    def set_timer(self, delay: float, callback: Callable[[], Awaitable[None]] | None = ...) -> Timer: ...


class EventView:
    """Renders the core's events on the main screen; holds only display state."""

    def __init__(self, screen: EventHost) -> None:
        self.screen = screen
        self.response: "AgentResponse | None" = None  # the reply being streamed
        self._turn_streamed = False
        self._pending_text: list[str] = []
        self._text_timer: Timer | None = None
        self._spans: set[str] = set()  # "flush" / "compaction" between their start and finish

    @property
    def in_span(self) -> bool:
        """A flush or compaction is running: its tool work is not part of the chat."""
        return bool(self._spans)

    def settled(self) -> None:
        """Every event of the finished work has been handled: no span can still be open."""
        self._spans.clear()
        self.screen.queue.wait_behind("")

    async def receive(self, event: ev.Event) -> None:
        if not self.screen.is_attached:  # the app is closing: nothing to show it on
            return
        if isinstance(event, ev.TextDelta) and not self.in_span:
            # one Markdown write per STREAM_INTERVAL instead of one per token keeps a long
            # reply from repainting the screen a thousand times
            self._pending_text.append(event.text)
            if self._text_timer is None:
                self._text_timer = self.screen.set_timer(STREAM_INTERVAL, self.flush_text)
            return
        await self.flush_text()  # keep order: text before the event that follows it
        await self.handle(event)

    async def flush_text(self) -> None:
        if self._text_timer is not None:
            self._text_timer.stop()
            self._text_timer = None
        if not self._pending_text:
            return
        text = "".join(self._pending_text)
        self._pending_text.clear()
        await self.handle(ev.TextDelta(text=text))

    async def handle(self, event: ev.Event) -> None:
        await self.screen.side.build()  # the Timeline and the Memory panel (after the first frame)
        handler = self._HANDLERS.get(type(event))
        if handler is None:
            await self.screen.timeline.add_event(event)
        else:
            await handler(self, event)

    # ------------------------------------------------------------------ the reply

    def _reading(self) -> None:
        """The model is reading its prompt (the slow part on a local model): say how big."""
        usage = self.screen.meter.usage
        size = f" · {n(usage.used)}/{n(usage.context_window)} tok" if usage is not None else ""
        self.screen.busy.phase(f"reading the prompt{size}")

    async def _prompt_progress(self, event: ev.PromptProgress) -> None:
        """Live counts while the local server reads the prompt (the phase's seconds go on)."""
        span = next(iter(self._spans), None)
        if span is None and not self.screen.turn_running:
            return
        counts = f"{n(event.processed)}/{n(event.total)} tok" + (f" ({n(event.cache)} cached)" if event.cache else "")
        label = f"{BUSY_OF[span]} · reading {counts}" if span else f"reading the prompt · {counts}"
        self.screen.busy.relabel(label)

    async def _turn_started(self, _event: ev.TurnStarted) -> None:
        self.response = None
        self._turn_streamed = False
        self._reading()
        await self.screen.memory_panel.show_triggered([])  # last turn's triggered entries go

    async def _text(self, event: ev.TextDelta) -> None:
        if self.in_span:
            return
        if self.response is None:
            self.response = await self.screen.chat.add_response()
        self._turn_streamed = True
        self.screen.busy.phase("writing")
        self.screen.busy.count_streamed(event.text)
        await self.response.write(event.text)
        self.screen.chat.grew()

    async def _turn_finished(self, event: ev.TurnFinished) -> None:
        response = self.response
        if response is None and (event.cancelled or (event.text and not self._turn_streamed)):
            response = await self.screen.chat.add_response()
        if response is not None:
            final = event.text if event.corrected or not self._turn_streamed else ""
            await response.finish(final, cancelled=event.cancelled)
        self.response = None
        self.screen.chat.end_turn()

    async def end_response(self) -> None:
        if self.response is not None:
            await self.response.finish("")
            self.response = None

    async def _tool_called(self, event: ev.ToolCalled) -> None:
        if self.in_span:  # flush / compaction tool work is shown as timeline events only
            return
        self.screen.busy.phase("searching memory" if event.name == "memory_search" else f"running {event.name}")
        await self.end_response()
        await self.screen.chat.add_tool(event.call_id, event.name, event.arguments)

    async def _tool_result(self, event: ev.ToolResult) -> None:
        block = self.screen.chat.find_tool(event.call_id)
        if block is not None:
            block.set_result(event.result, event.error)
        if not self.in_span and self.screen.turn_running:
            self._reading()  # the model reads the result next

    async def _provider_error(self, event: ev.ProviderError) -> None:
        await self.screen.timeline.add_event(event)
        await self.screen.chat.add_error(event.message, event.action or DEFAULT_ERROR_ACTION, of_turn=True)

    async def _notice(self, event: ev.Notice) -> None:
        kind = {"error": "error", "warning": "notice"}.get(event.level, "info")
        await self.screen.timeline.add(kind, f"{event.level}: {one_line(event.message, 90)}", event.ts)
        if event.level == "error":
            await self.screen.chat.add_error(event.message, of_turn=True)

    # ------------------------------------------------------------------ memory and meter

    async def _memory_retrieved(self, event: ev.MemoryRetrieved) -> None:
        panel = self.screen.memory_panel
        if event.result is not panel.result:  # /memory search also reports its return value
            await panel.show(event.query, event.result)

    async def _memory_triggered(self, event: ev.MemoryTriggered) -> None:
        await self.screen.memory_panel.show_triggered(event.entries)

    async def _token_usage(self, event: ev.TokenUsage) -> None:
        self.screen.meter.usage = event

    async def _memory_changed(self, event: ev.MemoryChanged) -> None:
        """Timeline line for every change; the diff in the tool's block, or a block of its own."""
        chat = self.screen.chat
        await self.screen.timeline.add_event(event)
        block = chat.find_tool(event.call_id) if event.call_id else None
        if block is not None:
            block.show_diff(event.diff, event.summary)
            return
        verb = {"undo": "↶ undo", "restore": "↶ restore"}.get(event.tool, f"✎ {event.tool}")
        await chat.add_memory_change(f"{verb} {event.path} — {one_line(event.summary, 50)}", event.diff)

    # ------------------------------------------------------------------ maintenance

    async def _span_started(self, event: ev.FlushStarted | ev.CompactionStarted) -> None:
        span = SPAN_OF[type(event)]
        self._spans.add(span)
        self.screen.busy.set(BUSY_OF[span])
        tokens = event.tokens if isinstance(event, ev.FlushStarted) else event.tokens_before
        self.screen.busy.phase(f"{BUSY_OF[span]} · {n(tokens)} tok of conversation")
        self.screen.queue.wait_behind(BUSY_OF[span])
        await self.screen.timeline.add_event(event)

    async def _span_finished(self, event: ev.FlushFinished | ev.CompactionFinished) -> None:
        self._spans.discard(SPAN_OF[type(event)])
        self.screen.busy.set("replying" if self.screen.turn_running else "")
        self.screen.busy.phase("")
        self.screen.queue.wait_behind(BUSY_OF[next(iter(self._spans))] if self._spans else "")
        await self.screen.timeline.add_event(event)
        await self._mark(event)

    async def _index_synced(self, event: ev.IndexSynced) -> None:
        await self.screen.timeline.add_event(event)
        await self._mark(event)

    async def _mark(self, event: ev.Event) -> None:
        """A dimmed chat line where a flush, compaction or index run happened."""
        text = chat_mark(event)
        if text is None:
            return
        if self.response is not None:
            if isinstance(event, ev.IndexSynced):
                return  # a watcher sync during a streaming reply: the timeline has it
            await self.end_response()
        await self.screen.chat.add_mark(text, of_turn=True)
        details = mark_details(event)
        if details is not None:
            await self.screen.chat.add_details(*details, of_turn=True)

    _HANDLERS: dict[type, Any] = {
        ev.TurnStarted: _turn_started,
        ev.TextDelta: _text,
        ev.PromptProgress: _prompt_progress,
        ev.TurnFinished: _turn_finished,
        ev.ToolCalled: _tool_called,
        ev.ToolResult: _tool_result,
        ev.MemoryRetrieved: _memory_retrieved,
        ev.MemoryTriggered: _memory_triggered,
        ev.TokenUsage: _token_usage,
        ev.ProviderError: _provider_error,
        ev.MemoryChanged: _memory_changed,
        ev.FlushStarted: _span_started,
        ev.CompactionStarted: _span_started,
        ev.FlushFinished: _span_finished,
        ev.CompactionFinished: _span_finished,
        ev.IndexSynced: _index_synced,
        ev.Notice: _notice,
    }
