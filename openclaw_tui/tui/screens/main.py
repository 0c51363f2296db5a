"""The main screen: chat, memory panel, timeline, status bar and token meter.

It renders engine events and calls engine methods; it holds no session logic.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.events import Resize
from textual.widget import MountError
from textual.widgets import Static

from openclaw_tui import events as ev
from openclaw_tui.tui import slash
from openclaw_tui.tui.format import (
    chat_mark,
    index_report_markdown,
    memory_status_markdown,
    n,
    one_line,
    session_line,
    welcome_markdown,
)
from openclaw_tui.tui.messages import EngineEvent, EngineFailed, EngineReady
from openclaw_tui.tui.widgets.chat import ChatView
from openclaw_tui.tui.widgets.key_hints import KeyHints
from openclaw_tui.tui.widgets.memory_panel import MemoryPanel
from openclaw_tui.tui.widgets.meter import TokenMeter
from openclaw_tui.tui.widgets.prompt import PromptInput
from openclaw_tui.tui.widgets.queue import PromptQueue
from openclaw_tui.tui.widgets.status_bar import StatusBar
from openclaw_tui.tui.widgets.timeline import Timeline

from openclaw_tui.tui.screens.picker import Picker

if TYPE_CHECKING:
    from openclaw_tui.tui.app import OpenClawApp
    from openclaw_tui.tui.screens.viewer import SnippetViewer
    from openclaw_tui.tui.widgets.markdown_blocks import AgentResponse

DEFAULT_ERROR_ACTION = "check --model, --api-base and the API key, then send the message again"


async def _maybe_await(value: Any) -> Any:
    if inspect.isawaitable(value):
        return await value
    return value


def _md_kv(title: str, data: dict[str, Any]) -> str:
    lines = [f"**{title}**", ""]
    for key, value in data.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k}={v}" for k, v in value.items())
        elif isinstance(value, (list, tuple)):
            value = ", ".join(str(v) for v in value)
        if value is None or value == "":
            lines.append(f"- {key}: —")  # an empty code span would show as two backticks
            continue
        lines.append(f"- {key}: `{value}`")
    return "\n".join(lines)


class Settled(Message):
    """Posted when a turn or command worker ends; queued after the events it emitted."""


class MainScreen(Screen[None]):
    AUTO_FOCUS = "PromptInput"
    STREAM_INTERVAL = 1 / 30  # seconds between Markdown writes while a reply streams
    SIDE_MIN_WIDTH = 100  # below this many columns the side panel starts hidden
    QUIT_AGAIN_S = 2.0  # a second Ctrl+C on an idle prompt within this time quits
    BINDINGS = [
        Binding("escape", "cancel_turn", "cancel reply", show=False),
        Binding("ctrl+c", "interrupt", "cancel/quit", priority=True),
        Binding("ctrl+o", "toggle_side", "panel", priority=True),
        Binding("pageup", "scroll_chat(-1)", "scroll", priority=True, key_display="PgUp/PgDn"),
        Binding("pagedown", "scroll_chat(1)", "scroll down", priority=True, show=False),
        Binding("ctrl+end", "jump_bottom", "bottom", priority=True, show=False),
        Binding("ctrl+l", "focus_memory", "memory list", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.engine: Any = None
        self.turn_running = False
        self.command_running: str | None = None  # a command that must not overlap a turn
        self.engine_failed: str = ""
        self._response: "AgentResponse | None" = None
        self._turn_streamed = False
        self._pending_text: list[str] = []
        self._text_timer: Any = None
        self._silent_spans: set[str] = set()  # "flush" / "compaction" between their start and finish
        self.last_command_output: str = ""
        self._side_choice: bool | None = None  # the user's Ctrl+O choice; None follows the width
        self._ticker: Any = None  # spinner, elapsed time and streamed tokens while busy
        self._busy_since = 0.0
        self._streamed_chars = 0
        self._usage_base: ev.TokenUsage | None = None  # the meter before this reply
        self._quit_armed_at = 0.0

    @property
    def oc_app(self) -> "OpenClawApp":
        return self.app  # type: ignore[return-value]

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status-bar")
        with Horizontal(id="body"):
            with Vertical(id="chat-column"):
                yield ChatView(id="chat")
                yield Static("↓ new messages below · End on an empty prompt (or Ctrl+End) jumps there", id="new-messages", markup=False)
                yield Static("", id="completions", markup=False)
                yield PromptQueue(id="queue")
                yield PromptInput(id="prompt", history_path=self.oc_app.history_path)
            with Vertical(id="side"):
                yield MemoryPanel(id="memory-panel", timings=self.oc_app.show_timings)
                yield Timeline(id="timeline", clock=self.oc_app.clock, timings=self.oc_app.show_timings)
        yield TokenMeter(id="token-meter")
        yield KeyHints(id="key-hints")

    def on_mount(self) -> None:
        if self.oc_app.settings is not None:
            self.apply_settings()
        self.oc_app.bridge.attach(self)
        # a local model's label changes on its own (loading model… → tok/s); keep the bar in step
        self.set_interval(0.5, self._sync_model_label)
        self.prompt.arg_values = self.arg_values
        self.prompt.take_queued = self.queue.take_last
        self._fit_side(self.app.size.width)

    def apply_settings(self) -> None:
        """Show the agent's settings (at mount, or once the app has read the config)."""
        settings = self.oc_app.settings
        bar = self.status_bar
        bar.session_key = settings.session_key
        bar.agent = settings.agent_id
        bar.access = settings.workspace_access
        bar.model = settings.model or "…"
        self.meter.flush_mark = settings.workspace_access == "rw"
        self.prompt.use_history(self.oc_app.history_path)

    @property
    def chat(self) -> ChatView:
        return self.query_one(ChatView)

    @property
    def memory_panel(self) -> MemoryPanel:
        return self.query_one(MemoryPanel)

    @property
    def timeline(self) -> Timeline:
        return self.query_one(Timeline)

    @property
    def meter(self) -> TokenMeter:
        return self.query_one(TokenMeter)

    @property
    def status_bar(self) -> StatusBar:
        return self.query_one(StatusBar)

    @property
    def prompt(self) -> PromptInput:
        return self.query_one(PromptInput)

    @property
    def queue(self) -> PromptQueue:
        return self.query_one(PromptQueue)

    @property
    def side_visible(self) -> bool:
        return bool(self.query_one("#side").display)

    # ------------------------------------------------------------------ layout keys

    def on_resize(self, event: Resize) -> None:
        self._fit_side(event.size.width)

    def _fit_side(self, width: int) -> None:
        want = self._side_choice if self._side_choice is not None else width >= self.SIDE_MIN_WIDTH
        self.query_one("#side").display = want

    def action_toggle_side(self) -> None:
        """Ctrl+O: show or hide the Memory/Timeline panel (the chat takes the full width)."""
        self._side_choice = not self.side_visible
        self._fit_side(self.app.size.width)
        if not self.side_visible and self.focused is not None and self.focused.id == "memory-results":
            self.prompt.focus()

    def action_scroll_chat(self, direction: int) -> None:
        """PageUp / PageDown scroll the chat from the prompt."""
        chat = self.chat
        if direction < 0:
            chat.scroll_page_up(animate=False)
        else:
            chat.scroll_page_down(animate=False)

    def action_jump_bottom(self) -> None:
        self.chat.follow()

    @on(PromptInput.JumpToBottom)
    def on_jump(self, _message: PromptInput.JumpToBottom) -> None:
        self.chat.follow()

    @on(ChatView.UnseenChanged)
    def on_unseen(self, message: ChatView.UnseenChanged) -> None:
        self.query_one("#new-messages").display = message.unseen

    def on_click(self, event) -> None:
        if getattr(event.widget, "id", None) == "new-messages":
            self.chat.follow()

    # ------------------------------------------------------------------ engine lifecycle

    async def on_engine_ready(self, message: EngineReady) -> None:
        self.engine = engine = message.engine
        self.prompt.starting = False
        bar = self.status_bar
        bar.model = str(getattr(engine, "model_label", "") or self.oc_app.settings.model or "?")
        bar.offline = bool(getattr(engine, "is_offline", False))
        try:
            self.meter.usage = engine.token_snapshot()
        except Exception:  # noqa: BLE001 - a meter problem must not stop the app
            pass
        if getattr(engine, "history", None) or getattr(engine, "summary", ""):
            await self._render_history()  # resumed at launch (--continue, a session id)
        else:
            await self._welcome()
        await self._drain_queue()

    async def _welcome(self) -> None:
        settings = self.oc_app.settings
        ws = Path(settings.workspace)
        state = "dir" if ws.is_dir() else ("file" if ws.exists() else "missing")
        await self.chat.add_notice(
            welcome_markdown(self.status_bar.model, self.status_bar.offline, str(ws), state, settings.workspace_access)
        )

    def _sync_model_label(self) -> None:
        engine = self.engine
        if engine is None or self.engine_failed:
            return
        self.status_bar.model = str(getattr(engine, "model_label", "") or self.status_bar.model)
        self.status_bar.offline = bool(getattr(engine, "is_offline", False))

    async def on_engine_failed(self, message: EngineFailed) -> None:
        self.engine_failed = message.message
        self.prompt.starting = False
        self.queue.clear()
        self.status_bar.model = "unavailable"
        await self.chat.add_error(message.message, message.action)

    # ------------------------------------------------------------------ events from the core

    async def on_engine_event(self, message: EngineEvent) -> None:
        event = message.event
        if isinstance(event, ev.TextDelta) and not self.silent:
            # Coalesce deltas: one Markdown write per STREAM_INTERVAL instead of one per
            # token keeps a long reply from repainting the screen a thousand times.
            self._pending_text.append(event.text)
            if self._text_timer is None:
                self._text_timer = self.set_timer(self.STREAM_INTERVAL, self._flush_text)
            return
        await self._flush_text()  # keep order: text before the event that follows it
        await self.handle_event(event)

    async def _flush_text(self) -> None:
        if self._text_timer is not None:
            self._text_timer.stop()
            self._text_timer = None
        if not self._pending_text:
            return
        text = "".join(self._pending_text)
        self._pending_text.clear()
        await self.handle_event(ev.TextDelta(text=text))

    async def handle_event(self, event: ev.Event) -> None:
        chat = self.chat
        if isinstance(event, ev.TurnStarted):
            self._response = None
            self._turn_streamed = False
        elif isinstance(event, ev.TextDelta):
            if self.silent:
                return
            if self._response is None:
                self._response = await chat.add_response()
            self._turn_streamed = True
            self._count_streamed(event.text)
            await self._response.write(event.text)
        elif isinstance(event, ev.TurnFinished):
            response = self._response
            if response is None and (event.cancelled or (event.text and not self._turn_streamed)):
                response = await chat.add_response()
            if response is not None:
                final = "" if self._turn_streamed else event.text
                await response.finish(final, cancelled=event.cancelled)
            self._response = None
        elif isinstance(event, ev.ToolCalled):
            if self.silent:  # flush / compaction tool work is shown as timeline events only
                return
            if self._response is not None:
                await self._response.finish("")
                self._response = None
            await chat.add_tool(event.call_id, event.name, event.arguments)
        elif isinstance(event, ev.ToolResult):
            block = chat.find_tool(event.call_id)
            if block is not None:
                block.set_result(event.result, event.error)
        elif isinstance(event, ev.MemoryRetrieved):
            if event.result is not self.memory_panel.result:  # /memory search also reports its return value
                await self.memory_panel.show(event.query, event.result)
        elif isinstance(event, ev.TokenUsage):
            self.meter.usage = event
        elif isinstance(event, ev.ProviderError):
            await self.timeline.add_event(event)
            await chat.add_error(event.message, event.action or DEFAULT_ERROR_ACTION)
        elif isinstance(event, ev.MemoryChanged):
            await self._show_memory_change(event)
        elif isinstance(event, ev.AccessRefused):
            await self.timeline.add_event(event)
        elif isinstance(event, ev.FlushStarted):
            self._silent_spans.add("flush")
            self._set_busy("flushing")
            await self.timeline.add_event(event)
        elif isinstance(event, ev.CompactionStarted):
            self._silent_spans.add("compaction")
            self._set_busy("compacting")
            await self.timeline.add_event(event)
        elif isinstance(event, (ev.FlushFinished, ev.CompactionFinished, ev.IndexSynced)):
            if not isinstance(event, ev.IndexSynced):
                self._silent_spans.discard("flush" if isinstance(event, ev.FlushFinished) else "compaction")
                self._set_busy("replying" if self.turn_running else "")
            await self.timeline.add_event(event)
            await self._mark(event)
        elif isinstance(event, ev.Notice):
            kind = {"error": "error", "warning": "notice"}.get(event.level, "info")
            await self.timeline.add(kind, f"{event.level}: {one_line(event.message, 90)}", event.ts)
            if event.level == "error":
                await chat.add_error(event.message)
        else:
            await self.timeline.add_event(event)

    async def _mark(self, event: ev.Event) -> None:
        """A dimmed chat line where a flush, compaction or index run happened."""
        text = chat_mark(event)
        if text is None:
            return
        if self._response is not None:
            if isinstance(event, ev.IndexSynced):
                return  # a watcher sync during a streaming reply: the timeline has it
            await self._response.finish("")
            self._response = None
        await self.chat.add_mark(text)

    async def _show_memory_change(self, event: ev.MemoryChanged) -> None:
        """Timeline line for every change; the diff in the tool's block, or a block of its own."""
        await self.timeline.add_event(event)
        block = self.chat.find_tool(event.call_id) if event.call_id else None
        if block is not None:
            block.show_diff(event.diff, event.summary)
            return
        verb = {"undo": "↶ undo", "restore": "↶ restore"}.get(event.tool, f"✎ {event.tool}")
        await self.chat.add_memory_change(f"{verb} {event.path} — {one_line(event.summary, 50)}", event.diff)

    @property
    def silent(self) -> bool:
        return bool(self._silent_spans)

    def _set_busy(self, state: str) -> None:
        if not self.is_attached:  # a worker may end after the app closed the screen
            return
        bar = self.status_bar
        if state and not bar.busy:
            self._busy_since = time.monotonic()
            self._streamed_chars = 0
            self._usage_base = self.meter.usage
            bar.progress = ""
            self._ticker = self._ticker or self.set_interval(0.2, self._tick)
        elif not state and self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
            bar.progress = ""
        bar.busy = state

    def _tick(self) -> None:
        """The busy indicator moves: spinner frame, seconds so far, streamed tokens."""
        bar = self.status_bar
        bar.frame += 1
        elapsed = f"{time.monotonic() - self._busy_since:.0f}s"
        bar.progress = elapsed + (f" · ~{n(self._streamed_chars // 4)} tok" if self._streamed_chars else "")

    def _count_streamed(self, text: str) -> None:
        """The meter moves while a reply streams: an estimate (4 characters a token) until
        the engine reports the turn's usage."""
        self._streamed_chars += len(text)
        base = self._usage_base
        if base is not None:
            self.meter.usage = dataclasses.replace(base, used=base.used + self._streamed_chars // 4, estimated=True)

    # ------------------------------------------------------------------ input

    @on(PromptInput.Submitted)
    async def on_prompt_submitted(self, message: PromptInput.Submitted) -> None:
        await self.submit(message.text)

    @on(PromptInput.Completions)
    def on_prompt_changed(self, message: PromptInput.Completions) -> None:
        from rich.text import Text

        box = self.query_one("#completions", Static)
        if not message.completions:
            box.update("")
            box.display = False
            return
        rows = Text(no_wrap=True, overflow="ellipsis")
        for i, c in enumerate(message.completions):
            cmd = slash.BY_NAME.get(c.strip()[1:])
            row = f"{cmd.usage:<26} {cmd.help}" if cmd else c
            mark = "▸ " if i == message.selected else "  "
            rows.append(("\n" if i else "") + mark + row, style="reverse" if i == message.selected else "")
        box.update(rows)
        box.display = True
        if message.selected is not None:
            box.scroll_to(y=max(0, message.selected - 3), animate=False)

    def arg_values(self, name: str) -> list[str]:
        """Argument values offered by Tab completion."""
        if self.engine is None:
            return []
        if name == "resume":
            ids = [str(s.get("sessionId") or s.get("id") or "") for s in self.engine.list_sessions()]
            return [i for i in ids if i][:50]
        if name == "model":
            providers = self.oc_app.settings.config.models.providers
            return sorted({f"{p}/{m.id}" for p, entry in providers.items() for m in entry.models})
        return []

    async def submit(self, text: str) -> None:
        if slash.is_slash(text):
            await self.run_slash(text)
            return
        if text.lstrip().startswith("//"):
            text = text.lstrip()[1:]  # "//x" sends the literal "/x"
        if self.engine_failed:
            await self.chat.add_error("the session did not start, so nothing can be sent", "fix the problem above and restart")
            return
        self.chat.follow()  # sending always shows the bottom of the chat
        if self.turn_running or self.command_running or self.engine is None or self.queue.items:
            # wait for the running reply (or command, or the engine) — sent in order afterwards
            self.queue.push(text)
            if self.engine is None:
                self.notify("starting the session engine — your message is sent when it is ready")
            return
        await self.start_turn(text)

    async def start_turn(self, text: str) -> None:
        self.turn_running = True  # set before the worker starts: a prompt right behind it queues
        await self.chat.add_user(text)
        self.run_turn(text)

    async def _drain_queue(self) -> None:
        if self.turn_running or self.command_running or self.engine is None:
            return
        text = self.queue.pop_next()
        if text is not None:
            await self.start_turn(text)

    @work(group="turn", exclusive=False)
    async def run_turn(self, text: str) -> None:
        self.turn_running = True
        self._set_busy("replying")
        try:
            await self.engine.send(text)
        except Exception as exc:  # noqa: BLE001 - the engine should not raise; if it does, say so inline
            await self.chat.add_error(f"the turn failed: {one_line(str(exc), 160)}", DEFAULT_ERROR_ACTION)
        finally:
            self.turn_running = False
            self._set_busy("")
            self.post_message(Settled())

    def action_interrupt(self) -> None:
        """Ctrl+C: cancel the running reply or command; on an idle prompt, twice quits.

        With a selection in the prompt it copies, as Ctrl+C does in a text field.
        """
        prompt = self.prompt
        if self.focused is prompt and prompt.selected_text:
            prompt.action_copy()
            return
        if self.turn_running or self.command_running in ("flush", "compact"):
            self.action_cancel_turn()
            return
        now = time.monotonic()
        if now - self._quit_armed_at < self.QUIT_AGAIN_S:
            self.run_worker(self.oc_app.action_quit(), group="quit")
            return
        self._quit_armed_at = now
        if prompt.text:
            prompt.clear()
        self.notify("press Ctrl+C again to quit (or Ctrl+Q)", timeout=self.QUIT_AGAIN_S)

    def action_cancel_turn(self) -> None:
        """Esc: cancel the running reply (or a running /flush or /compact)."""
        if self.engine is None:
            return
        if self.turn_running or self.command_running in ("flush", "compact"):
            self.engine.cancel()
            self.notify("cancelling…")

    def on_key(self, event) -> None:
        """Typing while another pane has focus goes to the prompt."""
        if event.is_printable and event.character and self.focused is not self.prompt:
            event.stop()
            event.prevent_default()
            self.prompt.focus()
            self.prompt.insert(event.character)

    def action_focus_memory(self) -> None:
        self.query_one("#memory-results").focus()

    # ------------------------------------------------------------------ memory viewer

    @on(MemoryPanel.OpenSnippet)
    async def open_snippet(self, message: MemoryPanel.OpenSnippet) -> None:
        await self.show_snippet(message.path, message.start_line, message.end_line)

    async def show_snippet(self, path: str, start: int | None, end: int | None) -> "SnippetViewer":
        from openclaw_tui.tui.screens.viewer import SnippetViewer

        text, error = "", ""
        memory = self.oc_app.memory
        if memory is None or not hasattr(memory, "get"):
            error = self._memory_off_reason() + " — memory_get unavailable"
        else:
            lines = (end - start + 1) if (start and end and end >= start) else None
            try:
                got = await _maybe_await(memory.get(path, start, lines))
            except Exception as exc:  # noqa: BLE001
                got = {"text": "", "error": str(exc)}
            if isinstance(got, dict):
                text = str(got.get("text") or "")
                error = str(got.get("error") or "")
            else:
                text = str(got or "")
            if not text and not error:
                error = f"{path} is empty or no longer exists"
        viewer = SnippetViewer(path, start, end, text, error)
        await self.app.push_screen(viewer)
        return viewer

    # ------------------------------------------------------------------ slash commands

    async def run_slash(self, text: str) -> None:
        try:
            parsed = slash.parse(text)
        except slash.SlashError as exc:
            await self.chat.add_error(str(exc))
            return
        if self.engine is None and parsed.name not in ("help", "quit", "status"):
            if self.engine_failed:
                await self.chat.add_error(f"{parsed.command.usage} is unavailable: the session did not start", "fix the problem above and restart")
            else:
                self.notify("the session engine is still starting — try again in a moment", severity="warning")
            return
        if not parsed.command.mid_turn and (self.turn_running or self.command_running):
            busy = "a reply is streaming" if self.turn_running else f"/{self.command_running} is running"
            await self.chat.add_error(f"{parsed.command.usage} cannot run while {busy}", "wait for it, or press Esc to cancel a reply")
            return
        handler = getattr(self, "_cmd_" + parsed.name.replace(" ", "_"))
        if not parsed.command.mid_turn:
            self.command_running = parsed.name
        self.run_command(handler, parsed.arg, exclusive=not parsed.command.mid_turn)

    @work(group="command", exclusive=False)
    async def run_command(self, handler: Any, arg: str, exclusive: bool = False) -> None:
        try:
            await handler(arg)
        except Exception as exc:  # noqa: BLE001 - one line, never a traceback
            await self.chat.add_error(f"command failed: {one_line(str(exc), 160)}")
        finally:
            if exclusive:
                self.command_running = None
            self.post_message(Settled())

    async def on_settled(self, _message: Settled) -> None:
        # every event of the finished work has been handled: no silent span can still be open
        if not self.turn_running and not self.command_running:
            self._silent_spans.clear()
            await self._drain_queue()  # the next queued prompt, after the reply shown so far

    async def _say(self, markdown: str) -> None:
        self.last_command_output = markdown
        await self.chat.add_notice(markdown)

    async def _cmd_help(self, _arg: str) -> None:
        await self._say(slash.help_markdown())

    async def _cmd_new(self, _arg: str) -> None:
        sid = self.engine.new_session()
        await self.chat.clear()
        self._response = None
        self._refresh_usage()
        await self._say(f"New session `{sid}`.")

    async def _cmd_resume(self, arg: str) -> None:
        sessions = self.engine.list_sessions()
        if not arg:
            if not sessions:
                await self._say("No saved sessions yet.")
                return
            key = self.oc_app.settings.session_key
            options = [(str(s.get("sessionId") or ""), session_line(s, key, plain=True)) for s in sessions[:50]]
            arg = await self.app.push_screen_wait(Picker("Resume a session (newest first)", [o for o in options if o[0]]))
            if not arg:
                return
        self.engine.resume(self._session_id_for(arg, sessions))
        await self.chat.clear()
        await self._render_history()
        self._refresh_usage()
        await self._say(f"Resumed session `{self.engine.session_id}`.")

    @staticmethod
    def _session_id_for(arg: str, sessions: list[dict[str, Any]]) -> str:
        """A full id, or the one id that starts with ``arg`` (``/resume 75cf``)."""
        ids = [str(s.get("sessionId") or "") for s in sessions]
        if arg in ids:
            return arg
        hits = [i for i in ids if i and i.startswith(arg)]
        if len(hits) > 1:
            shown = ", ".join(h[:13] + "…" for h in hits[:4])
            raise ValueError(f"{arg!r} starts {len(hits)} session ids ({shown}): type more of the id")
        return hits[0] if hits else arg  # no match: the engine says what is wrong

    async def _render_history(self, limit: int = 200) -> None:
        """Show a resumed conversation as it was: prompts, replies, tool calls with their
        results, provider errors and cancelled replies (from the transcript)."""
        from openclaw_tui.session.transcript import read_transcript
        from openclaw_tui.tui.replay import replay

        path = getattr(self.engine, "transcript_path", None)
        entries = await asyncio.to_thread(read_transcript, path) if path else []
        if not entries:  # no transcript (yet): what the engine holds
            entries = [{"type": "message", "message": m} for m in getattr(self.engine, "history", []) or []]
        shown = replay(entries)
        summary = (shown.summary or str(getattr(self.engine, "summary", "") or "")).strip()
        if summary:
            # after a compaction the older turns live only in the summary: without it a
            # resumed session looked empty
            await self.chat.add_notice("**Earlier conversation (compacted)**\n\n" + summary)
        try:
            for item in shown.items[-limit:]:
                await self._replay_item(item)
        except MountError:
            return  # the app closed while the conversation was being shown again

    async def _replay_item(self, item: Any) -> None:
        chat = self.chat
        if item.kind == "user":
            await chat.add_user(item.text)
        elif item.kind in ("assistant", "cancelled"):
            last = chat.children[-1] if chat.children else None
            if item.kind == "cancelled" and last is not None and last.has_class("-cancelled"):
                return  # the reply already carries its cancelled mark
            response = await chat.add_response()
            await response.finish(item.text, cancelled=item.cancelled or item.kind == "cancelled")
        elif item.kind == "tool":
            await chat.add_tool(item.call_id, item.name, item.arguments)
        elif item.kind == "result":
            block = chat.find_tool(item.call_id)
            if block is not None:
                block.set_result(item.result, item.error)
        elif item.kind == "error":
            await chat.add_error(item.text, item.action or DEFAULT_ERROR_ACTION)

    async def _cmd_compact(self, arg: str) -> None:
        self._set_busy("compacting")
        try:
            await self.engine.compact(arg or None)
        finally:
            self._set_busy("")
        self._refresh_usage()

    async def _cmd_flush(self, _arg: str) -> None:
        self._set_busy("flushing")
        try:
            await self.engine.flush()
        finally:
            self._set_busy("")

    async def _cmd_memory_search(self, arg: str) -> None:
        result = await self.engine.memory_search(arg)
        # the engine may also emit MemoryRetrieved; this message is queued after it
        self.post_message(EngineEvent(ev.MemoryRetrieved(query=arg, result=result)))

    def _memory(self) -> Any:
        memory = self.oc_app.memory
        if memory is None:
            raise RuntimeError(self._memory_off_reason())
        return memory

    def _memory_off_reason(self) -> str:
        if self.oc_app.settings.workspace_access == "none":
            return "memory is off: the workspace is not accessible (--workspace-access none)"
        return "memory is off for this agent (plugins.slots.memory or memorySearch.enabled)"

    async def _cmd_memory_status(self, arg: str) -> None:
        status = await _maybe_await(self._memory().status())
        data = status if isinstance(status, dict) else getattr(status, "__dict__", {"status": status})
        await self._say(_md_kv("Memory index", data) if arg == "--all" else memory_status_markdown(data))

    async def _cmd_memory_index(self, arg: str) -> None:
        memory = self._memory()
        force = arg == "--force"
        self._set_busy("indexing")
        try:
            fn = memory.sync
            if inspect.iscoroutinefunction(fn):
                result = await fn(force=force)
            else:
                result = await asyncio.to_thread(fn, force=force)
        finally:
            self._set_busy("")
        summary = result if isinstance(result, dict) else getattr(result, "__dict__", None)
        await self._say(index_report_markdown(summary, force) if summary else "Index synced.")

    async def _cmd_undo(self, _arg: str) -> None:
        from openclaw_tui.workspace.history import HistoryError  # noqa: PLC0415

        try:
            await asyncio.to_thread(self.engine.undo_memory)  # the engine emits MemoryChanged
        except HistoryError as exc:
            await self.chat.add_error(str(exc))

    async def _cmd_model(self, arg: str) -> None:
        if not arg:
            current = self.status_bar.model
            names = [current] + [m for m in self.arg_values("model") if m != current] + ["offline"]
            names = list(dict.fromkeys(n for n in names if n and n != "…"))
            labels = [(m, f"{m}   (current)" if m == current else m) for m in names]
            arg = await self.app.push_screen_wait(Picker("Switch model (configured models)", labels))
            if not arg:
                return
        self.engine.set_model(arg)
        self.status_bar.model = str(getattr(self.engine, "model_label", arg))
        self.status_bar.offline = bool(getattr(self.engine, "is_offline", False))
        self._refresh_usage()
        await self._say(f"Model set to `{self.status_bar.model}`.")
        warm_up = getattr(self.engine, "warm_up", None)
        if warm_up is not None:  # a local model loads now, not with the next message
            self.run_worker(warm_up(), group="model-load", exclusive=True)

    async def _cmd_status(self, _arg: str) -> None:
        s = self.oc_app.settings
        usage = self.meter.usage
        data: dict[str, Any] = {
            "model": self.status_bar.model + (" (offline agent)" if self.status_bar.offline else ""),
            "session": getattr(self.engine, "session_id", "starting…"),
            "session key": s.session_key,
            "agent": s.agent_id,
            "workspace": str(s.workspace),
            "workspace access": s.workspace_access,
        }
        if usage is not None:
            data["tokens"] = (
                f"{n(usage.used)} / {n(usage.context_window)} (flush at {n(usage.flush_threshold)}, "
                f"compaction at {n(usage.compaction_threshold)}, {'estimate' if usage.estimated else 'provider-reported'})"
            )
        await self._say(_md_kv("Status", data))

    async def _cmd_quit(self, _arg: str) -> None:
        await self.oc_app.action_quit()

    def _refresh_usage(self) -> None:
        try:
            self.meter.usage = self.engine.token_snapshot()
        except Exception:  # noqa: BLE001
            pass
