"""Background freshness for the builtin index: a file watcher and an interval timer.

The watcher (watchfiles, debounced by ``sync.watchDebounceMs``) syncs when a memory file
changes; the interval thread (``sync.intervalMinutes`` > 0) syncs when the index is dirty
and the provider is not cooling down. Both run in daemon threads until ``stop``.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any, Callable

from openclaw_tui.config import AgentSettings
from openclaw_tui.events import Event, Notice
from openclaw_tui.memory.sources import extra_roots, under_extra_prefix
from openclaw_tui.workspace.session_keys import ROOT_MEMORY_FILES

log = logging.getLogger("openclaw_tui.memory")


class Watcher:
    """Calls ``sync(reason)`` on relevant file changes and, on the interval, when ``due()``."""

    def __init__(self, settings: AgentSettings, *, sync: Callable[[str], Any], due: Callable[[], bool],
                 emit: Callable[[Event], None]) -> None:
        self.settings = settings
        self.ms = settings.memory_search
        self._sync = sync
        self._due = due
        self._emit = emit
        self.watch_thread: threading.Thread | None = None
        self.interval_thread: threading.Thread | None = None
        self._stop = threading.Event()

    def _extra_roots(self) -> list[tuple[Path, str | None]]:
        return extra_roots(self.settings.workspace, self.ms.extra_paths)

    def roots(self) -> list[Path]:
        workspace = self.settings.workspace
        roots = [workspace] if workspace.is_dir() else []
        for root, prefix in self._extra_roots():
            if prefix is None and root.exists():
                roots.append(root if root.is_dir() else root.parent)
        return roots

    def relevant(self, path: str) -> bool:
        """Whether a change at ``path`` may touch an indexed memory file."""
        p = Path(path)
        if not p.name.lower().endswith(".md") and p.suffix:
            return False
        try:
            rel = p.relative_to(self.settings.workspace).as_posix()
        except ValueError:
            return True  # under an extra path
        if rel in ROOT_MEMORY_FILES or rel == "memory" or rel.startswith("memory/"):
            return True
        return under_extra_prefix(rel, self._extra_roots())

    def start(self) -> None:
        if self.watch_thread is not None and self.watch_thread.is_alive():
            return
        self._stop.clear()
        if self.ms.sync.watch:
            roots = self.roots()
            if roots:
                self.watch_thread = threading.Thread(target=self._watch_loop, args=(roots,), name="memory-watch", daemon=True)
                self.watch_thread.start()
        interval = self.ms.sync.interval_minutes
        if interval and interval > 0 and (self.interval_thread is None or not self.interval_thread.is_alive()):
            self.interval_thread = threading.Thread(target=self._interval_loop, args=(interval * 60.0,),
                                                    name="memory-interval", daemon=True)
            self.interval_thread.start()

    def _watch_loop(self, roots: list[Path]) -> None:
        try:
            import watchfiles  # noqa: PLC0415
        except ImportError:  # pragma: no cover
            log.warning("watchfiles is not installed; file watching is off")
            return
        try:
            for changes in watchfiles.watch(
                *roots,
                watch_filter=lambda _change, path: self.relevant(path),
                debounce=self.ms.sync.watch_debounce_ms,
                step=50,
                stop_event=self._stop,
                raise_interrupt=False,
                ignore_permission_denied=True,
            ):
                if self._stop.is_set():
                    break
                if changes:
                    self._sync("watch")
        except Exception as exc:  # noqa: BLE001
            if not self._stop.is_set():
                log.warning("memory watcher stopped: %s", exc)
                self._emit(Notice(level="warning", message=f"memory watcher stopped: {exc}"))

    def _interval_loop(self, seconds: float) -> None:
        while not self._stop.wait(seconds):
            try:
                if self._due():
                    self._sync("interval")
            except Exception:  # pragma: no cover
                log.exception("interval sync failed")

    def stop(self) -> None:
        self._stop.set()
        for t in (self.watch_thread, self.interval_thread):
            if t is not None:
                t.join(timeout=5)
        self.watch_thread = None
        self.interval_thread = None
