"""The tool box a session offers the model: the tool registry, schemas for a mode and one dispatcher.

``REGISTRY`` holds every tool of ours as a :class:`ToolSpec`: its name, schema, how it runs
and what running it means for the session (it needs the memory backend, it may change a
workspace file, it is the daily-log append or the memory lookup the local profile's auto
recall uses). ``ToolBox.run`` looks a call up there and runs the spec; the engine asks the
registry, never a tool name. File tools come from ``tools.files``; ``memory_search`` / ``memory_get`` from
``tools.memory_tools`` (the memory engine's handlers). The memory backend keeps MEMORY.md
out of group sessions (it is given the session key); a refusal is reported to ``on_refused``.
Tools of other programs (MCP servers, ``mcp/session_tools.py``) come from a
:class:`ToolSource` the session hands the tool box.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Iterable, Protocol

from openclaw_tui.memory.api import MemoryBackend, SearchResult
from openclaw_tui.tools import memory_tools
from openclaw_tui.tools.files import APPEND_SCHEMA, EDIT_SCHEMA, READ_SCHEMA, WRITE_SCHEMA, FileTools
from openclaw_tui.unicode_clean import clean_strings
from openclaw_tui.workspace.session_keys import PRIVATE_REFUSAL


#: what a tool answers: a JSON object, or a memory search's typed result (``for_model()`` is
#: what the model gets, ``session/compaction.tool_result_content``)
ToolOutput = dict[str, Any] | SearchResult


@dataclass(frozen=True)
class ToolFlags:
    """What running a tool means for the session."""

    memory: bool = False  # served by the memory backend (offered only when memory is on)
    writes: bool = False  # may change a workspace file (a memory file changed: re-sync the index)
    stores: bool = False  # appends to a file: the tool the store hint asks for
    recalls: bool = False  # the memory lookup that auto recall runs
    server: str = ""  # served by this MCP server (a ToolSource), "" for our own tools
    reads: bool = False  # reads given lines of a memory file: what trigger recall runs


class ToolRun(Protocol):
    """How a tool runs: its arguments (a JSON object) in the session's tool box, its answer out.
    ``recovered``: the model printed the call as text (stricter rules for bootstrap files)."""

    def __call__(self, box: ToolBox, args: dict[str, Any], recovered: bool, /) -> Awaitable[ToolOutput]: ...


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name, the schema the model is offered, how it runs and what it means.
    Registering a spec (:func:`register`) is all it takes to add a tool."""

    name: str
    schema: dict[str, Any]
    run: ToolRun
    flags: ToolFlags = ToolFlags()

    @property
    def memory(self) -> bool:
        return self.flags.memory

    @property
    def writes(self) -> bool:
        return self.flags.writes

    @property
    def stores(self) -> bool:
        return self.flags.stores

    @property
    def recalls(self) -> bool:
        return self.flags.recalls

    @property
    def reads(self) -> bool:
        return self.flags.reads

    @property
    def server(self) -> str:
        return self.flags.server


@dataclass(frozen=True)
class FileRun:
    """A file tool's run: the ``FileTools`` handler, in a thread (``FileTools.run`` finds it here)."""

    handler: Callable[[FileTools, dict[str, Any]], dict[str, Any]]

    async def __call__(self, box: ToolBox, args: dict[str, Any], recovered: bool, /) -> ToolOutput:
        return await asyncio.to_thread(box.files.run_handler, self.handler, args, recovered=recovered)


async def _memory_search(box: ToolBox, args: dict[str, Any], _recovered: bool, /) -> ToolOutput:
    return await box.memory_search(args)


async def _memory_get(box: ToolBox, args: dict[str, Any], _recovered: bool, /) -> ToolOutput:
    return await box.memory_get(args)


def _spec(schema: dict[str, Any], run: ToolRun, **flags: Any) -> ToolSpec:
    return ToolSpec(str(schema["function"]["name"]), schema, run, ToolFlags(**flags))


TOOLS: tuple[ToolSpec, ...] = (
    _spec(memory_tools.MEMORY_SEARCH_SCHEMA, _memory_search, memory=True, recalls=True),
    _spec(memory_tools.MEMORY_GET_SCHEMA, _memory_get, memory=True, reads=True),
    _spec(READ_SCHEMA, FileRun(FileTools.read)),
    _spec(WRITE_SCHEMA, FileRun(FileTools.write), writes=True),
    _spec(EDIT_SCHEMA, FileRun(FileTools.edit), writes=True),
    _spec(APPEND_SCHEMA, FileRun(FileTools.append), writes=True, stores=True),
)
#: every tool of ours by name, in the order offered: the one place a tool is known
REGISTRY: dict[str, ToolSpec] = {spec.name: spec for spec in TOOLS}


def register(spec: ToolSpec) -> None:
    """Add a tool: offered (its schema) and run (its ``run``) by every tool box from now on."""
    if spec.name in REGISTRY:
        raise ValueError(f"tool {spec.name!r} is registered already")
    REGISTRY[spec.name] = spec


def unregister(name: str) -> None:
    REGISTRY.pop(name, None)


def spec_for(name: str) -> ToolSpec | None:
    return REGISTRY.get(name)


def registered(schemas: Iterable[dict[str, Any]]) -> list[ToolSpec]:
    """The registry entries of the tools these schemas offer."""
    names = {s.get("function", {}).get("name") for s in schemas}
    return [spec for spec in REGISTRY.values() if spec.name in names]


def recall_tool() -> ToolSpec:
    return next(spec for spec in REGISTRY.values() if spec.recalls)


def read_tool() -> ToolSpec:
    return next(spec for spec in REGISTRY.values() if spec.reads)


class ToolSource(Protocol):
    """Tools served by another program (MCP servers): listed now, called by name."""

    def specs(self) -> list[ToolSpec]: ...

    async def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]: ...


class ToolBox:
    def __init__(
        self,
        files: FileTools,
        *,
        memory: MemoryBackend | None = None,
        memory_enabled: bool = True,
        session_key: str = "agent:main:main",
        on_search: Callable[[str, SearchResult], None] | None = None,
        before_search: Callable[[], Awaitable[None]] | None = None,
        extra: ToolSource | None = None,
    ):
        self.files = files
        self.memory = memory
        self.memory_enabled = memory_enabled
        self.session_key = session_key
        self.on_search = on_search
        self.before_search = before_search
        self.extra = extra

    @property
    def memory_available(self) -> bool:
        return self.memory_enabled and self.memory is not None

    def specs(self) -> list[ToolSpec]:
        """The tools this session offers now: ours (the memory tools when memory is on), then the source's."""
        if self.files.access == "none":
            return []
        own = [spec for spec in REGISTRY.values() if self.memory_available or not spec.memory]
        return own + self._extra_specs()

    def schemas(self) -> list[dict[str, Any]]:
        return [spec.schema for spec in self.specs()]

    def _extra_specs(self) -> list[ToolSpec]:
        """The source's tools; none in a flush turn (it may only append to today's log)."""
        return [] if self.extra is None or self.files.flush_mode else self.extra.specs()

    def names(self) -> set[str]:
        return {s["function"]["name"] for s in self.schemas()}

    # ------------------------------------------------------------------ memory

    async def memory_search(self, args: dict[str, Any]) -> SearchResult:
        query = str(args.get("query", ""))
        if not self.memory_available:
            result = SearchResult.refused("memory search is off in this session")
        else:
            if self.before_search is not None:
                await self.before_search()
            result = await asyncio.to_thread(memory_tools.run_memory_search, self.memory, args, session_key=self.session_key)
        if self.on_search is not None:
            self.on_search(query, result)
        return result

    async def memory_get(self, args: dict[str, Any]) -> dict[str, Any]:
        path = str(args.get("path", ""))
        if not self.memory_available:
            return {"path": path, "text": "", "disabled": True, "error": "memory is off in this session"}
        result = await asyncio.to_thread(memory_tools.run_memory_get, self.memory, args, session_key=self.session_key)
        if result.get("error") == PRIVATE_REFUSAL and self.files.on_refused:
            self.files.on_refused("memory_get", path, PRIVATE_REFUSAL)
        return result

    # ------------------------------------------------------------------ dispatch

    async def run(self, name: str, raw_args: str | dict[str, Any], *, recovered: bool = False) -> tuple[ToolOutput, str | None]:
        """Run one tool call; return (result, error-line or None). Never raises. ``recovered``:
        the model printed the call as text (stricter rules for bootstrap files)."""
        if isinstance(raw_args, dict):
            args: dict[str, Any] | None = raw_args
        else:
            try:
                args = json.loads(raw_args or "{}")
            except json.JSONDecodeError as exc:
                err = f"arguments for {name} are not valid JSON ({exc.msg})"
                return {"error": err}, err
            except RecursionError:
                err = f"arguments for {name} are nested too deeply to be a tool call"
                return {"error": err}, err
        if not isinstance(args, dict):
            err = f"arguments for {name} must be a JSON object"
            return {"error": err}, err
        spec = next((spec for spec in self.specs() if spec.name == name), None)
        if spec is None:
            err = f"tool {name!r} is not available in this session"
            return {"error": err}, err
        try:
            result = await spec.run(self, args, recovered)
        except Exception as exc:  # noqa: BLE001 - a tool must never break the turn
            err = f"{name} failed: {type(exc).__name__}: {exc}"
            return {"error": err}, err
        if isinstance(result, dict):
            result = clean_strings(result)  # a lone surrogate never reaches the next request (it cannot be encoded)
        failure = result.get("error") if isinstance(result, (dict, SearchResult)) else None
        return result, (str(failure) if failure else None)


__all__ = ["READ_SCHEMA", "REGISTRY", "TOOLS", "FileRun", "ToolBox", "ToolFlags", "ToolOutput", "ToolRun", "ToolSource",
           "ToolSpec", "recall_tool", "register", "registered", "spec_for", "unregister"]
