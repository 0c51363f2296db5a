"""Markdown widgets of the chat pane, imported on first use (not needed for the first frame)."""

from __future__ import annotations

from textual import events
from textual.widgets import Markdown
from textual.widgets._markdown import MarkdownStream

from openclaw_tui.tui.format import cancel_suffix
from openclaw_tui.tui.widgets.chat import Copyable


class AgentResponse(Copyable, Markdown, can_focus=True):
    """An agent reply streamed through ``Markdown.get_stream()``."""

    DEFAULT_CLASSES = "agent-response"
    copy_what = "the reply"

    def __init__(self) -> None:
        super().__init__("")
        self._stream: MarkdownStream | None = None
        self.streamed: list[str] = []
        self.finished = False
        self.reply = ""  # the reply's own text (no cancel mark): what a copy takes

    async def write(self, fragment: str) -> None:
        if self.finished or not fragment:
            return
        if self._stream is None:
            self._stream = Markdown.get_stream(self)
        self.streamed.append(fragment)
        await self._stream.write(fragment)

    async def finish(self, final_text: str, *, cancelled: bool = False) -> None:
        if self.finished:
            return
        self.finished = True
        if self._stream is not None:
            await self._stream.stop()
            self._stream = None
        streamed = "".join(self.streamed)
        self.reply = streamed
        if final_text and final_text.strip() != streamed.strip():
            # the engine may post-process (e.g. a reply not streamed): show the final text
            self.reply = final_text
            await self.update(final_text)
        elif not streamed and not final_text and not cancelled:
            self.add_class("-empty")  # hidden; a cancelled one stays, for its mark
        if cancelled:
            self.add_class("-cancelled")
            await self.append(cancel_suffix(self.reply))

    @property
    def text(self) -> str:
        return self.source

    @property
    def copy_source(self) -> str:
        return self.reply if self.finished else "".join(self.streamed)

    def on_key(self, event: events.Key) -> None:
        self.copy_key(event)


class NoticeBlock(Markdown):
    DEFAULT_CLASSES = "notice-block"
