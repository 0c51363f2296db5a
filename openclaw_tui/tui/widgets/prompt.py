"""Prompt input: multi-line (paste keeps newlines), Enter sends, ↑/↓ history, Tab completes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from textual import events
from textual.message import Message
from textual.widgets import TextArea

from openclaw_tui.tui import slash


class PromptHistory:
    """Submitted prompts, newest last; ``prev``/``next`` walk it keeping an unsent draft.

    With ``path``, prompts persist across runs as JSON lines (one prompt a line, so
    multi-line prompts survive); an unreadable or unwritable file only disables that.
    """

    def __init__(self, limit: int = 500, path: Path | None = None) -> None:
        self.items: list[str] = []
        self.limit = limit
        self.path = path
        self._pos: int | None = None
        self._draft = ""
        if path is not None:
            self._load(path)

    def _load(self, path: Path) -> None:
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return
        for line in lines[-(self.limit + 10) :]:
            try:
                item = json.loads(line)
            except ValueError:
                continue  # a torn or foreign line
            if isinstance(item, str) and item.strip():
                self.items.append(item)
        del self.items[: -self.limit]

    def add(self, text: str) -> None:
        if text.strip() and (not self.items or self.items[-1] != text):
            self.items.append(text)
            del self.items[: -self.limit]
            self._save(text)
        self._pos = None

    def _save(self, text: str) -> None:
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(text, ensure_ascii=False) + "\n")
        except OSError:
            self.path = None  # keep working in memory

    def prev(self, current: str) -> str | None:
        if not self.items:
            return None
        if self._pos is None:
            self._draft = current
            self._pos = len(self.items) - 1
        elif self._pos > 0:
            self._pos -= 1
        else:
            return None
        return self.items[self._pos]

    def next(self) -> str | None:
        if self._pos is None:
            return None
        if self._pos < len(self.items) - 1:
            self._pos += 1
            return self.items[self._pos]
        self._pos = None
        return self._draft


class PromptInput(TextArea):
    # Ctrl+J / Shift+Enter are handled in ``_on_key``, not as bindings: a binding runs after
    # the keys already queued behind it, so in a burst of input ("a", Ctrl+J, "b") the new
    # line landed after the "b".
    NEWLINE_KEYS = ("ctrl+j", "shift+enter")

    class Submitted(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Completions(Message):
        """The text changed; carries the completions for a slash command prefix."""

        def __init__(self, text: str, completions: list[str]) -> None:
            super().__init__()
            self.text = text
            self.completions = completions

    def __init__(self, *, history_path: Path | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("soft_wrap", True)
        kwargs.setdefault("show_line_numbers", False)
        kwargs.setdefault("tab_behavior", "focus")
        kwargs.setdefault("compact", True)
        kwargs.setdefault("placeholder", "Ask anything · / for commands · Ctrl+J new line · Esc cancels a reply")
        super().__init__(**kwargs)
        self.prompt_history = PromptHistory(path=history_path)
        #: supplies argument values for completion (session ids for /resume, models for /model)
        self.arg_values: Callable[[str], list[str]] | None = None

    def action_newline(self) -> None:
        self.insert("\n")

    def submit(self) -> None:
        text = self.text
        if not text.strip():
            return
        self.prompt_history.add(text)
        self.clear()
        self.post_message(self.Submitted(text))

    def _set(self, text: str) -> None:
        self.load_text(text)
        self.move_cursor(self.document.end)

    async def _on_key(self, event: events.Key) -> None:
        key = event.key
        if key == "enter":
            event.stop()
            event.prevent_default()
            self.submit()
            return
        if key in self.NEWLINE_KEYS:
            event.stop()
            event.prevent_default()
            self.action_newline()
            return
        if key == "tab":
            options = slash.complete(self.text, self.arg_values) if "\n" not in self.text else []
            if options:
                event.stop()
                event.prevent_default()
                common = slash.common_prefix(options)
                self._set(common if len(common) > len(self.text) else options[0])
                return
        if key == "up" and self.cursor_location[0] == 0:
            got = self.prompt_history.prev(self.text)
            if got is not None:
                event.stop()
                event.prevent_default()
                self._set(got)
                return
        if key == "down" and self.cursor_location[0] == self.document.line_count - 1:
            got = self.prompt_history.next()
            if got is not None:
                event.stop()
                event.prevent_default()
                self._set(got)
                return
        await super()._on_key(event)

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        text = self.text
        options = slash.complete(text, self.arg_values) if slash.is_slash(text) and "\n" not in text else []
        self.post_message(self.Completions(text, options))
