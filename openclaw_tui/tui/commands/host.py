"""What a slash command may use of the screen it runs on: :class:`CommandHost`.

The handlers take a ``CommandHost`` and never import the screen (``MainScreen`` satisfies
the protocol structurally; mypy checks it where the screen hands itself to the dispatch).
A handler's parameter is still called ``screen``: it is the main screen, seen through
this protocol.
The engine is ``None`` until the first frame has built it: the dispatch runs no command
that needs it before then, and :func:`live_engine` narrows it for the handlers.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Coroutine, Protocol, TypeVar

if TYPE_CHECKING:
    from textual.message import Message
    from textual.notifications import SeverityLevel
    from textual.screen import Screen

    from openclaw_tui import events as ev
    from openclaw_tui.config.loader import AgentSettings
    from openclaw_tui.memory.api import MemoryBackend
    from openclaw_tui.session.surface import EngineSurface
    from openclaw_tui.tui.busy import BusyIndicator
    from openclaw_tui.tui.widgets.chat import ChatView
    from openclaw_tui.tui.widgets.memory_panel import MemoryPanel
    from openclaw_tui.tui.widgets.meter import TokenMeter
    from openclaw_tui.tui.widgets.status_bar import StatusBar

T = TypeVar("T")


class CommandHost(Protocol):
    # ------------------------------------------------------------------ the session
    @property
    def engine(self) -> "EngineSurface | None": ...

    @property
    def engine_failed(self) -> str: ...

    @property
    def settings(self) -> "AgentSettings": ...

    @property
    def memory(self) -> "MemoryBackend | None":
        """The memory backend the app hosts (the index the engine searches); None when off."""

    # ------------------------------------------------------------------ what runs now
    @property
    def turn_running(self) -> bool: ...

    #: a command that must not overlap a turn ("flush", "compact", …), set by the dispatch
    command_running: str | None

    # ------------------------------------------------------------------ the screen's parts
    @property
    def chat(self) -> "ChatView": ...

    @property
    def status_bar(self) -> "StatusBar": ...

    @property
    def meter(self) -> "TokenMeter": ...

    @property
    def memory_panel(self) -> "MemoryPanel": ...

    @property
    def busy(self) -> "BusyIndicator": ...

    # ------------------------------------------------------------------ what a command does
    async def say(self, markdown: str) -> None:
        """A command's answer, as a notice in the chat."""

    async def start_over(self) -> None:
        """A new or resumed session: the chat and the memory panel empty again."""

    def refresh_usage(self) -> None: ...

    def arg_values(self, name: str) -> list[str]:
        """The values Tab completion offers for a command's argument (``model``, ``resume``)."""

    def copy_out(self, text: str, what: str) -> str:
        """Copy to the clipboard and clipboard.txt; returns the notice shown."""

    def emit(self, event: "ev.Event") -> None:
        """An event through the app's event bridge, as the engine's own events come."""

    def post_message(self, message: "Message") -> bool: ...

    def notify(self, message: str, *, severity: "SeverityLevel" = ..., timeout: float | None = ...) -> None: ...

    def run_worker(self, work: Coroutine[Any, Any, Any], *, group: str = ..., exclusive: bool = ...) -> Any: ...

    async def ask(self, modal: "Screen[T]") -> T:
        """Push a modal and wait for its answer (inside a worker)."""

    async def show_modal(self, modal: "Screen[Any]") -> None:
        """Push a modal without waiting for it to close."""

    def suspended(self) -> AbstractContextManager[None]:
        """The terminal handed over (to an editor) until the block ends."""

    @property
    def headless(self) -> bool: ...

    async def quit(self) -> None: ...


def live_engine(host: CommandHost) -> "EngineSurface":
    """The host's engine; the dispatch starts no command that needs one before it exists."""
    engine = host.engine
    if engine is None:
        raise RuntimeError("the session engine is still starting — try again in a moment")
    return engine
