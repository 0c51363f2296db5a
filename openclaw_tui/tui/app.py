"""The Textual application. Builds the session engine after the first frame.

Startup order keeps the first frame cheap: the app module imports Textual, the config and
the event dataclasses only; the engine module (and, for a real model, litellm) are imported
in a worker thread once the main screen has been painted.
"""

from __future__ import annotations

import asyncio
import importlib
from typing import Any, Callable, Iterable

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.screen import Screen

from openclaw_tui.config import AgentSettings
from openclaw_tui.tui import slash
from openclaw_tui.tui.format import Clock, local_clock
from openclaw_tui.tui.messages import EngineFailed, EngineReady, EventBridge
from openclaw_tui.tui.screens.main import MainScreen

EngineFactory = Callable[..., Any]
THEMES = {"dark": "textual-dark", "light": "textual-light"}


class SlashCommandProvider(Provider):
    """The slash-command registry in the command palette (Ctrl+P)."""

    def _run(self, cmd: slash.SlashCommand) -> Callable[[], None]:
        app = self.app

        def go() -> None:
            screen = app.main_screen  # type: ignore[attr-defined]
            if cmd.needs_arg or cmd.name in ("compact", "resume"):
                screen.prompt.load_text(f"/{cmd.name} ")
                screen.prompt.move_cursor(screen.prompt.document.end)
                screen.prompt.focus()
            else:
                app.call_later(screen.run_slash, f"/{cmd.name}")

        return go

    async def discover(self) -> Hits:
        for cmd in slash.COMMANDS:
            yield DiscoveryHit(cmd.usage, self._run(cmd), help=cmd.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for cmd in slash.COMMANDS:
            score = matcher.match(cmd.usage)
            if score > 0:
                yield Hit(score, matcher.highlight(cmd.usage), self._run(cmd), text=cmd.usage, help=cmd.help)


class OpenClawApp(App[int]):
    TITLE = "openclaw-tui"
    COMMANDS = App.COMMANDS | {SlashCommandProvider}
    BINDINGS = [
        Binding("ctrl+t", "toggle_theme", "light/dark", show=False),
        Binding("ctrl+q", "quit", "quit", priority=True),
    ]

    def __init__(
        self,
        settings: AgentSettings,
        *,
        engine_factory: EngineFactory | None = None,
        clock: Clock | None = None,
        theme: str | None = None,
        session_id: str | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings
        self.engine_factory = engine_factory
        self.clock = clock or local_clock
        self.session_id = session_id
        self.bridge = EventBridge()
        self.engine: Any = None
        self.main_screen = MainScreen()
        wanted = theme or getattr(getattr(settings.config, "ui", None), "theme", "dark")
        self.theme = THEMES.get(wanted, THEMES["dark"])

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Toggle light/dark theme", "Switch between the dark and light theme", self.action_toggle_theme)

    async def on_mount(self) -> None:
        await self.push_screen(self.main_screen)
        self.call_after_refresh(self.start_engine)

    def start_engine(self) -> None:
        self.run_worker(self._boot(), group="boot", exclusive=True)

    def _make_engine(self) -> Any:
        if self.engine_factory is not None:
            return self.engine_factory(self.settings, sink=self.bridge, session_id=self.session_id)
        module = importlib.import_module("openclaw_tui.session.engine")
        return module.SessionEngine(self.settings, sink=self.bridge, session_id=self.session_id)

    async def _boot(self) -> None:
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
        if not getattr(engine, "is_offline", True):
            # warm litellm in the background so the first reply does not pay for the import
            from openclaw_tui._offline import import_litellm

            await asyncio.to_thread(import_litellm)

    def action_toggle_theme(self) -> None:
        self.theme = THEMES["light"] if self.theme == THEMES["dark"] else THEMES["dark"]

    async def action_quit(self) -> None:
        self._close_engine()
        self.exit(0)

    def _close_engine(self) -> None:
        engine, self.engine = self.engine, None
        if engine is not None:
            try:
                engine.close()
            except Exception:  # noqa: BLE001
                pass

    async def on_unmount(self) -> None:
        self._close_engine()
