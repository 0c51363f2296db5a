"""The chat model a session talks to, and how (``llm/profiles.py``).

A :class:`ModelSlot` builds the model from the settings (``llm/resolve.py``) or takes one
passed in (then it is the caller's to close), settles the profile once per model (which
may ask a loopback server what it serves), switches models for ``/model`` and stops what a
local model runs.
"""

from __future__ import annotations

import asyncio
from typing import Callable

from openclaw_tui import events
from openclaw_tui.config import AgentSettings
from openclaw_tui.llm.client import ChatModel, LiteLLMModel
from openclaw_tui.llm.profiles import HOSTED, ModelProfile, is_loopback, profile_for, serves_local_model
from openclaw_tui.llm.resolve import ModelChoice, choice_for_model, listed_models, missing_key, resolve_model
from openclaw_tui.session.offline import OfflineModel


def make_model(choice: ModelChoice, settings: AgentSettings | None = None) -> ChatModel:
    memory_on = settings is None or settings.config.memory_plugin_enabled
    if choice.offline:
        return OfflineModel(memory_on=memory_on)
    if choice.local_path is not None:
        from openclaw_tui.llm.local.runtime import LocalModel, runtime_config  # noqa: PLC0415

        return LocalModel(choice, runtime_config(settings), fallback=lambda: OfflineModel(memory_on=memory_on))
    # agents.defaults.timeoutSeconds caps one whole model call (connect + stream)
    cap = settings.config.agents.defaults.timeout_seconds if settings is not None else None
    return LiteLLMModel(choice, call_cap_s=cap)


def check_model_name(model: str) -> str:
    """``model`` stripped; ValueError for an empty name or one with spaces."""
    model = (model or "").strip()
    if not model or any(ch.isspace() for ch in model):
        raise ValueError(
            f"not a model name: {model!r} (one litellm model string without spaces, e.g. openai/gpt-4o-mini or offline)"
        )
    return model


class ModelSlot:
    def __init__(self, settings: AgentSettings, model: ChatModel | None = None, *, probe_ollama: bool = True,
                 emit: Callable[[events.Event], None] | None = None):
        self.settings = settings
        self.own = model is None  # a model passed in is the caller's to close
        self.choice: ModelChoice | None = None
        self._emit = emit  # PromptProgress from a model that reports it (our llama.cpp server)
        if model is None:
            self.choice = resolve_model(settings, probe=probe_ollama)
            model = make_model(self.choice, settings)
        self.model: ChatModel = self._wired(model)
        self._profile: ModelProfile | None = None  # decided by settle_profile() (may ask a local server)

    def _wired(self, model: ChatModel) -> ChatModel:
        """Route a model's prompt progress (``on_progress``) to the session's events."""
        emit = self._emit
        if emit is not None and getattr(model, "reports_progress", False):
            model.on_progress = lambda p: emit(events.PromptProgress(processed=p.processed, total=p.total, cache=p.cache))  # type: ignore[attr-defined]
        return model

    @property
    def label(self) -> str:
        return self.model.label

    def key_problem(self) -> str | None:
        """"no API key for <provider>: …" when a hosted model has no key to send (said at start,
        not as a "rejected (401)" after the first message)."""
        choice = getattr(self.model, "choice", None) or self.choice
        if choice is None or self.is_offline or getattr(choice, "local_path", None) is not None:
            return None
        return missing_key(choice.provider, choice.api_key, choice.api_base)

    @property
    def is_offline(self) -> bool:
        return bool(getattr(self.model, "is_offline", False))

    @property
    def profile(self) -> ModelProfile:
        return HOSTED if self._profile is None or self.is_offline else self._profile

    async def settle_profile(self) -> bool:
        """Decide the profile once per model; True when it was decided now."""
        if self._profile is not None:
            return False
        d = self.settings.config.agents.defaults
        choice = getattr(self.model, "choice", None)
        api_base = getattr(choice, "api_base", None)
        local_server = False
        if d.tool_profile == "auto" and is_loopback(api_base):
            listing = await asyncio.to_thread(listed_models, str(api_base), getattr(choice, "api_key", None), 2.0)
            local_server = serves_local_model(listing)
        self._profile = profile_for(model=self.model.model, local_server=local_server, setting=d.tool_profile, auto_recall=d.auto_recall,
                                    recall_results=d.auto_recall_results)
        return True

    def switch(self, model: str) -> None:
        """``/model NAME``: build the new model, then stop the old one (if it is ours)."""
        self.choice = choice_for_model(check_model_name(model), self.settings, "/model")
        self.close()
        self.model = self._wired(make_model(self.choice, self.settings))
        self.own = True
        self._profile = None

    async def warm_up(self) -> str | None:
        """Start a local model's server now; the problem when it cannot start."""
        start = getattr(self.model, "ensure_started", None)
        return await start() if start is not None else None

    def close(self) -> None:
        """Stop what our model runs (a local model's server); the offline agent has nothing."""
        close = getattr(self.model, "close", None) if self.own else None
        if close is not None:
            try:
                close()
            except Exception:  # noqa: BLE001 - closing must not raise
                pass
