"""The Textual application. Builds the session engine after the first frame.

Startup order keeps the first frame cheap: the app module imports Textual and the event
dataclasses only. Given a settings loader (the CLI passes one), the config — pydantic
models, JSON5 — is read in a worker thread once the main screen has been painted, then the
engine module (and, for a real model, litellm) is imported and built there too.
"""

from __future__ import annotations

import asyncio
import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Union

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.screen import Screen

from openclaw_tui.events import Notice
from openclaw_tui.tui.commands import registry
from openclaw_tui.tui.format import Clock, local_clock
from openclaw_tui.tui.messages import EngineFailed, EngineReady, EventBridge
from openclaw_tui.tui.screens.main import MainScreen

if TYPE_CHECKING:
    from openclaw_tui.session.surface import EngineSurface
    from openclaw_tui.config import AgentSettings
    from openclaw_tui.memory.api import MemoryBackend

EngineFactory = Callable[..., "EngineSurface"]
SettingsSource = Union["AgentSettings", Callable[[], "AgentSettings"]]
THEMES = {"dark": "textual-dark", "light": "textual-light"}


class SlashCommandProvider(Provider):
    """The slash-command registry in the command palette (Ctrl+P)."""

    def _run(self, cmd: registry.SlashCommand) -> Callable[[], None]:
        app = self.app

        def go() -> None:
            screen = app.main_screen  # type: ignore[attr-defined]
            if cmd.needs_arg or cmd.name == "compact":
                screen.prompt.load_text(f"/{cmd.name} ")
                screen.prompt.move_cursor(screen.prompt.document.end)
                screen.prompt.focus()
            else:
                app.call_later(screen.run_slash, f"/{cmd.name}")

        return go

    async def discover(self) -> Hits:
        for cmd in registry.COMMANDS:
            yield DiscoveryHit(Content(cmd.usage), self._run(cmd), text=cmd.usage, help=cmd.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for cmd in registry.COMMANDS:
            score = matcher.match(cmd.usage)
            if score > 0:
                # plain Content: usages hold brackets ("[id]") that must not be read as markup
                yield Hit(score, Content(cmd.usage), self._run(cmd), text=cmd.usage, help=cmd.help)


class OpenClawApp(App[int]):
    TITLE = "openclaw-tui"
    # the main screen's CSS, loaded with the app's: the main screen is the default screen,
    # and Textual reads a screen's own CSS_PATH only for a pushed screen
    CSS_PATH = str(Path(__file__).with_name("screens") / "main.tcss")
    COMMANDS = App.COMMANDS | {SlashCommandProvider}
    BINDINGS = [
        Binding("ctrl+t", "toggle_theme", "light/dark", show=False),
        Binding("ctrl+q", "quit", "quit", priority=True),
    ]

    def __init__(
        self,
        settings: SettingsSource,
        *,
        engine_factory: EngineFactory | None = None,
        clock: Clock | None = None,
        theme: str | None = None,
        session_id: str | None = None,
        continue_latest: bool = False,
        show_timings: bool = True,
    ) -> None:
        """``settings`` is the agent's settings, or a callable that loads them (read after
        the first frame, in a thread; its exception ends the app and is ``startup_error``).
        ``continue_latest`` resumes the newest saved session of the session key."""
        super().__init__()
        self._load_settings = settings if callable(settings) else None
        self.settings: Any = None
        self.engine_factory = engine_factory
        self.clock = clock or local_clock
        self.show_timings = show_timings  # off in snapshot tests: durations vary run to run
        #: prompt history, kept per agent across runs (known once the settings are)
        self.history_path: Any = None
        self.session_id = session_id
        self.continue_latest = continue_latest
        self.startup_error: BaseException | None = None
        #: the session on screen when the app closed, if it was saved (the exit breadcrumb)
        self.saved_session_id: str | None = None
        #: called once the terminal is restored, before the event loop waits for its worker
        #: threads (the CLI prints the resume line here: quitting shows it at once)
        self.on_closed: Callable[[], None] | None = None
        self.bridge = EventBridge()
        self.engine: "EngineSurface | None" = None
        self.memory: MemoryBackend | None = None
        self.main_screen = MainScreen()
        self._theme_arg = theme
        self.theme = THEMES.get(theme or "dark", THEMES["dark"])
        if not callable(settings):
            self._use_settings(settings)

    def _use_settings(self, settings: "AgentSettings") -> None:
        self.settings = settings
        self.history_path = settings.agent_dir / "tui-history.jsonl"
        wanted = self._theme_arg or getattr(getattr(settings.config, "ui", None), "theme", "dark")
        theme = THEMES.get(str(wanted), THEMES["dark"])
        if theme != self.theme:  # setting the same theme again still restyles every widget
            self.theme = theme

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Toggle light/dark theme", "Switch between the dark and light theme", self.action_toggle_theme)

    def get_default_screen(self) -> Screen:
        # the main screen is the first one: no blank default screen to build and paint first
        return self.main_screen

    async def on_mount(self) -> None:
        self.call_after_refresh(self.start_engine)

    def start_engine(self) -> None:
        self.run_worker(self._boot(), group="boot", exclusive=True)

    def _make_engine(self) -> "EngineSurface":
        """Runs in a worker thread: open the memory backend, build the engine around it.

        The app hosts the memory object (it lives as long as the app) so the panel's viewer,
        ``/memory status`` and ``/memory index`` use the same index the engine searches.
        """
        # the Markdown widgets are first needed by the first reply: load them here, off the loop
        importlib.import_module("openclaw_tui.tui.widgets.markdown_blocks")
        if self.engine_factory is not None:
            return self.engine_factory(self.settings, sink=self.bridge, session_id=self.session_id)
        module = importlib.import_module("openclaw_tui.session.engine")
        from openclaw_tui.session.memory_link import open_session_memory

        memory = open_session_memory(self.settings, self.bridge)  # the one memory the engine uses
        try:
            engine = module.SessionEngine(self.settings, sink=self.bridge, memory=memory, session_id=self.session_id)
        except Exception:
            if memory is not None:
                memory.close()
            raise
        if memory is not None and not engine.memory_tools_on:
            memory.close()  # memory off for this agent (plugin slot, memorySearch.enabled, access none)
            memory = None
        self.memory = memory
        if self.continue_latest and self.session_id is None:
            self._continue_latest(engine)
        return engine

    def _continue_latest(self, engine: "EngineSurface") -> None:
        """--continue: resume the newest saved session of this session key and workspace."""
        from openclaw_tui.session.scope import scoped_sessions

        key = engine.session_key
        for entry in scoped_sessions(engine.list_sessions(), self.settings.workspace, key):  # newest first
            if not entry.get("current") and entry.get("sessionId"):
                engine.resume(str(entry["sessionId"]))
                return
        self.bridge(Notice("info", f"--continue: no saved session for {key} in this workspace yet; this is a new one"))

    def _start_memory(self) -> None:
        """Session-start sync and the file watcher (config: memorySearch.sync.*)."""
        memory = self.memory
        if memory is None:
            return
        from openclaw_tui.session.memory_link import sync_at_session_start

        sync_at_session_start(memory, self.settings, self.bridge)
        try:
            memory.start_watcher()
        except Exception as exc:  # noqa: BLE001
            self.bridge(Notice("warning", f"memory watcher failed: {exc}"))

    def _warm_memory(self) -> None:
        """Load the embedding model in the background: the first search must not wait for it."""
        if self.memory is not None:
            self.memory.warm_up()

    async def _boot(self) -> None:
        if self.settings is None and self._load_settings is not None:
            try:
                settings = await asyncio.to_thread(self._load_settings)
            except Exception as exc:  # noqa: BLE001 - the CLI prints it after the app closed
                self.startup_error = exc
                self.exit(2, return_code=2)
                return
            self._use_settings(settings)
            self.main_screen.apply_settings()
        try:
            # import + construct off the event loop: the first frame is already on screen
            engine = await asyncio.to_thread(self._make_engine)
        except Exception as exc:  # noqa: BLE001 - one line in the chat, never a traceback
            msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            self.main_screen.post_message(
                EngineFailed(f"could not start the session: {msg}", "fix the config or flags named above and restart")
            )
            return
        self.engine = engine
        self.main_screen.post_message(EngineReady(engine))
        # a local model's server loads now, after the first frame, beside the memory index
        # and the embedding model; the prompt is usable meanwhile (a turn waits for the
        # server) and the bar says so
        await asyncio.gather(asyncio.to_thread(self._start_memory), asyncio.to_thread(self._warm_memory), engine.warm_up())
        if not engine.is_offline:
            # warm litellm in the background so the first reply does not pay for the import
            from openclaw_tui._offline import import_litellm

            await asyncio.to_thread(import_litellm)

    async def run_async(self, **kwargs: Any) -> int | None:
        try:
            return await super().run_async(**kwargs)
        finally:
            hook, self.on_closed = self.on_closed, None
            if hook is not None:
                hook()

    def action_toggle_theme(self) -> None:
        self.theme = THEMES["light"] if self.theme == THEMES["dark"] else THEMES["dark"]

    async def action_quit(self) -> None:
        self._close_engine()
        self.exit(0)

    def _close_engine(self) -> None:
        engine = self.engine
        if engine is not None:
            try:
                if engine.transcript_path.exists():
                    self.saved_session_id = engine.session_id
            except Exception:  # noqa: BLE001 - a breadcrumb problem must not stop the exit
                pass
        engine, self.engine = self.engine, None
        memory, self.memory = self.memory, None
        for thing in (engine, memory):
            if thing is not None:
                try:
                    thing.close()
                except Exception:  # noqa: BLE001
                    pass

    async def on_unmount(self) -> None:
        self._close_engine()
