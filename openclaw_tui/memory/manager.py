"""The builtin memory index: sync, hybrid search, ``memory_get``, status and the watcher.

One SQLite index per agent (``<stateDir>/memory/<agentId>.sqlite``). Sync is hash-based
and incremental; a fingerprint change (provider, model, endpoint, sources, extra paths,
chunking, tokenizer, vector backend, vector window size) triggers a full rebuild into a temp file that is
swapped in with ``os.replace`` — a crash mid-rebuild leaves the old index usable and the
embedding cache survives. ``search`` and ``get`` never raise: failures come back as result
objects.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import apsw
import numpy as np

from openclaw_tui.config import AgentSettings
from openclaw_tui.events import Event, EventSink, IndexSynced, Notice, ProviderError, ProviderRetry, null_sink
from openclaw_tui.memory import pipeline as pl
from openclaw_tui.memory.chunking import Chunk, chunk_text, sub_windows
from openclaw_tui.memory.sources import SourceDoc, SourceProvider, memory_docs, resolve_extra_path
from openclaw_tui.memory.store import FTS_CONTENT, FTS_TOKENIZER, SCHEMA_VERSION, ForeignIndex, Store
from openclaw_tui.workspace.guard import PathRefused, is_memory_rel, normalize_rel, safe_join
from openclaw_tui.memory.reader import read_memory_file
from openclaw_tui.unicode_clean import clean_surrogates
from openclaw_tui.workspace import safe_fs
from openclaw_tui.workspace.privacy import drop_private, hidden_for
from openclaw_tui.workspace.safe_fs import MAX_FILE_BYTES
from openclaw_tui.workspace.session_keys import is_direct_session

log = logging.getLogger("openclaw_tui.memory")

EMBED_BATCH_ITEMS = 128
#: **ours:** each chunk is embedded as several vectors, one per window of whole lines of at
#: most this many tokens (capped by the provider's input limit); a chunk's vector score is
#: its best window's cosine. A ~400-token chunk averaged into one vector is a topic centroid,
#: while questions target single lines (LoCoMo, MiniLM: see docs/embeddings.md)
VECTOR_WINDOW_TOKENS = 48
#: at most one background "is the index dirty?" check per this many seconds of searching
BACKGROUND_CHECK_INTERVAL_S = 1.0

ProgressFn = Callable[[int, int, str], None]


class IndexUnavailable(Exception):
    """The index file cannot be opened or created (missing/read-only state dir, bad store.path)."""


class _RebuildNeeded(Exception):
    pass


class _ProviderSwitched(_RebuildNeeded):
    """The embedding provider switched to its fallback mid-sync: rebuild with the fallback."""


def _iso(ts: float | None) -> str | None:
    if not ts:
        return None
    return datetime.fromtimestamp(ts, tz=timezone.utc).isoformat(timespec="seconds")


class MemoryManager:
    """Builtin memory backend for one agent."""

    name = "builtin"

    def __init__(
        self,
        settings: AgentSettings,
        *,
        sink: EventSink | None = None,
        provider: Any = "auto",
    ):
        self.settings = settings
        self.ms = settings.memory_search
        self.sink: EventSink = sink or null_sink
        #: callables returning SourceDocs for extra sources (e.g. session transcripts);
        #: give them a ``source`` attribute naming the source they produce
        self.extra_sources: list[SourceProvider] = []
        #: FTS join mode for natural-language queries: "or" (default), "and" (OpenClaw's: AND of
        #: every token, OR of keywords when that finds nothing) or "and-strict" (no fallback);
        #: OPENCLAW_MEMORY_FTS_MODE overrides it for measurements (bench/locomo_eval.py)
        env_mode = os.environ.get("OPENCLAW_MEMORY_FTS_MODE", "").strip().lower()
        self.fts_mode = env_mode if env_mode in ("or", "and", "and-strict") else "or"
        #: clock used by temporal decay (tests and evaluations pin it; OPENCLAW_MEMORY_NOW=ISO date)
        self.now: Callable[[], datetime] = _clock_from_env()
        self.provider_error: str | None = None
        if provider == "auto":
            try:
                from openclaw_tui.memory.embeddings import resolve_provider  # noqa: PLC0415

                self.provider = resolve_provider(settings)
            except Exception as exc:  # a broken provider config must not break keyword search
                self.provider = None
                self.provider_error = f"embedding provider unavailable: {exc}"
                log.warning("%s; keyword-only search", self.provider_error)
        else:
            self.provider = provider
        if self.provider is not None and hasattr(self.provider, "on_retry"):
            # embedding retries (429/5xx/timeouts) show in the event timeline
            self.provider.on_retry = self._on_embed_retry
        self._store: Store | None = None
        self._store_ino: int | None = None
        self._lock = threading.RLock()
        self._sync_lock = threading.Lock()
        self._bg_sync: threading.Thread | None = None
        self._bg_checked = -1e9
        self._provider_cooldown_until = -1e9
        self._provider_cooldown_s = 0.0
        self._watch_thread: threading.Thread | None = None
        self._interval_thread: threading.Thread | None = None
        self._watch_stop = threading.Event()
        self._searched_once = False
        self.last_sync: dict[str, Any] | None = None
        self.closed = False
        #: True while ``sync(force=True)`` runs (the sessions source backfills then)
        self.forcing = False
        if "sessions" in self.active_sources():
            from openclaw_tui.memory.session_source import attach  # noqa: PLC0415

            attach(self)

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

    def active_sources(self) -> list[str]:
        srcs = [s for s in self.ms.sources if s == "memory" or (s == "sessions" and self.ms.experimental.session_memory)]
        return sorted(set(srcs)) or ["memory"]

    def _provider_info(self) -> tuple[str, str | None, str | None]:
        p = self.provider
        if p is None:
            return "none", None, None
        info = p.info
        return info.id, info.model, info.endpoint_key

    def provider_fallback(self) -> dict | None:
        fb = getattr(self.provider, "fallback", None) if self.provider is not None else None
        return fb if isinstance(fb, dict) else None

    def fingerprint(self, store: Store | None = None) -> dict[str, Any]:
        pid, model, key = self._provider_info()
        store = store or self._store
        return {
            "schema": SCHEMA_VERSION,
            "provider": pid,
            "model": model,
            "endpointKey": key,
            "sources": self.active_sources(),
            "extraPaths": [str(p) for p in self.ms.extra_paths],
            "chunkTokens": self.ms.chunking.tokens,
            "chunkOverlap": self.ms.chunking.overlap,
            "ftsTokenizer": f"{FTS_TOKENIZER}; {FTS_CONTENT}",
            "vectorBackend": store.vector_backend if store is not None else None,
            "vectorWindowTokens": self.vector_window_tokens(),
        }

    def vector_window_tokens(self) -> int | None:
        """Tokens per embedded sub-window of a chunk (None without a provider)."""
        if self.provider is None:
            return None
        limit = getattr(self.provider, "max_input_tokens", None)
        window = VECTOR_WINDOW_TOKENS
        if isinstance(limit, int) and limit > 0:
            window = min(window, max(8, limit - 2))
        return window

    # ------------------------------------------------------------------ store

    def _open_store(self, path: Path) -> Store:
        return Store(
            path,
            vector_enabled=self.ms.store.vector.enabled,
            extension_path=self.ms.store.vector.extension_path,
        )

    def _get_store(self) -> Store:
        if self.closed:
            raise RuntimeError("memory manager is closed")
        with self._lock:
            path = self.index_path
            if self._store is not None:
                # another process may have swapped in a rebuilt index: follow it
                try:
                    ino = os.stat(path).st_ino
                except OSError:
                    ino = None
                if ino == self._store_ino:
                    return self._store
                self._store.close()
                self._store = None
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise IndexUnavailable(f"cannot open the memory index {path}: {exc.strerror or exc}") from None
            self._cleanup_temp_files(path)
            try:
                store = self._open_store(path)
                store.counts()
            except apsw.CantOpenError as exc:
                raise IndexUnavailable(f"cannot open the memory index {path}: {exc}") from None
            except (apsw.CorruptError, apsw.NotADBError) as exc:
                # corrupt or foreign index: keep it aside (never delete), start fresh. A full
                # disk, a read-only state dir or a lock held elsewhere is not corruption: it
                # propagates to sync/search/status, which report it.
                self._set_aside(path, exc)
                store = self._open_store(path)
            self._store = store
            self._store_ino = os.stat(path).st_ino
            return store

    @staticmethod
    def _set_aside(path: Path, exc: BaseException) -> None:
        aside = path.with_name(f"{path.name}.corrupt-{int(time.time() * 1000)}")
        log.warning("index %s is unreadable (%s); moved to %s and rebuilding", path, exc, aside.name)
        try:
            os.replace(path, aside)
        except OSError:
            pass

    def _repair(self, exc: BaseException) -> None:
        """A row that does not decode: set the index aside like a corrupt one; the next
        ``_get_store`` opens a fresh file and the next search or sync rebuilds it."""
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None
            self._set_aside(self.index_path, exc)
            self._searched_once = False

    @staticmethod
    def _cleanup_temp_files(path: Path) -> None:
        prefix = f"{path.name}.rebuild-"
        try:
            for entry in os.scandir(path.parent):
                if entry.name.startswith(prefix):
                    pid_part = entry.name[len(prefix) :].split("-")[0].split(".")[0]
                    if pid_part.isdigit() and int(pid_part) != os.getpid() and _pid_alive(int(pid_part)):
                        continue  # another live process is rebuilding
                    try:
                        os.unlink(entry.path)
                    except OSError:
                        pass
        except OSError:
            pass

    # ------------------------------------------------------------------ documents

    def _collect_docs(self, errors: list[str]) -> tuple[list[SourceDoc], set[str]]:
        """All documents plus the set of sources whose listing succeeded (safe to prune)."""
        docs: list[SourceDoc] = []
        ok: set[str] = set()
        if "memory" in self.active_sources():
            if self.workspace.is_dir():
                docs.extend(memory_docs(self.workspace, self.ms.extra_paths, errors))
                ok.add("memory")
            else:
                errors.append(f"workspace {self.workspace} does not exist")
        failed = False
        for provider in list(self.extra_sources):
            try:
                got = list(provider())
            except Exception as exc:
                failed = True
                errors.append(f"source {getattr(provider, 'source', provider)!s} failed: {exc}")
                log.warning("memory source %s failed: %s", getattr(provider, "source", provider), exc)
                continue
            docs.extend(got)
            name = getattr(provider, "source", None)
            if name:
                ok.add(str(name))
            ok.update(d.source for d in got)
        if failed:
            ok = {s for s in ok if s == "memory"}
        seen: set[str] = set()
        uniq = []
        for d in docs:
            if d.path not in seen:
                seen.add(d.path)
                uniq.append(d)
        return uniq, ok

    @staticmethod
    def _read_doc(doc: SourceDoc) -> tuple[str, str, bool]:
        """(text, sha256 of the raw content, had invalid UTF-8). Raises OSError or PathRefused."""
        import hashlib  # noqa: PLC0415

        if doc.text is not None:
            raw = doc.text.encode("utf-8", "surrogatepass")
            return doc.text, doc.hash or hashlib.sha256(raw).hexdigest(), False
        assert doc.abs_path is not None
        # opened beneath the source root without following any link; a hard link (which may
        # point outside) or a file swapped in after the listing is refused (PathRefused)
        root = doc.root if doc.root is not None else doc.abs_path.parent
        rel = doc.abs_path.relative_to(root).as_posix()
        fd, st = safe_fs.open_file(root, rel)
        try:
            raw = safe_fs.read_bytes(fd, st, doc.path)
        finally:
            os.close(fd)
        digest = hashlib.sha256(raw).hexdigest()
        try:
            return raw.decode("utf-8"), digest, False
        except UnicodeDecodeError:
            return raw.decode("utf-8", errors="replace"), digest, True

    # ------------------------------------------------------------------ sync

    def is_dirty(self) -> bool:
        try:
            store = self._get_store()
            if store.get_meta_json("fingerprint") != self.fingerprint(store):
                return True
            errors: list[str] = []
            docs, ok = self._collect_docs(errors)
            existing = store.files()
            seen = set()
            for d in docs:
                seen.add(d.path)
                row = existing.get(d.path)
                if row is None or not row.hash or row.mtime_ns != d.mtime_ns or row.size != d.size or (d.hash and d.hash != row.hash):
                    return True
            return any(p not in seen and r.source in ok for p, r in existing.items())
        except Exception as exc:
            log.warning("cannot check index state: %s", exc)
            return True

    def sync(self, *, force: bool = False, reason: str = "", progress: ProgressFn | None = None) -> dict:
        """Bring the index up to date. Returns counts; never raises for bad files or providers."""
        t0 = time.perf_counter()
        with self._sync_lock:
            self.forcing = force
            try:
                try:
                    report = self._sync_locked(force, progress)
                except ForeignIndex as exc:  # a row that does not decode: set aside, rebuild
                    self._repair(exc)
                    report = self._sync_locked(True, progress)
            except Exception as exc:  # noqa: BLE001 - reported, never raised
                exc = _root_cause(exc)
                log.warning("memory sync failed: %s", exc)
                report = _empty_report()
                report["errors"].append(f"sync failed: {exc}")
                report["ok"] = False
                report["aborted"] = True  # nothing was written: the index is the one from before
            self.forcing = False
            self._note_provider_health(report)
            report["reason"] = reason
            report["durationMs"] = round((time.perf_counter() - t0) * 1000, 1)
            self.last_sync = dict(report, at=time.time())
        self._emit(
            IndexSynced(
                agent_id=self.settings.agent_id,
                files_indexed=report["filesIndexed"],
                files_removed=report["filesRemoved"],
                chunks=report["chunks"],
                full_rebuild=report["fullRebuild"],
                duration_ms=report["durationMs"],
                reason=reason,
            )
        )
        return report

    def _sync_locked(self, force: bool, progress: ProgressFn | None) -> dict:
        """One sync under ``_sync_lock``: a full rebuild when forced or the fingerprint changed."""
        store = self._get_store()
        fp = self.fingerprint(store)
        stored = store.get_meta_json("fingerprint")
        files_now, _ = store.counts()
        full = force or (stored is not None and stored != fp) or (stored is None and files_now > 0)
        if full:
            try:
                report = self._rebuild(fp, progress)
            except _ProviderSwitched as exc:  # fallback took over mid-rebuild: once more
                log.info("full rebuild: %s", exc)
                report = self._rebuild(self.fingerprint(store), progress)
        else:
            if stored is None:
                store.set_meta_json("fingerprint", fp)
            try:
                report = self._sync_into(store, progress)
            except _RebuildNeeded as exc:
                log.info("full rebuild: %s", exc)
                report = self._rebuild(fp, progress)
        return report

    def _rebuild(self, fp: dict, progress: ProgressFn | None) -> dict:
        path = self.index_path
        tmp = path.with_name(f"{path.name}.rebuild-{os.getpid()}-{int(time.time() * 1000)}")
        new = self._open_store(tmp)
        try:
            new.copy_cache_from(path)
            new.set_meta_json("fingerprint", self.fingerprint(new))
            try:
                report = self._sync_into(new, progress)
            except _ProviderSwitched:
                raise
            except _RebuildNeeded as exc:  # dimension changed mid-build: report, keep the old index
                raise RuntimeError(str(exc)) from None
            if not report["ok"]:
                raise RuntimeError("; ".join(report["errors"][-3:]) or "rebuild failed")
            new.close()
            with self._lock:
                if self._store is not None:
                    self._store.close()
                    self._store = None
                os.replace(tmp, path)
                for suffix in ("-journal", "-wal", "-shm"):
                    try:
                        os.unlink(str(path) + suffix)
                    except OSError:
                        pass
            self._get_store()
            report["fullRebuild"] = True
            return report
        except BaseException:
            new.close()
            for suffix in ("", "-journal"):
                try:
                    os.unlink(str(tmp) + suffix)
                except OSError:
                    pass
            raise

    def _sync_into(self, store: Store, progress: ProgressFn | None) -> dict:
        report = _empty_report()
        errors: list[str] = report["errors"]
        docs, ok_sources = self._collect_docs(errors)
        existing = store.files()
        seen: set[str] = set()
        todo: list[SourceDoc] = []
        for d in docs:
            seen.add(d.path)
            row = existing.get(d.path)
            if (
                row is not None
                and row.hash  # "" = indexed without vectors while the provider was down
                and row.source == d.source
                and row.mtime_ns == d.mtime_ns
                and row.size == d.size
                and (d.hash is None or d.hash == row.hash)
            ):
                report["filesUnchanged"] += 1
                continue
            todo.append(d)
        known = set(self.active_sources()) | {str(getattr(p, "source", "")) for p in self.extra_sources}
        with store.lock, store.conn:
            for p, row in existing.items():
                # gone from its source, or from a source this agent does not have at all
                if p not in seen and (row.source in ok_sources or row.source not in known):
                    store.delete_file(p)
                    report["filesRemoved"] += 1
            for p in store.orphan_paths():
                store.delete_file(p)
                report["filesRemoved"] += 1

        tokens, overlap = self.ms.chunking.tokens, self.ms.chunking.overlap
        pending: list[tuple[SourceDoc, str, list[Chunk]]] = []
        pending_tokens = 0
        budget = max(512, int(getattr(self.provider, "max_batch_tokens", 8000) or 8000))
        total = len(todo)

        def flush() -> None:
            nonlocal pending, pending_tokens
            if not pending:
                return
            batch, pending, pending_tokens = pending, [], 0
            self._write_batch(store, batch, report)

        for i, doc in enumerate(todo, start=1):
            if progress is not None:
                progress(i - 1, total, doc.path)
            if doc.abs_path is not None and doc.size > MAX_FILE_BYTES:
                msg = f"skipped {doc.path}: {doc.size / 1e6:.1f} MB is over the {MAX_FILE_BYTES // 2**20} MB limit"
                errors.append(msg)
                log.warning(msg)
                report["filesSkipped"] += 1
                continue
            try:
                text, digest, bad_utf8 = self._read_doc(doc)
            except (OSError, PathRefused) as exc:
                why = exc.reason if isinstance(exc, PathRefused) else exc.strerror or exc
                msg = f"skipped {doc.path}: {why}"
                errors.append(msg)
                log.warning(msg)
                report["filesSkipped"] += 1
                continue
            if bad_utf8:
                msg = f"{doc.path}: invalid UTF-8 replaced with U+FFFD"
                report["warnings"].append(msg)
                log.warning(msg)
            row = existing.get(doc.path)
            if row is not None and row.hash == digest and row.source == doc.source:
                store.touch_file(doc.path, doc.mtime, doc.mtime_ns, doc.size)
                report["filesUnchanged"] += 1
                continue
            doc.hash = digest
            chunks = chunk_text(text, tokens=tokens, overlap=overlap)
            pending.append((doc, digest, chunks))
            pending_tokens += sum(c.tokens for c in chunks)
            # one transaction per batch: a commit per file would cost an fsync per file
            if pending_tokens >= (budget * 4 if self.provider is not None else 200_000) or len(pending) >= 64:
                flush()
        flush()
        if progress is not None:
            progress(total, total, "")
        report["files"], report["chunks"] = store.counts()
        report["ok"] = not report.get("providerFailed")
        if self.provider is not None and self.ms.cache.enabled:
            report["cachePruned"] = store.cache_prune(self.ms.cache.max_entries)
        return report

    def _write_batch(self, store: Store, batch: list[tuple[SourceDoc, str, list[Chunk]]], report: dict) -> None:
        embeddings: list[np.ndarray | None] = [None] * len(batch)
        model = ""
        if self.provider is not None and report.get("providerFailed"):
            return self._write_without_vectors(store, batch, report)
        if self.provider is not None:
            model = self.provider.info.model
            try:
                flat = [c for _, _, chunks in batch for c in chunks]
                vecs = self._embed_chunks(store, flat, report)
            except _RebuildNeeded:
                raise
            except Exception as exc:  # provider failure: keep what is indexed, retry next sync
                msg = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
                if getattr(exc, "action", ""):
                    msg = f"{msg} ({exc.action})"
                report["errors"].append(msg)
                report["providerFailed"] = True
                log.warning("embedding failed during sync: %s", msg)
                self._emit(
                    ProviderError(
                        provider=getattr(exc, "provider", self.provider.info.id),
                        message=msg,
                        action=getattr(exc, "action", "") or "",
                        status=getattr(exc, "status", None),
                        retryable=bool(getattr(exc, "retryable", False)),
                    )
                )
                return self._write_without_vectors(store, batch, report)
            pos = 0
            for i, (_, _, chunks) in enumerate(batch):
                n = len(chunks)
                embeddings[i] = vecs[pos : pos + n] if n else None
                pos += n
        with store.lock, store.conn:
            self._replace_files(store, batch, embeddings, model, report)

    def _write_without_vectors(self, store: Store, batch: list, report: dict) -> None:
        """Provider down: index the text anyway so keyword search finds it; the empty file
        hash makes the next sync embed these files."""
        known = store.files()
        todo = []
        for doc, _digest, chunks in batch:
            row = known.get(doc.path)
            if row is not None and not row.hash and row.mtime_ns == doc.mtime_ns and row.size == doc.size:
                continue  # already indexed without vectors: rewriting would only churn chunk ids
            todo.append((doc, "", chunks))
        with store.lock, store.conn:
            self._replace_files(store, todo, [None] * len(todo), "", report)
        report["filesIndexed"] -= len(todo)
        report["filesKeywordOnly"] = report.get("filesKeywordOnly", 0) + len(batch)

    @staticmethod
    def _replace_files(store: Store, batch: list, embeddings: list, model: str, report: dict) -> None:
        for i, (doc, digest, chunks) in enumerate(batch):
            try:
                store.replace_file(
                    doc.path,
                    doc.source,
                    digest,
                    doc.mtime,
                    doc.mtime_ns,
                    doc.size,
                    [(c.start_line, c.end_line, c.hash, c.text, c.context) for c in chunks],
                    embeddings[i],
                    model=model,
                )
            except ValueError as exc:  # vector dimension changed
                raise _RebuildNeeded(str(exc)) from None
            report["filesIndexed"] += 1
            report["chunksIndexed"] += len(chunks)

    def _embed_chunks(self, store: Store, chunks: list[Chunk], report: dict) -> list[np.ndarray]:
        """Per chunk, the 2-D array of its sub-window vectors (``vector_window_tokens``).

        Vectors are cached per window text hash. ``cacheHits`` counts chunks served wholly
        from the cache, ``cacheMisses``/``chunksEmbedded`` chunks that needed at least one
        new vector, ``vectorsEmbedded`` the window texts sent to the provider."""
        if not chunks:
            return []
        provider = self.provider
        pid, model, key = provider.info.id, provider.info.model, provider.info.endpoint_key
        window = self.vector_window_tokens() or VECTOR_WINDOW_TOKENS
        wins = [sub_windows(c.text, window) for c in chunks]
        use_cache = self.ms.cache.enabled
        all_hashes = [w.hash for ws in wins for w in ws]
        cached = store.cache_get(pid, model, key, all_hashes) if use_cache else {}
        missing: dict[str, str] = {}
        tok: dict[str, int] = {}
        for ws in wins:
            if all(w.hash in cached for w in ws):
                report["cacheHits"] += 1
                continue
            report["cacheMisses"] += 1
            for w in ws:
                if w.hash not in cached:
                    missing.setdefault(w.hash, w.text)
                    tok[w.hash] = w.tokens
        fresh: dict[str, np.ndarray] = {}
        if missing:
            budget = max(512, int(getattr(provider, "max_batch_tokens", 8000) or 8000))
            batch: list[str] = []
            used = 0
            groups: list[list[str]] = []
            for h in missing:
                t = tok.get(h, 1)
                if batch and (used + t > budget or len(batch) >= EMBED_BATCH_ITEMS):
                    groups.append(batch)
                    batch, used = [], 0
                batch.append(h)
                used += t
            if batch:
                groups.append(batch)
            for group in groups:
                vecs = provider.embed_documents([missing[h] for h in group])
                vecs = np.asarray(vecs, dtype=np.float32)
                if vecs.ndim != 2 or vecs.shape[0] != len(group):
                    raise RuntimeError(f"provider returned {vecs.shape[0] if vecs.ndim else 0} vectors for {len(group)} texts")
                now = provider.info
                if (now.id, now.model, now.endpoint_key) != (pid, model, key):
                    # a fallback took over inside this call: these vectors are the fallback's.
                    # Cache each set under its own provider key, then rebuild with the fallback.
                    if use_cache:
                        store.cache_put(pid, model, key, fresh)
                        store.cache_put(now.id, now.model, now.endpoint_key, dict(zip(group, vecs)))
                    raise _ProviderSwitched(f"embedding provider switched from {pid} to {now.id}")
                for h, v in zip(group, vecs):
                    fresh[h] = v
                report["vectorsEmbedded"] = report.get("vectorsEmbedded", 0) + len(group)
            report["chunksEmbedded"] += sum(1 for ws in wins if any(w.hash in fresh for w in ws))
            if use_cache:
                store.cache_put(pid, model, key, fresh)
        allv = {**cached, **fresh}
        return [np.vstack([allv[w.hash] for w in ws]).astype(np.float32) for ws in wins]

    def _vectors_comparable(self, store: Store, qv: np.ndarray) -> bool:
        """True when the index's vectors were made by the current provider and model."""
        if store.vec_dims() != int(qv.shape[-1]):
            return False
        stored = store.get_meta_json("fingerprint") or {}
        pid, model, key = self._provider_info()
        return stored.get("provider") == pid and stored.get("model") == model and stored.get("endpointKey") == key

    def _note_provider_health(self, report: dict) -> None:
        """After a provider failure, automatic (search/interval) syncs wait 30 s, doubling up
        to 10 min; a success or an explicit sync clears it."""
        if report.get("providerFailed"):
            self._provider_cooldown_s = min(600.0, max(30.0, self._provider_cooldown_s * 2))
            self._provider_cooldown_until = time.monotonic() + self._provider_cooldown_s
        elif report.get("ok", True):
            self._provider_cooldown_s = 0.0
            self._provider_cooldown_until = -1e9

    def _maybe_background_sync(self) -> None:
        if self._bg_sync is not None and self._bg_sync.is_alive():
            return
        if self._sync_lock.locked():
            return
        now = time.monotonic()
        if now - self._bg_checked < BACKGROUND_CHECK_INTERVAL_S:
            return  # searches in a burst share one dirty check
        if now < self._provider_cooldown_until:
            return  # the provider failed recently: don't hammer it from every search
        self._bg_checked = now

        def run() -> None:
            try:
                if self.is_dirty():
                    self.sync(reason="search")
            except Exception:  # pragma: no cover - sync already reports
                log.exception("background sync failed")

        self._bg_sync = threading.Thread(target=run, name="memory-sync", daemon=True)
        self._bg_sync.start()

    def wait_background_sync(self, timeout: float | None = None) -> None:
        t = self._bg_sync
        if t is not None:
            t.join(timeout)

    # ------------------------------------------------------------------ search

    def _disabled(self, error: str, *, warning: str = "", action: str = "", started: float | None = None) -> dict:
        pid, model, _ = self._provider_info()
        out = {
            "results": [],
            "disabled": True,
            "error": error,
            "warning": warning or "memory search is unavailable right now",
            "action": action or "retry later, or set memorySearch.provider to \"none\" for keyword-only search",
            "provider": pid,
            "model": model,
            "fallback": self.provider_fallback(),
            "backend": self.name,
        }
        if started is not None:
            out["searchMs"] = round((time.perf_counter() - started) * 1000, 1)
        return out

    def search(
        self,
        query: str,
        *,
        max_results: int | None = None,
        min_score: float | None = None,
        session_key: str | None = None,
    ) -> dict:
        t0 = time.perf_counter()
        try:
            try:
                return self._search(query, max_results, min_score, session_key, t0)
            except ForeignIndex as exc:  # a row that does not decode: rebuild, then answer
                self._repair(exc)
                return self._search(query, max_results, min_score, session_key, t0)
            except apsw.Error:
                if self.closed:
                    raise
                # a concurrent rebuild may have swapped the index under this search: retry once
                return self._search(query, max_results, min_score, session_key, t0)
        except Exception as exc:  # noqa: BLE001 - the session must never see an exception
            log.debug("memory search failed: %s", exc, exc_info=True)
            if isinstance(exc, IndexUnavailable):
                return self._disabled(str(exc), action="fix memorySearch.store.path or the state dir permissions", started=t0)
            return self._disabled(
                f"memory search failed: {type(exc).__name__}: {exc}",
                action="run `openclaw-tui memory status` for details; `memory index --force` rebuilds the index",
                started=t0,
            )

    def _search(self, query: Any, max_results: int | None, min_score: float | None, session_key: str | None, t0: float) -> dict:
        if not self.ms.enabled:
            return self._disabled("memory search is disabled (memorySearch.enabled = false)", action="set memorySearch.enabled to true", started=t0)
        q = clean_surrogates(query).strip() if isinstance(query, str) else ""
        qc = self.ms.query
        max_r = int(max_results) if max_results else qc.max_results
        max_r = max(1, min(max_r, 100))
        floor = qc.min_score if min_score is None else float(min_score)
        store = self._get_store()
        if not self._searched_once:
            self._searched_once = True
            files, _ = store.counts()
            if files == 0 or store.get_meta_json("fingerprint") is None:
                self.sync(reason="first-search")
                store = self._get_store()
            elif self.ms.sync.on_search:
                self._maybe_background_sync()
        elif self.ms.sync.on_search:
            self._maybe_background_sync()

        pid, model, _ = self._provider_info()
        base = {"provider": pid, "model": model, "fallback": self.provider_fallback(), "backend": self.name}
        if not q:
            return {"results": [], **base, "mode": "none", "searchMs": round((time.perf_counter() - t0) * 1000, 1)}

        hq = qc.hybrid
        n_cand = max_r * hq.candidate_multiplier
        terms = pl.query_terms(q)
        dates = pl.query_dates(q)

        use_text = store.fts_available and (self.provider is None or hq.enabled)
        text_hits: dict[int, float] = {}
        if use_text:
            text_hits = self._text_hits(store, q, terms, "and" if self.fts_mode == "and-strict" else self.fts_mode, n_cand)
            if not text_hits and self.fts_mode == "and":
                text_hits = self._text_hits(store, q, terms, "or", n_cand)

        vec_hits: dict[int, float] = {}
        qvec: np.ndarray | None = None
        mode = "keyword"
        if self.provider is not None:
            try:
                qv = np.asarray(self.provider.embed_query(q), dtype=np.float32)
            except Exception as exc:  # provider failure → disabled result (DESIGN §4)
                msg = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
                down = bool(getattr(exc, "retryable", False)) and bool(text_hits)
                self._emit(
                    ProviderError(
                        provider=getattr(exc, "provider", pid),
                        message=msg,
                        action=getattr(exc, "action", "") or "",
                        status=getattr(exc, "status", None),
                        retryable=bool(getattr(exc, "retryable", False)),
                    )
                )
                if not down:
                    return self._disabled(
                        msg,
                        warning="memory search unavailable: the embedding provider failed",
                        action=getattr(exc, "action", "") or "check the embedding provider, or set memorySearch.provider to \"none\" for keyword-only search",
                        started=t0,
                    )
                # provider down (429/5xx/timeout) and keyword hits exist: answer keyword-only, say why
                base["warning"] = f"embedding provider unavailable ({msg}); keyword-only results"
                qv = np.zeros(0, dtype=np.float32)
            if qv.size and float(np.linalg.norm(qv)) > 0 and store.vec_dims() is not None:
                if self._vectors_comparable(store, qv):
                    qvec = qv
                    for cid, sim in store.vector_search(qv, n_cand):
                        vec_hits[cid] = sim
                    mode = "hybrid" if use_text else "vector"
                else:
                    # the stored vectors come from another provider/model (e.g. a fallback took
                    # over): answer keyword-only now and rebuild in the background
                    self._maybe_background_sync()
                    if not use_text and store.fts_available:
                        text_hits = self._text_hits(store, q, terms, "or", n_cand)

        rows = store.chunk_rows(set(text_hits) | set(vec_hits))
        mtimes = store.file_mtimes(r.path for r in rows.values()) if hq.temporal_decay.enabled else {}

        def cand(cid: int) -> pl.Candidate:
            r = rows[cid]
            return pl.Candidate(cid, r.path, r.source, r.start_line, r.end_line, r.text, mtime=mtimes.get(r.path))

        vw, tw = pl.normalized_weights(hq.vector_weight, hq.text_weight)
        if mode == "keyword":
            cands = []
            for cid, t in text_hits.items():
                if cid not in rows:
                    continue
                c = cand(cid)
                c.text_score = t
                c.score = pl.keyword_only_score(
                    t, pl.coverage(terms, c.text), pl.path_match(terms, c.path), pl.date_path_match(dates, c.path)
                )
                cands.append(c)
            tw_floor = tw  # relaxed floor min(minScore, textWeight), as in hybrid mode
        else:
            vcs, tcs = [], []
            for cid, v in vec_hits.items():
                if cid in rows:
                    c = cand(cid)
                    c.vector_score = v
                    vcs.append(c)
            for cid, t in text_hits.items():
                if cid in rows:
                    c = cand(cid)
                    c.text_score = t
                    tcs.append(c)
            if mode == "vector":
                cands = pl.merge_hybrid(vcs, tcs, 1.0, 0.0)
                tw = 0.0
            else:
                # ours: keyword-only's score (coverage/path/date boosts) plus semantic evidence;
                # keyword hits the KNN did not reach get their exact best-window cosine
                if qvec is not None:
                    extra = [cid for cid in text_hits if cid not in vec_hits and cid in rows]
                    vec_hits.update(store.vector_scores(qvec, extra))
                cands = []
                for cid in set(vec_hits) | set(text_hits):
                    if cid not in rows:
                        continue
                    c = cand(cid)
                    c.vector_score = vec_hits.get(cid)
                    c.text_score = text_hits.get(cid)
                    kw = None
                    if c.text_score is not None:
                        kw = pl.keyword_only_score(
                            c.text_score, pl.coverage(terms, c.text), pl.path_match(terms, c.path),
                            pl.date_path_match(dates, c.path),
                        )
                    c.score = pl.hybrid_keyword_score(kw, c.vector_score, vw)
                    cands.append(c)
            tw_floor = tw

        key = session_key if session_key is not None else self.settings.session_key
        if hidden_for(key):  # MEMORY.md by file identity, under any key (extraPaths, "..")
            cands = drop_private(cands, self.workspace)
        if hq.temporal_decay.enabled:
            pl.apply_decay(cands, hq.temporal_decay.half_life_days, self.now())
        cands = pl.sort_candidates(cands)
        if hq.mmr.enabled:
            cands = pl.mmr_order(cands, hq.mmr.lambda_)
        ranked, relaxed = pl.apply_min_score(cands, floor, tw_floor, len(cands))
        if mode == "hybrid":
            ranked = pl.keep_each_best(ranked, max_r)
        picked = pl.merge_adjacent(ranked, max_r)

        cite = pl.citations_enabled(self.settings.config.memory.citations, is_direct_session(key))
        results = []
        for c in picked:
            snippet = pl.make_snippet(c.text)
            item: dict[str, Any] = {
                "path": c.path,
                "startLine": c.start_line,
                "endLine": c.end_line,
                "score": round(float(c.score), 4),
                "snippet": snippet,
                "source": c.source,
            }
            if cite:
                citation = pl.citation_for(c.path, c.start_line, c.end_line)
                item["citation"] = citation
                item["snippet"] = f"{snippet}\n\nSource: {citation}"
            results.append(item)
        out = {"results": results, **base, "mode": mode, "searchMs": round((time.perf_counter() - t0) * 1000, 1)}
        if relaxed:
            out["relaxedMinScore"] = True
        return out

    @staticmethod
    def _text_hits(store: Store, q: str, terms: list[str], mode: str, limit: int) -> dict[int, float]:
        """``{chunk id: BM25 score}`` of the ``limit`` best FTS hits of ``q`` in ``mode``.

        In OR mode the terms found in more than half the chunks are left out first: BM25
        weighs them ~0, yet FTS5 would score every chunk holding one (most of the cost at
        100k chunks). When the rarer terms alone find ``limit`` chunks, those are the full
        query's best ``limit`` too; when they find fewer, the full query runs."""
        skip = store.common_terms(terms) if mode == "or" else set()
        hits: list[tuple[int, float]] = []
        if skip and not set(terms) <= skip:
            hits = store.fts_search(pl.build_fts_query(q, mode, skip), limit)
        if len(hits) < limit:
            hits = store.fts_search(pl.build_fts_query(q, mode), limit)
        return {cid: pl.bm25_rank_to_score(rank) for cid, rank in hits}

    # ------------------------------------------------------------------ get

    def _extra_roots(self) -> list[tuple[Path, str | None]]:
        return [resolve_extra_path(self.workspace, str(p)) for p in self.ms.extra_paths if str(p).strip()]

    def _resolve_get_path(self, raw: Any) -> tuple[Path, str]:
        """Map a memory_get path to ``(root, rel)`` of a checked file, or raise PathRefused."""
        if isinstance(raw, str) and raw.startswith("/"):
            # absolute keys are only valid for extraPaths outside the workspace
            if "\x00" in raw or any(ord(ch) < 32 for ch in raw):
                raise PathRefused(raw, "path contains control or NUL characters")
            for root, prefix in self._extra_roots():
                if prefix is not None:
                    continue
                if raw == root.as_posix() and raw.lower().endswith(".md"):
                    rel = normalize_rel(root.name)
                    safe_join(root.parent, rel, allow_missing=True)
                    return root.parent, rel
                if raw.startswith(root.as_posix().rstrip("/") + "/"):
                    rel = normalize_rel(raw[len(root.as_posix().rstrip("/")) + 1 :])
                    if not rel.lower().endswith(".md"):
                        raise PathRefused(raw, "only .md files can be read")
                    safe_join(root, rel, allow_missing=True)
                    return root, rel
            raise PathRefused(raw, "absolute paths are refused unless they lie under memorySearch.extraPaths")
        rel = normalize_rel(raw)
        if rel.startswith("qmd/"):
            raise PathRefused(rel, "qmd/ paths are served by the QMD backend, which is not active")
        if not rel.lower().endswith(".md"):
            raise PathRefused(rel, "only .md files can be read")
        allowed = is_memory_rel(rel) or any(
            prefix is not None and (prefix == "" or rel == prefix or rel.startswith(prefix + "/"))
            for _, prefix in self._extra_roots()
        )
        if not allowed:
            raise PathRefused(rel, "only MEMORY.md, memory/**/*.md and memorySearch.extraPaths can be read")
        safe_join(self.workspace, rel, allow_missing=True)
        return self.workspace, rel

    def get(self, path: str, from_line: int | None = None, lines: int | None = None,
            *, session_key: str | None = None) -> dict:
        shown = path if isinstance(path, str) else str(path)
        try:
            if from_line is not None and (isinstance(from_line, bool) or not isinstance(from_line, int) or from_line < 1):
                return {"path": shown, "text": "", "error": "from must be an integer >= 1"}
            if lines is not None and (isinstance(lines, bool) or not isinstance(lines, int) or lines < 1):
                return {"path": shown, "text": "", "error": "lines must be an integer >= 1"}
            if not self.workspace.is_dir():
                return {"path": shown, "text": "", "disabled": True, "error": f"workspace {self.workspace} does not exist"}
            try:
                root, rel = self._resolve_get_path(path)
            except PathRefused as exc:
                return {"path": shown, "text": "", "disabled": True, "error": f"refused: {exc.reason}"}
            key = session_key if session_key is not None else self.settings.session_key
            return read_memory_file(self.workspace, root, rel, shown, from_line, lines, session_key=key)
        except Exception as exc:  # noqa: BLE001
            return {"path": shown, "text": "", "error": f"cannot read {shown}: {type(exc).__name__}: {exc}"}

    # ------------------------------------------------------------------ status

    def _local_model_problem(self) -> str | None:
        """Why the configured local model cannot run (missing file or library), else None.
        Building the provider loads nothing (models load on the first text), so this is cheap."""
        from openclaw_tui.memory.embeddings import make_provider  # noqa: PLC0415
        from openclaw_tui.memory.embeddings.base import EmbeddingError  # noqa: PLC0415

        try:
            make_provider(self.settings, "local")
        except EmbeddingError as exc:
            return f"{exc.message} ({exc.action})" if exc.action else exc.message
        return None

    def status(self) -> dict:
        pid, model, _ = self._provider_info()
        out: dict[str, Any] = {
            "backend": self.name,
            "agentId": self.settings.agent_id,
            "workspace": str(self.workspace),
            "workspaceExists": self.workspace.is_dir(),
            "indexPath": str(self.index_path),
            "provider": pid,
            "model": model,
            "fallback": self.provider_fallback(),
            "sources": self.active_sources(),
            "extraPaths": list(self.ms.extra_paths),
            "searchMode": "hybrid" if self.provider is not None else "keyword-only",
        }
        try:  # why this provider (or keyword-only) was chosen; never holds a key
            from openclaw_tui.memory.embeddings import describe_resolution  # noqa: PLC0415

            res = describe_resolution(self.settings)
            out["providerReason"] = res.get("reason")
            if res.get("keySource"):
                out["keySource"] = res["keySource"]
        except Exception:  # noqa: BLE001
            pass
        local_problem = self._local_model_problem() if pid == "local" else None
        if self.provider_error:
            out["providerError"] = self.provider_error
        elif local_problem:
            # known before any text is embedded: a missing model or library (status runs in a
            # fresh process, where no sync has failed yet)
            out["searchMode"] = "unavailable (see providerError)"
            out["providerError"] = local_problem
        elif self.provider is not None and self.last_sync and self.last_sync.get("providerFailed"):
            errs = self.last_sync.get("errors") or ["unknown error"]
            out["searchMode"] = "keyword-only"
            out["providerError"] = f"the embedding provider failed during the last sync: {errs[-1]}"
        try:
            store = self._get_store()
            files, chunks = store.counts()
            out.update(
                {
                    "files": files,
                    "chunks": chunks,
                    "vectorBackend": store.vector_backend,
                    "vectorDims": store.vec_dims(),
                    "ftsAvailable": store.fts_available,
                    "ftsTokenizer": FTS_TOKENIZER,
                    "dirty": self.is_dirty(),
                    "cacheEntries": store.cache_count(),
                    "cacheMaxEntries": self.ms.cache.max_entries,
                }
            )
            if store.vec_error:
                out["vectorError"] = store.vec_error
            if store.fts_error:
                out["ftsError"] = store.fts_error
        except Exception as exc:  # noqa: BLE001
            out.update({"files": 0, "chunks": 0, "dirty": True, "error": f"index unavailable: {exc}"})
        if self.last_sync:
            out["lastSync"] = {
                "at": _iso(self.last_sync.get("at")),
                "reason": self.last_sync.get("reason"),
                "filesIndexed": self.last_sync.get("filesIndexed"),
                "errors": self.last_sync.get("errors", [])[:5],
            }
        return out

    # ------------------------------------------------------------------ watcher

    def _watch_roots(self) -> list[Path]:
        roots = []
        if self.workspace.is_dir():
            roots.append(self.workspace)
        for root, prefix in self._extra_roots():
            if prefix is None and root.exists():
                roots.append(root if root.is_dir() else root.parent)
        return roots

    def _relevant_change(self, path: str) -> bool:
        p = Path(path)
        if not p.name.lower().endswith(".md") and p.suffix:
            return False
        try:
            rel = p.relative_to(self.workspace).as_posix()
        except ValueError:
            return True  # under an extra path
        if rel in ("MEMORY.md", "memory.md") or rel == "memory" or rel.startswith("memory/"):
            return True
        return any(prefix is not None and (prefix == "" or rel == prefix or rel.startswith(prefix + "/")) for _, prefix in self._extra_roots())

    def start_watcher(self) -> None:
        """Watch memory files (watchfiles, debounce ``sync.watchDebounceMs``) and run the
        interval sync when ``sync.intervalMinutes`` > 0. Both run in daemon threads."""
        if self._watch_thread is not None and self._watch_thread.is_alive():
            return
        self._watch_stop.clear()
        if self.ms.sync.watch:
            roots = self._watch_roots()
            if roots:
                self._watch_thread = threading.Thread(target=self._watch_loop, args=(roots,), name="memory-watch", daemon=True)
                self._watch_thread.start()
        interval = self.ms.sync.interval_minutes
        if interval and interval > 0 and (self._interval_thread is None or not self._interval_thread.is_alive()):
            self._interval_thread = threading.Thread(target=self._interval_loop, args=(interval * 60.0,), name="memory-interval", daemon=True)
            self._interval_thread.start()

    def _watch_loop(self, roots: list[Path]) -> None:
        try:
            import watchfiles  # noqa: PLC0415
        except ImportError:  # pragma: no cover
            log.warning("watchfiles is not installed; file watching is off")
            return

        def keep(change: Any, path: str) -> bool:
            return self._relevant_change(path)

        try:
            for changes in watchfiles.watch(
                *roots,
                watch_filter=keep,
                debounce=self.ms.sync.watch_debounce_ms,
                step=50,
                stop_event=self._watch_stop,
                raise_interrupt=False,
                ignore_permission_denied=True,
            ):
                if self._watch_stop.is_set():
                    break
                if changes:
                    self.sync(reason="watch")
        except Exception as exc:  # noqa: BLE001
            if not self._watch_stop.is_set():
                log.warning("memory watcher stopped: %s", exc)
                self._emit(Notice(level="warning", message=f"memory watcher stopped: {exc}"))

    def _interval_loop(self, seconds: float) -> None:
        while not self._watch_stop.wait(seconds):
            try:
                if time.monotonic() >= self._provider_cooldown_until and self.is_dirty():
                    self.sync(reason="interval")
            except Exception:  # pragma: no cover
                log.exception("interval sync failed")

    def stop_watcher(self) -> None:
        self._watch_stop.set()
        for t in (self._watch_thread, self._interval_thread):
            if t is not None:
                t.join(timeout=5)
        self._watch_thread = None
        self._interval_thread = None

    # ------------------------------------------------------------------ lifecycle

    def close(self) -> None:
        self.stop_watcher()
        self.wait_background_sync(timeout=30)
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None
            self.closed = True
        if self.provider is not None:
            try:
                self.provider.close()
            except Exception:  # pragma: no cover
                pass

    def __enter__(self) -> "MemoryManager":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _empty_report() -> dict[str, Any]:
    return {
        "ok": True,
        "fullRebuild": False,
        "files": 0,
        "chunks": 0,
        "filesIndexed": 0,
        "filesUnchanged": 0,
        "filesRemoved": 0,
        "filesSkipped": 0,
        "chunksIndexed": 0,
        "chunksEmbedded": 0,
        "vectorsEmbedded": 0,
        "cacheHits": 0,
        "cacheMisses": 0,
        "cachePruned": 0,
        "errors": [],
        "warnings": [],
    }


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


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
