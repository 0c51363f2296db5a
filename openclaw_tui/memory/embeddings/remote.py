"""First-cut OpenAI-compatible remote provider through ``litellm.embedding``.

(The embeddings issue extends this package with gemini/voyage/mistral/ollama/local,
auto selection, fallback, batch mode and the cache; keep this interface.)
"""

from __future__ import annotations

import random
import time

import numpy as np

from openclaw_tui._offline import import_litellm
from openclaw_tui.memory.embeddings.base import (
    EmbeddingError,
    EmbeddingProvider,
    ProviderInfo,
    endpoint_key,
    l2_normalize,
)

RETRY_ATTEMPTS = 3
BACKOFF_START_S = 0.5
BACKOFF_MAX_S = 8.0


class OpenAICompatibleProvider(EmbeddingProvider):
    def __init__(
        self,
        *,
        model: str = "text-embedding-3-small",
        api_key: str | None,
        base_url: str | None = None,
        headers: dict[str, str] | None = None,
        key_source: str = "config",
        provider_id: str = "openai",
        timeout_s: float = 60.0,
    ):
        self.model = model
        self._api_key = api_key
        self.base_url = base_url
        self.headers = dict(headers or {})
        self.key_source = key_source
        self.timeout_s = timeout_s
        self.info = ProviderInfo(provider_id, model, endpoint_key(base_url, model, headers))

    def _call(self, texts: list[str]) -> np.ndarray:
        litellm = import_litellm()
        delay = BACKOFF_START_S
        last: EmbeddingError | None = None
        for attempt in range(1, RETRY_ATTEMPTS + 1):
            try:
                resp = litellm.embedding(
                    model=f"openai/{self.model}",
                    input=texts,
                    api_key=self._api_key or "sk-none",
                    api_base=self.base_url,
                    extra_headers=self.headers or None,
                    timeout=self.timeout_s,
                    max_retries=0,
                )
                data = sorted(resp.data, key=lambda d: d["index"] if isinstance(d, dict) else d.index)
                vecs = [d["embedding"] if isinstance(d, dict) else d.embedding for d in data]
                if len(vecs) != len(texts):
                    raise EmbeddingError(self.info.id, f"{self.info.id} returned {len(vecs)} vectors for {len(texts)} inputs")
                return l2_normalize(np.asarray(vecs, dtype=np.float32))
            except EmbeddingError:
                raise
            except Exception as exc:  # litellm maps HTTP errors to its own classes
                status = getattr(exc, "status_code", None)
                if status in (401, 403):
                    raise EmbeddingError(
                        self.info.id,
                        f"{self.info.id} embeddings rejected the API key (HTTP {status}); key from {self.key_source}",
                        status=status,
                        action="check the key or set memorySearch.provider",
                    ) from None
                retryable = status in (408, 409, 429) or (status or 0) >= 500 or status is None
                last = EmbeddingError(
                    self.info.id,
                    f"{self.info.id} embeddings failed: {type(exc).__name__}" + (f" (HTTP {status})" if status else ""),
                    status=status,
                    retryable=retryable,
                )
                if not retryable or attempt == RETRY_ATTEMPTS:
                    break
                time.sleep(min(BACKOFF_MAX_S, delay) * (0.5 + random.random() / 2))
                delay *= 2
        assert last is not None
        raise last

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return self._call(texts)

    def embed_query(self, text: str) -> np.ndarray:
        return self._call([text])[0]
