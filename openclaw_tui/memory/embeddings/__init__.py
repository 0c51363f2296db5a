"""Embedding providers. ``resolve_provider`` picks one from config (None = keyword-only)."""

from __future__ import annotations

import os

from openclaw_tui.config import AgentSettings
from openclaw_tui.memory.embeddings.base import EmbeddingError, EmbeddingProvider, ProviderInfo

__all__ = ["EmbeddingError", "EmbeddingProvider", "ProviderInfo", "resolve_provider"]

DEFAULT_MODELS = {
    "openai": "text-embedding-3-small",
    "gemini": "gemini-embedding-001",
    "voyage": "voyage-4-large",
    "mistral": "mistral-embed",
    "ollama": "nomic-embed-text",
}
ENV_KEYS = {
    "openai": "OPENAI_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "voyage": "VOYAGE_API_KEY",
    "mistral": "MISTRAL_API_KEY",
}


def resolve_key(settings: AgentSettings, provider: str) -> tuple[str | None, str]:
    """Return (key, source) in the order config → models.providers.<p>.apiKey → env."""
    ms = settings.memory_search
    if ms.remote.api_key:
        return ms.remote.api_key, "memorySearch.remote.apiKey"
    entry = settings.config.models.providers.get(provider)
    if entry and entry.api_key:
        return entry.api_key, f"models.providers.{provider}.apiKey"
    env = ENV_KEYS.get(provider)
    if env and os.environ.get(env):
        return os.environ[env], env
    return None, ""


def resolve_provider(settings: AgentSettings) -> EmbeddingProvider | None:
    """First cut: openai / OpenAI-compatible only; auto → openai when a key exists."""
    from openclaw_tui.memory.embeddings.remote import OpenAICompatibleProvider

    ms = settings.memory_search
    name = ms.provider
    if name == "none":
        return None
    if name == "auto":
        key, source = resolve_key(settings, "openai")
        if not key and not ms.remote.base_url:
            return None
        name = "openai"
    if name != "openai":
        return None
    key, source = resolve_key(settings, "openai")
    return OpenAICompatibleProvider(
        model=ms.model or DEFAULT_MODELS["openai"],
        api_key=key,
        base_url=ms.remote.base_url,
        headers=ms.remote.headers,
        key_source=source or "none",
    )
