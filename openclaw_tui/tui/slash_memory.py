"""Slash commands about memory (search, status, index, undo) and the snippet viewer.

They use the memory object the app hosts — the same index the engine searches.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from openclaw_tui import events as ev
from openclaw_tui.tui.format import index_report_markdown, md_kv, memory_status_markdown
from openclaw_tui.tui.messages import EngineEvent

if TYPE_CHECKING:
    from openclaw_tui.memory.api import MemoryBackend
    from openclaw_tui.tui.screens.main import MainScreen
    from openclaw_tui.tui.screens.viewer import SnippetViewer


def off_reason(screen: "MainScreen") -> str:
    if screen.oc_app.settings.workspace_access == "none":
        return "memory is off: the workspace is not accessible (--workspace-access none)"
    return "memory is off for this agent (plugins.slots.memory or memorySearch.enabled)"


def _memory(screen: "MainScreen") -> "MemoryBackend":
    memory = screen.oc_app.memory
    if memory is None:
        raise RuntimeError(off_reason(screen))
    return memory


async def search(screen: "MainScreen", arg: str) -> None:
    result = await screen.engine.memory_search(arg)
    # the engine may also emit MemoryRetrieved; this message is queued after it
    screen.post_message(EngineEvent(ev.MemoryRetrieved(query=arg, result=result)))


async def status(screen: "MainScreen", arg: str) -> None:
    data = dict(_memory(screen).status())  # the status's JSON object
    await screen.say(md_kv("Memory index", data) if arg == "--all" else memory_status_markdown(data))


async def index(screen: "MainScreen", arg: str) -> None:
    memory = _memory(screen)
    force = arg == "--force"
    screen.busy.set("indexing")
    try:
        result = await asyncio.to_thread(lambda: memory.sync(force=force))
    finally:
        screen.busy.set("")
    await screen.say(index_report_markdown(dict(result), force))


async def undo(screen: "MainScreen", _arg: str) -> None:
    from openclaw_tui.workspace.history import HistoryError  # noqa: PLC0415

    try:
        await asyncio.to_thread(screen.engine.undo_memory)  # the engine emits MemoryChanged
    except HistoryError as exc:
        await screen.chat.add_error(str(exc))


async def show_snippet(screen: "MainScreen", path: str, start: int | None, end: int | None) -> "SnippetViewer":
    """The memory panel's viewer: the lines of ``path`` from the memory backend."""
    from openclaw_tui.tui.screens.viewer import SnippetViewer

    text, error = "", ""
    memory = screen.oc_app.memory
    if memory is None:
        error = off_reason(screen) + " — memory_get unavailable"
    else:
        lines = (end - start + 1) if (start and end and end >= start) else None
        try:
            got = memory.get(path, start, lines)  # never raises; the read's JSON keys
            text, error = str(got.get("text") or ""), str(got.get("error") or "")
        except Exception as exc:  # noqa: BLE001
            error = str(exc)
        if not text and not error:
            error = f"{path} is empty or no longer exists"
    viewer = SnippetViewer(path, start, end, text, error)
    await screen.app.push_screen(viewer)
    return viewer
