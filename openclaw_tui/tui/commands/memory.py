"""Slash commands about memory (search, status, index, undo, forget) and the snippet viewer.

They use the memory object the app hosts — the same index the engine searches.
"""

from __future__ import annotations

import asyncio
import shlex
from typing import TYPE_CHECKING

from openclaw_tui import events as ev
from openclaw_tui.memory.api import SYNC_FORGET
from openclaw_tui.tui.commands.host import live_engine
from openclaw_tui.tui.format import index_report_markdown, md_kv, memory_status_markdown
from openclaw_tui.tui.messages import EngineEvent

if TYPE_CHECKING:
    from openclaw_tui.memory.api import MemoryBackend
    from openclaw_tui.memory.forget import ForgetDone, ForgetPlan
    from openclaw_tui.tui.commands.host import CommandHost
    from openclaw_tui.tui.screens.viewer import SnippetViewer


def off_reason(screen: "CommandHost") -> str:
    if screen.settings.workspace_access == "none":
        return "memory is off: the workspace is not accessible (--workspace-access none)"
    return "memory is off for this agent (plugins.slots.memory or memorySearch.enabled)"


def _memory(screen: "CommandHost") -> "MemoryBackend":
    memory = screen.memory
    if memory is None:
        raise RuntimeError(off_reason(screen))
    return memory


async def search(screen: "CommandHost", arg: str) -> None:
    result = await live_engine(screen).memory_search(arg)
    # the engine may also emit MemoryRetrieved; this message is queued after it
    screen.post_message(EngineEvent(ev.MemoryRetrieved(query=arg, result=result)))


async def status(screen: "CommandHost", arg: str) -> None:
    data = dict(_memory(screen).status())  # the status's JSON object
    await screen.say(md_kv("Memory index", data) if arg == "--all" else memory_status_markdown(data))


async def index(screen: "CommandHost", arg: str) -> None:
    memory = _memory(screen)
    force = arg == "--force"
    screen.busy.set("indexing")
    try:
        result = await asyncio.to_thread(lambda: memory.sync(force=force))
    finally:
        screen.busy.set("")
    await screen.say(index_report_markdown(dict(result), force))


async def undo(screen: "CommandHost", _arg: str) -> None:
    from openclaw_tui.records.history import HistoryError  # noqa: PLC0415

    try:
        await asyncio.to_thread(live_engine(screen).undo_memory)  # the engine emits MemoryChanged
    except HistoryError as exc:
        await screen.chat.add_error(str(exc))


def _forget_plan(screen: "CommandHost", arg: str) -> "ForgetPlan":
    from openclaw_tui.memory.forget import ForgetError, plan_lines, plan_query  # noqa: PLC0415

    settings, key = screen.settings, live_engine(screen).session_key
    if not arg.lstrip().startswith("--"):
        return plan_query(settings.workspace, key, arg)
    words = shlex.split(arg)
    opts = dict(zip(words[::2], words[1::2]))
    if set(opts) != {"--path", "--lines"} or len(words) != 4:
        raise ForgetError("usage: /forget <words of the fact> or /forget --path P --lines A-B")
    return plan_lines(settings.workspace, key, opts["--path"], opts["--lines"])


async def forget(screen: "CommandHost", arg: str) -> None:
    """``/forget``: what would go, a yes/no question, then the removal (history first,
    tombstones), a MemoryChanged per file and a sync of the index."""
    from openclaw_tui.memory.forget import ForgetError, apply_forget  # noqa: PLC0415
    from openclaw_tui.tui.screens.confirm import Confirm  # noqa: PLC0415
    from openclaw_tui.records.change_diff import change_event  # noqa: PLC0415
    from openclaw_tui.workspace.tombstones import Tombstones  # noqa: PLC0415

    settings, engine = screen.settings, live_engine(screen)
    if engine.access != "rw":
        raise RuntimeError(f"/forget needs a writable workspace (workspace access is {engine.access})")
    try:
        plan = await asyncio.to_thread(_forget_plan, screen, arg)
    except ForgetError as exc:
        await screen.chat.add_error(str(exc))
        return
    if not await screen.ask(Confirm("Forget these lines?", plan.describe())):
        await screen.say("Nothing forgotten.")
        return
    tombstones = Tombstones.for_workspace(settings.workspace, settings.state_dir)
    try:
        done = await asyncio.to_thread(apply_forget, settings.workspace, engine.memory_history, plan, tombstones,
                                       session_key=engine.session_key, sessions_dir=settings.sessions_dir)
    except ForgetError as exc:
        await screen.chat.add_error(str(exc))
        return
    for change in done.changes:
        screen.post_message(EngineEvent(change_event(change, actor="user")))
    await screen.memory_panel.show_triggered([])  # it may list what just went
    live = engine.forgotten(done.stones)  # the prompt, the notes, the summary and the history lose it
    if screen.memory is not None:
        memory = screen.memory
        await asyncio.to_thread(lambda: memory.sync(reason=SYNC_FORGET))
    await screen.say(forget_report(done, live.total))


def forget_report(done: "ForgetDone", live_lines: int) -> str:
    """What /forget did, and what still holds the fact and how to drop it."""
    n = len(done.plan.targets)
    ids = ", ".join(f"`memory restore {c.path} --to {c.entry.id}`" for c in done.changes if c.entry)
    parts = [f"Forgot {n} entr{'y' if n == 1 else 'ies'}; {done.tombstones} tombstone(s) keep it from being stored again."]
    if live_lines or done.transcripts:
        parts.append(f"Taken out of this session ({live_lines} line(s): prompt, notes, summary, history) and of "
                     f"{len(done.transcripts)} saved transcript(s).")
    parts += [f"Still held: {line}." for line in done.still_held()]
    parts.append(f"To bring it back: {ids}")
    return " ".join(parts)


async def show_snippet(screen: "CommandHost", path: str, start: int | None, end: int | None) -> "SnippetViewer":
    """The memory panel's viewer: the lines of ``path`` from the memory backend."""
    from openclaw_tui.tui.screens.viewer import SnippetViewer

    text, error = "", ""
    memory = screen.memory
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
    await screen.show_modal(viewer)
    return viewer
