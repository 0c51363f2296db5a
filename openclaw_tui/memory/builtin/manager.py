"""The builtin memory backend: one SQLite index per agent (``<stateDir>/memory/<agentId>.sqlite``).

``MemoryManager`` implements ``memory.api.MemoryBackend`` as a thin facade over its parts:

* ``index_file.IndexFile`` — opening the file, corrupt-index set-aside, atomic swap-in;
* ``indexer.Indexer`` — incremental sync, full rebuild, embedding and cache, sync on search;
* ``search.Searcher`` — hybrid search composed of the ``query``, ``scoring`` and ``ranking`` steps;
* ``reader.read_memory_file`` + ``paths`` (both shared with QMD) — ``memory_get``;
* ``status.builtin_status`` — ``memory status``;
* ``watcher.Watcher`` — the file watcher and the interval sync.

``search`` and ``get`` never raise: failures come back as result objects.
"""

from __future__ import annotations

import logging
import os
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Literal

import apsw

from openclaw_tui.config import AgentSettings
from openclaw_tui.events import Event, EventSink, ProviderRetry, null_sink
from openclaw_tui.memory.trigger_vectors import PhraseSimilarity
from openclaw_tui.memory.api import SYNC_FORGET, MemoryStatus, ProgressFn, ReadResult, SearchResult, SyncReport
from openclaw_tui.memory.builtin.embedding_ops import window_tokens
from openclaw_tui.memory.paths import range_error, resolve_get_path
from openclaw_tui.memory.builtin.index_file import IndexFile, IndexUnavailable
from openclaw_tui.memory.builtin.indexer import Indexer
from openclaw_tui.memory.reader import read_memory_file, refused
from openclaw_tui.memory.builtin.search import Searcher
from openclaw_tui.memory.builtin.sync_sources import SourceProvider
from openclaw_tui.memory.sources import extra_roots
from openclaw_tui.memory.builtin.status import builtin_status
from openclaw_tui.memory.builtin.index_db import ForeignIndex
from openclaw_tui.memory.builtin.store import Store
from openclaw_tui.memory.builtin.watcher import Watcher
from openclaw_tui.workspace.guard import PathRefused

if TYPE_CHECKING:
    from openclaw_tui.memory.embeddings.base import EmbeddingProvider

__all__ = ["IndexUnavailable", "MemoryManager"]

log = logging.getLogger("openclaw_tui.memory")


def _resolve_provider(settings: AgentSettings) -> tuple[EmbeddingProvider | None, str | None]:
    """The configured embedding provider, or ``(None, why)``: a broken provider config must
    not break keyword search."""
    try:
        from openclaw_tui.memory.embeddings import resolve_provider  # noqa: PLC0415

        return resolve_provider(settings), None
    except Exception as exc:
        error = f"embedding provider unavailable: {exc}"
        log.warning("%s; keyword-only search", error)
        return None, error


class MemoryManager:
    """Builtin memory backend for one agent."""

    name = "builtin"

    def __init__(self, settings: AgentSettings, *, sink: EventSink | None = None,
                 provider: EmbeddingProvider | Literal["auto"] | None = "auto"):
        self.settings = settings
        self.ms = settings.memory_search
        self.sink: EventSink = sink or null_sink
        #: FTS join mode for natural-language queries: "or" (default), "and" (OpenClaw's: AND of
        #: every token, OR of keywords when that finds nothing) or "and-strict" (no fallback);
        #: OPENCLAW_MEMORY_FTS_MODE overrides it for measurements (bench/locomo_eval.py)
        env_mode = os.environ.get("OPENCLAW_MEMORY_FTS_MODE", "").strip().lower()
        self.fts_mode = env_mode if env_mode in ("or", "and", "and-strict") else "or"
        #: clock used by temporal decay (tests and evaluations pin it; OPENCLAW_MEMORY_NOW=ISO date)
        self.now: Callable[[], datetime] = _clock_from_env()
        self.provider_error: str | None = None
        if isinstance(provider, str):  # "auto"
            provider, self.provider_error = _resolve_provider(settings)
        self.provider = provider
        self._trigger_similarity: PhraseSimilarity | None = None
        if provider is not None and hasattr(provider, "on_retry"):
            # embedding retries (429/5xx/timeouts) show in the event timeline
            provider.on_retry = self._on_embed_retry
        vec = self.ms.store.vector
        self.index = IndexFile(settings.index_path, vector_enabled=vec.enabled, extension_path=vec.extension_path,
                               fts_tokenizer=self.ms.store.fts.tokenizer)
        self.indexer = Indexer(settings, provider, self.index, self._emit)
        self.searcher = Searcher(settings, provider, name=self.name, emit=self._emit,
                                 on_stale_vectors=self.indexer.maybe_background_sync, fallback=self.provider_fallback)
        self.watcher = Watcher(settings, sync=lambda reason: self.sync(reason=reason), due=self._interval_due,
                               emit=self._emit)
        if "sessions" in self.active_sources():
            from openclaw_tui.memory.builtin.session_source import attach  # noqa: PLC0415

            attach(settings, self.indexer.extra_sources)

    # ------------------------------------------------------------------ helpers

    def _on_embed_retry(self, err: Any, attempt: int, delay: float) -> None:
        # a retry is progress, not a failure: the timeline shows it; a final failure is
        # reported by the sync (warnings, status) and, for a search, in the result
        status = getattr(err, "status", None)
        self._emit(
            ProviderRetry(
                provider=getattr(err, "provider", "embeddings"),
                attempt=attempt,
                delay_s=round(delay, 3),
                message=f"embeddings: {getattr(err, 'message', err)}" + (f" (HTTP {status})" if status else ""),
            )
        )

    def _emit(self, event: Event) -> None:
        try:
            self.sink(event)
        except Exception:  # a broken sink must not break the index
            log.exception("event sink failed")

    @property
    def workspace(self) -> Path:
        return self.settings.workspace

    @property
    def index_path(self) -> Path:
        return self.settings.index_path

    @property
    def closed(self) -> bool:
        return self.index.closed

    @property
    def extra_sources(self) -> list[SourceProvider]:
        """Extra sources (e.g. session transcripts): callables given each sync's ``SyncContext``."""
        return self.indexer.extra_sources

    def active_sources(self) -> list[str]:
        return self.indexer.active_sources()

    def trigger_similarity(self) -> PhraseSimilarity | None:
        """Trigger recall's vector side (``memory/trigger_vectors.py``): None without a provider."""
        if self.provider is None:
            return None
        if self._trigger_similarity is None:
            self._trigger_similarity = PhraseSimilarity(self.provider)
        return self._trigger_similarity

    def provider_fallback(self) -> dict | None:
        fb = getattr(self.provider, "fallback", None) if self.provider is not None else None
        return fb if isinstance(fb, dict) else None

    def fingerprint(self, store: Store | None = None) -> dict[str, Any]:
        return self.indexer.fingerprint(store or self.index.current)

    def vector_window_tokens(self) -> int | None:
        """Tokens per embedded sub-window of a chunk (None without a provider)."""
        return window_tokens(self.provider)

    def _get_store(self) -> Store:
        """The live index store (opened on demand; raises ``IndexUnavailable``)."""
        return self.index.store()

    # ------------------------------------------------------------------ sync

    def is_dirty(self) -> bool:
        return self.indexer.is_dirty()

    def sync(self, *, force: bool = False, reason: str = "", progress: ProgressFn | None = None) -> SyncReport:
        """Bring the index up to date. Returns counts; never raises for bad files or providers.
        A sync for a forget (``reason=SYNC_FORGET``) then purges the file (``purge.py``)."""
        report = self.indexer.sync(force=force, reason=reason, progress=progress)
        if reason == SYNC_FORGET:
            try:
                self._get_store().purge()
            except Exception as exc:  # noqa: BLE001 - the rows are gone; the bytes go on the next forget
                log.warning("purging the index after forget failed: %s", exc)
        return report

    def wait_background_sync(self, timeout: float | None = None) -> None:
        self.indexer.wait_background_sync(timeout)

    def _interval_due(self) -> bool:
        return not self.indexer.cooldown.active() and self.is_dirty()

    # ------------------------------------------------------------------ search

    def search(self, query: str, *, max_results: int | None = None, min_score: float | None = None,
               session_key: str | None = None) -> SearchResult:
        t0 = time.perf_counter()
        try:
            try:
                return self._search(query, max_results, min_score, session_key, t0)
            except ForeignIndex as exc:  # a row that does not decode: rebuild, then answer
                self.indexer.repair(exc)
                return self._search(query, max_results, min_score, session_key, t0)
            except apsw.Error:
                if self.closed:
                    raise
                # a concurrent rebuild may have swapped the index under this search: retry once
                return self._search(query, max_results, min_score, session_key, t0)
        except Exception as exc:  # noqa: BLE001 - the session must never see an exception
            log.debug("memory search failed: %s", exc, exc_info=True)
            if isinstance(exc, IndexUnavailable):
                return self.searcher.disabled(str(exc), action="fix memorySearch.store.path or the state dir permissions",
                                              started=t0)
            return self.searcher.disabled(
                f"memory search failed: {type(exc).__name__}: {exc}",
                action="run `openclaw-tui memory status` for details; `memory index --force` rebuilds the index",
                started=t0,
            )

    def _search(self, query: Any, max_results: int | None, min_score: float | None, session_key: str | None,
                t0: float) -> SearchResult:
        if not self.ms.enabled:
            return self.searcher.disabled("memory search is disabled (memorySearch.enabled = false)",
                                          action="set memorySearch.enabled to true", started=t0)
        req = self.searcher.request(query, max_results, min_score, session_key, fts_mode=self.fts_mode, now=self.now)
        store = self.indexer.before_search()
        return self.searcher.run(store, req, t0, keywords_only=self.indexer.keyword_first)

    # ------------------------------------------------------------------ get

    def get(self, path: str, from_line: int | None = None, lines: int | None = None,
            *, session_key: str | None = None) -> ReadResult:
        shown = path if isinstance(path, str) else str(path)
        try:
            bad_range = range_error(from_line, lines)
            if bad_range:
                return ReadResult(path=shown, error=bad_range)
            if not self.workspace.is_dir():
                return ReadResult(path=shown, disabled=True, error=f"workspace {self.workspace} does not exist")
            try:
                root, rel = resolve_get_path(self.workspace, extra_roots(self.workspace, self.ms.extra_paths), path)
            except PathRefused as exc:
                return refused(shown, exc.reason)
            key = session_key if session_key is not None else self.settings.session_key
            return read_memory_file(self.workspace, root, rel, shown, from_line, lines, session_key=key)
        except Exception as exc:  # noqa: BLE001
            return ReadResult(path=shown, error=f"cannot read {shown}: {type(exc).__name__}: {exc}")

    # ------------------------------------------------------------------ status

    def status(self) -> MemoryStatus:
        return builtin_status(self.indexer, name=self.name, provider_error=self.provider_error,
                              fallback=self.provider_fallback())

    # ------------------------------------------------------------------ watcher and lifecycle

    def warm_up(self) -> None:
        """Load the embedding model now (a background thread at start), so the first search
        does not pay for it. Never raises: a failing provider is reported by search and sync."""
        if self.provider is None:
            return
        try:
            self.provider.embed_query("warm up")
        except Exception as exc:  # noqa: BLE001
            log.debug("embedding warm-up failed: %s", exc)

    def start_watcher(self) -> None:
        """Watch memory files (watchfiles, debounce ``sync.watchDebounceMs``) and run the
        interval sync when ``sync.intervalMinutes`` > 0. Both run in daemon threads."""
        self.watcher.start()

    def stop_watcher(self) -> None:
        self.watcher.stop()

    def close(self) -> None:
        self.stop_watcher()
        self.wait_background_sync(timeout=30)
        self.index.close()
        if self.provider is not None:
            try:
                self.provider.close()
            except Exception:  # pragma: no cover
                pass

    def __enter__(self) -> "MemoryManager":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _clock_from_env() -> Callable[[], datetime]:
    raw = os.environ.get("OPENCLAW_MEMORY_NOW", "").strip()
    if raw:
        try:
            fixed = datetime.fromisoformat(raw)
            if fixed.tzinfo is None:
                fixed = fixed.replace(tzinfo=timezone.utc)
            return lambda: fixed
        except ValueError:
            log.warning("OPENCLAW_MEMORY_NOW=%r is not an ISO date; using the real clock", raw)
    return lambda: datetime.now(timezone.utc)
