"""``agents.defaults.compaction.memoryFlush.model`` (OpenClaw's key): the silent flush turn runs
on another model than the session's — e.g. a hosted model that calls tools natively writes
the notes of a session chatting with a small local one. Built on first use; a model that
cannot be built is reported once and the session's model flushes instead."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from openclaw_tui import events
from openclaw_tui.config import AgentSettings
from openclaw_tui.llm.client import ChatModel, RetryPolicy
from openclaw_tui.llm.profiles import ModelProfile, profile_for
from openclaw_tui.llm.resolve import choice_for_model
from openclaw_tui.session.tool_loop import LoopHost, ToolLoop

KEY = "agents.defaults.compaction.memoryFlush.model"


class FlushModel:
    def __init__(self, settings: AgentSettings, policy: RetryPolicy, hooks: LoopHost):
        self.settings = settings
        self._policy = policy
        self._hooks = hooks
        self._loop: ToolLoop | None = None
        self._model: ChatModel | None = None
        self._failed = False

    @property
    def name(self) -> str | None:
        return self.settings.config.agents.defaults.compaction.memory_flush.model

    def loop(self, default: ToolLoop) -> ToolLoop:
        """The loop a flush runs in: the flush model's, else ``default`` (the session's)."""
        if not self.name or self._failed:
            return default
        if self._loop is None:
            try:
                self._loop = self._build(self.name)
            except Exception as exc:  # noqa: BLE001 - a bad flush model must not stop the session
                self._failed = True
                self._hooks.emit(events.Notice("warning", f"{KEY} {self.name!r} cannot be used ({exc}); flushing with the session's model"))
                return default
        return self._loop

    def _build(self, name: str) -> ToolLoop:
        from openclaw_tui.session.model_slot import make_model  # noqa: PLC0415 - model_slot imports this layer's peers

        # --api-base/--api-key belong to the session's model: the flush model's endpoint and key
        # come from models.providers.<provider> (or the provider's environment variable)
        own = replace(self.settings, api_base=None, api_key=None)
        model = make_model(choice_for_model(name, own, KEY), self.settings)
        self._model = model
        d = self.settings.config.agents.defaults
        profile = profile_for(model=model.model, setting=d.tool_profile, auto_recall=d.auto_recall)
        return ToolLoop(self.settings, self._policy, FlushHost(self._hooks, model, profile))

    def close(self) -> None:
        close = getattr(self._model, "close", None)
        if close is not None:
            try:
                close()
            except Exception:  # noqa: BLE001 - closing must not raise
                pass


@dataclass(frozen=True)
class FlushHost:
    """The session's ``LoopHost`` with the flush model and its profile; its usage is not the session's."""

    base: LoopHost
    flush_model: ChatModel
    flush_profile: ModelProfile

    def model(self) -> ChatModel:
        return self.flush_model

    def profile(self) -> ModelProfile:
        return self.flush_profile

    def emit(self, event: events.Event) -> None:
        self.base.emit(event)

    def on_usage(self, usage: dict[str, int], sent_tools: list[dict[str, Any]]) -> None:
        pass

    async def on_overflow(self) -> bool:
        return await self.base.on_overflow()

    def memory_written(self) -> None:
        self.base.memory_written()
