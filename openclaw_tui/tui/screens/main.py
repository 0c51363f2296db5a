"""The main screen: chat, memory panel, timeline, status bar and token meter.

It lays the widgets out, sends prompts (queued while a reply runs) and handles the keys
that control a turn. Engine events are rendered by :class:`EventView`, slash commands run
from the table in :mod:`openclaw_tui.tui.commands.dispatch`; the screen holds no session logic.
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Click, Key, Resize
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Static

from openclaw_tui.tui.commands import registry
from openclaw_tui.tui.commands.host import live_engine
from openclaw_tui.tui.busy import BusyIndicator
from openclaw_tui.tui.event_view import DEFAULT_ERROR_ACTION, EventView
from openclaw_tui.tui.format import one_line, welcome_markdown
from openclaw_tui.tui.messages import EngineEvent, EngineFailed, EngineReady, Settled
from openclaw_tui.tui.widgets.chat import ChatView, Copyable, CopyRequested
from openclaw_tui.tui.widgets.completion_menu import CompletionMenu
from openclaw_tui.tui.widgets.key_hints import KeyHints
from openclaw_tui.tui.widgets.meter import TokenMeter
from openclaw_tui.tui.widgets.prompt import PromptInput
from openclaw_tui.tui.widgets.queue import PromptQueue
from openclaw_tui.tui.widgets.status_bar import StatusBar
from openclaw_tui.tui.widgets.side_panel import SidePanel

if TYPE_CHECKING:
    from openclaw_tui import events as ev
    from openclaw_tui.config.loader import AgentSettings
    from openclaw_tui.memory.api import MemoryBackend
    from openclaw_tui.session.surface import EngineSurface
    from openclaw_tui.tui.app import OpenClawApp
    from openclaw_tui.tui.widgets.memory_panel import MemoryPanel
    from openclaw_tui.tui.widgets.timeline import Timeline
    from openclaw_tui.tui.screens.viewer import SnippetViewer

def installed_local_models() -> list[str]:
    """``local/<name>`` for each GGUF chat model in the models dir (what ``/model`` offers)."""
    try:
        from openclaw_tui.llm.local.files import models_dir

        return [f"local/{p.stem}" for p in sorted(models_dir().glob("*.gguf"))]
    except Exception:  # noqa: BLE001 - an unreadable models dir offers nothing
        return []


T = TypeVar("T")
NEW_MESSAGES = "↓ new messages below · End on an empty prompt (or Ctrl+End) jumps there"


class MainScreen(Screen[None]):
    AUTO_FOCUS = "PromptInput"
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
        Binding("alt+up", "focus_message", "select a message to copy", show=False),
    ]

    # the screen's state, as Textual vars (watchers run when a value changes, not at mount)
    #: the session engine, once the first frame has built it
    engine: var["EngineSurface | None"] = var(None, init=False)
    #: a reply runs (set before its worker starts: a prompt right behind it queues)
    turn_running: var[bool] = var(False, init=False)
    #: a command that must not overlap a turn ("flush", "compact", …)
    command_running: var[str | None] = var(None, init=False)
    #: why the session did not start ("" while it starts or runs)
    engine_failed: var[str] = var("", init=False)
    #: the user's Ctrl+O choice; None follows the width
    side_choice: var[bool | None] = var(None, init=False)

    def __init__(self) -> None:
        super().__init__()
        self.last_command_output: str = ""
        self.events = EventView(self)
        self.busy: BusyIndicator  # built on mount, around the status bar and the meter
        self._quit_armed_at = 0.0

    @property
    def oc_app(self) -> "OpenClawApp":
        return cast("OpenClawApp", self.app)

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status-bar")
        with Horizontal(id="body"):
            with Vertical(id="chat-column"):
                yield ChatView(id="chat")
                yield Static(NEW_MESSAGES, id="new-messages", markup=False)
                yield CompletionMenu(id="completions")
                yield PromptQueue(id="queue")
                yield PromptInput(id="prompt", history_path=self.oc_app.history_path)
            yield SidePanel(id="side", clock=self.oc_app.clock, timings=self.oc_app.show_timings)
        yield TokenMeter(id="token-meter")
        yield KeyHints(id="key-hints")

    def on_mount(self) -> None:
        self.busy = BusyIndicator(self, self.status_bar, self.meter)
        if self.oc_app.settings is not None:
            self.apply_settings()
        self.oc_app.bridge.attach(self)
        # a local model's label changes on its own (loading model… → tok/s); keep the bar in step
        self.set_interval(0.5, self._sync_model_label)
        self.prompt.arg_values = self.arg_values
        self.prompt.take_queued = self.queue.take_last
        self._fit_side(self.app.size.width)
        # the side column fills once the first frame is on screen
        self.call_after_refresh(lambda: self.run_worker(self.side.build(), group="side"))

    def apply_settings(self) -> None:
        """Show the agent's settings (at mount, or once the app has read the config)."""
        settings = self.oc_app.settings
        bar = self.status_bar
        bar.session_key = settings.session_key
        bar.agent = settings.agent_id
        bar.access = settings.workspace_access
        bar.model = settings.model or "…"
        from openclaw_tui.workspace.privacy import hidden_for

        bar.privacy = "group" if hidden_for(settings.session_key) else ""
        self.meter.flush_mark = settings.workspace_access == "rw"
        self.prompt.use_history(self.oc_app.history_path)

    @property
    def settings(self) -> "AgentSettings":
        settings = self.oc_app.settings
        if settings is None:
            raise RuntimeError("the agent's settings are still loading — try again in a moment")
        return settings

    @property
    def memory(self) -> "MemoryBackend | None":
        return self.oc_app.memory

    @property
    def chat(self) -> ChatView:
        return self.query_one(ChatView)

    def chat_attached(self) -> bool:
        """The chat is on screen (not while the app quits and its widgets go)."""
        found = self.query(ChatView)
        return bool(found) and found.first().is_attached

    @property
    def side(self) -> SidePanel:
        return self.query_one(SidePanel)

    @property
    def memory_panel(self) -> "MemoryPanel":
        return self.side.memory_panel

    @property
    def timeline(self) -> "Timeline":
        return self.side.timeline

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
        return bool(self.side.display)

    # ------------------------------------------------------------------ layout keys

    def on_resize(self, event: Resize) -> None:
        self._fit_side(event.size.width)

    def _fit_side(self, width: int) -> None:
        want = self.side_choice if self.side_choice is not None else width >= self.SIDE_MIN_WIDTH
        self.side.display = want

    def watch_side_choice(self) -> None:
        self._fit_side(self.app.size.width)

    def action_toggle_side(self) -> None:
        """Ctrl+O: show or hide the Memory/Timeline panel (the chat takes the full width)."""
        self.side_choice = not self.side_visible
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

    def on_click(self, event: Click) -> None:
        if event.widget is not None and event.widget.id == "new-messages":
            self.chat.follow()

    def action_focus_message(self) -> None:
        """Alt+↑: focus the newest message (then ↑/↓ move, c copies, Esc returns)."""
        shown = [w for w in self.chat.children if isinstance(w, Copyable) and w.display]
        if shown:
            shown[-1].focus()
            shown[-1].scroll_visible(animate=False)

    @on(CopyRequested)
    def on_copy_requested(self, message: CopyRequested) -> None:
        self.copy_out(message.text, message.what)

    def copy_out(self, text: str, what: str) -> str:
        """Copy to the clipboard (OSC 52) and the state folder's clipboard.txt; say where."""
        from openclaw_tui.tui.copy import copy_text

        settings = self.oc_app.settings
        notice = copy_text(self.app, text, getattr(settings, "state_dir", None), what)
        self.notify(notice, timeout=4)
        return notice

    def action_focus_memory(self) -> None:
        if self.side.built:
            self.query_one("#memory-results").focus()

    async def on_key(self, event: Key) -> None:
        """Typing while another pane has focus goes to the prompt.

        Keys typed in the first moments after launch reach the screen although the prompt
        already has focus (the prompt had not started taking messages): they were lost.
        A printable key, Enter or Ctrl+J that arrives here with the prompt focused is one
        the prompt never saw (it stops every key it handles), so it is handed over.
        """
        prompt = self.prompt
        if self.focused is prompt:
            if (event.is_printable and event.character) or event.key in ("enter", "ctrl+j"):
                event.stop()
                event.prevent_default()
                await prompt._on_key(event)
            return
        if event.is_printable and event.character:
            event.stop()
            event.prevent_default()
            prompt.focus()
            prompt.insert(event.character)

    # ------------------------------------------------------------------ engine lifecycle

    async def on_engine_ready(self, message: EngineReady) -> None:
        self.engine = engine = message.engine
        self.prompt.starting = False
        bar = self.status_bar
        bar.model = engine.model_label or self.oc_app.settings.model or "?"
        bar.offline = engine.is_offline
        self.refresh_usage()
        if engine.history or engine.summary:
            from openclaw_tui.tui.history_view import show_history

            await show_history(self.chat, engine)  # resumed at launch (--continue, a session id)
        else:
            await self._welcome()
        await self._drain_queue()

    async def _welcome(self) -> None:
        settings = self.oc_app.settings
        ws = Path(settings.workspace)
        state = "dir" if ws.is_dir() else ("file" if ws.exists() else "missing")
        bar = self.status_bar
        text = welcome_markdown(bar.model, bar.offline, str(ws), state, settings.workspace_access,
                                today="YYYY-MM-DD", group=bool(bar.privacy))  # not the date: snapshots stay stable
        await self.chat.add_notice(text)

    def _sync_model_label(self) -> None:
        engine = self.engine
        if engine is None or self.engine_failed:
            return
        self.status_bar.model = engine.model_label or self.status_bar.model
        self.status_bar.offline = engine.is_offline

    async def on_engine_failed(self, message: EngineFailed) -> None:
        self.engine_failed = message.message
        await self.chat.add_error(message.message, message.action)

    def watch_engine_failed(self, failed: str) -> None:
        """Nothing will start: the prompt stops waiting and the queued prompts go."""
        if failed:
            self.prompt.starting = False
            self.queue.clear()
            self.status_bar.model = "unavailable"

    async def on_engine_event(self, message: EngineEvent) -> None:
        await self.events.receive(message.event)

    def refresh_usage(self) -> None:
        engine = self.engine
        if engine is None:  # no usage before the engine is up
            return
        try:
            self.meter.usage = engine.token_snapshot()
        except Exception:  # noqa: BLE001 - a meter problem must not stop the app
            pass

    # ------------------------------------------------------------------ input

    @on(PromptInput.Submitted)
    async def on_prompt_submitted(self, message: PromptInput.Submitted) -> None:
        await self.submit(message.text)

    @on(PromptInput.Completions)
    def on_prompt_changed(self, message: PromptInput.Completions) -> None:
        self.query_one(CompletionMenu).show(message.completions, message.selected)

    def arg_values(self, name: str) -> list[str]:
        """Argument values offered by Tab completion."""
        if self.engine is None:
            return []
        if name == "resume":
            from openclaw_tui.session.scope import scoped_sessions

            settings = self.oc_app.settings
            here = scoped_sessions(self.engine.list_sessions(), settings.workspace, settings.session_key)
            ids = [str(s.get("sessionId") or s.get("id") or "") for s in here]
            return [i for i in ids if i][:50]
        if name == "model":
            providers = self.oc_app.settings.config.models.providers
            configured = sorted({f"{p}/{m.id}" for p, entry in providers.items() for m in entry.models})
            return configured + [m for m in installed_local_models() if m not in configured]
        return []

    async def submit(self, text: str) -> None:
        if registry.is_slash(text):
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

    async def run_slash(self, text: str) -> None:
        from openclaw_tui.tui.commands import dispatch  # the handlers load with the first command

        await dispatch.run_slash(self, text)

    async def say(self, markdown: str) -> None:
        """A command's answer, as a notice in the chat."""
        self.last_command_output = markdown
        await self.chat.add_notice(markdown)

    async def start_over(self) -> None:
        """A new or resumed session: the chat and the memory panel empty again."""
        await self.chat.clear()
        if self.side.built:
            await self.memory_panel.reset()
        self.events.response = None  # the reply being streamed went with the chat

    def emit(self, event: "ev.Event") -> None:
        self.oc_app.bridge(event)

    async def ask(self, modal: "Screen[T]") -> T:
        return await self.app.push_screen_wait(modal)

    async def show_modal(self, modal: "Screen[Any]") -> None:
        await self.app.push_screen(modal)

    def suspended(self) -> AbstractContextManager[None]:
        return self.app.suspend()

    @property
    def headless(self) -> bool:
        return self.app.is_headless

    async def quit(self) -> None:
        await self.oc_app.action_quit()

    async def show_snippet(self, path: str, start: int | None, end: int | None) -> "SnippetViewer":
        from openclaw_tui.tui.commands import memory

        return await memory.show_snippet(self, path, start, end)

    async def on_memory_panel_open_snippet(self, message: "MemoryPanel.OpenSnippet") -> None:
        await self.show_snippet(message.path, message.start_line, message.end_line)

    # ------------------------------------------------------------------ turns

    async def start_turn(self, text: str) -> None:
        if not self.chat_attached():
            return  # quitting: the message was submitted as the app closed (its engine is closed too)
        self.turn_running = True  # set before the worker starts: a prompt right behind it queues
        self.chat.begin_turn(await self.chat.add_user(text))
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
        self.busy.set("replying")
        loading = "loading model" in self.status_bar.model
        self.busy.phase("waiting for the model to load" if loading else "getting ready")
        try:
            await live_engine(self).send(text)  # a turn starts only once the engine is up
        except Exception as exc:  # noqa: BLE001 - the engine should not raise; if it does, say so inline
            await self.chat.add_error(f"the turn failed: {one_line(str(exc), 160)}", DEFAULT_ERROR_ACTION, of_turn=True)
        finally:
            self.turn_running = False
            self.busy.set("")
            self.post_message(Settled())

    async def on_settled(self, _message: Settled) -> None:
        if not self.turn_running and not self.command_running:
            self.events.settled()
            await self._drain_queue()  # the next queued prompt, after the reply shown so far

    def action_interrupt(self) -> None:
        """Ctrl+C: cancel the running reply or command; on an idle prompt, twice quits.

        With a selection (the prompt's, or text dragged over in the chat) it copies, as
        Ctrl+C does in a text field, and never quits.
        """
        prompt = self.prompt
        if self.focused is prompt and prompt.selected_text:
            self.copy_out(prompt.selected_text, "the selection")
            return
        selected = self.get_selected_text()
        if selected:
            self.copy_out(selected, "the selection")
            self.clear_selection()
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
            self.busy.set("cancelling")  # in the status bar: a toast covered the prompt
