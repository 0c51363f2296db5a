"""Bridge from core events (plain dataclasses) to Textual messages.

The engine calls the sink from its coroutine (the app's event loop) or from a background
thread (the index watcher). ``MessagePump.post_message`` is thread-safe: off the loop it
goes through ``call_soon_threadsafe``; so the sink only wraps and posts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message
from textual.message_pump import MessagePump

from openclaw_tui import events as ev

if TYPE_CHECKING:
    from openclaw_tui.session.surface import EngineSurface


class EngineEvent(Message):
    """A core event, delivered to the main screen."""

    def __init__(self, event: ev.Event) -> None:
        super().__init__()
        self.event = event


class EngineReady(Message):
    """The session engine has been built (after the first frame)."""

    def __init__(self, engine: "EngineSurface") -> None:
        super().__init__()
        self.engine = engine


class EngineFailed(Message):
    def __init__(self, message: str, action: str = "") -> None:
        super().__init__()
        self.message = message
        self.action = action


class Settled(Message):
    """Posted when a turn or command worker ends; queued after the events it emitted."""


class EventBridge:
    """An ``EventSink`` that posts every event to a message pump, from any thread."""

    def __init__(self, target: MessagePump | None = None) -> None:
        self.target = target
        self.pending: list[ev.Event] = []
        self.count = 0

    def attach(self, target: MessagePump) -> None:
        self.target = target
        pending, self.pending = self.pending, []
        for event in pending:
            target.post_message(EngineEvent(event))

    def __call__(self, event: ev.Event) -> None:
        self.count += 1
        if self.target is None:
            self.pending.append(event)
            return
        self.target.post_message(EngineEvent(event))
