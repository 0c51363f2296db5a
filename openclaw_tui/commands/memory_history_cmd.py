"""``openclaw-tui memory history [PATH]`` and ``memory restore PATH [--to ID]``.

History lives in ``<stateDir>/agents/<agentId>/memory-history`` (``records.history``);
neither command opens the memory index.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from openclaw_tui.commands.common import fail, print_json
from openclaw_tui.config import AgentSettings
from openclaw_tui.terminal_text import for_terminal
from openclaw_tui.workspace.guard import PathRefused, normalize_rel
from openclaw_tui.records.change_diff import first_change
from openclaw_tui.records.history import ChangeOrigin, HistoryEntry, HistoryError, MemoryHistory
from openclaw_tui.records.history_scope import refuse_private, visible
from openclaw_tui.records.restore import restore_before
from openclaw_tui.records.restore_plan import RestorePlan, plan_restore
from openclaw_tui.workspace.tombstones import Tombstones


def run(args: argparse.Namespace, settings: AgentSettings) -> int:
    history = MemoryHistory.for_agent(settings.agent_dir)
    try:
        if args.memory_command == "history":
            return _history(history, settings, args)
        return _restore(history, settings, args)
    except (HistoryError, PathRefused) as exc:
        return fail(getattr(exc, "reason", None) or str(exc))


def _row(entry: HistoryEntry, history: MemoryHistory) -> str:
    """One change: id, time, file, tool, +/− lines, who wrote it (engine note, model, flush,
    user) and where, then the text of the change (its first added, else removed, line)."""
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(entry.ts))
    who = (entry.writer or entry.actor) + (f" (session {entry.session_id[:8]} turn {entry.turn})" if entry.session_id else "")
    extra = f" (reverts {entry.undoes})" if entry.undoes else ""
    try:
        text = first_change(history.content(entry.before), history.content(entry.after), width=70)
    except (HistoryError, OSError):
        text = ""  # a version pruned from the history: the row without its text
    return for_terminal(f"{entry.id}  {when}  {entry.path}  {entry.tool:<7} {entry.summary:<10} {who}{extra}"
                        + (f"\n    {text}" if text else ""))


def _history(history: MemoryHistory, settings: AgentSettings, args: argparse.Namespace) -> int:
    rel = normalize_rel(args.path) if args.path else None
    if rel is not None:
        refuse_private(settings.workspace, settings.session_key, rel)
    entries = list(reversed(visible(settings.workspace, settings.session_key, history.entries(rel))))
    if args.json:
        print_json([e.to_dict() | {"summary": e.summary} for e in entries])
        return 0
    if not entries:
        print(f"no history for {rel}" if rel else "no memory changes recorded yet")
        return 0
    for entry in entries:
        print(_row(entry, history))
    return 0


def _confirmed(plan: RestorePlan, args: argparse.Namespace) -> bool:
    """A restore that deletes the file or cuts it by more than half needs --yes (or a "y"
    typed at a terminal)."""
    if not plan.needs_confirmation or getattr(args, "yes", False):
        return True
    if sys.stdin.isatty() and not args.json:
        answer = input(f"{plan.describe()}. Proceed? [y/N] ")
        return answer.strip().lower() in ("y", "yes")
    return False


def _restore(history: MemoryHistory, settings: AgentSettings, args: argparse.Namespace) -> int:
    access = settings.workspace_access
    if access in ("ro", "none"):
        return fail(f"memory restore changes a workspace file, and workspace access is {access} (--workspace-access {access}); nothing was changed")
    plan = plan_restore(settings.workspace, history, args.path, args.to, session_key=settings.session_key)
    rel, entry = plan.path, plan.entry
    if getattr(args, "dry_run", False):
        if args.json:
            print_json({"path": rel, "restoreFrom": entry.id, "dryRun": True, "noop": plan.noop, "deletes": plan.deletes,
                        "shrinks": plan.shrinks, "bytesNow": None if plan.now is None else len(plan.now),
                        "bytesAfter": None if plan.target is None else len(plan.target)})
        else:
            print(f"dry run: {plan.describe()}")
        return 0
    if plan.noop:
        return _report(args, rel, entry, None, "already holds that version; nothing changed")
    if not _confirmed(plan, args):
        return fail(f"not restored: {plan.describe()}; pass --yes to confirm (or --dry-run to look first)")
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
