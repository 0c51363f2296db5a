"""Prompts typed while a reply runs: shown above the input, sent in order when it ends."""

from __future__ import annotations

from textual.widgets import Static

from openclaw_tui.tui.format import one_line


class PromptQueue(Static):
    """The queued prompts, oldest first. Hidden while empty."""

    DEFAULT_CLASSES = "prompt-queue"

    def __init__(self, **kwargs) -> None:
        super().__init__("", markup=False, **kwargs)
        self.items: list[str] = []
        self.display = False

    def push(self, text: str) -> None:
        self.items.append(text)
        self._show()

    def pop_next(self) -> str | None:
        """The oldest prompt, to send now."""
        if not self.items:
            return None
        item = self.items.pop(0)
        self._show()
        return item

    def take_last(self) -> str | None:
        """The newest prompt, taken back for editing (it leaves the queue)."""
        if not self.items:
            return None
        item = self.items.pop()
        self._show()
        return item

    def clear(self) -> None:
        self.items.clear()
        self._show()

    def _show(self) -> None:
        self.display = bool(self.items)
        if not self.items:
            self.update("")
            return
        width = max(20, (self.size.width or 80) - 8)
        head = f"queued ({len(self.items)}) · sent when the reply ends · ↑ on an empty prompt edits the last"
        rows = [one_line(head, width + 4)]
        rows += [f"  {i}. {one_line(item, width)}" for i, item in enumerate(self.items, 1)]
        self.update("\n".join(rows))
