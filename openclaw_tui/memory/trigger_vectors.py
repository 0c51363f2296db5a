"""Vector-assisted trigger recall: a trigger phrase also matches a message by meaning.

With an embedding provider, a trigger phrase's score is the better of its keyword score
(``memory/triggers.py``) and the cosine similarity between the message's query vector and
the phrase's document vector; the same :data:`~openclaw_tui.memory.triggers.THRESHOLD`
(0.72) and the same cap (3 per turn) apply. So a paraphrase sharing no word with the phrase
can be recalled. Without a provider, or when it fails, the keyword score alone decides
(unchanged). Phrase vectors are cached per phrase for the provider's lifetime, so a turn
embeds the message once and only phrases it has not seen before.
"""

from __future__ import annotations

import logging
import threading
from typing import Iterable, Protocol, runtime_checkable

import numpy as np

log = logging.getLogger(__name__)

#: phrases kept in the cache (a workspace's triggers are few; this only bounds a pathological file)
CACHE_CAP = 4096


class QueryEmbedder(Protocol):
    def embed_query(self, text: str) -> np.ndarray: ...

    def embed_documents(self, texts: list[str]) -> np.ndarray: ...


class PhraseSimilarity:
    """Cosine similarity between a message and trigger phrases through one embedder."""

    def __init__(self, embedder: QueryEmbedder) -> None:
        self.embedder = embedder
        self._vectors: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def scores(self, message: str, phrases: Iterable[str]) -> dict[str, float]:
        """``{phrase: cosine}`` for every phrase; ``{}`` when the provider fails (logged)."""
        wanted = list(dict.fromkeys(p for p in phrases if p.strip()))
        if not wanted or not message.strip():
            return {}
        try:
            with self._lock:
                missing = [p for p in wanted if p not in self._vectors]
                if missing:
                    if len(self._vectors) + len(missing) > CACHE_CAP:
                        self._vectors.clear()
                    for p, v in zip(missing, np.asarray(self.embedder.embed_documents(missing), dtype=np.float32)):
                        self._vectors[p] = _unit(v)
                vectors = {p: self._vectors[p] for p in wanted}
            q = _unit(np.asarray(self.embedder.embed_query(message), dtype=np.float32))
        except Exception as exc:  # noqa: BLE001 - a provider that is down leaves keyword triggers working
            log.warning("trigger recall: embedding failed, keyword triggers only: %s", exc)
            return {}
        return {p: float(np.dot(q, v)) if v.shape == q.shape else 0.0 for p, v in vectors.items()}


@runtime_checkable
class TriggerVectorSource(Protocol):
    """A memory backend that can lend its embedding provider to trigger recall."""

    def trigger_similarity(self) -> PhraseSimilarity | None: ...


def _unit(v: np.ndarray) -> np.ndarray:
    v = np.ravel(v)
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else v
