"""A yes/no question in a modal: ``/forget`` shows what would go and asks before removing
it. ``y``/Enter on "Forget" confirms; ``n``, Esc or Ctrl+C keeps everything."""

from __future__ import annotations

from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Label, Static

from openclaw_tui.tui.screens.modal import ClosableModal


class Confirm(ClosableModal[bool | None]):
    DEFAULT_CSS = """
    Confirm { align: center middle; }
    Confirm > Vertical {
        width: 90%; max-width: 100; height: auto; max-height: 80%;
        border: round $error; background: $surface; padding: 0 1;
    }
    Confirm #confirm-body { height: auto; max-height: 20; overflow-y: auto; margin: 1 0; }
    Confirm Horizontal { height: auto; align: right middle; }
    Confirm Button { margin-left: 1; }
    """
    BINDINGS = [
        *ClosableModal.BINDINGS,
        Binding("y", "answer(True)", "yes"),
        Binding("n", "answer(False)", "no"),
    ]

    def __init__(self, title: str, body: str, yes: str = "Forget", no: str = "Keep") -> None:
        """``body`` is shown literally (never markup)."""
        super().__init__()
        self.title_text, self.body, self.yes, self.no = title, body, yes, no

    def compose(self):
        with Vertical():
            yield Label(Content(self.title_text), id="confirm-title")
            yield Static(Content(self.body), id="confirm-body")
            with Horizontal():
                yield Button(f"{self.no} (n)", id="confirm-no")
                yield Button(f"{self.yes} (y)", id="confirm-yes", variant="error")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()  # the safe answer has the focus

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm-yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
