"""Event timeline: index syncs, flushes, compactions, memory changes, retries/errors, QMD fallbacks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from openclaw_tui import events as ev
from openclaw_tui.tui.format import Clock, local_clock, timeline_text

# info (sync, flush, compaction) in calm colours; only problems are yellow or red
KIND_STYLE = {
    "sync": "cyan",
    "flush": "green",
    "compaction": "blue",
    "info": "dim",
    "retry": "yellow",
    "fallback": "yellow",
    "notice": "yellow",
    "memory": "green",
    "error": "bold red",
}


@dataclass(frozen=True)
class TimelineEntry:
    time: str
    kind: str
    text: str

    @property
    def line(self) -> str:
        return f"{self.time} {self.text}"


class Timeline(VerticalScroll):
    MAX_ENTRIES = 500  # oldest entries are dropped beyond this

    def __init__(self, *, clock: Clock | None = None, timings: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.clock = clock or local_clock
        self.timings = timings
        self.entries: list[TimelineEntry] = []
        self.border_title = "Timeline"

    @property
    def lines(self) -> list[str]:
        return [e.line for e in self.entries]

    async def add_event(self, event: ev.Event) -> TimelineEntry | None:
        got = timeline_text(event, timings=self.timings)
        if got is None:
            return None
        kind, text = got
        return await self.add(kind, text, event.ts)

    async def add(self, kind: str, text: str, ts: float) -> TimelineEntry:
        entry = TimelineEntry(self.clock(ts), kind, text)
        self.entries.append(entry)
        rich = Text()
        rich.append(entry.time + " ", style="dim")
        rich.append(text, style=KIND_STYLE.get(kind, ""))
        await self.mount(Static(rich, classes=f"timeline-entry -{kind}"))
        if len(self.entries) > self.MAX_ENTRIES:
            drop = len(self.entries) - self.MAX_ENTRIES
            del self.entries[:drop]
            await self.remove_children(list(self.children)[:drop])
        self.scroll_end(animate=False)
        return entry
