"""A modal list to pick from (``/resume`` and ``/model`` with no argument): ↑/↓, Enter, Esc or Ctrl+C."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from openclaw_tui.tui.screens.modal import ClosableModal


class Picker(ClosableModal[str | None]):
    """Dismisses with the chosen option's id, or None (Esc, Ctrl+C)."""

    DEFAULT_CSS = """
    Picker { align: center middle; }
    Picker > Vertical {
        width: 90%; max-width: 100; height: auto; max-height: 80%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    Picker OptionList { height: auto; max-height: 20; border: none; }
    Picker .picker-hint { color: $text-muted; }
    """

    def __init__(self, title: str, options: list[tuple[str, str]]) -> None:
        """``options``: (id, label) pairs; labels are shown literally (never markup)."""
        super().__init__()
        self.title_text = title
        self.options = options

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = self.title_text
            yield OptionList(*[Option(Content(label), id=oid) for oid, label in self.options])
            yield Static("↑/↓ choose · Enter picks · Esc closes", classes="picker-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)
