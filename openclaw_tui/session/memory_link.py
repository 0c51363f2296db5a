"""Opening the memory backend for a session, and its session-start sync: one code path for
whoever hosts the memory object (the TUI app, which keeps it for the panel and the
``/memory`` commands; else the engine itself, for ``chat -p``, scenarios and tests).

Memory trouble never stops the chat: a backend that cannot open, or a sync that fails,
becomes one warning event and the session goes on (without memory, or with the old index).
"""

from __future__ import annotations

import asyncio

from openclaw_tui import events
from openclaw_tui.config import AgentSettings
from openclaw_tui.events import EventSink
from openclaw_tui.memory.api import MemoryBackend
from openclaw_tui.redaction import redact


def open_session_memory(settings: AgentSettings, sink: EventSink) -> MemoryBackend | None:
    """The memory backend (``memory/open.open_memory``), or None with a warning."""
    try:
        from openclaw_tui.memory.open import open_memory  # noqa: PLC0415 - memory loads on first use

        return open_memory(settings, sink=sink)
    except Exception as exc:  # noqa: BLE001 - memory trouble must not stop the chat
        sink(events.Notice("warning", f"memory unavailable: {redact(str(exc))}"))
        return None


def sync_at_session_start(memory: MemoryBackend | None, settings: AgentSettings, sink: EventSink) -> None:
    """``memorySearch.sync.onSessionStart``: bring the index up to date once, at the start."""
    if memory is None or not settings.memory_search.sync.on_session_start:
        return
    try:
        memory.sync(force=False, reason="session start")
    except Exception as exc:  # noqa: BLE001 - a failed sync leaves the old index usable
        sink(events.Notice("warning", f"memory sync failed: {redact(str(exc))}"))


class SessionMemory:
    """A session's memory backend: given by the host or opened on first use (then closed
    with the session), marked dirty when the session wrote a memory file, and re-synced
    before the next search so the model finds what it just wrote."""

    def __init__(self, settings: AgentSettings, emit: EventSink, memory: MemoryBackend | None = None):
        self.settings = settings
        self._emit = emit
        self.memory = memory
        self._own = memory is None  # a memory passed in is the host's (the app's) to close
        self._opened = memory is not None
        self.dirty = False

    def touch(self) -> None:
        self.dirty = True

    async def ensure(self, wanted: bool) -> bool:
        """Open (and session-start sync) on first use when no host gave one; True when it was opened now."""
        if self._opened or not wanted:
            return False
        self._opened = True
        self.memory = await asyncio.to_thread(open_session_memory, self.settings, self._emit)
        await asyncio.to_thread(sync_at_session_start, self.memory, self.settings, self._emit)
        return True

    async def before_search(self) -> None:
        memory = self.memory
        if self.dirty and memory is not None:
            self.dirty = False
            try:
                await asyncio.to_thread(lambda: memory.sync(force=False, reason="write"))
            except Exception as exc:  # noqa: BLE001
                self._emit(events.Notice("warning", f"memory sync failed: {exc}"))

    def close(self) -> None:
        if self._own and self.memory is not None:
            try:
                self.memory.close()
            except Exception:  # noqa: BLE001 - closing must not raise
                pass
            self.memory = None
