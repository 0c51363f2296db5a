"""Which of our embedding adapters serves a provider id OpenClaw knows, and where it sends.

Our adapters (memory/embeddings/remote.py) are openai (any OpenAI-compatible
``/v1/embeddings``), gemini, voyage, mistral and ollama. OpenClaw's other ids map onto them:

``openai-compatible``  openai adapter at ``remote.baseUrl`` (required); its key is
                       ``remote.apiKey`` only, never the OpenAI chat key (as upstream)
``lmstudio``           openai adapter at ``remote.baseUrl``, ``models.providers.lmstudio.baseUrl``
                       or LM Studio's ``http://127.0.0.1:1234/v1``; no key needed
``deepinfra``          openai adapter at DeepInfra's OpenAI endpoint; key ``remote.apiKey``,
                       ``models.providers.deepinfra.apiKey`` or ``DEEPINFRA_API_KEY``
``bedrock``,           **not honoured**: no adapter here (AWS signing, Copilot device login);
``github-copilot``     reported by name (config/honoured.py), searches are keyword-only
a ``models.providers.<id>``  the adapter its ``api`` names (``ollama``, ``openai-completions``,
                       ``openai-responses``, ``openai``, ``mistral``, ``google-generative-ai``,
                       ``voyage``) with its ``baseUrl``, ``apiKey`` and ``headers``;
                       ``remote.*`` written for memory search wins over each

Pure: config in, a :class:`EmbeddingTarget` out (keys unresolved: SecretRefs stay refs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from openclaw_tui.config.models import MemorySearchConfig, OpenClawConfig

LMSTUDIO_BASE = "http://127.0.0.1:1234/v1"
DEEPINFRA_BASE = "https://api.deepinfra.com/v1/openai"
NO_ADAPTER = {
    "bedrock": "Bedrock embeddings need AWS request signing, which this product does not do",
    "github-copilot": "GitHub Copilot embeddings need Copilot's device login, which this product does not do",
}
#: a ``models.providers.<id>.api`` -> our adapter
API_ADAPTERS = {
    "ollama": "ollama",
    "openai": "openai",
    "openai-completions": "openai",
    "openai-responses": "openai",
    "openai-compatible": "openai",
    "mistral": "mistral",
    "google-generative-ai": "gemini",
    "gemini": "gemini",
    "voyage": "voyage",
}


@dataclass(frozen=True)
class EmbeddingTarget:
    requested: str
    #: our adapter id, or None when the provider is not honoured (``why`` says so)
    adapter: str | None
    base_url: str | None = None
    api_key: Any = None  # a string or a SecretRef, unresolved
    key_source: str = ""
    headers: dict[str, Any] = field(default_factory=dict)
    env_key: str | None = None
    needs_key: bool = True
    why: str = ""


def is_mapped(name: str) -> bool:
    """Whether ``name`` goes through this module (not one of our own adapter ids)."""
    from openclaw_tui.config.models import OWN_PROVIDERS  # noqa: PLC0415

    return name not in OWN_PROVIDERS


def embedding_target(cfg: OpenClawConfig, ms: MemorySearchConfig, name: str, *, use_remote: bool = True) -> EmbeddingTarget:
    """Where provider ``name`` (an OpenClaw id or a ``models.providers`` id) embeds.
    ``use_remote=False`` (a fallback) leaves out ``remote.*``, which belongs to the primary."""
    remote = ms.remote if use_remote else None
    r_base = remote.base_url if remote else None
    r_key = remote.api_key if remote else None
    r_headers = dict(remote.headers) if remote else {}
    entry = cfg.models.providers.get(name)
    e_key_source = f"models.providers.{name}.apiKey"

    def key_from(*pairs: tuple[Any, str]) -> tuple[Any, str]:
        return next(((k, s) for k, s in pairs if k), (None, ""))

    if name in NO_ADAPTER:
        return EmbeddingTarget(name, None, why=NO_ADAPTER[name])
    if name == "openai-compatible":
        key, source = key_from((r_key, "memorySearch.remote.apiKey"))
        if not r_base:
            return EmbeddingTarget(name, None, why="openai-compatible needs memorySearch.remote.baseUrl (the server's /v1 address)")
        return EmbeddingTarget(name, "openai", r_base, key, source, r_headers, needs_key=False)
    if name == "lmstudio":
        base = r_base or (entry.base_url if entry else None) or LMSTUDIO_BASE
        key, source = key_from((r_key, "memorySearch.remote.apiKey"), (entry.api_key if entry else None, e_key_source))
        headers = {**(dict(entry.headers) if entry else {}), **r_headers}
        return EmbeddingTarget(name, "openai", base, key, source, headers, needs_key=False)
    if name == "deepinfra":
        base = r_base or (entry.base_url if entry else None) or DEEPINFRA_BASE
        key, source = key_from((r_key, "memorySearch.remote.apiKey"), (entry.api_key if entry else None, e_key_source))
        headers = {**(dict(entry.headers) if entry else {}), **r_headers}
        return EmbeddingTarget(name, "openai", base, key, source, headers, env_key="DEEPINFRA_API_KEY")
    if entry is None:
        return EmbeddingTarget(name, None, why=f"no embedding adapter and no models.providers.{name}")
    api = (entry.api or "").strip().lower()
    adapter = API_ADAPTERS.get(api)
    if adapter is None:
        shown = f"api {entry.api!r}" if entry.api else "no api"
        return EmbeddingTarget(name, None, why=f"models.providers.{name} has {shown}; embeddings need one of {', '.join(sorted(API_ADAPTERS))}")
    key, source = key_from((r_key, "memorySearch.remote.apiKey"), (entry.api_key, e_key_source))
    headers = {**dict(entry.headers), **r_headers}
    return EmbeddingTarget(name, adapter, r_base or entry.base_url, key, source, headers, needs_key=adapter not in ("ollama", "openai"))
