"""Slash commands over the memory *files*: ``/memory open`` ($EDITOR, the app suspended),
``/memory history``, ``/memory restore`` (with the CLI's confirmation rule) and ``/init``."""

from __future__ import annotations

import asyncio
import functools
import os
import shlex
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING

from openclaw_tui import events as ev
from openclaw_tui.tui.format import one_line
from openclaw_tui.tui.messages import EngineEvent

if TYPE_CHECKING:
    from openclaw_tui.tui.commands.host import CommandHost
    from openclaw_tui.records.history import MemoryHistory

HISTORY_ROWS = 20


def today_note() -> str:
    return f"memory/{time.strftime('%Y-%m-%d')}.md"


def _editor() -> list[str] | None:
    raw = os.environ.get("VISUAL") or os.environ.get("EDITOR") or ""
    return shlex.split(raw) or None


async def open_in_editor(screen: "CommandHost", arg: str) -> None:
    """/memory open [file]: the file (default: today's daily note) in $VISUAL / $EDITOR."""
    from openclaw_tui.workspace.guard import PathRefused, normalize_rel, safe_join
    from openclaw_tui.workspace.privacy import hidden_for, is_private_key

    settings = screen.settings
    if settings.workspace_access != "rw":
        await screen.chat.add_error(f"/memory open needs a writable workspace (access is {settings.workspace_access})")
        return
    try:
        rel = normalize_rel(arg or today_note())
    except PathRefused as exc:
        await screen.chat.add_error(f"/memory open {arg}: {exc.reason}")
        return
    ws = Path(settings.workspace)
    if hidden_for(settings.session_key) and is_private_key(ws, rel):
        await screen.chat.add_error(f"{rel} is private to direct chats: not opened in a group session")
        return
    editor = _editor()
    if editor is None:
        await screen.chat.add_error("no editor: set $EDITOR (or $VISUAL), e.g. `export EDITOR=nano`, and restart")
        return
    try:
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        path = safe_join(ws, rel)  # no symlink or hardlink out of the workspace
    except PathRefused as exc:
        await screen.chat.add_error(f"/memory open {rel}: {exc.reason}")
        return
    before = path.read_bytes() if path.exists() else None
    code = _run_editor(screen, [*editor, str(path)])
    after = path.read_bytes() if path.exists() else None
    changed = "changed" if after != before else "unchanged"
    await screen.say(f"`{rel}` {changed} (editor exit {code}); the memory index picks it up on its next sync.")


def _run_editor(screen: "CommandHost", argv: list[str]) -> int:
    """Hand the terminal to the editor (the app suspended), then take it back."""
    from textual.app import SuspendNotSupported

    try:
        with screen.suspended():
            return subprocess.call(argv)
    except SuspendNotSupported:
        if not screen.headless:
            raise RuntimeError("this terminal cannot hand over to an editor; edit the file outside the app") from None
        return subprocess.call(argv, stdin=subprocess.DEVNULL)  # headless (tests): nothing to hand over


def _history(screen: "CommandHost") -> "MemoryHistory":
    from openclaw_tui.records.history import MemoryHistory

    return MemoryHistory.for_agent(screen.settings.agent_dir)


async def history(screen: "CommandHost", arg: str) -> None:
    """/memory history [file]: the newest kept changes, with the ids /memory restore takes."""
    from openclaw_tui.records.history_scope import refuse_private, visible
    from openclaw_tui.workspace.guard import PathRefused, normalize_rel

    settings = screen.settings
    try:
        rel = normalize_rel(arg) if arg else None
        if rel is not None:
            refuse_private(settings.workspace, settings.session_key, rel)
    except PathRefused as exc:
        await screen.chat.add_error(f"/memory history: {exc.reason}")
        return
    found = await asyncio.to_thread(_history(screen).entries, rel)
    entries = list(reversed(visible(settings.workspace, settings.session_key, found)))
    if not entries:
        await screen.say(f"No history for `{rel}` yet." if rel else "No memory changes recorded yet.")
        return
    rows = ["| id | when | file | change | by |", "|---|---|---|---|---|"]
    for e in entries[:HISTORY_ROWS]:
        when = time.strftime("%m-%d %H:%M", time.localtime(e.ts))
        who = (e.writer or e.actor) + (f" {e.session_id[:8]}" if e.session_id else "")
        rows.append(f"| `{e.id[:8]}` | {when} | `{e.path}` | {e.tool} {one_line(e.summary, 24)} | {who} |")
    more = f"\n\n{len(entries) - HISTORY_ROWS} older not shown." if len(entries) > HISTORY_ROWS else ""
    tip = "\n\n`/memory restore <file> --to <id>` brings back the version from *before* that change."
    await screen.say("**Memory history** (newest first)\n\n" + "\n".join(rows) + more + tip)


def _restore_args(arg: str) -> tuple[str, str | None, bool]:
    words = shlex.split(arg)
    yes = "--yes" in words
    words = [w for w in words if w != "--yes"]
    to = None
    if "--to" in words:
        i = words.index("--to")
        if i + 1 >= len(words):
            raise ValueError("usage: /memory restore <file> [--to ID] [--yes]")
        to = words[i + 1]
        del words[i : i + 2]
    if len(words) != 1:
        raise ValueError("usage: /memory restore <file> [--to ID] [--yes]")
    return words[0], to, yes


async def restore(screen: "CommandHost", arg: str) -> None:
    """/memory restore <file> [--to ID] [--yes]: a delete or a cut by more than half waits for --yes."""
    from openclaw_tui.records.change_diff import change_event
    from openclaw_tui.workspace.guard import PathRefused
    from openclaw_tui.records.history import ChangeOrigin, HistoryError
    from openclaw_tui.records.restore import restore_before
    from openclaw_tui.records.restore_plan import plan_restore

    try:
        path, to, yes = _restore_args(arg)
        settings = screen.settings
        store = _history(screen)
        plan = await asyncio.to_thread(functools.partial(plan_restore, settings.workspace, store, path, to,
                                                          session_key=settings.session_key))
        if plan.noop:
            await screen.say(plan.describe() + ".")
            return
        if plan.needs_confirmation and not yes:
            await screen.say(f"Not restored: {plan.describe()}.  \nTo go ahead: `/memory restore {plan.path} --to {plan.entry.id[:8]} --yes`")
            return
        origin = ChangeOrigin("user", screen.engine.session_id if screen.engine else "")
        change = await asyncio.to_thread(restore_before, settings.workspace, store, plan.entry, origin)
    except (HistoryError, ValueError) as exc:
        await screen.chat.add_error(str(exc))
        return
    except PathRefused as exc:
        await screen.chat.add_error(f"/memory restore: {exc.reason}")
        return
    screen.post_message(EngineEvent(change_event(change, actor="user")))


async def init_workspace(screen: "CommandHost", _arg: str) -> None:
    """/init: the template's files into the workspace (existing files are kept)."""
    from openclaw_tui.workspace.template import init_workspace as make

    dest = Path(screen.settings.workspace)
    try:
        created, kept = await asyncio.to_thread(make, dest)
    except OSError as exc:
        await screen.chat.add_error(f"cannot create workspace {dest}: {exc.strerror or exc}")
        return
    lines = [f"**Workspace** `{dest}`", ""]
    lines += [f"- created `{rel}`" for rel in created] + [f"- kept `{rel}` (exists)" for rel in kept]
    await screen.say("\n".join(lines))
    screen.emit(ev.Notice("info", f"/init: {len(created)} created, {len(kept)} kept"))
