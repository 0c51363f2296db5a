"""What a front end (the TUI, ``chat -p``, scenarios) may use of a session engine.

``SessionEngine`` satisfies :class:`EngineSurface` (checked by a test); a UI types its
engine with it and needs no ``getattr`` probing. Everything the engine has to say comes as
``openclaw_tui.events`` through the sink it was built with; these are the calls the other
way. Calls that change the session (``new_session``, ``resume``, ``set_model``,
``undo_memory``) raise ``RuntimeError`` while a turn runs and ``ValueError`` for a bad
argument.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, Sequence, runtime_checkable

from openclaw_tui import events
from openclaw_tui.memory.api import SearchResult

if TYPE_CHECKING:
    from openclaw_tui.mcp.session_tools import McpTools
    from openclaw_tui.records.history import MemoryHistory
    from openclaw_tui.session.forget_live import LiveScrub
    from openclaw_tui.workspace.tombstones import Tombstone

#: appended to a reply the user cancelled, kept in the history that way
CANCEL_MARK = "[answer interrupted by the user]"


@dataclass
class TurnResult:
    text: str  # visible reply ("" when NO_REPLY)
    session_id: str
    cancelled: bool = False
    error: str | None = None  # one-line provider error, when the turn ended on one
    usage: events.TokenUsage | None = None
    flushed: bool = False
    compacted: bool = False
    no_reply: bool = False


@runtime_checkable
class EngineSurface(Protocol):
    # ------------------------------------------------------------------ what the session is
    session_id: str
    #: the MCP servers of ``mcp.servers`` (``/mcp``: ``await mcp.ensure()``, then ``mcp.status()``)
    mcp: McpTools
    #: the kept versions of the memory files (``/forget`` removes lines through it)
    memory_history: MemoryHistory

    @property
    def access(self) -> str:
        """The workspace access: "rw", "ro" or "none"."""

    @property
    def session_key(self) -> str: ...

    @property
    def model_label(self) -> str: ...

    @property
    def is_offline(self) -> bool: ...

    @property
    def memory_tools_on(self) -> bool: ...

    @property
    def busy(self) -> bool: ...

    @property
    def history(self) -> list[dict[str, Any]]: ...

    @property
    def summary(self) -> str: ...

    @property
    def transcript_path(self) -> Path: ...

    def token_snapshot(self) -> events.TokenUsage: ...

    def counters(self) -> dict[str, Any]: ...

    def list_sessions(self) -> list[dict[str, Any]]: ...

    # ------------------------------------------------------------------ turns and commands
    async def send(self, text: str) -> TurnResult: ...

    def cancel(self) -> None: ...

    async def compact(self, instructions: str | None = None) -> None: ...

    async def flush(self) -> None: ...

    async def memory_search(self, query: str) -> SearchResult: ...

    def undo_memory(self) -> events.MemoryChanged: ...

    def forgotten(self, stones: "Sequence[Tombstone]") -> "LiveScrub":
        """A forget's facts leave what the session holds (prompt, notes, summary, history)."""
        ...

    def new_session(self) -> str: ...

    def resume(self, session_id: str) -> None: ...

    def set_model(self, model: str) -> None: ...

    # ------------------------------------------------------------------ lifecycle
    async def warm_up(self) -> None: ...

    def close(self) -> None: ...
