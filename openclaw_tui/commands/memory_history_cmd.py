"""``openclaw-tui memory history [PATH]`` and ``memory restore PATH [--to ID]``.

History lives in ``<stateDir>/agents/<agentId>/memory-history`` (``workspace.history``);
neither command opens the memory index.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from openclaw_tui.commands.common import fail, print_json
from openclaw_tui.config import AgentSettings
from openclaw_tui.workspace.guard import PathRefused, normalize_rel
from openclaw_tui.workspace.history import ChangeOrigin, HistoryEntry, HistoryError, MemoryHistory, digest
from openclaw_tui.workspace.restore import current, latest_for, restore_before
from openclaw_tui.workspace.tombstones import Tombstones


def run(args: argparse.Namespace, settings: AgentSettings) -> int:
    history = MemoryHistory.for_agent(settings.agent_dir)
    try:
        if args.memory_command == "history":
            return _history(history, args)
        return _restore(history, settings, args)
    except (HistoryError, PathRefused) as exc:
        return fail(getattr(exc, "reason", None) or str(exc))


def _row(entry: HistoryEntry) -> str:
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.ts))
    who = entry.actor + (f" session {entry.session_id[:8]} turn {entry.turn}" if entry.session_id else "")
    extra = f" (reverts {entry.undoes})" if entry.undoes else ""
    return f"{entry.id}  {when}  {entry.path}  {entry.tool:<7} {entry.summary:<10} {who}{extra}"


def _history(history: MemoryHistory, args: argparse.Namespace) -> int:
    rel = normalize_rel(args.path) if args.path else None
    entries = list(reversed(history.entries(rel)))
    if args.json:
        print_json([e.to_dict() | {"summary": e.summary} for e in entries])
        return 0
    if not entries:
        print(f"no history for {rel}" if rel else "no memory changes recorded yet")
        return 0
    for entry in entries:
        print(_row(entry))
    return 0


def _restore(history: MemoryHistory, settings: AgentSettings, args: argparse.Namespace) -> int:
    rel, now = current(settings.workspace, args.path)
    entry = history.find(args.to, rel) if args.to else latest_for(history, rel)
    if (None if now is None else digest(now)) == entry.before:
        return _report(args, rel, entry, None, "already holds that version; nothing changed")
    change = restore_before(settings.workspace, history, entry, ChangeOrigin("user"))
    if entry.tool == "forget":  # the forgotten lines are back: their tombstones go
        Tombstones.for_workspace(settings.workspace, settings.state_dir).lift(entry.id)
    size = "removed (it did not exist before that change)" if change.after is None else f"{len(change.after)} bytes"
    return _report(args, rel, entry, change.entry, f"restored to the version before {entry.id}: {size}")


def _report(args: argparse.Namespace, rel: str, entry: HistoryEntry, new: HistoryEntry | None, text: str) -> int:
    if args.json:
        out: dict[str, Any] = {"path": rel, "restoredFrom": entry.id, "changed": new is not None}
        if new is not None:
            out["historyId"] = new.id
        print_json(out)
        return 0
    tail = f" (recorded as {new.id}; `memory restore {rel} --to {new.id}` reverts it)" if new else ""
    print(f"{rel} {text}{tail}")
    return 0
