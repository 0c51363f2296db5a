"""Status bar: model, session key, agent, workspace access, offline-agent label, turn state."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

ACCESS_STYLE = {"rw": "green", "ro": "bold black on yellow", "none": "bold white on red"}


class StatusBar(Widget):
    model: reactive[str] = reactive("starting…")
    session_key: reactive[str] = reactive("")
    agent: reactive[str] = reactive("")
    access: reactive[str] = reactive("rw")
    offline: reactive[bool] = reactive(False)
    busy: reactive[str] = reactive("")  # "" | "replying" | "flushing" | "compacting" | "indexing"

    @property
    def plain(self) -> str:
        return self.render().plain

    def render(self) -> Text:
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append(" model ", style="dim")
        if self.offline:
            t.append(" offline agent ", style="bold black on yellow")
            t.append(" rule-based, not an LLM", style="italic")
        else:
            t.append(self.model or "?", style="bold")
        t.append("  session ", style="dim")
        t.append(self.session_key)
        t.append("  agent ", style="dim")
        t.append(self.agent)
        t.append("  workspace ", style="dim")
        t.append(f" {self.access} ", style=ACCESS_STYLE.get(self.access, "bold"))
        if self.busy:
            t.append(f"  ● {self.busy}…" + (" Esc cancels" if self.busy in ("replying", "flushing", "compacting") else ""), style="italic")
        return t
