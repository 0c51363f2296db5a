"""How many tokens the next prompt carries: the session's system prompt, its history and the
tools the current model is offered, counted by the :class:`TokenBudget` (which also knows the
window and the thresholds a turn is measured against)."""

from __future__ import annotations

from typing import Any

from openclaw_tui import events
from openclaw_tui.llm.profiles import offered_tools
from openclaw_tui.session.budget import TokenBudget
from openclaw_tui.session.context import SessionContext
from openclaw_tui.session.model_slot import ModelSlot


class Meter:
    def __init__(self, budget: TokenBudget, slot: ModelSlot, ctx: SessionContext):
        self.budget = budget
        self._slot = slot
        self._ctx = ctx

    @property
    def context_window(self) -> int:
        return self.budget.context_window

    @property
    def flush_threshold(self) -> int:
        return self.budget.flush_threshold

    @property
    def compaction_threshold(self) -> int:
        return self.budget.compaction_threshold

    def offered(self) -> list[dict[str, Any]]:
        return offered_tools(self._ctx.tools.schemas(), self._slot.profile)

    def recount(self) -> None:
        """Count the fixed part again (the system prompt changed)."""
        self.budget.count_fixed(self._ctx.leading())

    def estimate(self) -> int:
        return self.budget.estimate(self.offered(), self._ctx.history.tokens)

    def used(self) -> int:
        """Tokens the next prompt carries (``TokenBudget.used``)."""
        return self.budget.used(self.offered(), self._ctx.history.tokens)

    def snapshot(self) -> events.TokenUsage:
        if self.budget.system_tokens is None:
            self.recount()
        return self.budget.snapshot(self.used())
