"""The session's side of the model ↔ tools loop: a :class:`~openclaw_tui.session.tool_loop.LoopHost`
over the engine's model slot, event sink, usage meter, overflow handling and memory link."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Awaitable, Callable

from openclaw_tui import events
from openclaw_tui.events import EventSink
from openclaw_tui.llm.client import ChatModel
from openclaw_tui.llm.profiles import ModelProfile


@dataclass(frozen=True)
class SessionLoopHost:
    """The engine's answers to the loop's questions (``LoopHost``), read at call time: the
    model and profile may change between turns (``/model``)."""

    current_model: Callable[[], ChatModel]
    current_profile: Callable[[], ModelProfile]
    sink: EventSink
    usage: Callable[[dict[str, int]], None]
    overflow: Callable[[], Awaitable[bool]]
    written: Callable[[], None]

    def model(self) -> ChatModel:
        return self.current_model()

    def profile(self) -> ModelProfile:
        return self.current_profile()

    def emit(self, event: events.Event) -> None:
        self.sink(event)

    def on_usage(self, usage: dict[str, int]) -> None:
        self.usage(usage)

    async def on_overflow(self) -> bool:
        return await self.overflow()

    def memory_written(self) -> None:
        self.written()
