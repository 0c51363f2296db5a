"""Keeping qmd's index in step with the agent: collections, ``qmd update`` and ``qmd embed``.

``ensure_collections`` makes qmd's collections match the plan (added, replaced when their
path or mask changed, removed when dropped from the config; roots that do not exist yet
are retried on the next sync). ``update`` re-exports the session transcripts, updates the
index and embeds when due. All qmd commands run under one lock. Errors never escape
``update``: they land in its report, in ``last_error``/``last_embed_error`` and as a
``Notice`` (an embed failure is announced once).
"""

from __future__ import annotations

import re
import threading
import time
from typing import Any

from openclaw_tui.config.loader import AgentSettings
from openclaw_tui.events import EventSink, IndexSynced, Notice
from openclaw_tui.memory.api import SyncReport
from openclaw_tui.memory.qmd.collections import SESSIONS, CollectionSpec
from openclaw_tui.memory.qmd.home import QmdHome
from openclaw_tui.memory.qmd.runner import QmdError
from openclaw_tui.memory.qmd.sessions_export import export_sessions

_INDEXED_RE = re.compile(r"Indexed:\s*(\d+) new,\s*(\d+) updated,\s*(\d+) unchanged,\s*(\d+) removed")


class QmdIndexer:
    def __init__(self, settings: AgentSettings, home: QmdHome, collections: list[CollectionSpec],
                 sink: EventSink, *, update_interval_s: float | None, embed_interval_s: float | None) -> None:
        self.settings = settings
        self.cfg = settings.config.memory.qmd
        self.home = home
        self.collections = collections
        self.sink = sink
        self.update_interval_s = update_interval_s
        self.embed_interval_s = embed_interval_s
        self.lock = threading.RLock()  # one qmd command sequence at a time
        self.ready = threading.Event()  # collections were set up once
        self.registered: set[str] = set()  # collections qmd knows (roots that exist)
        self.last_update: float | None = None
        self.last_embed: float | None = None
        self.last_error: str | None = None
        self.last_embed_error: str | None = None
        self._warned_embed = False
        self._pending_indexed = 0

    # ------------------------------------------------------------------ collections

    def ensure_collections(self) -> dict[str, list[str]]:
        """Add missing collections, replace changed ones, remove dropped ones."""
        timeout = self.cfg.update.command_timeout_ms
        report: dict[str, list[str]] = {"added": [], "removed": [], "skipped": []}
        with self.lock:
            self.home.prepare()
            if self.cfg.sessions.enabled:
                self._export_sessions()
            existing = self.home.collections()
            wanted = {spec.name for spec in self.collections}
            for name in sorted(set(existing) - wanted):  # dropped from the config: stop indexing it
                self.home.run_ok(["collection", "remove", name], timeout)
                report["removed"].append(name)
            for spec in self.collections:
                self._ensure_one(spec, existing.get(spec.name), report)
            self.registered = {name for name in self.home.collections() if name in wanted}
            self.ready.set()
        return report

    def _ensure_one(self, spec: CollectionSpec, cur: Any, report: dict[str, list[str]]) -> None:
        want_path = str(spec.root.resolve()) if spec.root.exists() else str(spec.root)
        if isinstance(cur, dict) and cur.get("path") == want_path and cur.get("pattern") == spec.pattern:
            return
        if cur is not None:
            self.home.run_ok(["collection", "remove", spec.name], self.cfg.update.command_timeout_ms)
            report["removed"].append(spec.name)
        if not spec.root.is_dir():
            report["skipped"].append(spec.name)
            return
        res = self.home.run_ok(["collection", "add", str(spec.root), "--name", spec.name, "--mask", spec.pattern],
                               self.cfg.update.update_timeout_ms)
        self._pending_indexed += sum(int(m[0]) + int(m[1]) for m in _INDEXED_RE.findall(res.stdout))
        report["added"].append(spec.name)

    def _export_sessions(self) -> None:
        spec = next((c for c in self.collections if c.name == SESSIONS), None)
        if spec is not None:
            export_sessions(self.settings.sessions_dir, spec.root, retention_days=self.cfg.sessions.retention_days)

    # ------------------------------------------------------------------ update / embed

    def embed_due(self, force: bool) -> bool:
        if self.cfg.search_mode == "search" and self.embed_interval_s is None:
            return False  # BM25 search never reads vectors
        if force or self.last_embed is None:
            return True
        interval = self.embed_interval_s or self.update_interval_s
        return interval is not None and time.time() - self.last_embed >= interval

    def update(self, force: bool, reason: str, started: float) -> SyncReport:
        """Collections, ``qmd update``, then ``qmd embed`` when due: the sync report."""
        details: dict[str, Any] = {"updated": False, "embedded": False}
        with self.lock:
            try:
                details["collections"] = self.ensure_collections()
                new, unchanged, removed = self._update_index(reason, started)
            except QmdError as exc:
                self.last_error = exc.reason
                self.sink(Notice(level="warning", message=f"qmd update failed: {exc.reason}"))
                return SyncReport(backend="qmd", ok=False, reason=reason, errors=(exc.reason,),
                                  details={**details, "error": exc.reason})
            details["updated"] = True
            if self.embed_due(force):
                details.update(self._embed())
        return SyncReport(backend="qmd", reason=reason, files=new + unchanged, files_indexed=new,
                          files_unchanged=unchanged, files_removed=removed,
                          duration_ms=round((time.time() - started) * 1000.0, 1), details=details)

    def _update_index(self, reason: str, started: float) -> tuple[int, int, int]:
        """``qmd update``: (files indexed, unchanged, removed)."""
        res = self.home.run_ok(["update"], self.cfg.update.update_timeout_ms)
        counts = [tuple(map(int, m)) for m in _INDEXED_RE.findall(res.stdout)]
        new = sum(c[0] + c[1] for c in counts) + self._pending_indexed
        self._pending_indexed = 0
        removed = sum(c[3] for c in counts)
        self.last_update = time.time()
        self.last_error = None
        self.sink(IndexSynced(agent_id=self.settings.agent_id, files_indexed=new, files_removed=removed,
                              chunks=0, duration_ms=(time.time() - started) * 1000.0,
                              reason=f"qmd {reason}".strip()))
        return new, sum(c[2] for c in counts), removed

    def cleanup(self) -> str | None:
        """``qmd cleanup``: None when done, else why not (the caller reports it)."""
        with self.lock:
            try:
                self.home.run_ok(["cleanup"], self.cfg.update.update_timeout_ms)
            except QmdError as exc:
                self.sink(Notice(level="warning", message=f"qmd cleanup failed: {exc.reason}"))
                return exc.reason
        return None

    def _embed(self) -> dict[str, Any]:
        """``qmd embed``: ``{"embedded": True}`` or its ``embedError``."""
        out: dict[str, Any] = {}
        try:
            self.home.run_ok(["embed"], self.cfg.update.embed_timeout_ms)
            self.last_embed_error = None
            out["embedded"] = True
        except QmdError as exc:
            self.last_embed_error = exc.reason
            out["embedError"] = exc.reason
            if not self._warned_embed:
                self._warned_embed = True
                self.sink(Notice(level="warning", message=f"qmd embed failed: {exc.reason}"))
        self.last_embed = time.time()
        return out
