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
        #: what the queue waits for besides the reply ("flushing", "compacting": the upkeep after it)
        self.behind = ""

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

    def wait_behind(self, work: str) -> None:
        """The queue now waits for ``work`` ("" again: for the reply)."""
        self.behind = work
        self._show()

    def clear(self) -> None:
        self.items.clear()
        self._show()

    def _show(self) -> None:
        self.display = bool(self.items)
        if not self.items:
            self.update("")
            return
        width = max(20, (self.size.width or 80) - 8)
        when = f"{self.behind} — your message is queued, sent when it ends" if self.behind else "sent when the reply ends"
        head = f"queued ({len(self.items)}) · {when} · ↑ on an empty prompt edits the last"
        rows = [one_line(head, width + 4)]
        rows += [f"  {i}. {one_line(item, width)}" for i, item in enumerate(self.items, 1)]
        self.update("\n".join(rows))
