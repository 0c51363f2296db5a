"""The session's side of the model ↔ tools loop: a :class:`~openclaw_tui.session.tool_loop.LoopHost`
over the engine's model slot, event sink, token budget, context, memory link and upkeep."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from openclaw_tui import events
from openclaw_tui.events import EventSink
from openclaw_tui.llm.client import ChatModel
from openclaw_tui.llm.profiles import ModelProfile
from openclaw_tui.records.transcript import usage_entry
from openclaw_tui.session.budget import TokenBudget
from openclaw_tui.session.context import SessionContext
from openclaw_tui.session.memory_link import SessionMemory
from openclaw_tui.session.model_slot import ModelSlot

if TYPE_CHECKING:
    from openclaw_tui.session.upkeep import Upkeep


class SessionLoopHost:
    """The engine's answers to the loop's questions (``LoopHost``), read at call time: the
    model and profile may change between turns (``/model``). The upkeep that handles an
    overflow is built on the loop, so it is attached after (``upkeep``)."""

    def __init__(self, slot: ModelSlot, sink: EventSink, budget: TokenBudget, ctx: SessionContext, memory: SessionMemory):
        self._slot, self._sink, self._budget, self._ctx, self._mem = slot, sink, budget, ctx, memory
        self.upkeep: Upkeep | None = None

    def model(self) -> ChatModel:
        return self._slot.model

    def profile(self) -> ModelProfile:
        return self._slot.profile

    def emit(self, event: events.Event) -> None:
        self._sink(event)

    def on_usage(self, usage: dict[str, int], sent_tools: list[dict[str, Any]]) -> None:
        """The model's count for the prompt and answer now in the history: the meter's base,
        kept in the transcript so a resumed session starts from it, not from an estimate."""
        self._budget.report(usage, self._ctx.history.tokens, sent_tools=sent_tools)
        self._ctx.log.append(usage_entry(self._slot.model.model, usage))

    async def on_overflow(self) -> bool:
        return await self.upkeep.overflow() if self.upkeep is not None else False

    def memory_written(self) -> None:
        self._mem.touch()
