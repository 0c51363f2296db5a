"""Keeping the builtin index up to date: incremental sync, atomic rebuild, sync on search.

Sync is hash-based and incremental. A fingerprint change (provider, model, endpoint,
sources, extra paths, chunking, tokenizer, vector backend, vector window size) or
``force`` rebuilds into a temp file that is swapped in (``IndexFile.swap_in``); the
embedding cache survives. A provider failure indexes the text without vectors (keyword
search still finds it) and backs automatic syncs off (``ProviderCooldown``).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

import apsw
import numpy as np

from openclaw_tui.config import AgentSettings
from openclaw_tui.events import Event, IndexSynced
from openclaw_tui.memory.api import ProgressFn, SyncReport
from openclaw_tui.memory.builtin.chunking import Chunk, chunk_text
from openclaw_tui.memory.builtin.embedding_ops import (
    EmbedCounts,
    ProviderSwitched,
    RebuildNeeded,
    batch_token_budget,
    embed_chunks,
    error_message,
    provider_error_event,
    provider_key,
    window_tokens,
)
from openclaw_tui.memory.builtin.index_file import IndexFile, discard
from openclaw_tui.memory.builtin.sync_sources import SourceProvider, SyncContext, collect_docs, read_doc, unchanged
from openclaw_tui.memory.sources import SourceDoc
from openclaw_tui.memory.builtin.chunk_files import FileRow, FileWrite
from openclaw_tui.memory.builtin.fts_index import FTS_CONTENT, FTS_TOKENIZER
from openclaw_tui.memory.builtin.index_db import SCHEMA_VERSION, ForeignIndex
from openclaw_tui.memory.builtin.store import Store
from openclaw_tui.workspace.guard import PathRefused
from openclaw_tui.workspace.safe_fs import MAX_FILE_BYTES

if TYPE_CHECKING:
    from openclaw_tui.memory.embeddings.base import EmbeddingProvider

log = logging.getLogger("openclaw_tui.memory")

#: at most one background "is the index dirty?" check per this many seconds of searching
BACKGROUND_CHECK_INTERVAL_S = 1.0
#: files written per transaction (a commit of the live index costs fsyncs; a batch's text
#: is also bounded by tokens, see ``_index_docs``)
FILES_PER_BATCH = 256

Batch = list[tuple[SourceDoc, str, list[Chunk]]]


@dataclass
class SyncTally:
    """The counts of one sync while it runs; ``report()`` freezes them."""

    ok: bool = True
    full_rebuild: bool = False
    #: nothing was written (the sync failed before its first commit)
    aborted: bool = False
    provider_failed: bool = False
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    files: int = 0
    chunks: int = 0
    files_indexed: int = 0
    files_unchanged: int = 0
    files_removed: int = 0
    files_skipped: int = 0
    chunks_indexed: int = 0
    files_keyword_only: int | None = None
    embed: EmbedCounts = field(default_factory=EmbedCounts)

    def report(self, *, reason: str, duration_ms: float) -> SyncReport:
        e = self.embed
        details: dict[str, Any] = {
            "chunksIndexed": self.chunks_indexed, "chunksEmbedded": e.chunks_embedded,
            "vectorsEmbedded": e.vectors_embedded, "cacheHits": e.cache_hits,
            "cacheMisses": e.cache_misses, "cachePruned": e.cache_pruned,
        }
        if self.provider_failed:
            details["providerFailed"] = True
        if self.files_keyword_only is not None:
            details["filesKeywordOnly"] = self.files_keyword_only
        return SyncReport(
            ok=self.ok, reason=reason, errors=tuple(self.errors), warnings=tuple(self.warnings),
            full_rebuild=self.full_rebuild, files=self.files, chunks=self.chunks,
            files_indexed=self.files_indexed, files_unchanged=self.files_unchanged,
            files_removed=self.files_removed, files_skipped=self.files_skipped, aborted=self.aborted,
            duration_ms=duration_ms, details=details,
        )


class ProviderCooldown:
    """After a provider failure, automatic (search/interval) syncs wait 30 s, doubling up
    to 10 min; a success or an explicit sync clears it."""

    def __init__(self) -> None:
        self.until = -1e9
        self.seconds = 0.0

    def active(self) -> bool:
        return time.monotonic() < self.until

    def note(self, tally: SyncTally) -> None:
        if tally.provider_failed:
            self.seconds = min(600.0, max(30.0, self.seconds * 2))
            self.until = time.monotonic() + self.seconds
        elif tally.ok:
            self.seconds = 0.0
            self.until = -1e9


class Indexer:
    """Syncs one agent's sources into its ``IndexFile``."""

    def __init__(self, settings: AgentSettings, provider: EmbeddingProvider | None, index: IndexFile, emit: Callable[[Event], None]) -> None:
        self.settings = settings
        self.ms = settings.memory_search
        self.provider = provider
        self.index = index
        self._emit = emit
        #: extra sources (e.g. session transcripts), called with each sync's ``SyncContext``
        self.extra_sources: list[SourceProvider] = []
        self.cooldown = ProviderCooldown()
        self.last_sync: SyncReport | None = None
        self.last_sync_at: float | None = None
        #: False until the first search, which syncs an empty or unfingerprinted index
        self.searched_once = False
        self._sync_lock = threading.Lock()
        self._bg_sync: threading.Thread | None = None
        self._bg_checked = -1e9
        #: the text is indexed without vectors and the embedding pass runs in the background:
        #: searches answer from keywords (no query embedding) until it is done
        self.keyword_first = False

    # ------------------------------------------------------------------ state

    def active_sources(self) -> list[str]:
        srcs = [s for s in self.ms.sources if s == "memory" or (s == "sessions" and self.ms.experimental.session_memory)]
        return sorted(set(srcs)) or ["memory"]

    def fingerprint(self, store: Store | None) -> dict[str, Any]:
        pid, model, key = provider_key(self.provider)
        return {
            "schema": SCHEMA_VERSION,
            "provider": pid,
            "model": model,
            "endpointKey": key,
            "sources": self.active_sources(),
            "extraPaths": [p if isinstance(p, str) else f"{p.path}::{p.pattern}" for p in self.ms.extra_paths],
            "chunkTokens": self.ms.chunking.tokens,
            "chunkOverlap": self.ms.chunking.overlap,
            "chunkLines": "superseded-blank",  # superseded notes are blank lines (workspace/supersede.py)
            "ftsTokenizer": f"{FTS_TOKENIZER}; {FTS_CONTENT}",
            "vectorBackend": store.vector_backend if store is not None else None,
            "vectorWindowTokens": window_tokens(self.provider),
        }

    def _collect(self, ctx: SyncContext, errors: list[str]) -> tuple[list[SourceDoc], set[str]]:
        return collect_docs(self.settings.workspace, self.ms.extra_paths, "memory" in self.active_sources(),
                            self.extra_sources, ctx, errors)

    def is_dirty(self) -> bool:
        """Whether a sync would change the index (fingerprint, new, changed or vanished files)."""
        try:
            store = self.index.store()
            if store.get_meta_json("fingerprint") != self.fingerprint(store):
                return True
            docs, ok = self._collect(SyncContext(store), [])
            existing = store.files()
            if any(not unchanged(existing.get(d.path), d) for d in docs):
                return True
            seen = {d.path for d in docs}
            return any(p not in seen and r.source in ok for p, r in existing.items())
        except Exception as exc:
            log.warning("cannot check index state: %s", exc)
            return True

    def repair(self, exc: BaseException) -> None:
        self.index.repair(exc)
        self.searched_once = False

    # ------------------------------------------------------------------ sync

    def sync(self, *, force: bool = False, reason: str = "", progress: ProgressFn | None = None) -> SyncReport:
        """Bring the index up to date. Never raises for bad files or providers."""
        t0 = time.perf_counter()
        with self._sync_lock:
            tally = self._run(force, progress)
            self.cooldown.note(tally)
            report = tally.report(reason=reason, duration_ms=round((time.perf_counter() - t0) * 1000, 1))
            self.last_sync, self.last_sync_at = report, time.time()
        self._emit(IndexSynced(agent_id=self.settings.agent_id, files_indexed=tally.files_indexed,
                               files_removed=tally.files_removed, chunks=tally.chunks,
                               full_rebuild=tally.full_rebuild, duration_ms=report.duration_ms or 0.0,
                               reason=reason))
        return report

    def _run(self, force: bool, progress: ProgressFn | None) -> SyncTally:
        try:
            try:
                return self._sync_locked(force, force, progress)
            except ForeignIndex as exc:  # a row that does not decode: set aside, rebuild
                self.repair(exc)
                return self._sync_locked(True, force, progress)
        except Exception as exc:  # noqa: BLE001 - reported, never raised
            cause = _root_cause(exc)
            log.warning("memory sync failed: %s", cause)
            # nothing was written: the index is the one from before
            return SyncTally(ok=False, aborted=True, errors=[f"sync failed: {cause}"])

    def _sync_locked(self, full: bool, backfill: bool, progress: ProgressFn | None) -> SyncTally:
        """One sync under the sync lock: a full rebuild when asked or the fingerprint changed."""
        store = self.index.store()
        ctx = SyncContext(store, force=backfill)
        fp = self.fingerprint(store)
        stored = store.get_meta_json("fingerprint")
        files_now, _ = store.counts()
        if full or (stored is not None and stored != fp) or (stored is None and files_now > 0):
            try:
                return self._rebuild(ctx, progress)
            except ProviderSwitched as exc:  # fallback took over mid-rebuild: once more
                log.info("full rebuild: %s", exc)
                return self._rebuild(ctx, progress)
        if stored is None:
            store.set_meta_json("fingerprint", fp)
        try:
            return self._sync_into(store, ctx, progress)
        except RebuildNeeded as exc:
            log.info("full rebuild: %s", exc)
            return self._rebuild(ctx, progress)

    def _rebuild(self, ctx: SyncContext, progress: ProgressFn | None) -> SyncTally:
        tmp = self.index.rebuild_path()
        new = self.index.open_rebuild(tmp)
        try:
            new.copy_cache_from(self.index.path)
            new.set_meta_json("fingerprint", self.fingerprint(new))
            try:
                tally = self._sync_into(new, ctx, progress)
            except ProviderSwitched:
                raise
            except RebuildNeeded as exc:  # dimension changed mid-build: report, keep the old index
                raise RuntimeError(str(exc)) from None
            if not tally.ok:
                raise RuntimeError("; ".join(tally.errors[-3:]) or "rebuild failed")
            new.close()
            self.index.swap_in(tmp)
            tally.full_rebuild = True
            return tally
        except BaseException:
            new.close()
            discard(tmp)
            raise

    def _sync_into(self, store: Store, ctx: SyncContext, progress: ProgressFn | None) -> SyncTally:
        tally = SyncTally()
        docs, ok_sources = self._collect(ctx, tally.errors)
        existing = store.files()
        todo = [d for d in docs if not unchanged(existing.get(d.path), d)]
        tally.files_unchanged += len(docs) - len(todo)
        self._prune(store, existing, {d.path for d in docs}, ok_sources, tally)
        self._index_docs(store, todo, existing, tally, progress)
        tally.files, tally.chunks = store.counts()
        tally.ok = not tally.provider_failed
        if self.provider is not None and self.ms.cache.enabled:
            tally.embed.cache_pruned = store.cache_prune(self.ms.cache.max_entries)
        return tally

    def _prune(self, store: Store, existing: dict[str, FileRow], seen: set[str], ok_sources: set[str],
               tally: SyncTally) -> None:
        """Drop files gone from their source, or from a source this agent does not have at all."""
        known = set(self.active_sources()) | {str(getattr(p, "source", "")) for p in self.extra_sources}
        with store.lock, store.conn:
            for p, row in existing.items():
                if p not in seen and (row.source in ok_sources or row.source not in known):
                    store.delete_file(p)
                    tally.files_removed += 1
            for p in store.orphan_paths():
                store.delete_file(p)
                tally.files_removed += 1

    def _index_docs(self, store: Store, todo: list[SourceDoc], existing: dict[str, FileRow], tally: SyncTally,
                    progress: ProgressFn | None) -> None:
        """Chunk and write ``todo`` in batches: one transaction per batch (a commit per file
        would cost an fsync per file)."""
        tokens, overlap = self.ms.chunking.tokens, self.ms.chunking.overlap
        limit = batch_token_budget(self.provider) * 4 if self.provider is not None else 200_000
        pending: Batch = []
        pending_tokens = 0
        total = len(todo)
        for i, doc in enumerate(todo, start=1):
            if progress is not None:
                progress(i - 1, total, doc.path)
            digest_text = self._read(doc, existing.get(doc.path), store, tally)
            if digest_text is None:
                continue
            digest, text = digest_text
            doc.hash = digest
            chunks = chunk_text(text, tokens=tokens, overlap=overlap)
            pending.append((doc, digest, chunks))
            pending_tokens += sum(c.tokens for c in chunks)
            if pending_tokens >= limit or len(pending) >= FILES_PER_BATCH:
                self._write_batch(store, pending, tally)
                pending, pending_tokens = [], 0
        if pending:
            self._write_batch(store, pending, tally)
        if progress is not None:
            progress(total, total, "")

    @staticmethod
    def _skip(tally: SyncTally, msg: str) -> None:
        tally.errors.append(msg)
        log.warning(msg)
        tally.files_skipped += 1

    def _read(self, doc: SourceDoc, row: FileRow | None, store: Store, tally: SyncTally) -> tuple[str, str] | None:
        """``(sha256, text)`` of a document to (re)index, or None when it is skipped or its
        content is what is indexed already (only the mtime moved)."""
        if doc.abs_path is not None and doc.size > MAX_FILE_BYTES:
            self._skip(tally, f"skipped {doc.path}: {doc.size / 1e6:.1f} MB is over the {MAX_FILE_BYTES // 2**20} MB limit")
            return None
        try:
            text, digest, bad_utf8 = read_doc(doc)
        except (OSError, PathRefused) as exc:
            why = exc.reason if isinstance(exc, PathRefused) else exc.strerror or exc
            self._skip(tally, f"skipped {doc.path}: {why}")
            return None
        if bad_utf8:
            msg = f"{doc.path}: invalid UTF-8 replaced with U+FFFD"
            tally.warnings.append(msg)
            log.warning(msg)
        if row is not None and row.hash == digest and row.source == doc.source:
            store.touch_file(doc.path, doc.mtime, doc.mtime_ns, doc.size)
            tally.files_unchanged += 1
            return None
        return digest, text

    def _write_batch(self, store: Store, batch: Batch, tally: SyncTally) -> None:
        if self.provider is None:
            with store.lock, store.conn:
                _replace_files(store, batch, [None] * len(batch), "", tally)
            return
        if tally.provider_failed:
            return self._write_without_vectors(store, batch, tally)
        try:
            vecs = embed_chunks(self.provider, store, [c for _, _, chunks in batch for c in chunks], tally.embed,
                                use_cache=self.ms.cache.enabled)
        except RebuildNeeded:
            raise
        except Exception as exc:  # provider failure: keep what is indexed, retry next sync
            msg = error_message(exc)
            if getattr(exc, "action", ""):
                msg = f"{msg} ({exc.action})"  # type: ignore[attr-defined]
            tally.errors.append(msg)
            tally.provider_failed = True
            log.warning("embedding failed during sync: %s", msg)
            self._emit(provider_error_event(exc, self.provider.info.id, msg))
            return self._write_without_vectors(store, batch, tally)
        embeddings: list[list[np.ndarray] | None] = []
        pos = 0
        for _, _, chunks in batch:
            embeddings.append(vecs[pos : pos + len(chunks)] if chunks else None)
            pos += len(chunks)
        with store.lock, store.conn:
            _replace_files(store, batch, embeddings, self.provider.info.model, tally)

    @staticmethod
    def _write_without_vectors(store: Store, batch: Batch, tally: SyncTally) -> None:
        """Provider down: index the text anyway so keyword search finds it; the empty file
        hash makes the next sync embed these files."""
        known = store.files()
        todo: Batch = []
        for doc, _digest, chunks in batch:
            row = known.get(doc.path)
            if row is not None and not row.hash and row.mtime_ns == doc.mtime_ns and row.size == doc.size:
                continue  # already indexed without vectors: rewriting would only churn chunk ids
            todo.append((doc, "", chunks))
        with store.lock, store.conn:
            _replace_files(store, todo, [None] * len(todo), "", tally)
        tally.files_indexed -= len(todo)
        tally.files_keyword_only = (tally.files_keyword_only or 0) + len(batch)

    # ------------------------------------------------------------------ sync on search

    def before_search(self) -> Store:
        """The store to search: the first search syncs an empty or unfingerprinted index
        in the foreground; later ones (``sync.onSearch``) check in the background."""
        store = self.index.store()
        if not self.searched_once:
            self.searched_once = True
            files, _ = store.counts()
            if files == 0 or store.get_meta_json("fingerprint") is None:
                if files == 0 and self._index_text_first(store):
                    return self.index.store()
                self.sync(reason="first-search")
                return self.index.store()
        if self.ms.sync.on_search:
            self.maybe_background_sync()
        return store

    def _index_text_first(self, store: Store) -> bool:
        """First search, nothing indexed, an embedding provider: index the text without
        vectors now (no model, no embedding: seconds), answer from keywords, and embed in the
        background (the rows' empty hash and the missing fingerprint make that sync a full
        one, swapped in when done). False when there is no provider (a plain sync is as fast)."""
        if self.provider is None:
            return False
        tally = SyncTally(provider_failed=True)  # write_batch: text only
        docs, _ok = self._collect(SyncContext(store), tally.errors)
        if not docs:
            return False
        self._index_docs(store, docs, store.files(), tally, None)
        self.keyword_first = True
        self._bg_sync = threading.Thread(target=self._embed_after_keywords, name="memory-embed", daemon=True)
        self._bg_sync.start()
        return True

    def _embed_after_keywords(self) -> None:
        try:
            self.sync(reason="first-search")
        except Exception:  # pragma: no cover - sync already reports
            log.exception("background embedding pass failed")
        finally:
            self.keyword_first = False

    def maybe_background_sync(self) -> None:
        if self._bg_sync is not None and self._bg_sync.is_alive():
            return
        if self._sync_lock.locked():
            return
        now = time.monotonic()
        if now - self._bg_checked < BACKGROUND_CHECK_INTERVAL_S:
            return  # searches in a burst share one dirty check
        if self.cooldown.active():
            return  # the provider failed recently: don't hammer it from every search
        self._bg_checked = now
        self._bg_sync = threading.Thread(target=self._background_sync, name="memory-sync", daemon=True)
        self._bg_sync.start()

    def _background_sync(self) -> None:
        try:
            if self.is_dirty():
                self.sync(reason="search")
        except Exception:  # pragma: no cover - sync already reports
            log.exception("background sync failed")

    def wait_background_sync(self, timeout: float | None = None) -> None:
        t = self._bg_sync
        if t is not None:
            t.join(timeout)


def _replace_files(store: Store, batch: Batch, embeddings: list[Any], model: str, tally: SyncTally) -> None:
    writes = [FileWrite(FileRow(doc.path, doc.source, digest, doc.mtime, doc.mtime_ns, doc.size),
                        [(c.start_line, c.end_line, c.hash, c.text, c.context) for c in chunks], embeddings[i])
              for i, (doc, digest, chunks) in enumerate(batch)]
    try:
        store.replace_files(writes, model=model)
    except ValueError as exc:  # vector dimension changed
        raise RebuildNeeded(str(exc)) from None
    tally.files_indexed += len(batch)
    tally.chunks_indexed += sum(len(chunks) for _, _, chunks in batch)


def _root_cause(exc: BaseException) -> BaseException:
    """SQLite rolls a transaction back by itself on a full disk; apsw's own rollback then fails
    with "no transaction is active" and hides the real error. Report the real one."""
    real = (apsw.FullError, apsw.IOError, apsw.ReadOnlyError, apsw.BusyError, OSError)
    cur: BaseException | None = exc
    for _ in range(5):
        if cur is None or isinstance(cur, real) or not isinstance(cur, apsw.Error):
            break
        cur = cur.__context__
    return cur if isinstance(cur, real) else exc
