"""Modal viewer for the lines behind a memory citation (``memory_get``)."""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, TextArea

from openclaw_tui.memory.api import line_citation
from openclaw_tui.tui.screens.modal import ClosableModal


class SnippetViewer(ClosableModal[None]):
    CSS_PATH = Path(__file__).with_name("viewer.tcss")
    BINDINGS = [Binding("q", "close", "close", show=False)]

    def __init__(self, path: str, start_line: int | None, end_line: int | None, text: str, error: str = "") -> None:
        super().__init__()
        self.path = path
        self.start_line = start_line
        self.end_line = end_line
        self.text = text
        self.error = error

    def compose(self) -> ComposeResult:
        with Vertical(id="viewer"):
            yield Label(f"Source: {line_citation(self.path, self.start_line, self.end_line)}", id="viewer-title", markup=False)
            if self.error:
                yield Label(f"⚠ {self.error}", id="viewer-error", markup=False)
            area = TextArea(
                self.text,
                read_only=True,
                show_line_numbers=True,
                soft_wrap=True,
                line_number_start=self.start_line or 1,
                id="viewer-text",
            )
            yield area
            yield Label("Esc closes", id="viewer-help")

    def on_mount(self) -> None:
        self.query_one("#viewer-text", TextArea).focus()
