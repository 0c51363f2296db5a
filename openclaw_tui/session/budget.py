"""The token budget of one session: how much the next prompt carries, against what window.

Counts the fixed part (system prompt with notes and summary, tool schemas) once, takes
the provider's reported usage when there is one (plus estimates of what was added since),
and turns the context window into the flush and compaction thresholds of
``session/thresholds.py``. It knows nothing of turns, tools or transcripts.
"""

from __future__ import annotations

import asyncio
from typing import Any

from openclaw_tui import events
from openclaw_tui.config.models import OpenClawConfig
from openclaw_tui.llm.context import resolve_context_window

#: the local window's default reserve is window // 4 (32,768 → 8,192: flush at 20.6k, 63 %;
#: compaction at 24.6k, 75 %); see ``TokenBudget.reserve_floor``
LOCAL_RESERVE_DIVISOR = 4
from openclaw_tui.session.thresholds import compaction_threshold, flush_threshold
from openclaw_tui.session.tokens import TokenCounter


class TokenBudget:
    def __init__(self, config: OpenClawConfig, model: str, *, offline: bool):
        self.config = config
        self._warned_window: int | None = None
        self.use_model(model, offline=offline)
        self.reset()

    def use_model(self, model: str, *, offline: bool) -> None:
        """Another model: another tokenizer, window and tool-schema cost."""
        self.model = model
        self.offline = offline
        self._counter: TokenCounter | None = None
        self._window: int | None = None
        self._window_source = ""
        self._tools_tokens: dict[int, int] = {}
        #: (reported tokens less the tool schemas that call carried, history tokens then)
        self.usage_base: tuple[int, int] | None = None

    def reset(self) -> None:
        """A new or resumed session: nothing counted or reported yet."""
        self.usage_base = None
        self.last_usage: dict[str, int] | None = None
        self.system_tokens: int | None = None

    @property
    def counter(self) -> TokenCounter:
        if self._counter is None:
            self._counter = TokenCounter(self.model)
        return self._counter

    def count_message(self, msg: dict[str, Any]) -> int:
        return self.counter.count_message(msg)

    # ------------------------------------------------------------------ window and thresholds

    @property
    def context_window(self) -> int:
        if self._window is None or self._window_source == "default-pending":
            window, source = resolve_context_window(self.config, self.model, allow_import=False)
            if source == "default" and not self.offline:
                source = "default-pending"  # litellm may know better once it is loaded
            self._window, self._window_source = window, source
        return self._window

    async def resolve_window(self) -> None:
        if self._window_source in ("", "default-pending") and not self.offline:
            self._window, self._window_source = await asyncio.to_thread(resolve_context_window, self.config, self.model)

    @property
    def reserve_floor(self) -> int:
        """``compaction.reserveTokensFloor``; on the managed local model's 32k window, when
        the config leaves it unset, a quarter of the window instead of 20,000 (which
        compacted at 12.8k, 39 % of the window: a local model paid for a compaction every
        few turns). Hosted windows and any value the config sets are unchanged."""
        c = self.config.agents.defaults.compaction
        if self._window_source == "local" and "reserve_tokens_floor" not in c.model_fields_set:
            return int(min(c.reserve_tokens_floor, self.context_window // LOCAL_RESERVE_DIVISOR))
        return int(c.reserve_tokens_floor)

    @property
    def flush_threshold(self) -> int:
        c = self.config.agents.defaults.compaction
        window = self.context_window  # resolves the window (and its source) first
        return flush_threshold(window, self.reserve_floor, c.memory_flush.soft_threshold_tokens)

    @property
    def compaction_threshold(self) -> int:
        c = self.config.agents.defaults.compaction
        window = self.context_window
        return compaction_threshold(window, c.reserve_tokens, self.reserve_floor)

    def no_room_warning(self) -> str | None:
        """Once per window: a reserve that eats the whole window makes every turn flush and compact."""
        window = self.context_window
        if self._warned_window == window or (self.flush_threshold > 0 and self.compaction_threshold > 0):
            return None
        self._warned_window = window
        c = self.config.agents.defaults.compaction
        return (
            f"the context window ({window} tokens) leaves no room after compaction.reserveTokensFloor ({c.reserve_tokens_floor})"
            f" and memoryFlush.softThresholdTokens ({c.memory_flush.soft_threshold_tokens}): every turn will flush and compact;"
            " lower them under agents.defaults.compaction or raise agents.defaults.contextTokens"
        )

    # ------------------------------------------------------------------ counting

    def count_fixed(self, leading: list[dict[str, Any]]) -> None:
        """The system messages every request starts with (``SessionContext.leading``), each
        with its framing, as the request carries them."""
        self.system_tokens = sum(self.counter.count_message(msg) for msg in leading)

    def tools_cost(self, tools: list[dict[str, Any]]) -> int:
        key = len(tools)
        if key not in self._tools_tokens:
            self._tools_tokens[key] = self.counter.count_tools(tools)
        return self._tools_tokens[key]

    def estimate(self, tools: list[dict[str, Any]], history_tokens: int) -> int:
        return (self.system_tokens or 0) + self.tools_cost(tools) + history_tokens

    def used(self, tools: list[dict[str, Any]], history_tokens: int) -> int:
        """Tokens the next prompt carries, the same measure every turn: the provider-reported
        usage of the last call without the tool schemas it carried, plus the schemas the next
        prompt is offered (``tools``) and estimates of what was added since; else the cached
        per-message estimate. (A statement's turn sends no tools: its 209 reported tokens are
        not a smaller conversation than the 983 estimated before; issue 37.)"""
        if self.usage_base is not None:
            reported, hist_then = self.usage_base
            return reported + self.tools_cost(tools) + (history_tokens - hist_then)
        return self.estimate(tools, history_tokens)

    def report(self, usage: dict[str, int], history_tokens: int, *, sent_tools: list[dict[str, Any]] | None = None) -> None:
        """The provider's usage for a call whose answer is now in the history; ``sent_tools``
        the schemas that call carried (None: unknown, taken as none; a resumed transcript)."""
        self.last_usage = usage
        reported = int(usage.get("prompt_tokens", 0)) + int(usage.get("completion_tokens", 0))
        sent = self.tools_cost(sent_tools) if sent_tools else 0
        self.usage_base = (max(0, reported - sent), history_tokens)

    def resume_from(self, reported: int, history_tokens: int, offered: list[dict[str, Any]]) -> None:
        """A resumed session's last reported usage as the base, without the tool schemas it is
        taken to have carried (``used`` adds the offered ones back)."""
        self.usage_base = (max(0, reported - self.tools_cost(offered)), history_tokens)

    def snapshot(self, used: int) -> events.TokenUsage:
        last = self.last_usage or {}
        return events.TokenUsage(
            used=used,
            context_window=self.context_window,
            flush_threshold=self.flush_threshold,
            compaction_threshold=self.compaction_threshold,
            estimated=self.usage_base is None,
            prompt_tokens=last.get("prompt_tokens") if self.last_usage else None,
            completion_tokens=last.get("completion_tokens") if self.last_usage else None,
        )
