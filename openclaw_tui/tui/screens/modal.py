"""The base of the app's modal screens: Esc or Ctrl+C closes them, as Ctrl+C cancels
elsewhere in the app (Textual's default answered Ctrl+C in a modal with a "press ctrl+q
to quit" hint). With text selected in the focused field, Ctrl+C copies it instead."""

from __future__ import annotations

from typing import TypeVar

from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Input, TextArea

ResultT = TypeVar("ResultT")


class ClosableModal(ModalScreen[ResultT]):
    """Dismisses with None on Esc or Ctrl+C."""

    BINDINGS = [
        Binding("escape", "close", "close"),
        Binding("ctrl+c", "interrupt", "close", show=False, priority=True),
    ]

    def action_close(self) -> None:
        self.dismiss(None)

    def action_interrupt(self) -> None:
        focused = self.focused
        if isinstance(focused, (Input, TextArea)) and focused.selected_text:
            focused.action_copy()
            return
        self.action_close()
