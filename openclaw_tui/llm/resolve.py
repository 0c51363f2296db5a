"""Which chat model serves a session.

Order: ``--model`` / config ``agents.defaults.model.primary`` → a provider key in the
environment (or ``models.providers.<p>.apiKey``) → a local Ollama, only when configured
(``ollama_configured``; never probed by default) → an installed local GGUF
(``openclaw_tui.llm.local``) → the offline rule-based agent.
``offline`` as the model string selects the offline agent; ``local/<name or path.gguf>``
a local GGUF. ``OPENCLAW_NO_LOCAL_MODEL=1`` skips local GGUF discovery (tests use it).
"""

from __future__ import annotations

import json
import os
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openclaw_tui.config.secrets import secret_headers, secret_value
from openclaw_tui.llm.context import split_model
from openclaw_tui.llm.local.catalog import CATALOG, DEFAULT_MODEL, LocalModelSpec, spec_named

OFFLINE_MODEL = "offline"
OLLAMA_URL = "http://127.0.0.1:11434"


def ollama_url() -> str:
    """``OPENCLAW_OLLAMA_URL``, else Ollama's own ``OLLAMA_HOST`` (``host:port`` or a URL), else the default."""
    url = os.environ.get("OPENCLAW_OLLAMA_URL") or os.environ.get("OLLAMA_HOST") or OLLAMA_URL
    if "://" not in url:
        url = "http://" + url
    return url.rstrip("/")


def ollama_configured(settings: Any) -> bool:
    """Whether the user pointed us at Ollama (``OPENCLAW_OLLAMA_URL``, ``OLLAMA_HOST`` or a
    ``models.providers.ollama`` entry). Only then is the port probed: any local user can
    bind 127.0.0.1:11434, and whoever answers there would get the system prompt (MEMORY.md)
    and have its tool calls run."""
    if os.environ.get("OPENCLAW_OLLAMA_URL") or os.environ.get("OLLAMA_HOST"):
        return True
    providers = getattr(getattr(settings, "config", None), "models", None)
    return "ollama" in (getattr(providers, "providers", None) or {})

# env var -> default model when only a key is present
ENV_DEFAULTS: list[tuple[str, str, str]] = [
    ("OPENAI_API_KEY", "openai", "openai/gpt-4o-mini"),
    ("ANTHROPIC_API_KEY", "anthropic", "anthropic/claude-3-5-haiku-latest"),
    ("GEMINI_API_KEY", "gemini", "gemini/gemini-2.0-flash"),
    ("MISTRAL_API_KEY", "mistral", "mistral/mistral-small-latest"),
    ("GROQ_API_KEY", "groq", "groq/llama-3.1-8b-instant"),
    ("OPENROUTER_API_KEY", "openrouter", "openrouter/openai/gpt-4o-mini"),
]


def missing_key(provider: str, api_key: str | None, api_base: str | None) -> str | None:
    """Why a hosted provider's requests will be refused before any is sent: no API key given
    (``--api-key``, ``models.providers.<p>.apiKey``) nor in its environment variable; None
    when one is, or the provider is not one of the key-only providers (a custom ``api_base``
    may take none)."""
    var = next((v for v, p, _m in ENV_DEFAULTS if p == provider), None)
    if var is None or api_key or api_base or os.environ.get(var):
        return None
    return (f"no API key for {provider}: set {var}, or models.providers.{provider}.apiKey in the config, "
            "or pass --api-key; until then every message to it fails")


@dataclass
class ModelChoice:
    model: str  # litellm model string, or "offline"
    source: str  # --model | config | env:<VAR> | providers.<p> | ollama | default
    api_base: str | None = None
    api_key: str | None = field(default=None, repr=False)
    headers: dict[str, str] = field(default_factory=dict, repr=False)
    local_path: Path | None = None  # the GGUF, for provider "local"
    local_spec: LocalModelSpec | None = None  # its catalog entry, when it is one
    temperature: float | None = None  # sent with every request when set (the managed local server: llm/local/runtime.py)
    max_tokens: int | None = None  # a cap on each answer, when set (likewise)

    @property
    def offline(self) -> bool:
        return self.model == OFFLINE_MODEL

    @property
    def provider(self) -> str:
        if self.offline:
            return "offline"
        p, _ = split_model(self.model)
        return p or "openai"

    @property
    def label(self) -> str:
        if self.offline:
            return "offline agent (rule-based, not an LLM)"
        if self.local_path is not None:
            return f"local · {self.local_spec.label if self.local_spec else self.local_path.stem} (llama.cpp)"
        return self.model


def local_discovery_enabled() -> bool:
    return os.environ.get("OPENCLAW_NO_LOCAL_MODEL", "").strip().lower() in ("", "0", "false", "no")


def local_choice(name: str, source: str) -> ModelChoice:
    """``local/<catalog name>`` → the assembled file in the models dir; else a GGUF path."""
    from openclaw_tui.llm.local.files import models_dir

    key = name.strip()
    given_file = "/" in key or Path(key).expanduser().is_file()
    spec = DEFAULT_MODEL if key in ("", "default") else None if given_file else spec_named(key)
    if spec is not None:
        path = models_dir() / spec.filename
    else:
        path = Path(key).expanduser()
        path = path if path.is_absolute() else Path.cwd() / path
        spec = CATALOG.get(path.name.removesuffix(".gguf"))  # a catalog file by path: still pinned
    return ModelChoice(f"local/{spec.name if spec else path.stem}", source, local_path=path, local_spec=spec)


def find_local_model() -> ModelChoice | None:
    """The installed local GGUF to use when nothing else is configured: an assembled catalog
    model (the default first), else the default model's parts (assembled on first use)."""
    from openclaw_tui.llm.local.files import models_dir
    from openclaw_tui.llm.local.install import parts_installed

    ordered = [DEFAULT_MODEL] + [s for s in CATALOG.values() if s is not DEFAULT_MODEL]
    directory = models_dir()
    for spec in ordered:
        if (directory / spec.filename).is_file():
            return local_choice(spec.name, "local")
    for spec in ordered:
        if parts_installed(spec):
            return local_choice(spec.name, "local")
    return None


def probe_ollama(timeout: float = 0.3) -> str | None:
    """Return the first model tag of a local Ollama, or None quickly when there is none."""
    if os.environ.get("OPENCLAW_NO_OLLAMA_PROBE"):
        return None
    try:
        with urllib.request.urlopen(ollama_url() + "/api/tags", timeout=timeout) as resp:  # noqa: S310 - loopback only
            data = json.loads(resp.read() or b"{}")
    except Exception:  # noqa: BLE001 - not running, refused, garbage
        return None
    models = data.get("models") if isinstance(data, dict) else None
    if not models:
        return None
    name = models[0].get("name") or models[0].get("model")
    return str(name) if name else None


def listed_models(api_base: str, api_key: str | None = None, timeout: float = 2.0) -> list[dict[str, Any]]:
    """GET <api_base>/models on an OpenAI-compatible server: its ``data`` items ([] when unreachable)."""
    req = urllib.request.Request(api_base.rstrip("/") + "/models")
    if api_key:
        req.add_header("Authorization", f"Bearer {api_key}")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - user-given endpoint
            data = json.loads(resp.read() or b"{}")
    except Exception:  # noqa: BLE001 - unreachable or not OpenAI-compatible
        return []
    items = data.get("data") if isinstance(data, dict) else None
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def first_listed_model(api_base: str, api_key: str | None = None, timeout: float = 2.0) -> str | None:
    """The first model id an OpenAI-compatible server lists, or None."""
    items = listed_models(api_base, api_key, timeout)
    if not items or not items[0].get("id"):
        return None
    return str(items[0]["id"])


def _provider_entry(config: Any, provider: str) -> Any:
    providers = getattr(getattr(config, "models", None), "providers", {}) or {}
    return providers.get(provider)


def choice_for_model(model: str, settings: Any, source: str) -> ModelChoice:
    if model.strip().lower() == OFFLINE_MODEL:
        return ModelChoice(OFFLINE_MODEL, source)
    provider, rest = split_model(model.strip())
    if provider == "local" or model.strip().lower() == "local":
        return local_choice(rest, source)
    entry = _provider_entry(settings.config, provider) if provider else None
    api_base = settings.api_base or (entry.base_url if entry else None)
    where = f"models.providers.{provider}"
    # an endpoint and a key travel together: the provider entry's key and headers go to its
    # own baseUrl (or the public endpoint), never to an --api-base given without --api-key
    own = entry is not None and not settings.api_base
    api_key = settings.api_key or (secret_value(entry.api_key, f"{where}.apiKey") if own and entry else None)
    headers = secret_headers(entry.headers, f"{where}.headers") if own and entry else {}
    if provider in ("ollama", "ollama_chat") and not api_base:
        api_base = ollama_url()
    return ModelChoice(model.strip(), source, api_base=api_base, api_key=api_key, headers=headers)


def resolve_model(settings: Any, *, probe: bool = True) -> ModelChoice:
    if settings.model:
        return choice_for_model(settings.model, settings, "--model/config")
    # configured providers with a key and a model list
    providers = getattr(settings.config.models, "providers", {}) or {}
    for name, entry in providers.items():
        if entry.api_key and entry.models:
            return choice_for_model(f"{name}/{entry.models[0].id}", settings, f"models.providers.{name}")
    for var, _provider, default in ENV_DEFAULTS:
        if os.environ.get(var):
            return choice_for_model(default, settings, f"env:{var}")
    if settings.api_base:
        # an OpenAI-compatible endpoint without a model name: take the first model it lists
        name = first_listed_model(settings.api_base, settings.api_key) or "default"
        return choice_for_model(f"openai/{name}", settings, "--api-base")
    if probe and ollama_configured(settings):
        tag = probe_ollama()
        if tag:
            return choice_for_model(f"ollama_chat/{tag}", settings, "ollama")
    if local_discovery_enabled():
        found = find_local_model()
        if found is not None:
            return found
    return ModelChoice(OFFLINE_MODEL, "default")
