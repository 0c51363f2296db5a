"""The slash menu above the prompt: one row a completion, the selected one highlighted."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from openclaw_tui.tui.commands import registry

USAGE_WIDTH = 26  # the usage column; the help text follows


class CompletionMenu(Static):
    """Hidden while there is nothing to complete."""

    def __init__(self, **kwargs) -> None:
        super().__init__("", markup=False, **kwargs)

    def show(self, completions: list[str], selected: int | None) -> None:
        if not completions:
            self.update("")
            self.display = False
            return
        rows = Text(no_wrap=True, overflow="ellipsis")
        for i, c in enumerate(completions):
            cmd = registry.BY_NAME.get(c.strip()[1:])
            row = f"{cmd.usage:<{USAGE_WIDTH}} {cmd.help}" if cmd else c
            mark = "▸ " if i == selected else "  "
            rows.append(("\n" if i else "") + mark + row, style="reverse" if i == selected else "")
        self.update(rows)
        self.display = True
        if selected is not None:
            self.scroll_to(y=max(0, selected - 3), animate=False)
