"""``memorySearch.fallback``: switch to a second provider when the primary fails.

The wrapper forwards to the primary until an embedding call fails (after the primary's own
retries). It then builds the fallback provider, sets ``fallback = {"from", "reason"}`` and
from then on reports the fallback's ``info`` — so the index sees a different fingerprint
and rebuilds once with the fallback's vectors. It stays on the fallback for the life of the
object; a new process tries the primary again.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable

import numpy as np

from openclaw_tui.memory.embeddings.base import EmbeddingError, EmbeddingProvider, ProviderInfo

#: a retry listener: (the error, attempt number, delay in seconds)
RetryFn = Callable[[Any, int, float], None]

log = logging.getLogger("openclaw_tui.memory.embeddings")


class UnavailableProvider(EmbeddingProvider):
    """Stands for a configured provider that cannot run (missing extra, missing model file).

    Every call raises the stored error, so search reports it (``disabled``, ``error``,
    ``action``) and a configured fallback can take over.
    """

    def __init__(self, provider_id: str, model: str, error: EmbeddingError):
        self.info = ProviderInfo(provider_id, model, "unavailable")
        self.error = error
        self.fallback = None
        self.key_source = ""

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        raise self.error

    def embed_query(self, text: str) -> np.ndarray:
        raise self.error


class FallbackProvider(EmbeddingProvider):
    def __init__(self, primary: EmbeddingProvider, make_fallback: Callable[[], EmbeddingProvider], fallback_id: str):
        self.primary = primary
        self.fallback_id = fallback_id
        self._make_fallback = make_fallback
        self.active: EmbeddingProvider = primary
        self.fallback = None
        self._lock = threading.Lock()
        self._on_retry: RetryFn | None = None

    @property
    def on_retry(self) -> RetryFn | None:
        return self._on_retry

    @on_retry.setter
    def on_retry(self, fn: RetryFn | None) -> None:
        """Retry listener, passed on to the primary and to the fallback once it exists."""
        self._on_retry = fn
        for p in {id(self.primary): self.primary, id(self.active): self.active}.values():
            if hasattr(p, "on_retry"):
                p.on_retry = fn

    # the attributes the index reads always describe the provider in use
    @property
    def info(self) -> ProviderInfo:  # type: ignore[override]
        return self.active.info

    @property
    def max_batch_tokens(self) -> int:  # type: ignore[override]
        return self.active.max_batch_tokens

    @property
    def max_input_tokens(self) -> int | None:  # type: ignore[override]
        return self.active.max_input_tokens

    @property
    def key_source(self) -> str:  # type: ignore[override]
        return getattr(self.active, "key_source", "")

    @property
    def switched(self) -> bool:
        return self.active is not self.primary

    def _switch(self, err: EmbeddingError) -> EmbeddingProvider:
        with self._lock:
            if self.active is self.primary:
                try:
                    fb = self._make_fallback()
                except EmbeddingError as fb_err:
                    log.warning("fallback %s unavailable: %s", self.fallback_id, fb_err.message)
                    raise err from None
                log.warning("embedding provider %s failed (%s); switching to fallback %s",
                            self.primary.info.id, err.message, fb.info.id)
                if self._on_retry is not None and hasattr(fb, "on_retry"):
                    fb.on_retry = self._on_retry
                self.active = fb
                self.fallback = {"from": self.primary.info.id, "reason": err.message}
            return self.active

    def _run(self, call: Callable[[EmbeddingProvider], np.ndarray]) -> np.ndarray:
        current = self.active
        try:
            return call(current)
        except EmbeddingError as err:
            if current is not self.primary:
                raise
            return call(self._switch(err))

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return self._run(lambda p: p.embed_documents(texts))

    def embed_query(self, text: str) -> np.ndarray:
        return self._run(lambda p: p.embed_query(text))

    def close(self) -> None:
        self.primary.close()
        if self.active is not self.primary:
            self.active.close()
