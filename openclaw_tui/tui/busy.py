"""The busy indicator: what the session is doing, a spinner, elapsed time, streamed tokens.

While a reply streams the token meter moves too: an estimate (4 characters a token) until
the engine reports the turn's usage.
"""

from __future__ import annotations

import dataclasses
import time

from textual.dom import DOMNode
from textual.timer import Timer

from openclaw_tui import events as ev
from openclaw_tui.tui.format import n
from openclaw_tui.tui.widgets.meter import TokenMeter
from openclaw_tui.tui.widgets.status_bar import StatusBar

TICK_S = 0.2  # seconds between spinner frames


class BusyIndicator:
    """Drives the status bar's busy state and the meter's streaming estimate."""

    def __init__(self, host: DOMNode, bar: StatusBar, meter: TokenMeter) -> None:
        self.host = host  # owns the ticker timer
        self.bar = bar
        self.meter = meter
        self._ticker: Timer | None = None
        self._since = 0.0
        self._phase_since = 0.0
        self._streamed_chars = 0
        self._usage_base: ev.TokenUsage | None = None  # the meter before this reply

    def set(self, state: str) -> None:
        """``state``: "replying", "flushing", "compacting", "indexing", or "" when idle."""
        if not self.host.is_attached:  # a worker may end after the app closed the screen
            return
        bar = self.bar
        if state and not bar.busy:
            self._since = self._phase_since = time.monotonic()
            self._streamed_chars = 0
            self._usage_base = self.meter.usage
            bar.progress = ""
            self._ticker = self._ticker or self.host.set_interval(TICK_S, self.tick)
        elif not state and self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
            bar.progress = ""
        if not state:
            bar.phase = ""
        bar.busy = state

    def phase(self, label: str) -> None:
        """Name what the work is doing now; its seconds count from here."""
        if not self.host.is_attached:
            return
        if label != self.bar.phase:
            self._phase_since = time.monotonic()
        self.bar.phase = label

    def relabel(self, label: str) -> None:
        """New numbers for the phase under way (same words before the first " · "): its
        seconds go on counting; another phase starts its own clock (``phase``)."""
        if not self.host.is_attached:
            return
        if label.split(" · ")[0] != self.bar.phase.split(" · ")[0]:
            self.phase(label)
            return
        self.bar.phase = label

    def tick(self) -> None:
        """The indicator moves: spinner frame, seconds so far, streamed tokens."""
        bar = self.bar
        bar.frame += 1
        now = time.monotonic()
        elapsed = f"{now - self._phase_since:.0f}s"
        writing = bar.phase.startswith("writing") or not bar.phase
        if self._streamed_chars and writing:
            elapsed += f" · ~{n(self._streamed_chars // 4)} tok"
        if bar.phase and self._phase_since > self._since + 0.5:
            elapsed += f" · {now - self._since:.0f}s in all"
        bar.progress = elapsed

    def count_streamed(self, text: str) -> None:
        self._streamed_chars += len(text)
        base = self._usage_base
        if base is not None:
            self.meter.usage = dataclasses.replace(base, used=base.used + self._streamed_chars // 4, estimated=True)
