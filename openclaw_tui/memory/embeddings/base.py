"""Embedding provider interface shared by every provider and by the index."""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

import numpy as np

from openclaw_tui.llm.errors import Retryable


class EmbeddingError(Retryable):
    """A provider failed. ``message`` is one line, safe to show (never holds a key)."""

    def __init__(self, provider: str, message: str, *, status: int | None = None, retryable: bool = False, action: str = "",
                 retry_after_s: float | None = None):
        super().__init__(message)
        self.provider = provider
        self.message = message
        self.status = status
        self.retryable = retryable
        self.action = action
        self.retry_after_s = retry_after_s


@dataclass(frozen=True)
class Endpoint:
    """Where and as whom a remote provider is called (the batch runner gets this, never the
    provider's private fields). ``api_key`` is left out of ``repr``."""

    id: str  # openai | gemini | voyage | mistral | ollama
    model: str
    base_url: str | None
    api_key: str | None = field(default=None, repr=False)
    headers: tuple[tuple[str, str], ...] = ()
    key_source: str = ""
    timeout_s: float = 60.0


@dataclass(frozen=True)
class ProviderInfo:
    id: str  # openai | gemini | voyage | mistral | ollama | local | none
    model: str
    endpoint_key: str  # hash of base URL + model + non-auth headers

    def cache_key(self) -> str:
        return f"{self.id}:{self.model}:{self.endpoint_key}"


def endpoint_key(base_url: str | None, model: str, headers: dict[str, str] | None = None) -> str:
    safe_headers = {
        k.lower(): v
        for k, v in (headers or {}).items()
        if k.lower() not in {"authorization", "x-api-key", "api-key", "x-goog-api-key"}
    }
    blob = json.dumps({"base": base_url or "", "model": model, "headers": safe_headers}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def l2_normalize(vectors: np.ndarray) -> np.ndarray:
    arr = np.asarray(vectors, dtype=np.float32)
    if arr.ndim == 1:
        n = float(np.linalg.norm(arr))
        return arr / n if n > 0 else arr
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: np.ndarray = arr / norms
    return out


class EmbeddingProvider(ABC):
    """Turns texts into L2-normalised float32 vectors."""

    info: ProviderInfo
    #: max tokens per request batch (requests are split under this)
    max_batch_tokens: int = 8000
    #: max input tokens per text the model can see (chunks longer than this get truncated)
    max_input_tokens: int | None = None
    #: None normally; ``{"from": primary_id, "reason": ...}`` once a fallback provider took over
    fallback: dict | None = None
    #: where the key came from ("memorySearch.remote.apiKey", "OPENAI_API_KEY", …); never the key
    key_source: str = ""

    @abstractmethod
    def embed_documents(self, texts: list[str]) -> np.ndarray:
        """Embed chunk texts (document task type where the provider has one)."""

    @abstractmethod
    def embed_query(self, text: str) -> np.ndarray:
        """Embed a search query (query task type where the provider has one)."""

    def close(self) -> None:  # pragma: no cover - optional
        return None
