"""Context-window resolution (DESIGN §6).

``agents.defaults.contextTokens`` → ``models.providers.<p>.models[].contextWindow`` →
(a local GGUF: 32,768, the context the managed llama.cpp server is started with) →
``litellm.get_model_info`` → 200,000.
"""

from __future__ import annotations

import sys
from typing import Any

DEFAULT_CONTEXT_WINDOW = 200_000
# A local llama.cpp server allocates its KV cache up front. 32k is Qwen2.5's native context and
# leaves room for the default compaction reserve (20k floor + 4k flush margin); 8k would not.
LOCAL_CONTEXT_WINDOW = 32768


def split_model(model: str | None) -> tuple[str, str]:
    """"openai/gpt-4o" -> ("openai", "gpt-4o"); "gpt-4o" -> ("", "gpt-4o")."""
    if not model:
        return "", ""
    if "/" in model:
        p, rest = model.split("/", 1)
        return p.lower(), rest
    return "", model


def provider_window(config: Any, model: str | None) -> int | None:
    provider, name = split_model(model)
    providers = getattr(getattr(config, "models", None), "providers", {}) or {}
    candidates = [providers.get(provider)] if provider in providers else list(providers.values())
    for entry in candidates:
        if entry is None:
            continue
        for m in entry.models:
            if m.context_window and (m.id == name or m.id == model):
                return int(m.context_window)
    return None


def litellm_window(model: str | None, *, allow_import: bool = True) -> int | None:
    if not model or model == "offline":
        return None
    if not allow_import and "litellm" not in sys.modules:
        return None
    from openclaw_tui._offline import import_litellm

    litellm = import_litellm()
    for name in (model, split_model(model)[1]):
        try:
            info = litellm.get_model_info(name)
        except Exception:  # noqa: BLE001 - unknown model
            continue
        for key in ("max_input_tokens", "max_tokens"):
            val = info.get(key) if isinstance(info, dict) else None
            if isinstance(val, int) and val > 0:
                return val
    return None


def resolve_context_window(config: Any, model: str | None, *, allow_import: bool = True) -> tuple[int, str]:
    """Return (window, source); source in contextTokens | provider | litellm | default."""
    override = config.agents.defaults.context_tokens
    if override:
        return int(override), "contextTokens"
    pw = provider_window(config, model)
    if pw:
        return pw, "provider"
    if split_model(model)[0] == "local":
        return LOCAL_CONTEXT_WINDOW, "local"
    lw = litellm_window(model, allow_import=allow_import)
    if lw:
        return lw, "litellm"
    return DEFAULT_CONTEXT_WINDOW, "default"
