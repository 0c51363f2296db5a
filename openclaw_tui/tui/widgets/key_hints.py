"""The footer line: the keys a user needs most, as many as fit the width.

A plain rendered line instead of Textual's ``Footer``: that one mounts a widget per
binding and cost a third of the first frame.
"""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

#: (key, what it does), most important first: a narrow terminal drops from the end
KEYS: tuple[tuple[str, str], ...] = (
    ("Enter", "send"),
    ("Ctrl+C", "cancel · twice quits"),
    ("Ctrl+O", "side panel"),
    ("PgUp/PgDn", "scroll"),
    ("Tab", "complete"),
    ("Ctrl+P", "commands"),
    ("↑", "history"),
    ("Ctrl+J", "new line"),
)


def hint_line(width: int, keys: tuple[tuple[str, str], ...] = KEYS) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    for key, what in keys:
        piece = f" {key} {what} "
        if text.cell_len + len(piece) > width:
            break
        text.append(" ")
        text.append(key, style="bold")
        text.append(f" {what} ", style="dim")
    return text


class KeyHints(Widget):
    def render(self) -> Text:
        return hint_line(self.content_size.width or 80)

    @property
    def plain(self) -> str:
        return self.render().plain
