"""The tool boxes of a session: file tools bound to its workspace, access mode, session key and
memory history, and the registry's ``ToolBox`` over them (a normal turn's, or a flush's that
may only append to today's log)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Awaitable, Callable

from openclaw_tui import events
from openclaw_tui.config import AgentSettings
from openclaw_tui.events import EventSink
from openclaw_tui.language.secrets import withheld_phrase
from openclaw_tui.memory.api import MemoryBackend, SearchResult
from openclaw_tui.tools.files import FileTools
from openclaw_tui.tools.registry import ToolBox, ToolSource
from openclaw_tui.records.history import ChangeOrigin, MemoryHistory


class Toolsmith:
    def __init__(self, settings: AgentSettings, history: MemoryHistory, emit: EventSink, origin: Callable[[], ChangeOrigin]):
        self.settings = settings
        self.history = history
        self._emit = emit
        self._origin = origin

    def _on_refused(self, tool: str, path: str, reason: str) -> None:
        self._emit(events.AccessRefused(tool=tool, path=path, reason=reason))

    def _on_withheld(self, tool: str, path: str, kinds: tuple[str, ...]) -> None:
        self._emit(events.Notice("warning", f"{path}: kept without {withheld_phrase(kinds)}, which a marker stands in for "
                                            "(secrets are never written to memory in plain text)"))

    def file_tools(self, **mode: Any) -> FileTools:
        return FileTools(
            Path(self.settings.workspace),
            access=self.settings.workspace_access,
            session_key=self.settings.session_key,
            on_refused=self._on_refused,
            on_withheld=self._on_withheld,
            history=self.history,
            origin=self._origin,
            **mode,
        )

    def _on_search(self, query: str, result: SearchResult) -> None:
        self._emit(events.MemoryRetrieved(query=query, result=result))

    def toolbox(self, files: FileTools, *, memory: MemoryBackend | None, memory_enabled: bool,
                before_search: Callable[[], Awaitable[None]], extra: ToolSource | None = None) -> ToolBox:
        """``extra``: more tools from outside (a ``ToolSource``: the session's MCP servers).
        Every search (a tool call, ``/memory search``) is reported as ``MemoryRetrieved``."""
        return ToolBox(
            files,
            memory=memory,
            memory_enabled=memory_enabled,
            session_key=self.settings.session_key,
            on_search=self._on_search,
            before_search=before_search,
            extra=extra,
        )
