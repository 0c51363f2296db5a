"""``memory status`` for the builtin index: provider, search mode, index counts, last sync."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from openclaw_tui.memory.api import MemoryStatus
from openclaw_tui.memory.builtin.embedding_ops import provider_key
from openclaw_tui.memory.builtin.indexer import Indexer
from openclaw_tui.memory.builtin.fts_index import FTS_TOKENIZER


def _iso(ts: float | None) -> str | None:
    if not ts:
        return None
    return datetime.fromtimestamp(ts, tz=timezone.utc).isoformat(timespec="seconds")


def _local_model_problem(indexer: Indexer) -> str | None:
    """Why the configured local model cannot run (missing file or library), else None.
    Building the provider loads nothing (models load on the first text), so this is cheap."""
    from openclaw_tui.memory.embeddings import make_provider  # noqa: PLC0415
    from openclaw_tui.memory.embeddings.base import EmbeddingError  # noqa: PLC0415

    try:
        make_provider(indexer.settings, "local")
    except EmbeddingError as exc:
        return f"{exc.message} ({exc.action})" if exc.action else exc.message
    return None


def _provider_details(indexer: Indexer, provider_error: str | None, out: dict[str, Any]) -> str:
    """Fill why this provider was chosen and what is wrong with it; return the search mode."""
    provider = indexer.provider
    mode = "hybrid" if provider is not None else "keyword-only"
    try:  # why this provider (or keyword-only) was chosen; never holds a key
        from openclaw_tui.memory.embeddings import describe_resolution  # noqa: PLC0415

        res = describe_resolution(indexer.settings)
        out["providerReason"] = res.get("reason")
        if res.get("keySource"):
            out["keySource"] = res["keySource"]
    except Exception:  # noqa: BLE001
        pass
    local_problem = _local_model_problem(indexer) if provider_key(provider)[0] == "local" else None
    last = indexer.last_sync
    if provider_error:
        out["providerError"] = provider_error
    elif local_problem:
        # known before any text is embedded: a missing model or library (status runs in a
        # fresh process, where no sync has failed yet)
        mode = "unavailable (see providerError)"
        out["providerError"] = local_problem
    elif provider is not None and last is not None and last.details.get("providerFailed"):
        errs = last.errors or ("unknown error",)
        mode = "keyword-only"
        out["providerError"] = f"the embedding provider failed during the last sync: {errs[-1]}"
    return mode


def _index_details(indexer: Indexer, out: dict[str, Any]) -> tuple[int, int, bool]:
    """Fill the index's figures; return ``(files, chunks, dirty)``."""
    ms = indexer.ms
    try:
        store = indexer.index.store()
        files, chunks = store.counts()
        got: dict[str, Any] = {"vectorBackend": store.vector_backend, "vectorDims": store.vec_dims(),
                               "ftsAvailable": store.fts_available, "ftsTokenizer": FTS_TOKENIZER}
        dirty = indexer.is_dirty()
        got.update({"cacheEntries": store.cache_count(), "cacheMaxEntries": ms.cache.max_entries})
        if store.vec_error:
            got["vectorError"] = store.vec_error
        if store.fts_error:
            got["ftsError"] = store.fts_error
        out.update(got)
        return files, chunks, dirty
    except Exception as exc:  # noqa: BLE001
        out["error"] = f"index unavailable: {exc}"
        return 0, 0, True


def builtin_status(indexer: Indexer, *, name: str, provider_error: str | None,
                   fallback: dict | None) -> MemoryStatus:
    settings, ms = indexer.settings, indexer.ms
    details: dict[str, Any] = {"fallback": fallback, "sources": indexer.active_sources(),
                               "extraPaths": [p if isinstance(p, str) else p.model_dump() for p in ms.extra_paths]}
    search_mode = _provider_details(indexer, provider_error, details)
    files, chunks, dirty = _index_details(indexer, details)
    last = indexer.last_sync
    if last is not None:
        details["lastSync"] = {"at": _iso(indexer.last_sync_at), "reason": last.reason,
                               "filesIndexed": last.files_indexed, "errors": list(last.errors or ())[:5]}
    pid, model, _ = provider_key(indexer.provider)
    return MemoryStatus(
        backend=name, agent_id=settings.agent_id, workspace=str(settings.workspace),
        workspace_exists=settings.workspace.is_dir(), index_path=str(settings.index_path),
        provider=pid, model=model, search_mode=search_mode, files=files, chunks=chunks, dirty=dirty,
        details=details,
    )
