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
    busy: reactive[str] = reactive("")  # "" | "replying" | "flushing" | "compacting" | "indexing" | "cancelling"
    progress: reactive[str] = reactive("")  # "4s · ~120 tok" while a reply streams
    #: what the turn is doing now ("searching memory", "reading the prompt · 877 tok",
    #: "writing"); shown instead of the bare busy word while set
    phase: reactive[str] = reactive("")
    privacy: reactive[str] = reactive("")  # "group" in a group/channel session: MEMORY.md is kept out
    frame: reactive[int] = reactive(0)  # the spinner's frame, advanced by the screen's ticker

    SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

    @property
    def plain(self) -> str:
        return self.render().plain

    def render(self) -> Text:
        # On a narrow terminal the line used to wrap, and the one visible row lost the
        # workspace access (the ro/none highlight) and the busy state. Drop the least
        # important parts first; access and busy always stay.
        width = self.size.width or 10_000
        for level in range(7):
            t = self._line(level)
            if t.cell_len <= width:
                return t
        t.truncate(width, overflow="ellipsis")
        return t

    def _line(self, level: int) -> Text:
        """The bar with detail removed up to ``level`` (0 = everything)."""
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append(" model ", style="dim")
        if self.offline:
            t.append(" offline agent ", style="bold black on yellow")
            if level < 2:
                t.append(" rule-based, not an LLM", style="italic")
        else:
            model = self.model or "?"
            t.append(model if level < 5 or len(model) <= 22 else model[:21] + "…", style="bold")
        if level < 6:  # the session key stays until nothing else can go (80 columns keep it)
            t.append("  session " if level < 4 else "  ", style="dim")
            t.append(self.session_key)
        if self.privacy:
            t.append(" group · no MEMORY.md " if level < 4 else " group ", style="bold black on magenta")
        if level < 3:
            t.append("  agent ", style="dim")
            t.append(self.agent)
        t.append("  workspace ", style="dim")
        t.append(f" {self.access} ", style=ACCESS_STYLE.get(self.access, "bold"))
        if self.busy:
            hint = " Ctrl+C cancels" if level < 1 and self.busy in ("replying", "flushing", "compacting") else ""
            spin = self.SPINNER[self.frame % len(self.SPINNER)]
            progress = f" {self.progress}" if self.progress and level < 5 else ""
            label = self.phase if self.phase and self.busy not in ("cancelling",) else self.busy
            t.append(f"  {spin} {label}…{progress}" + hint, style="italic")
        return t
