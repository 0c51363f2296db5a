"""``memory.backend = "qmd"``: memory search served by the external qmd CLI (DESIGN §8).

``QmdBackend`` has the same surface as the builtin ``MemoryManager`` (search / get /
status / sync / start_watcher / stop_watcher / close). Every qmd failure — missing binary,
failed start, timeout (process group killed), crash, unparsable output, unusable models —
hands the query to the builtin index; the result then carries
``fallback: {"from": "qmd", "reason": …}`` and a ``QmdFallback`` event goes to the sink.
Nothing is latched: the next search tries qmd again.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from pathlib import Path
from typing import Any

import yaml

from openclaw_tui.config.loader import AgentSettings
from openclaw_tui.events import EventSink, IndexSynced, Notice, QmdFallback, null_sink
from openclaw_tui.memory.qmd.collections import (
    QMD_PREFIX,
    CollectionSpec,
    display_path,
    matches_pattern,
    plan_collections,
    qmd_home,
    resolve_hit_path,
    source_of,
)
from openclaw_tui.memory.qmd.parse import QmdHit, QmdParseError, parse_search_output, strip_ansi, trim_blank_edges
from openclaw_tui.memory.qmd.runner import (
    QmdError,
    QmdRunResult,
    first_line,
    looks_like_flag_rejection,
    looks_like_model_failure,
    resolve_command,
    run_qmd,
)
from openclaw_tui.memory.qmd.scope import decide_scope
from openclaw_tui.memory.qmd.sessions_export import export_sessions
from openclaw_tui.workspace.guard import PathRefused, normalize_rel
from openclaw_tui.memory.reader import read_memory_file
from openclaw_tui.unicode_clean import clean_surrogates
from openclaw_tui.workspace.privacy import hidden_for, is_private_key, private_identities
from openclaw_tui.workspace.session_keys import is_direct_session

log = logging.getLogger("openclaw_tui.memory.qmd")

MODEL_KINDS = ("embed", "generate", "rerank")
_INDEXED_RE = re.compile(r"Indexed:\s*(\d+) new,\s*(\d+) updated,\s*(\d+) unchanged,\s*(\d+) removed")
_DURATION_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$", re.IGNORECASE)
_UNIT_S = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def parse_duration_s(value: str | int | float | None) -> float | None:
    """``"5m"`` → 300.0; bare numbers are milliseconds; ``0``/``off``/None → None (disabled)."""
    if value is None:
        return None
    if isinstance(value, (int, float)):
        return value / 1000.0 if value > 0 else None
    text = str(value).strip().lower()
    if text in ("", "0", "off", "none", "false", "never"):
        return None
    m = _DURATION_RE.match(text)
    if not m:
        raise ValueError(f"invalid duration {value!r}: use e.g. 30s, 5m, 1h")
    seconds = float(m.group(1)) * _UNIT_S[(m.group(2) or "ms").lower()]
    return seconds if seconds > 0 else None


class QmdBackend:
    name = "qmd"

    def __init__(self, settings: AgentSettings, *, sink: EventSink | None = None, builtin: Any) -> None:
        self.settings = settings
        self.cfg = settings.config.memory.qmd
        self.sink: EventSink = sink or null_sink
        self.builtin = builtin
        self.command = resolve_command(self.cfg.command)
        self.home = qmd_home(settings)
        self.collections: list[CollectionSpec] = plan_collections(settings)
        self._by_name = {c.name: c for c in self.collections}
        self._op_lock = threading.RLock()
        self._ready = threading.Event()
        self._stop = threading.Event()
        self._boot_thread: threading.Thread | None = None
        self._timer_thread: threading.Thread | None = None
        self._last_update: float | None = None
        self._last_embed: float | None = None
        self._last_error: str | None = None
        self._last_embed_error: str | None = None
        self._warned_embed = False
        self._pending_indexed = 0
        self._registered: set[str] = set()  # collections qmd knows (roots that exist)
        self._timer_lock = threading.Lock()
        self._deferred: threading.Timer | None = None
        self._closed = False
        self.update_interval_s = self._duration("interval", self.cfg.update.interval, 300.0)
        self.embed_interval_s = self._duration("embedInterval", self.cfg.update.embed_interval, None)
        if self.cfg.update.on_boot:
            if self.cfg.update.wait_for_boot_sync:
                self._boot()
            else:
                self._boot_thread = threading.Thread(target=self._boot, name="qmd-boot-sync", daemon=True)
                self._boot_thread.start()

    def _duration(self, key: str, value: Any, default: float | None) -> float | None:
        try:
            return parse_duration_s(value)
        except ValueError as exc:
            msg = f"memory.qmd.update.{key}: {exc}; using {'off' if default is None else f'{default:g}s'}"
            log.warning("%s", msg)
            self.sink(Notice(level="warning", message=msg))
            return default

    # ------------------------------------------------------------------ environment

    @property
    def config_dir(self) -> Path:
        return self.home / "xdg-config" / "qmd"

    @property
    def index_path(self) -> Path:
        return self.home / "xdg-cache" / "qmd" / "index.sqlite"

    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        for var in ("QMD_CONFIG_DIR", "INDEX_PATH"):
            env.pop(var, None)  # would point qmd at someone else's index
        env["XDG_CONFIG_HOME"] = str(self.home / "xdg-config")
        env["XDG_CACHE_HOME"] = str(self.home / "xdg-cache")
        env["PWD"] = str(self.home)
        env["NO_COLOR"] = "1"
        env.setdefault("QMD_FORCE_CPU", "1")
        for kind in MODEL_KINDS:
            env.setdefault(f"QMD_{kind.upper()}_MODEL", str(self.home / "models" / f"{kind}.gguf"))
        return env

    def _prepare_home(self) -> None:
        """Create the per-agent qmd home; point qmd's models at local files so an offline
        ``embed``/``vsearch``/``query`` fails in seconds instead of trying to download."""
        for d in (self.home / "models", self.config_dir, self.index_path.parent):
            d.mkdir(parents=True, exist_ok=True)
        if os.environ.get("OPENCLAW_QMD_ALLOW_DOWNLOAD") == "1":
            return
        path = self.config_dir / "index.yml"
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else None
        except (OSError, yaml.YAMLError):
            return  # leave a file we cannot read to qmd; it will report the problem
        data = data if isinstance(data, dict) else {}
        models = data.get("models") if isinstance(data.get("models"), dict) else {}
        changed = False
        for kind in MODEL_KINDS:
            cur = models.get(kind)
            if not cur or str(cur).startswith("hf:"):
                models[kind] = os.environ.get(f"QMD_{kind.upper()}_MODEL") or str(self.home / "models" / f"{kind}.gguf")
                changed = True
        if changed or not path.exists():
            data.setdefault("collections", {})
            if data["collections"] is None:
                data["collections"] = {}
            data["models"] = models
            tmp = path.with_suffix(".yml.tmp")
            tmp.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
            os.replace(tmp, path)

    def _run(self, args: list[str], timeout_ms: int) -> QmdRunResult:
        self.home.mkdir(parents=True, exist_ok=True)
        # --index pins the global (per-agent) index: no project-local .qmd/ above cwd is used.
        return run_qmd(self.command, ["--index", "index", *args], env=self._env(), cwd=self.home,
                       timeout_s=timeout_ms / 1000.0)

    def _run_ok(self, args: list[str], timeout_ms: int) -> QmdRunResult:
        res = self._run(args, timeout_ms)
        if res.returncode != 0:
            detail = first_line(strip_ansi(res.stderr)) or first_line(strip_ansi(res.stdout)) or "no output"
            kind = "models" if looks_like_model_failure(res.stderr) else "exit"
            raise QmdError(kind, f"qmd {args[0]} exited with status {res.returncode}: {detail}",
                           stderr=res.stderr, returncode=res.returncode)
        return res

    # ------------------------------------------------------------------ collections

    def _yaml_collections(self) -> dict[str, dict]:
        path = self.config_dir / "index.yml"
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else None
        except (OSError, yaml.YAMLError):
            return {}
        cols = data.get("collections") if isinstance(data, dict) else None
        return cols if isinstance(cols, dict) else {}

    def ensure_collections(self) -> dict[str, list[str]]:
        """Add missing collections, replace ones whose path/pattern changed, remove ones no
        longer configured. Roots that do not exist yet are skipped (retried on the next sync)."""
        timeout = self.cfg.update.command_timeout_ms
        report: dict[str, list[str]] = {"added": [], "removed": [], "skipped": []}
        with self._op_lock:
            self._prepare_home()
            if self.cfg.sessions.enabled:
                self._export_sessions()
            existing = self._yaml_collections()
            wanted = {spec.name for spec in self.collections}
            for name in sorted(set(existing) - wanted):  # dropped from the config: stop indexing it
                self._run_ok(["collection", "remove", name], timeout)
                report["removed"].append(name)
            for spec in self.collections:
                cur = existing.get(spec.name)
                want_path = str(spec.root.resolve()) if spec.root.exists() else str(spec.root)
                if isinstance(cur, dict) and cur.get("path") == want_path and cur.get("pattern") == spec.pattern:
                    continue
                if cur is not None:
                    self._run_ok(["collection", "remove", spec.name], timeout)
                    report["removed"].append(spec.name)
                if not spec.root.is_dir():
                    report["skipped"].append(spec.name)
                    continue
                res = self._run_ok(["collection", "add", str(spec.root), "--name", spec.name, "--mask", spec.pattern],
                                   self.cfg.update.update_timeout_ms)
                self._pending_indexed += sum(int(m[0]) + int(m[1]) for m in _INDEXED_RE.findall(res.stdout))
                report["added"].append(spec.name)
            self._registered = {name for name in self._yaml_collections() if name in wanted}
            self._ready.set()
        return report

    def _export_sessions(self) -> None:
        spec = self._by_name.get("sessions")
        if spec is None:
            return
        export_sessions(self.settings.sessions_dir, spec.root, retention_days=self.cfg.sessions.retention_days)

    # ------------------------------------------------------------------ update / embed

    def _embed_due(self, force: bool) -> bool:
        if self.cfg.search_mode == "search" and self.embed_interval_s is None:
            return False  # BM25 search never reads vectors
        if force or self._last_embed is None:
            return True
        interval = self.embed_interval_s or self.update_interval_s
        return interval is not None and time.time() - self._last_embed >= interval

    def sync(self, force: bool = False, reason: str = "", progress: Any = None) -> dict[str, Any]:
        """Re-export sessions, add collections, ``qmd update`` (and ``qmd embed`` when due).

        Debounced by ``update.debounceMs`` unless ``force``: a debounced call schedules one
        deferred sync at the end of the window, so a change is never left unindexed.
        ``progress`` is accepted for interface parity and unused. Never raises."""
        started = time.time()
        debounce_s = self.cfg.update.debounce_ms / 1000.0
        if not force and self._last_update is not None and started - self._last_update < debounce_s:
            self._schedule_deferred(self._last_update + debounce_s - started, reason)
            return {"backend": "qmd", "skipped": "debounced", "reason": reason, "ok": True}
        out: dict[str, Any] = {"backend": "qmd", "reason": reason, "updated": False, "embedded": False,
                               "ok": True, "errors": []}
        with self._op_lock:
            try:
                out["collections"] = self.ensure_collections()
                res = self._run_ok(["update"], self.cfg.update.update_timeout_ms)
                counts = [tuple(map(int, m)) for m in _INDEXED_RE.findall(res.stdout)]
                new = sum(c[0] + c[1] for c in counts) + self._pending_indexed
                self._pending_indexed = 0
                removed = sum(c[3] for c in counts)
                self._last_update = time.time()
                self._last_error = None
                unchanged = sum(c[2] for c in counts)
                out.update(updated=True, filesIndexed=new, filesRemoved=removed, filesUnchanged=unchanged,
                           files=new + unchanged)
                self.sink(IndexSynced(agent_id=self.settings.agent_id, files_indexed=new, files_removed=removed,
                                      chunks=0, duration_ms=(time.time() - started) * 1000.0,
                                      reason=f"qmd {reason}".strip()))
            except QmdError as exc:
                self._last_error = exc.reason
                out.update(error=exc.reason, ok=False, errors=[exc.reason])
                self.sink(Notice(level="warning", message=f"qmd update failed: {exc.reason}"))
                return out
            if self._embed_due(force):
                try:
                    self._run_ok(["embed"], self.cfg.update.embed_timeout_ms)
                    self._last_embed_error = None
                    out["embedded"] = True
                except QmdError as exc:
                    self._last_embed_error = exc.reason
                    out["embedError"] = exc.reason
                    if not self._warned_embed:
                        self._warned_embed = True
                        self.sink(Notice(level="warning", message=f"qmd embed failed: {exc.reason}"))
                self._last_embed = time.time()
        out["durationMs"] = round((time.time() - started) * 1000.0, 1)
        return out

    def _schedule_deferred(self, delay_s: float, reason: str) -> None:
        with self._timer_lock:
            if self._closed or (self._deferred is not None and self._deferred.is_alive()):
                return
            t = threading.Timer(max(0.0, delay_s), self._deferred_sync, args=(reason,))
            t.daemon = True
            self._deferred = t
            t.start()

    def _deferred_sync(self, reason: str) -> None:
        with self._timer_lock:
            self._deferred = None
        if not self._closed:
            self.sync(force=True, reason=f"{reason} (debounced)".strip())

    def _boot(self) -> None:
        self.sync(force=True, reason="boot")

    def _timer_loop(self) -> None:
        interval = self.update_interval_s
        step = min(x for x in (interval, self.embed_interval_s) if x)
        while not self._stop.wait(step):
            self.sync(force=False, reason="interval")

    def is_dirty(self) -> bool:
        """qmd keeps its own index fresh (``qmd update`` on sync, the interval timer)."""
        return False

    def start_watcher(self) -> None:
        if self._timer_thread is None and (self.update_interval_s or self.embed_interval_s):
            self._stop.clear()
            self._timer_thread = threading.Thread(target=self._timer_loop, name="qmd-update-timer", daemon=True)
            self._timer_thread.start()

    def stop_watcher(self) -> None:
        self._stop.set()
        t, self._timer_thread = self._timer_thread, None
        if t is not None:
            t.join(timeout=5)
        stop = getattr(self.builtin, "stop_watcher", None)
        if stop is not None:
            stop()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with self._timer_lock:
            if self._deferred is not None:
                self._deferred.cancel()
                self._deferred = None
        self.stop_watcher()
        if self._boot_thread is not None:
            self._boot_thread.join(timeout=(self.cfg.update.update_timeout_ms + self.cfg.update.embed_timeout_ms) / 1000)
        close = getattr(self.builtin, "close", None)
        if close is not None:
            close()

    # ------------------------------------------------------------------ search

    def _search_args(self, mode: str, query: str, n: int) -> list[str]:
        args = [mode, "--json", "-n", str(n)]
        for spec in self.collections:
            if spec.name in self._registered:  # -c with an unknown name makes qmd exit 1
                args += ["-c", spec.name]
        return [*args, "--", query]

    def _run_search(self, query: str, n: int) -> tuple[list[QmdHit], str]:
        timeout = self.cfg.limits.timeout_ms
        mode = self.cfg.search_mode
        res = self._run(self._search_args(mode, query, n), timeout)
        if res.returncode != 0 and mode != "query" and looks_like_flag_rejection(res.stderr + res.stdout):
            mode = "query"  # this qmd's search/vsearch rejected the flags: retry with query
            res = self._run(self._search_args(mode, query, n), timeout)
        if res.returncode != 0:
            detail = first_line(strip_ansi(res.stderr)) or first_line(strip_ansi(res.stdout)) or "no output"
            kind = "models" if looks_like_model_failure(res.stderr) else "exit"
            if kind == "exit" and looks_like_flag_rejection(res.stderr + res.stdout):
                kind = "flags"
            raise QmdError(kind, f"qmd {mode} exited with status {res.returncode}: {detail}",
                           stderr=res.stderr, returncode=res.returncode)
        try:
            hits = parse_search_output(res.stdout, res.stderr)
        except QmdParseError as exc:
            raise QmdError("garbage", str(exc)) from None
        if not hits and mode != "search" and "need embeddings" in res.stderr.lower():
            raise QmdError("embeddings", f"qmd {mode} has no embeddings yet: {first_line(res.stderr)}")
        return hits, mode

    def _citations_on(self, session_key: str) -> bool:
        mode = self.settings.config.memory.citations
        return mode == "on" or (mode == "auto" and is_direct_session(session_key))

    def _to_results(self, hits: list[QmdHit], n: int, session_key: str) -> list[dict[str, Any]]:
        lim = self.cfg.limits
        cite = self._citations_on(session_key)
        budget = lim.max_injected_chars
        results: list[dict[str, Any]] = []
        hide = hidden_for(session_key)
        private = private_identities(Path(self.settings.workspace)) if hide else frozenset()
        for hit in hits:
            if len(results) >= n or budget <= 0:
                break
            spec = self._by_name.get(hit.collection)
            if spec is None:
                continue  # not one of ours
            rel = resolve_hit_path(spec, hit.path)
            if hide and is_private_key(Path(self.settings.workspace), Path(spec.root) / rel, private):
                continue  # MEMORY.md by identity, whichever collection indexed it
            path = display_path(spec, rel)
            start, end, text = trim_blank_edges(hit.start_line, hit.end_line, hit.snippet)
            snippet = text[: lim.max_snippet_chars]
            line_ref = f"#L{start}" if start == end else f"#L{start}-L{end}"
            item: dict[str, Any] = {
                "path": path,
                "startLine": start,
                "endLine": end,
                "score": round(hit.score, 6),
                "snippet": snippet,
                "source": source_of(spec),
                "collection": spec.name,
            }
            if hit.docid:
                item["docid"] = hit.docid
            if cite:
                item["citation"] = f"{path}{line_ref}"
                item["snippet"] = f"{snippet}\n\nSource: {path}{line_ref}"
            if len(item["snippet"]) > budget:
                item["snippet"] = item["snippet"][:budget]
            budget -= len(item["snippet"])
            results.append(item)
        return results

    def search(self, query: str, *, max_results: int | None = None, min_score: float | None = None,
               session_key: str | None = None) -> dict[str, Any]:
        started = time.monotonic()
        key = session_key if session_key is not None else self.settings.session_key
        cap = self.cfg.limits.max_results  # limits.maxResults caps every search
        n = max(1, min(int(max_results or cap), cap))
        q = " ".join(clean_surrogates(str(query or "")).split())  # one line: newlines would form a qmd query document
        base = {"backend": "qmd", "provider": "qmd", "model": self.cfg.search_mode, "fallback": None}
        decision = decide_scope(self.cfg.scope, key)
        if not decision.allowed:
            log.warning("%s", decision.describe())
            self.sink(Notice(level="warning", message=decision.describe()))
            return {**base, "results": [], "denied": True, "scope": {"channel": decision.channel,
                    "chatType": decision.chat_type}, "searchMs": 0.0}
        if not q:
            return {**base, "results": [], "searchMs": 0.0}
        try:
            if not self._ready.is_set():
                self._ensure_ready_for_search()
            if not self._registered:  # no collection root exists yet: nothing to search
                return {**base, "results": [], "searchMs": round((time.monotonic() - started) * 1000.0, 1)}
            hits, mode = self._run_search(q, n)
        except QmdError as exc:
            return self._fallback(query, exc.reason, max_results=max_results, min_score=min_score,
                                  session_key=key, started=started)
        results = self._to_results(hits, n, key)
        relaxed = False
        if min_score is not None:
            kept = [r for r in results if r["score"] >= min_score]
            if not kept and results and mode == "search":
                # qmd's BM25 score is 0 for a real match when the term sits in half of a small
                # collection's documents (no IDF weight): as with the builtin keyword-only floor,
                # keyword hits stand rather than an empty answer.
                kept, relaxed = results, True
            results = kept
        out = {**base, "model": mode, "results": results,
               "searchMs": round((time.monotonic() - started) * 1000.0, 1)}
        if relaxed:
            out["relaxedMinScore"] = True
        return out

    def _ensure_ready_for_search(self) -> None:
        """Collections must exist before the first search; never wait longer than a search may."""
        wait_s = self.cfg.limits.timeout_ms / 1000.0
        boot = self._boot_thread
        if boot is not None and boot.is_alive():
            if not self._ready.wait(wait_s):
                raise QmdError("start", "qmd collections are still being created (boot sync running)")
            return
        if not self._op_lock.acquire(timeout=wait_s):
            raise QmdError("start", "qmd is busy with a sync; collections not ready yet")
        try:
            if not self._ready.is_set():
                self.ensure_collections()
        finally:
            self._op_lock.release()

    def _fallback(self, query: str, reason: str, *, max_results: int | None, min_score: float | None,
                  session_key: str, started: float) -> dict[str, Any]:
        log.warning("qmd search failed (%s); the builtin index answers", reason)
        self.sink(QmdFallback(reason=reason, query=query))
        try:
            res = dict(self.builtin.search(query, max_results=max_results, min_score=min_score,
                                           session_key=session_key))
        except Exception as exc:  # the builtin must not turn a qmd failure into a crash
            res = {"results": [], "disabled": True, "error": f"builtin search failed: {exc}",
                   "warning": "memory search unavailable", "action": "check `openclaw-tui memory status`"}
        res.setdefault("backend", "builtin")
        res["fallback"] = {"from": "qmd", "reason": reason}
        res.setdefault("searchMs", round((time.monotonic() - started) * 1000.0, 1))
        return res

    # ------------------------------------------------------------------ get

    def _collection_for_workspace_path(self, rel: str) -> CollectionSpec | None:
        for spec in self.collections:
            if spec.kind == "path" and spec.workspace_prefix:
                prefix = spec.workspace_prefix + "/"
                if rel.startswith(prefix) and matches_pattern(spec.pattern, rel[len(prefix):]):
                    return spec
        return None

    def get(self, path: str, from_line: int | None = None, lines: int | None = None,
            *, session_key: str | None = None) -> dict[str, Any]:
        key = session_key if session_key is not None else self.settings.session_key
        raw = path if isinstance(path, str) else str(path)
        stripped = raw.strip()
        if stripped.startswith(QMD_PREFIX):
            try:
                rest = normalize_rel(stripped[len(QMD_PREFIX):])
            except PathRefused as exc:
                return {"path": raw, "text": "", "disabled": True, "error": f"refused: {exc.reason}"}
            name, _, rel = rest.partition("/")
            spec = self._by_name.get(name)
            if spec is None or not rel:
                return {"path": raw, "text": "", "disabled": True,
                        "error": f"refused: qmd collection {name!r} is not served by this agent"}
            if not matches_pattern(spec.pattern, rel):
                return {"path": raw, "text": "", "disabled": True,
                        "error": f"refused: {rel} is not part of qmd collection {name!r} ({spec.pattern})"}
            return self._read(spec.root, rel, raw, from_line, lines, key)
        try:
            norm = normalize_rel(stripped)
        except PathRefused:
            norm = None
        spec = self._collection_for_workspace_path(norm) if norm else None
        if spec is not None:
            return self._read(Path(self.settings.workspace), norm, raw, from_line, lines, key)
        return self.builtin.get(path, from_line=from_line, lines=lines, session_key=key)

    def _read(self, root: Path, rel: str, shown: str, from_line: int | None, lines: int | None,
              session_key: str) -> dict[str, Any]:
        for name, value in (("from", from_line), ("lines", lines)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                return {"path": shown, "text": "", "error": f"{name} must be an integer >= 1"}
        if not rel.lower().endswith(".md"):
            return {"path": shown, "text": "", "disabled": True, "error": "refused: only .md files can be read"}
        return read_memory_file(Path(self.settings.workspace), root, rel, shown, from_line, lines,
                                session_key=session_key)

    # ------------------------------------------------------------------ status

    def status(self) -> dict[str, Any]:
        files: dict[str, int] = {}
        available = True
        error = None
        version = None
        try:
            listing = self._run(["collection", "list"], self.cfg.update.command_timeout_ms)
            if listing.returncode != 0:
                available = False
                error = first_line(strip_ansi(listing.stderr)) or f"exit status {listing.returncode}"
            current = None
            for line in strip_ansi(listing.stdout).splitlines():
                m = re.match(r"^(\S+) \(qmd://", line)
                if m:
                    current = m.group(1)
                m = re.match(r"^\s+Files:\s+(\d+)", line)
                if m and current:
                    files[current] = int(m.group(1))
            ver = self._run(["--version"], self.cfg.update.command_timeout_ms)
            version = first_line(ver.stdout) or None
        except QmdError as exc:
            available = False
            error = exc.reason
        cols = []
        for spec in self.collections:
            d = spec.to_dict()
            d["files"] = files.get(spec.name)
            d["registered"] = spec.name in files
            cols.append(d)
        builtin_status = None
        get_status = getattr(self.builtin, "status", None)
        if get_status is not None:
            try:
                builtin_status = get_status().to_dict()
            except Exception as exc:  # status must always answer
                builtin_status = {"error": str(exc)}
        ws = Path(self.settings.workspace)
        return {
            "backend": "qmd",
            "agentId": self.settings.agent_id,
            "workspace": str(ws),
            "workspaceExists": ws.is_dir(),
            "indexPath": str(self.index_path),
            "files": sum(files.values()) if files else None,
            "chunks": None,
            "provider": "qmd",
            "model": None,
            "ftsAvailable": available,
            "vectorBackend": "qmd embed" if self.cfg.search_mode != "search" else "none (BM25 search mode)",
            "dirty": False,
            "available": available,
            "error": error,
            "version": version,
            "command": " ".join(self.command),
            "home": str(self.home),
            "index": str(self.index_path),
            "searchMode": f"qmd {self.cfg.search_mode}",
            "collections": cols,
            "lastUpdate": self._last_update,
            "lastEmbed": self._last_embed,
            "lastError": self._last_error,
            "lastEmbedError": self._last_embed_error,
            "scope": {"default": self.cfg.scope.default, "rules": len(self.cfg.scope.rules)},
            "builtin": builtin_status,
        }
