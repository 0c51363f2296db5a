"""When QMD syncs: the boot sync, one deferred sync after a debounced call, and the interval timer.

``SyncSchedule`` only decides *when*; the sync itself is the callable it is given
(``sync(force, reason)``). Durations come from the config as ``"5m"``-style strings or
milliseconds (``parse_duration_s``).
"""

from __future__ import annotations

import re
import threading
from typing import Any, Callable

_DURATION_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$", re.IGNORECASE)
_UNIT_S = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}

#: ``sync(force, reason)``
SyncFn = Callable[[bool, str], Any]


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


class SyncSchedule:
    def __init__(self, sync: SyncFn, *, update_interval_s: float | None, embed_interval_s: float | None) -> None:
        self._sync = sync
        self.update_interval_s = update_interval_s
        self.embed_interval_s = embed_interval_s
        self.boot_thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._timer_thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._deferred: threading.Timer | None = None
        self._closed = False

    def boot(self, *, wait: bool) -> None:
        """The boot sync: run now (``wait``) or in a background thread."""
        if wait:
            self._sync(True, "boot")
            return
        self.boot_thread = threading.Thread(target=self._sync, args=(True, "boot"), name="qmd-boot-sync", daemon=True)
        self.boot_thread.start()

    def defer(self, delay_s: float, reason: str) -> None:
        """One forced sync after ``delay_s`` (a no-op while one is pending)."""
        with self._lock:
            if self._closed or (self._deferred is not None and self._deferred.is_alive()):
                return
            t = threading.Timer(max(0.0, delay_s), self._deferred_sync, args=(reason,))
            t.daemon = True
            self._deferred = t
            t.start()

    def _deferred_sync(self, reason: str) -> None:
        with self._lock:
            self._deferred = None
        if not self._closed:
            self._sync(True, f"{reason} (debounced)".strip())

    def _timer_loop(self) -> None:
        step = min(x for x in (self.update_interval_s, self.embed_interval_s) if x)
        while not self._stop.wait(step):
            self._sync(False, "interval")

    def start(self) -> None:
        """The interval timer (when an interval is set)."""
        if self._timer_thread is None and (self.update_interval_s or self.embed_interval_s):
            self._stop.clear()
            self._timer_thread = threading.Thread(target=self._timer_loop, name="qmd-update-timer", daemon=True)
            self._timer_thread.start()

    def stop(self) -> None:
        self._stop.set()
        t, self._timer_thread = self._timer_thread, None
        if t is not None:
            t.join(timeout=5)

    def close(self, boot_timeout_s: float) -> None:
        """Cancel the deferred sync, stop the timer, wait for the boot sync."""
        with self._lock:
            self._closed = True
            if self._deferred is not None:
                self._deferred.cancel()
                self._deferred = None
        self.stop()
        if self.boot_thread is not None:
            self.boot_thread.join(timeout=boot_timeout_s)
