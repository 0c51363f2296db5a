"""Chat pane: user prompts, streamed agent replies, tool blocks, inline errors.

The Markdown-based widgets (``AgentResponse``, ``NoticeBlock``) live in ``markdown_blocks``
and are imported on first use: Markdown parsing is not needed for the first frame.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Collapsible, Static

from openclaw_tui.memory.api import SearchResult
from openclaw_tui.tui.format import one_line

if TYPE_CHECKING:
    from openclaw_tui.tui.widgets.markdown_blocks import AgentResponse, NoticeBlock


def __getattr__(name: str):
    if name in ("AgentResponse", "NoticeBlock"):
        from openclaw_tui.tui.widgets import markdown_blocks

        return getattr(markdown_blocks, name)
    raise AttributeError(name)


class CopyRequested(Message):
    """A focused message asked to be copied (``c`` or ``y`` on it)."""

    def __init__(self, text: str, what: str) -> None:
        super().__init__()
        self.text = text
        self.what = what


class Copyable:
    """A chat message that takes focus (click, Tab, Alt+↑ from the prompt) and copies
    itself: ``c``/``y`` copy, ↑/↓ move between messages, Esc goes back to the prompt."""

    COPY_KEYS = ("c", "y")
    copy_what = "message"

    @property
    def copy_source(self) -> str:
        raise NotImplementedError

    def copy_key(self, event: events.Key) -> bool:
        widget: Any = self
        if event.key in self.COPY_KEYS:
            widget.post_message(CopyRequested(self.copy_source, self.copy_what))
        elif event.key in ("up", "down"):
            siblings = [w for w in widget.parent.children if isinstance(w, Copyable) and getattr(w, "display", True)] if widget.parent else []
            i = siblings.index(self) if self in siblings else -1
            j = i + (-1 if event.key == "up" else 1)
            if 0 <= j < len(siblings):
                target: Any = siblings[j]
                target.focus()
                target.scroll_visible(animate=False)
        elif event.key == "escape":
            widget.screen.set_focus(None)
            widget.screen.query_one("#prompt").focus()
        else:
            return False
        event.stop()
        event.prevent_default()
        return True


class UserMessage(Copyable, Static, can_focus=True):
    DEFAULT_CLASSES = "user-message"
    copy_what = "your message"

    def __init__(self, text: str) -> None:
        super().__init__(text, markup=False)
        self.text = text

    @property
    def copy_source(self) -> str:
        return self.text

    def on_key(self, event: events.Key) -> None:
        self.copy_key(event)


def _pretty(value: Any, limit: int = 1500) -> str:
    if isinstance(value, SearchResult):  # memory_search's typed result: its JSON, timing included
        value = value.to_dict()
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, indent=2, default=str)
        except (TypeError, ValueError):
            text = repr(value)
    return text if len(text) <= limit else text[:limit] + "\n…"


def diff_text(diff: str) -> Text:
    """A unified diff with added lines green and removed lines red (literal, never markup)."""
    out = Text()
    for line in diff.splitlines():
        style = ""
        if line.startswith(("+++", "---", "@@")):
            style = "dim"
        elif line.startswith("+"):
            style = "green"
        elif line.startswith("-"):
            style = "red"
        out.append(line + "\n", style=style)
    return out


class ToolBlock(Collapsible):
    """One tool call and (when it arrives) its result, collapsed by default."""

    DEFAULT_CLASSES = "tool-block"

    def __init__(self, call_id: str, name: str, arguments: dict[str, Any]) -> None:
        self.call_id = call_id
        self.tool_name = name
        self.arguments = arguments
        args = ", ".join(f"{k}={one_line(repr(v), 40)}" for k, v in (arguments or {}).items())
        self._base_title = f"{name}({args})"
        self._args_view = Static(_pretty(arguments), classes="tool-args", markup=False)
        self._result_view = Static("…running", classes="tool-result", markup=False)
        super().__init__(self._args_view, self._result_view, title=Content(f"⚙ {self._base_title}"), collapsed=True)  # type: ignore[arg-type]  # Content: shown literally
        self.result: Any = None
        self.error: str | None = None
        self.diff = ""  # the change this call made to a memory file, when it made one
        self._change = ""

    def show_diff(self, diff: str, summary: str) -> None:
        """The tool changed a memory file: show what changed (the block stays collapsed)."""
        self.diff = diff
        self._change = f" — {one_line(summary, 50)}"
        self._result_view.update(diff_text(diff) if diff else Text("(no textual change)"))
        self.title = Content(f"✎ {self._base_title}{self._change}")  # type: ignore[assignment]

    def set_result(self, result: Any, error: str | None) -> None:
        self.result = result
        self.error = error
        if self.diff and not error:
            return  # the diff says more than {"ok": true}
        if error:
            self.title = Content(f"✗ {self._base_title} — {one_line(error, 60)}")  # type: ignore[assignment]  # literal, never markup
            self.add_class("-error")
            self._result_view.update(error)
        else:
            self.title = Content(f"✓ {self._base_title}")  # type: ignore[assignment]
            self._result_view.update(_pretty(result))


class MemoryChangeBlock(Collapsible):
    """A memory change no visible tool call shows (/undo, a flush): its diff, collapsed."""

    DEFAULT_CLASSES = "tool-block memory-change"

    def __init__(self, title: str, diff: str) -> None:
        self.diff = diff
        view = Static(diff_text(diff) if diff else Text("(no textual change)"), classes="tool-result")
        super().__init__(view, title=Content(title), collapsed=True)  # type: ignore[arg-type]


class ErrorBlock(Static):
    """An inline error with what the user can do about it."""

    DEFAULT_CLASSES = "error-block"

    def __init__(self, message: str, action: str = "") -> None:
        text = f"⚠ {message}"
        if action:
            text += f"\n→ {action}"
        super().__init__(text, markup=False)
        self.message = message
        self.action = action


class MarkLine(Static):
    """A short dimmed line where maintenance happened (flush, compaction, index run)."""

    DEFAULT_CLASSES = "chat-mark"

    def __init__(self, text: str) -> None:
        super().__init__(f"· {text}", markup=False)
        self.text = text


class MarkDetails(Collapsible):
    """What a maintenance run produced (the flush's stored text, the compaction summary),
    collapsed under its mark: Enter or a click opens it."""

    DEFAULT_CLASSES = "tool-block mark-details"

    def __init__(self, title: str, body: str) -> None:
        self.body = body
        super().__init__(Static(body, classes="tool-result", markup=False), title=Content(title), collapsed=True)  # type: ignore[arg-type]


class ChatView(VerticalScroll):
    """The scrolling conversation. Only renders; it holds no session logic.

    It follows the bottom (Textual's anchor) until the user scrolls up; then new messages
    do not move the view, and ``unseen`` says that something arrived below it.
    """

    class UnseenChanged(Message):
        def __init__(self, unseen: bool) -> None:
            super().__init__()
            self.unseen = unseen

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.unseen = False
        #: the last block of the running turn (its prompt first): the turn's replies, tool calls and
        #: memory changes go right below it, so a command typed meanwhile (its output at the end)
        #: does not come between a prompt and its reply (issue 37)
        self.turn_tail: Widget | None = None

    def on_mount(self) -> None:
        self.anchor()

    @property
    def following(self) -> bool:
        return not self._anchor_released

    def follow(self) -> None:
        """Stick to the bottom again (sending a prompt, End, the indicator)."""
        self.anchor()
        self._set_unseen(False)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if self.unseen and (self.following or new_value >= self.max_scroll_y):
            self._set_unseen(False)

    def _set_unseen(self, unseen: bool) -> None:
        if unseen != self.unseen:
            self.unseen = unseen
            self.post_message(self.UnseenChanged(unseen))

    def grew(self) -> None:
        """A message below grew (a streamed reply): scrolled up, say there is more below."""
        if not self.following:
            self._set_unseen(True)

    async def _add(self, widget: Widget, *, of_turn: bool = False) -> None:
        if not self.is_attached:
            return  # the app is quitting under a late message (Enter, then Ctrl+Q at once): nothing to show
        if not self.following:
            self._set_unseen(True)
        tail = self.turn_tail if of_turn and self.turn_tail is not None and self.turn_tail.parent is self else None
        if tail is not None and tail is not self.children[-1]:
            await self.mount(widget, after=tail)
        else:
            await self.mount(widget)
        if of_turn and self.turn_tail is not None:
            self.turn_tail = widget

    def begin_turn(self, prompt: Widget) -> None:
        """``prompt`` opens a turn: what the turn shows goes below it, in order."""
        self.turn_tail = prompt

    def end_turn(self) -> None:
        self.turn_tail = None

    async def add_user(self, text: str) -> UserMessage:
        w = UserMessage(text)
        await self._add(w)
        return w

    async def add_response(self) -> "AgentResponse":
        from openclaw_tui.tui.widgets.markdown_blocks import AgentResponse

        w = AgentResponse()
        await self._add(w, of_turn=True)
        return w

    async def add_tool(self, call_id: str, name: str, arguments: dict[str, Any]) -> ToolBlock:
        w = ToolBlock(call_id, name, arguments)
        await self._add(w, of_turn=True)
        return w

    async def add_memory_change(self, title: str, diff: str) -> MemoryChangeBlock:
        w = MemoryChangeBlock(title, diff)
        await self._add(w, of_turn=True)
        return w

    def find_tool(self, call_id: str) -> ToolBlock | None:
        for block in reversed(list(self.query(ToolBlock))):
            if block.call_id == call_id:
                return block
        return None

    async def add_error(self, message: str, action: str = "", *, of_turn: bool = False) -> ErrorBlock:
        w = ErrorBlock(message, action)
        await self._add(w, of_turn=of_turn)  # of_turn: the engine's, during a turn (stays in it)
        return w

    async def add_mark(self, text: str, *, of_turn: bool = False) -> MarkLine:
        w = MarkLine(text)
        await self._add(w, of_turn=of_turn)  # of_turn: the engine's, during a turn (stays in it)
        return w

    async def add_details(self, title: str, body: str, *, of_turn: bool = False) -> MarkDetails:
        w = MarkDetails(title, body)
        await self._add(w, of_turn=of_turn)  # of_turn: the engine's, during a turn (stays in it)
        return w

    async def add_notice(self, markdown: str) -> "NoticeBlock":
        from openclaw_tui.tui.widgets.markdown_blocks import NoticeBlock

        w = NoticeBlock(markdown)
        await self._add(w)
        return w

    async def clear(self) -> None:
        await self.remove_children()


__all__ = ["AgentResponse", "ChatView", "ErrorBlock", "MarkDetails", "MarkLine", "MemoryChangeBlock", "NoticeBlock", "ToolBlock", "UserMessage"]
