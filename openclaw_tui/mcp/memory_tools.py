"""The memory tools ``openclaw-tui mcp serve`` offers, without the SDK (``server.py`` serves them).

Four small tools over the agent's memory backend: ``memory_search``, ``memory_get``,
``memory_status`` and, only with ``--allow-append`` in a writable workspace,
``memory_append`` (today's daily log only). They answer exactly what ``openclaw-tui
memory search|get|status --json`` prints, through the same handlers the chat's tools use
(``tools/memory_tools.py``); the append goes through the chat's ``FileTools`` (safe write,
memory history). The session key's rules hold in every tool: the backends keep MEMORY.md
from a group key. Nothing here raises: a broken index or provider is the call's error, and
a backend that could not open is tried again at the next call.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from openclaw_tui import events
from openclaw_tui.config import AgentSettings
from openclaw_tui.memory.api import MemoryBackend
from openclaw_tui.redaction import redact
from openclaw_tui.tools import memory_tools
from openclaw_tui.tools.files import FileTools
from openclaw_tui.records.history import ChangeOrigin, MemoryHistory

log = logging.getLogger("openclaw_tui.mcp")
REOPEN_AFTER_S = 5.0  # a backend that failed to open is tried again after this long

_INT = {"type": "integer", "minimum": 1}
TOOL_DEFS: dict[str, tuple[str, dict[str, Any], list[str]]] = {
    "memory_search": (
        "Search the user's Markdown memory (MEMORY.md, memory/*.md). Ranked snippets with path, lines, score and a Source: citation.",
        {"query": {"type": "string"}, "maxResults": {**_INT, "maximum": 100}, "minScore": {"type": "number", "minimum": 0, "maximum": 1}},
        ["query"],
    ),
    "memory_get": (
        "Read lines of a memory file (a path from memory_search).",
        {"path": {"type": "string"}, "from": _INT, "lines": _INT},
        ["path"],
    ),
    "memory_status": ("Memory index status: files, chunks, search mode.", {}, []),
    "memory_append": ("Append a note to today's daily log (memory/YYYY-MM-DD.md).", {"text": {"type": "string"}}, ["text"]),
}


def tool_definitions(names: list[str]) -> list[dict[str, Any]]:
    """``{name, description, inputSchema}`` for each tool, as tools/list sends them."""
    out = []
    for name in names:
        description, props, required = TOOL_DEFS[name]
        schema: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
        if required:
            schema["required"] = required
        out.append({"name": name, "description": description, "inputSchema": schema})
    return out


class MemoryService:
    def __init__(self, settings: AgentSettings, *, allow_append: bool = False, memory: MemoryBackend | None = None):
        self.settings = settings
        self.allow_append = allow_append
        self.origin = ChangeOrigin("model", f"mcp-{uuid.uuid4().hex[:8]}", 0)
        self._memory = memory
        self._lock = threading.Lock()  # one backend call at a time (the watcher syncs on its own thread)
        self._open_error = ""
        self._failed_at = 0.0
        self._files = FileTools(
            Path(settings.workspace), access=settings.workspace_access, session_key=settings.session_key,
            history=MemoryHistory.for_agent(settings.agent_dir), origin=lambda: self.origin,
        )

    @property
    def appends(self) -> bool:
        """Whether memory_append is offered: asked for, in a writable workspace."""
        return self.allow_append and self.settings.workspace_access == "rw"

    def tool_names(self) -> list[str]:
        return ["memory_search", "memory_get", "memory_status"] + (["memory_append"] if self.appends else [])

    # ------------------------------------------------------------------ the backend

    def open(self) -> None:
        """Open the backend, bring the index up to date, and keep it fresh (file watcher)."""
        with self._lock:
            self._backend()

    def _backend(self) -> MemoryBackend | None:
        if self._memory is not None:
            return self._memory
        if self._failed_at and time.monotonic() - self._failed_at < REOPEN_AFTER_S:
            return None
        try:
            from openclaw_tui.memory.open import open_memory  # noqa: PLC0415

            memory = open_memory(self.settings, sink=_log_event)
            if memory.is_dirty():
                memory.sync(reason="mcp serve")
            if self.settings.memory_search.sync.watch:
                memory.start_watcher()
        except Exception as exc:  # noqa: BLE001 - reported by every call until it opens
            self._open_error, self._failed_at = redact(f"{type(exc).__name__}: {exc}"), time.monotonic()
            log.warning("memory unavailable: %s", self._open_error)
            return None
        self._memory, self._open_error, self._failed_at = memory, "", 0.0
        return memory

    def close(self) -> None:
        with self._lock:
            if self._memory is not None:
                try:
                    self._memory.close()
                except Exception:  # noqa: BLE001 - closing must not raise
                    pass
                self._memory = None

    # ------------------------------------------------------------------ calls

    def call(self, name: str, args: dict[str, Any] | None) -> tuple[dict[str, Any], bool]:
        """Run one tool: (the JSON object answered, whether it is an error)."""
        args = args if isinstance(args, dict) else {}
        if name == "memory_append":
            return self._append(args)
        if name not in TOOL_DEFS:
            return {"error": f"unknown tool {name!r}"}, True
        with self._lock:
            memory = self._backend()
            if memory is None:
                return {"error": f"memory is unavailable: {self._open_error or 'the index could not be opened'}; retry later"}, True
            try:
                result = self._run(name, memory, args)
            except Exception as exc:  # noqa: BLE001 - a broken index is this call's error, never the server's end
                return {"error": redact(f"{name} failed: {type(exc).__name__}: {exc}")}, True
        return result, bool(result.get("error"))

    def _run(self, name: str, memory: MemoryBackend, args: dict[str, Any]) -> dict[str, Any]:
        key = self.settings.session_key
        if name == "memory_status":
            return dict(memory.status())
        if name == "memory_get":
            return memory_tools.run_memory_get(memory, args, session_key=key)
        if memory.is_dirty():  # as `memory search` does: what was just written is found
            memory.sync(reason="mcp search")
        return memory_tools.run_memory_search(memory, args, session_key=key).to_dict()

    def _append(self, args: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        if self.settings.workspace_access != "rw":
            return {"error": f"memory_append refused: the workspace is {self.settings.workspace_access} (--workspace-access)"}, True
        if not self.allow_append:
            return {"error": "memory_append refused: the server is read-only; start it with --allow-append"}, True
        text = args.get("text")
        if not isinstance(text, str) or not text.strip():
            return {"error": "memory_append needs a non-empty string 'text'"}, True
        result = self._files.run("append", {"path": self._files.today_rel(), "content": text})  # the key's tier
        if not result.get("error"):
            self._files.changes.clear()  # kept in the memory history already; nothing here reads them
        return result, bool(result.get("error"))


def _log_event(event: events.Event) -> None:
    if isinstance(event, events.Notice) and event.level in ("warning", "error"):
        log.warning("%s", event.message)
