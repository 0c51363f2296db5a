"""Token meter: used / context window with the flush and compaction thresholds marked."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from openclaw_tui import events as ev
from openclaw_tui.tui.format import meter_geometry, meter_parts

LEVEL_STYLE = {"ok": "green", "near": "yellow", "critical": "bold red"}


class TokenMeter(Widget):
    """One line, always docked at the bottom of the main screen."""

    usage: reactive[ev.TokenUsage | None] = reactive(None, always_update=True)
    #: False in a read-only or inaccessible workspace: no flush can run, so no flush mark
    flush_mark: reactive[bool] = reactive(True)

    @property
    def level(self) -> str:
        u = self.usage
        if u is None:
            return "ok"
        return meter_geometry(u.used, u.context_window, self._flush_at(u), u.compaction_threshold, 10).level

    def _flush_at(self, usage: ev.TokenUsage) -> int:
        return usage.flush_threshold if self.flush_mark else 0

    def watch_usage(self, usage: ev.TokenUsage | None) -> None:
        for lvl in ("ok", "near", "critical"):
            self.set_class(lvl == self.level, f"-{lvl}")

    @property
    def plain(self) -> str:
        return self.render().plain

    def render(self) -> Text:
        u = self.usage
        width = self.content_size.width or 100
        label, suffix = meter_parts(u, width, flush=self.flush_mark)
        text = Text(no_wrap=True, overflow="ellipsis")
        bar_width = max(10, width - len(label) - len(suffix) - 4)
        if u is None:
            text.append(label, style="dim")
            text.append(" " + "░" * bar_width, style="dim")
            return text
        geo = meter_geometry(u.used, u.context_window, self._flush_at(u), u.compaction_threshold, bar_width)
        style = LEVEL_STYLE[geo.level]
        text.append(label, style=style)
        text.append(" ▕")
        for i in range(bar_width):
            if i == geo.compact_pos:
                text.append("┃", style="bold red")
            elif i == geo.flush_pos:
                text.append("┃", style="bold magenta")
            elif i < geo.filled:
                text.append("█", style=style)
            else:
                text.append("░", style="dim")
        text.append("▏ ")
        text.append(suffix, style="italic" if u.estimated else "")
        return text
