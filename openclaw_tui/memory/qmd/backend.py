"""``memory.backend = "qmd"``: memory search served by the external qmd CLI (DESIGN §8).

``QmdBackend`` has the same surface as the builtin ``MemoryManager`` (search / get /
status / sync / start_watcher / stop_watcher / close). Every qmd failure — missing binary,
failed start, timeout (process group killed), crash, unparsable output, unusable models —
hands the query to the builtin index; the result then carries
``fallback: {"from": "qmd", "reason": …}`` and a ``QmdFallback`` event goes to the sink.
Nothing is latched: the next search tries qmd again.

The parts: ``home`` (the agent's qmd home, running qmd), ``indexer`` (collections, update,
embed), ``schedule`` (boot, debounce, interval), ``search`` (the qmd command and its hits
as results); files are read by the one memory reader (``memory.reader``).
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from openclaw_tui.config.loader import AgentSettings
from openclaw_tui.events import EventSink, Notice, QmdFallback, null_sink
from openclaw_tui.memory.api import SYNC_FORGET, MemoryBackend, MemoryStatus, ReadResult, SearchResult, SyncReport
from openclaw_tui.memory.qmd.collections import QMD_PREFIX, CollectionSpec, matches_pattern, plan_collections, qmd_home
from openclaw_tui.memory.qmd.home import QmdHome
from openclaw_tui.memory.qmd.indexer import QmdIndexer
from openclaw_tui.memory.qmd.runner import QmdError, resolve_command
from openclaw_tui.memory.qmd.schedule import SyncSchedule, parse_duration_s
from openclaw_tui.memory.qmd.scope import decide_scope, qmd_get_denied
from openclaw_tui.memory.qmd.search import keep_min_score, run_search, to_hits
from openclaw_tui.memory.qmd.status import probe
from openclaw_tui.memory.paths import range_error
from openclaw_tui.memory.reader import read_memory_file, refused
from openclaw_tui.unicode_clean import clean_surrogates
from openclaw_tui.workspace.guard import PathRefused, normalize_rel

log = logging.getLogger("openclaw_tui.memory.qmd")

__all__ = ["QmdBackend"]


class QmdBackend:
    name = "qmd"

    def __init__(self, settings: AgentSettings, *, sink: EventSink | None = None, builtin: MemoryBackend) -> None:
        self.settings = settings
        self.cfg = settings.config.memory.qmd
        self.sink: EventSink = sink or null_sink
        self.builtin = builtin
        self.qmd = QmdHome(qmd_home(settings), resolve_command(self.cfg.command))
        self.collections: list[CollectionSpec] = plan_collections(settings)
        self._by_name = {c.name: c for c in self.collections}
        self._closed = False
        self.update_interval_s = self._duration("interval", self.cfg.update.interval, 300.0)
        self.embed_interval_s = self._duration("embedInterval", self.cfg.update.embed_interval, None)
        self.indexer = QmdIndexer(settings, self.qmd, self.collections, self.sink,
                                  update_interval_s=self.update_interval_s, embed_interval_s=self.embed_interval_s)
        self.schedule = SyncSchedule(lambda force, reason: self.sync(force=force, reason=reason),
                                     update_interval_s=self.update_interval_s, embed_interval_s=self.embed_interval_s)
        if self.cfg.update.on_boot:
            self.schedule.boot(wait=self.cfg.update.wait_for_boot_sync)

    def _duration(self, key: str, value: Any, default: float | None) -> float | None:
        try:
            return parse_duration_s(value)
        except ValueError as exc:
            msg = f"memory.qmd.update.{key}: {exc}; using {'off' if default is None else f'{default:g}s'}"
            log.warning("%s", msg)
            self.sink(Notice(level="warning", message=msg))
            return default

    @property
    def index_path(self) -> Path:
        return self.qmd.index_path

    # ------------------------------------------------------------------ sync

    def ensure_collections(self) -> dict[str, list[str]]:
        """Make qmd's collections match the config (see ``QmdIndexer.ensure_collections``)."""
        return self.indexer.ensure_collections()

    def sync(self, force: bool = False, reason: str = "", progress: Any = None) -> SyncReport:
        """Re-export sessions, add collections, ``qmd update`` (and ``qmd embed`` when due).

        Debounced by ``update.debounceMs`` unless ``force``: a debounced call schedules one
        deferred sync at the end of the window, so a change is never left unindexed.
        ``progress`` is accepted for interface parity and unused. Never raises."""
        started = time.time()
        if reason == SYNC_FORGET:  # forgotten text leaves qmd's index now, not at the next window
            return self._forget_sync(started)
        debounce_s = self.cfg.update.debounce_ms / 1000.0
        last = self.indexer.last_update
        if not force and last is not None and started - last < debounce_s:
            self.schedule.defer(last + debounce_s - started, reason)
            return SyncReport(backend="qmd", reason=reason, errors=None, details={"skipped": "debounced"})
        return self.indexer.update(force, reason, started)

    def _forget_sync(self, started: float) -> SyncReport:
        """After ``memory forget``: ``qmd update`` at once, then ``qmd cleanup`` (drops the
        inactive documents and their vectors, compacts the FTS, vacuums), so no copy of the
        removed lines stays in qmd's index file; the builtin fallback's index is purged too."""
        report = self.indexer.update(True, SYNC_FORGET, started)
        if report.ok:
            cleaned = self.indexer.cleanup()
            report = replace(report, ok=cleaned is None, errors=None if cleaned is None else (cleaned,),
                             details={**report.details, "cleanup": cleaned or "done"})
        try:
            self.builtin.sync(reason=SYNC_FORGET)
        except Exception as exc:  # noqa: BLE001 - the fallback index catches up on its next sync
            log.warning("the fallback index was not purged: %s", exc)
        return report

    def is_dirty(self) -> bool:
        """qmd keeps its own index fresh (``qmd update`` on sync, the interval timer)."""
        return False

    def warm_up(self) -> None:
        """Nothing to load here: qmd runs its own models per query."""

    def start_watcher(self) -> None:
        self.schedule.start()

    def stop_watcher(self) -> None:
        self.schedule.stop()
        self.builtin.stop_watcher()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.schedule.close((self.cfg.update.update_timeout_ms + self.cfg.update.embed_timeout_ms) / 1000)
        self.builtin.stop_watcher()
        self.builtin.close()

    # ------------------------------------------------------------------ search

    def search(self, query: str, *, max_results: int | None = None, min_score: float | None = None,
               session_key: str | None = None) -> SearchResult:
        started = time.monotonic()
        key = session_key if session_key is not None else self.settings.session_key
        cap = self.cfg.limits.max_results  # limits.maxResults caps every search
        n = max(1, min(int(max_results or cap), cap))
        q = " ".join(clean_surrogates(str(query or "")).split())  # one line: newlines would form a qmd query document
        base = SearchResult(backend="qmd", provider="qmd", model=self.cfg.search_mode, search_ms=0.0)
        decision = decide_scope(self.cfg.scope, key)
        if not decision.allowed:
            log.warning("%s", decision.describe())
            self.sink(Notice(level="warning", message=decision.describe()))
            return replace(base, denied=True, scope={"channel": decision.channel, "chatType": decision.chat_type})
        if not q:
            return base
        try:
            if not self.indexer.ready.is_set():
                self._ensure_ready_for_search()
            names = [spec.name for spec in self.collections if spec.name in self.indexer.registered]
            if not names:
                if any(spec.root.is_dir() for spec in self.collections):
                    # it was told to add them and does not list them: not qmd (or a broken one)
                    raise QmdError("not-qmd", f"{self.cfg.command} does not behave like qmd: it lists none of the collections it was given")
                return replace(base, search_ms=_ms_since(started))  # no collection root exists yet: nothing to search
            hits, mode = run_search(self.qmd, self.cfg.search_mode, self.cfg.limits.timeout_ms, q, n, names)
        except QmdError as exc:
            return self._fallback(query, exc.reason, max_results=max_results, min_score=min_score,
                                  session_key=key, started=started)
        results, relaxed = keep_min_score(to_hits(self.settings, self._by_name, hits, n, key), min_score, mode)
        return replace(base, model=mode, results=tuple(results), search_ms=_ms_since(started), relaxed_min_score=relaxed)

    def _ensure_ready_for_search(self) -> None:
        """Collections must exist before the first search; never wait longer than a search may."""
        wait_s = self.cfg.limits.timeout_ms / 1000.0
        boot = self.schedule.boot_thread
        if boot is not None and boot.is_alive():
            if not self.indexer.ready.wait(wait_s):
                raise QmdError("start", "qmd collections are still being created (boot sync running)")
            return
        if not self.indexer.lock.acquire(timeout=wait_s):
            raise QmdError("start", "qmd is busy with a sync; collections not ready yet")
        try:
            if not self.indexer.ready.is_set():
                self.indexer.ensure_collections()
        finally:
            self.indexer.lock.release()

    def _fallback(self, query: str, reason: str, *, max_results: int | None, min_score: float | None,
                  session_key: str, started: float) -> SearchResult:
        log.warning("qmd search failed (%s); the builtin index answers", reason)
        self.sink(QmdFallback(reason=reason, query=query))
        try:
            res = self.builtin.search(query, max_results=max_results, min_score=min_score, session_key=session_key)
        except Exception as exc:  # the builtin must not turn a qmd failure into a crash
            res = SearchResult(backend="builtin", disabled=True, error=f"builtin search failed: {exc}",
                               warning="memory search unavailable", action="check `openclaw-tui memory status`")
        return replace(res, fallback={"from": "qmd", "reason": reason},
                       search_ms=_ms_since(started) if res.search_ms is None else res.search_ms)

    # ------------------------------------------------------------------ get

    def _collection_for_workspace_path(self, rel: str) -> CollectionSpec | None:
        for spec in self.collections:
            if spec.kind == "path" and spec.workspace_prefix:
                prefix = spec.workspace_prefix + "/"
                if rel.startswith(prefix) and matches_pattern(spec.pattern, rel[len(prefix):]):
                    return spec
        return None

    def get(self, path: str, from_line: int | None = None, lines: int | None = None,
            *, session_key: str | None = None) -> ReadResult:
        key = session_key if session_key is not None else self.settings.session_key
        raw = path if isinstance(path, str) else str(path)
        stripped = raw.strip()
        if stripped.startswith(QMD_PREFIX):
            try:
                rest = normalize_rel(stripped[len(QMD_PREFIX):])
            except PathRefused as exc:
                return refused(raw, exc.reason)
            name, _, rel = rest.partition("/")
            spec = self._by_name.get(name)
            if spec is None or not rel:
                return refused(raw, f"qmd collection {name!r} is not served by this agent")
            if not matches_pattern(spec.pattern, rel):
                return refused(raw, f"{rel} is not part of qmd collection {name!r} ({spec.pattern})")
            denied = qmd_get_denied(self.cfg.scope, key, spec.kind, rel, self.settings.sessions_dir)
            if denied:
                return refused(raw, denied)
            return self._read(spec.root, rel, raw, from_line, lines, key)
        try:
            norm = normalize_rel(stripped)
        except PathRefused:
            norm = None
        spec = self._collection_for_workspace_path(norm) if norm else None
        if spec is not None and norm:
            return self._read(Path(self.settings.workspace), norm, raw, from_line, lines, key)
        return self.builtin.get(path, from_line=from_line, lines=lines, session_key=key)

    def _read(self, root: Path, rel: str, shown: str, from_line: int | None, lines: int | None,
              session_key: str) -> ReadResult:
        bad_range = range_error(from_line, lines)
        if bad_range:
            return ReadResult(path=shown, error=bad_range)
        if not rel.lower().endswith(".md"):
            return refused(shown, "only .md files can be read")
        return read_memory_file(Path(self.settings.workspace), root, rel, shown, from_line, lines,
                                session_key=session_key)

    # ------------------------------------------------------------------ status

    def status(self) -> MemoryStatus:
        qmd = probe(self.qmd, self.cfg.update.command_timeout_ms)
        try:
            builtin_status: dict[str, Any] = self.builtin.status().to_dict()
        except Exception as exc:  # status must always answer
            builtin_status = {"error": str(exc)}
        ws = Path(self.settings.workspace)
        return MemoryStatus(
            backend="qmd", agent_id=self.settings.agent_id, workspace=str(ws), workspace_exists=ws.is_dir(),
            index_path=str(self.index_path), provider="qmd", model=None, search_mode=f"qmd {self.cfg.search_mode}",
            files=sum(qmd.files.values()) if qmd.files else None, chunks=None, dirty=False,
            details={
                "ftsAvailable": qmd.available,
                "vectorBackend": "qmd embed" if self.cfg.search_mode != "search" else "none (BM25 search mode)",
                "available": qmd.available,
                "error": qmd.error,
                "version": qmd.version,
                "command": " ".join(self.qmd.command),
                "home": str(self.qmd.root),
                "index": str(self.index_path),
                "collections": qmd.collection_rows(self.collections),
                "lastUpdate": self.indexer.last_update,
                "lastEmbed": self.indexer.last_embed,
                "lastError": self.indexer.last_error,
                "lastEmbedError": self.indexer.last_embed_error,
                "scope": {"default": self.cfg.scope.default, "rules": len(self.cfg.scope.rules)},
                "builtin": builtin_status,
            },
        )


def _ms_since(started: float) -> float:
    return round((time.monotonic() - started) * 1000.0, 1)

