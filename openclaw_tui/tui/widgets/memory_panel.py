"""Side panel: the latest ``memory_search`` results with their ``Source:`` citations, and
above them the entries trigger recall read in this turn (tagged "triggered").

The panel is handed the backend's ``SearchResult`` itself (``events.MemoryRetrieved``) and
reads its fields: a hit's text, its lines, its ``cited`` source."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Label, ListItem, ListView, Static

from openclaw_tui.memory.api import SearchHit, SearchResult
from openclaw_tui.tui.format import line_range, one_line, result_summary


class MemoryResultItem(ListItem):
    def __init__(self, hit: SearchHit, tag: str = "") -> None:
        self.hit = hit
        self.tag = tag  # "triggered" for a trigger-recall entry
        self.path = hit.path
        self.start_line = hit.start_line
        self.end_line = hit.end_line
        self.score = hit.score
        self.snippet = hit.snippet
        # the hit's own citation names the lines its snippet shows (several runs: "#L3-L5,L20")
        self.source_line = f"Source: {hit.cited}"
        super().__init__(Static(self._render_text(), classes="memory-result"))

    def _render_text(self) -> Text:
        text = Text()
        if self.tag:
            text.append(f"{self.tag} · ", style="bold magenta")
        text.append(self.path, style="bold")
        rng = line_range(self.start_line, self.end_line)
        if rng:
            text.append(f" {rng}")
        if isinstance(self.score, (int, float)):
            text.append(f"  {self.score:.2f}", style="italic")
        lines = [line.strip() for line in self.snippet.splitlines() if line.strip()]
        for line in lines[:4]:
            text.append("\n" + one_line(line, 80), style="dim")
        if len(lines) > 4:
            text.append("\n…", style="dim")
        text.append("\n" + self.source_line)
        return text


def _triggered_hit(entry: dict[str, Any]) -> SearchHit:
    """A trigger-recall entry (``Triggered.to_dict()``) shown as a hit."""
    start = int(entry.get("startLine") or 1)
    return SearchHit(path=str(entry.get("path")), start_line=start, end_line=int(entry.get("endLine") or start),
                     score=float(entry.get("score") or 0.0),
                     snippet=f"{entry.get('text', '')}\n(trigger: {entry.get('trigger', '')})")


class MemoryPanel(Vertical):
    """Shows what the last search found; Enter (or a click) on a row opens the lines."""

    DEFAULT_CSS = """
    MemoryPanel #memory-triggered { height: auto; max-height: 14; }
    """

    class OpenSnippet(Message):
        def __init__(self, path: str, start_line: int | None, end_line: int | None) -> None:
            super().__init__()
            self.path = path
            self.start_line = start_line
            self.end_line = end_line

    def __init__(self, *, timings: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.timings = timings
        self.query_text: str = ""
        self.result: SearchResult | None = None
        self.border_title = "Memory"

    EMPTY = "No search yet — ask about past work, or /memory search <query>."

    def compose(self):
        yield Label(self.EMPTY, id="memory-summary", markup=False)
        yield ListView(id="memory-results")

    @property
    def items(self) -> list[MemoryResultItem]:
        return list(self.query(MemoryResultItem))

    @property
    def sources(self) -> list[str]:
        return [i.source_line for i in self.items]

    async def show(self, query: str, result: SearchResult) -> None:
        self.query_text = query
        self.result = result
        self.border_title = Content(f"Memory · “{one_line(query, 28)}”")  # literal text, never markup
        summary = result_summary(result, timings=self.timings)
        self.query_one("#memory-summary", Label).update(summary)
        self.set_class(result.disabled, "-disabled")
        lv = self.query_one("#memory-results", ListView)
        await lv.clear()
        if result.results:
            await lv.extend(MemoryResultItem(hit) for hit in result.results)
            lv.index = 0

    async def reset(self) -> None:
        """A new (or resumed) session: the last session's search is not this one's."""
        self.query_text, self.result = "", None
        self.border_title = "Memory"
        self.set_class(False, "-disabled")
        self.query_one("#memory-summary", Label).update(self.EMPTY)
        await self.query_one("#memory-results", ListView).clear()

    @property
    def triggered(self) -> list[MemoryResultItem]:
        return [i for i in self.items if i.tag == "triggered"]

    async def show_triggered(self, entries: list[dict[str, Any]]) -> None:
        """The entries trigger recall read in (``MemoryTriggered.entries``); [] removes the list.
        Mounted only while there is something to show, so the panel's layout is otherwise unchanged."""
        found = self.query("#memory-triggered")
        if not entries:
            await found.remove()
            return
        lv = found.first(ListView) if found else None
        if lv is None:
            lv = ListView(id="memory-triggered")
            await self.mount(lv, before=self.query_one("#memory-summary"))
        await lv.clear()
        await lv.extend(MemoryResultItem(_triggered_hit(e), tag="triggered") for e in entries)

    def on_list_view_selected(self, event: ListView.Selected) -> None:
        item = event.item
        if isinstance(item, MemoryResultItem):
            event.stop()
            self.post_message(self.OpenSnippet(item.path, item.start_line, item.end_line))
