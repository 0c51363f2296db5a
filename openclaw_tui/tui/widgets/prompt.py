"""Prompt input: multi-line (paste keeps newlines), Enter sends, ↑/↓ history, Tab completes."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Callable

from textual import events
from textual.message import Message
from textual.widgets import TextArea

from openclaw_tui.language.secrets import redact_for_disk
from openclaw_tui.tui.commands import registry


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
            # owner-only, and a secret typed at the prompt kept as a marker, as in every memory file
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            with os.fdopen(fd, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(redact_for_disk(text).text, ensure_ascii=False) + "\n")
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
    #: Shift+Enter reaches the app only where the terminal reports it (tmux sends a plain
    #: Enter unless ``extended-keys`` is on): Alt+Enter and Ctrl+J work everywhere
    #: ("shift+\r": tmux's extended-keys form of Shift+Enter, CSI 27;2;13~)
    NEWLINE_KEYS = ("ctrl+j", "shift+enter", "alt+enter", "shift+\r")
    #: Enter typed before the app put the terminal in raw mode arrives as Ctrl+J (the tty
    #: turned its CR into LF): while the app is still starting, and at most this many
    #: seconds after mount, a Ctrl+J sends as Enter would (the prompt waits for the engine)
    EARLY_ENTER_S = 3.0
    #: placeholder hints, longest first: the widest that fits is shown (80 columns with
    #: the side panel cut the long one at "Ctrl+J")
    HINTS = (
        "Ask anything · / for commands · Ctrl+J new line · Ctrl+C cancels a reply",
        "Ask · / commands · Ctrl+J new line · Ctrl+C cancel",
        "Ask · / commands · Ctrl+J newline",
        "Ask · / commands",
    )

    class Submitted(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Completions(Message):
        """The text or the menu selection changed: the completions for a slash command
        prefix and the highlighted one (``None`` when nothing is highlighted)."""

        def __init__(self, text: str, completions: list[str], selected: int | None = None) -> None:
            super().__init__()
            self.text = text
            self.completions = completions
            self.selected = selected

    class JumpToBottom(Message):
        """End on an empty prompt: follow the chat again."""

    def __init__(self, *, history_path: Path | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("soft_wrap", True)
        kwargs.setdefault("show_line_numbers", False)
        kwargs.setdefault("tab_behavior", "focus")
        kwargs.setdefault("compact", True)
        kwargs.setdefault("placeholder", self.HINTS[0])
        super().__init__(**kwargs)
        self.prompt_history = PromptHistory(path=history_path)
        #: supplies argument values for completion (session ids for /resume, models for /model)
        self.arg_values: Callable[[str], list[str]] | None = None
        #: takes the newest queued prompt back for editing (↑ on an empty prompt)
        self.take_queued: Callable[[], str | None] | None = None
        self.menu: list[str] = []  # completions shown under the chat
        self.menu_index: int | None = None  # the highlighted completion
        self._mounted_at = time.monotonic()
        self.starting = True  # until the session engine is ready (set by the screen)

    def on_mount(self) -> None:
        self._mounted_at = time.monotonic()

    def on_resize(self) -> None:
        width = self.content_size.width - 1  # the cursor cell
        self.placeholder = next((h for h in self.HINTS if len(h) <= width), self.HINTS[-1])

    def use_history(self, path: Path | None) -> None:
        """Prompt history from ``path`` (known once the settings are read)."""
        if path != self.prompt_history.path:
            self.prompt_history = PromptHistory(path=path)

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
        early = key == "ctrl+j" and self.starting and time.monotonic() - self._mounted_at < self.EARLY_ENTER_S
        handled = self._menu_key(key) or self._edit_key("enter" if early else key)
        if handled:
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)

    def _edit_key(self, key: str) -> bool:
        """Enter, new line, Tab, history and End; True when the key was used."""
        if key == "enter":
            self.submit()
        elif key in self.NEWLINE_KEYS:
            self.action_newline()
        elif key == "tab":
            self._complete()  # Tab never moves focus out of the prompt
        elif key == "up" and self.cursor_location[0] == 0:
            return self._recall()
        elif key == "down" and self.cursor_location[0] == self.document.line_count - 1:
            got = self.prompt_history.next()
            if got is None:
                return False
            self._set(got)
        elif key == "end" and not self.text:
            self.post_message(self.JumpToBottom())
        else:
            return False
        return True

    def _recall(self) -> bool:
        """↑ on the first line: a queued prompt back for editing (empty prompt), else history."""
        if not self.text and self.take_queued is not None:
            queued = self.take_queued()
            if queued is not None:
                self._set(queued)
                return True
        got = self.prompt_history.prev(self.text)
        if got is None:
            return False
        self._set(got)
        return True

    def _menu_key(self, key: str) -> bool:
        """Keys of the open completion menu: ↑/↓ move, Enter takes, Esc closes."""
        if not self.menu:
            return False
        if key in ("up", "down"):
            step = -1 if key == "up" else 1
            start = -1 if self.menu_index is None and step == 1 else (self.menu_index or 0)
            self._highlight((start + step) % len(self.menu))
            return True
        if key == "enter" and self.menu_index is not None:
            self._take(self.menu[self.menu_index])
            return True
        if key == "escape":
            self._show_menu([], None)
            return True
        return False

    def _complete(self) -> None:
        """Tab: fill the common prefix; when there is none to add, move through the menu."""
        options = self.menu
        if not options:
            return
        common = registry.common_prefix(options)
        if len(options) == 1:
            self._set(options[0])
        elif len(common) > len(self.text):
            self._set(common)
        else:
            self._highlight(0 if self.menu_index is None else (self.menu_index + 1) % len(options))

    def _take(self, option: str) -> None:
        """Enter on a highlighted completion: fill it in; a command without an argument runs."""
        self._set(option)
        if not option.endswith(" ") and registry.is_slash(option) and option[1:] in registry.BY_NAME:
            self.submit()

    def _highlight(self, index: int | None) -> None:
        self._show_menu(self.menu, index)

    def _show_menu(self, options: list[str], index: int | None) -> None:
        self.menu = options
        self.menu_index = index if options else None
        self.post_message(self.Completions(self.text, options, self.menu_index))

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        text = self.text
        options = registry.complete(text, self.arg_values) if registry.is_slash(text) and "\n" not in text else []
        if [o.strip() for o in options] == [text.strip()]:
            options = []  # the command is complete: nothing left to offer
        self._show_menu(options, None)
