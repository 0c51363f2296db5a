"""The tool box a session offers the model: schemas for a mode and one dispatcher.

File tools come from ``tools.files``; ``memory_search`` / ``memory_get`` from
``tools.memory_tools`` (the memory engine's handlers). The memory backend keeps MEMORY.md
out of group sessions (it is given the session key); a refusal is reported to ``on_refused``.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Awaitable, Callable

from openclaw_tui.memory.api import MemoryBackend
from openclaw_tui.tools.files import FILE_SCHEMAS, READ_SCHEMA, FileTools
from openclaw_tui.workspace.session_keys import PRIVATE_REFUSAL



def _memory_tools_module() -> Any:
    try:
        from openclaw_tui.tools import memory_tools  # noqa: PLC0415
    except ImportError:
        return None
    return memory_tools


class ToolBox:
    def __init__(
        self,
        files: FileTools,
        *,
        memory: MemoryBackend | None = None,
        memory_enabled: bool = True,
        session_key: str = "agent:main:main",
        on_search: Callable[[str, dict[str, Any]], None] | None = None,
        before_search: Callable[[], Awaitable[None]] | None = None,
    ):
        self.files = files
        self.memory = memory
        self.memory_enabled = memory_enabled
        self.session_key = session_key
        self.on_search = on_search
        self.before_search = before_search
        self._mt = _memory_tools_module() if memory_enabled else None

    @property
    def memory_available(self) -> bool:
        return self.memory_enabled and self.memory is not None and self._mt is not None

    def schemas(self) -> list[dict[str, Any]]:
        if self.files.access == "none":
            return []
        out: list[dict[str, Any]] = []
        if self.memory_available:
            out += [self._mt.MEMORY_SEARCH_SCHEMA, self._mt.MEMORY_GET_SCHEMA]
        out += list(FILE_SCHEMAS)
        return out

    def names(self) -> set[str]:
        return {s["function"]["name"] for s in self.schemas()}

    # ------------------------------------------------------------------ memory

    async def memory_search(self, args: dict[str, Any]) -> dict[str, Any]:
        query = str(args.get("query", ""))
        if not self.memory_available:
            result: dict[str, Any] = {"results": [], "disabled": True, "error": "memory search is off in this session"}
        else:
            if self.before_search is not None:
                await self.before_search()
            result = await asyncio.to_thread(self._mt.run_memory_search, self.memory, args, session_key=self.session_key)
        if self.on_search is not None:
            self.on_search(query, result)
        return result

    async def memory_get(self, args: dict[str, Any]) -> dict[str, Any]:
        path = str(args.get("path", ""))
        if not self.memory_available:
            return {"path": path, "text": "", "disabled": True, "error": "memory is off in this session"}
        result = await asyncio.to_thread(self._mt.run_memory_get, self.memory, args, session_key=self.session_key)
        if result.get("error") == PRIVATE_REFUSAL and self.files.on_refused:
            self.files.on_refused("memory_get", path, PRIVATE_REFUSAL)
        return result

    # ------------------------------------------------------------------ dispatch

    async def run(self, name: str, raw_args: str | dict[str, Any]) -> tuple[dict[str, Any], str | None]:
        """Run one tool call; return (result, error-line or None). Never raises."""
        if isinstance(raw_args, dict):
            args: dict[str, Any] | None = raw_args
        else:
            try:
                args = json.loads(raw_args or "{}")
            except ValueError as exc:
                err = f"arguments for {name} are not valid JSON ({exc.msg})"
                return {"error": err}, err
        if not isinstance(args, dict):
            err = f"arguments for {name} must be a JSON object"
            return {"error": err}, err
        if name not in self.names():
            err = f"tool {name!r} is not available in this session"
            return {"error": err}, err
        try:
            if name == "memory_search":
                result = await self.memory_search(args)
            elif name == "memory_get":
                result = await self.memory_get(args)
            else:
                result = await asyncio.to_thread(self.files.run, name, args)
        except Exception as exc:  # noqa: BLE001 - a tool must never break the turn
            err = f"{name} failed: {type(exc).__name__}: {exc}"
            return {"error": err}, err
        err = result.get("error") if isinstance(result, dict) else None
        return result, (str(err) if err else None)


__all__ = ["ToolBox", "READ_SCHEMA"]
