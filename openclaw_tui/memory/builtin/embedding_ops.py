"""Embedding chunks for the index: sub-windows, batching by token budget, the vector cache.

Each chunk is embedded as several vectors, one per window of whole lines (``sub_windows``);
window vectors are cached per text hash and provider key, so a rebuild or an edit only
embeds the windows it has not seen. Provider failures are described once here
(``error_message``, ``provider_error_event``) for the indexer and for search.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from openclaw_tui.events import ProviderError
from openclaw_tui.memory.builtin.chunking import Chunk, sub_windows
from openclaw_tui.memory.builtin.store import Store

if TYPE_CHECKING:
    from openclaw_tui.memory.embeddings.base import EmbeddingProvider

EMBED_BATCH_ITEMS = 128
#: **ours:** each chunk is embedded as several vectors, one per window of whole lines of at
#: most this many tokens (capped by the provider's input limit); a chunk's vector score is
#: its best window's cosine. A ~400-token chunk averaged into one vector is a topic centroid,
#: while questions target single lines (LoCoMo, MiniLM: see docs/embeddings.md)
VECTOR_WINDOW_TOKENS = 48


@dataclass
class EmbedCounts:
    """Embedding and cache work of one sync (``embed_chunks`` counts into it)."""

    #: chunks that needed at least one new vector (also counted in ``cache_misses``)
    chunks_embedded: int = 0
    #: window texts sent to the provider
    vectors_embedded: int = 0
    #: chunks served wholly from the cache
    cache_hits: int = 0
    cache_misses: int = 0
    #: cache entries dropped to stay under ``cache.maxEntries``
    cache_pruned: int = 0


class RebuildNeeded(Exception):
    """The index cannot take these vectors (their dimension changed): rebuild it."""


class ProviderSwitched(RebuildNeeded):
    """The embedding provider switched to its fallback mid-sync: rebuild with the fallback."""


@overload
def provider_key(provider: EmbeddingProvider) -> tuple[str, str, str]: ...
@overload
def provider_key(provider: EmbeddingProvider | None) -> tuple[str, str | None, str | None]: ...
def provider_key(provider: EmbeddingProvider | None) -> tuple[str, str | None, str | None]:
    """``(id, model, endpoint key)`` naming whose vectors these are; ``("none", …)`` without one."""
    if provider is None:
        return "none", None, None
    info = provider.info
    return info.id, info.model, info.endpoint_key


def window_tokens(provider: EmbeddingProvider | None) -> int | None:
    """Tokens per embedded sub-window of a chunk (None without a provider)."""
    if provider is None:
        return None
    limit = getattr(provider, "max_input_tokens", None)
    window = VECTOR_WINDOW_TOKENS
    if isinstance(limit, int) and limit > 0:
        window = min(window, max(8, limit - 2))
    return window


def batch_token_budget(provider: EmbeddingProvider) -> int:
    """Tokens per embedding request (the provider's ``max_batch_tokens``, at least 512)."""
    return max(512, int(getattr(provider, "max_batch_tokens", 8000) or 8000))


def error_message(exc: BaseException) -> str:
    """One line for a provider failure (an ``EmbeddingError``'s message, else the exception)."""
    return getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"


def provider_error_event(exc: BaseException, provider: str, message: str) -> ProviderError:
    return ProviderError(
        provider=getattr(exc, "provider", provider),
        message=message,
        action=getattr(exc, "action", "") or "",
        status=getattr(exc, "status", None),
        retryable=bool(getattr(exc, "retryable", False)),
    )


def _groups(missing: dict[str, str], tokens: dict[str, int], budget: int) -> list[list[str]]:
    """Window hashes in request-sized groups: at most ``budget`` tokens and
    ``EMBED_BATCH_ITEMS`` texts each."""
    groups: list[list[str]] = []
    batch: list[str] = []
    used = 0
    for h in missing:
        t = tokens.get(h, 1)
        if batch and (used + t > budget or len(batch) >= EMBED_BATCH_ITEMS):
            groups.append(batch)
            batch, used = [], 0
        batch.append(h)
        used += t
    if batch:
        groups.append(batch)
    return groups


def _embed_missing(provider: EmbeddingProvider, store: Store, missing: dict[str, str], tokens: dict[str, int],
                   counts: EmbedCounts, use_cache: bool) -> dict[str, np.ndarray]:
    pid, model, key = provider_key(provider)
    fresh: dict[str, np.ndarray] = {}
    for group in _groups(missing, tokens, batch_token_budget(provider)):
        vecs = np.asarray(provider.embed_documents([missing[h] for h in group]), dtype=np.float32)
        if vecs.ndim != 2 or vecs.shape[0] != len(group):
            raise RuntimeError(f"provider returned {vecs.shape[0] if vecs.ndim else 0} vectors for {len(group)} texts")
        now = provider_key(provider)
        if now != (pid, model, key):
            # a fallback took over inside this call: these vectors are the fallback's. Cache
            # each set under its own provider key, then rebuild with the fallback.
            if use_cache:
                store.cache_put(pid, model, key, fresh)
                store.cache_put(*now, dict(zip(group, vecs)))
            raise ProviderSwitched(f"embedding provider switched from {pid} to {now[0]}")
        fresh.update(zip(group, vecs))
        counts.vectors_embedded += len(group)
    return fresh


def embed_chunks(provider: EmbeddingProvider, store: Store, chunks: list[Chunk], counts: EmbedCounts, *,
                 use_cache: bool) -> list[np.ndarray]:
    """Per chunk, the 2-D array of its sub-window vectors (``window_tokens``); the work done
    is added to ``counts``."""
    if not chunks:
        return []
    pid, model, key = provider_key(provider)
    window = window_tokens(provider) or VECTOR_WINDOW_TOKENS
    wins: list[list[Chunk]] = [sub_windows(c.text, window) for c in chunks]
    cached = store.cache_get(pid, model, key, [w.hash for ws in wins for w in ws]) if use_cache else {}
    missing: dict[str, str] = {}
    tokens: dict[str, int] = {}
    for ws in wins:
        if all(w.hash in cached for w in ws):
            counts.cache_hits += 1
            continue
        counts.cache_misses += 1
        for w in ws:
            if w.hash not in cached:
                missing.setdefault(w.hash, w.text)
                tokens[w.hash] = w.tokens
    fresh: dict[str, np.ndarray] = {}
    if missing:
        fresh = _embed_missing(provider, store, missing, tokens, counts, use_cache)
        counts.chunks_embedded += sum(1 for ws in wins if any(w.hash in fresh for w in ws))
        if use_cache:
            store.cache_put(pid, model, key, fresh)
    allv = {**cached, **fresh}
    return [np.vstack([allv[w.hash] for w in ws]).astype(np.float32) for ws in wins]
