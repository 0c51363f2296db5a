"""``openclaw-tui memory forget (QUERY | --path P --lines A-B) [--yes] [--json]``.

Without ``--yes`` it shows what would go and changes nothing (at a terminal it asks
first). With it, the lines are removed (memory/forget.py: history first, atomic replace,
tombstones) and the index is synced. ``memory restore PATH`` brings them back.
"""

from __future__ import annotations

import argparse
import sys

from openclaw_tui.commands.common import fail, print_json
from openclaw_tui.config import AgentSettings
from openclaw_tui.memory.api import SYNC_FORGET
from openclaw_tui.memory.forget import ForgetError, ForgetPlan, apply_forget, plan_lines, plan_query
from openclaw_tui.records.history import MemoryHistory
from openclaw_tui.workspace.tombstones import Tombstones


def plan_from_args(args: argparse.Namespace, settings: AgentSettings) -> ForgetPlan:
    query = " ".join(args.query or []).strip() if isinstance(args.query, list) else (args.query or "").strip()
    if args.path or args.lines:
        if not (args.path and args.lines) or query:
            raise ForgetError("give either QUERY or both --path P and --lines A-B")
        return plan_lines(settings.workspace, settings.session_key, args.path, args.lines)
    if not query:
        raise ForgetError("give the fact to forget (QUERY) or --path P --lines A-B")
    return plan_query(settings.workspace, settings.session_key, query)


def run(args: argparse.Namespace, settings: AgentSettings) -> int:
    if settings.workspace_access != "rw":
        return fail(f"memory forget needs a writable workspace (workspace access is {settings.workspace_access})")
    try:
        plan = plan_from_args(args, settings)
    except ForgetError as exc:
        return fail(str(exc))
    if not args.yes and not _confirmed(plan, args):
        return 0
    try:
        done = apply_forget(settings.workspace, MemoryHistory.for_agent(settings.agent_dir), plan,
                            Tombstones.for_workspace(settings.workspace, settings.state_dir),
                            session_key=settings.session_key, sessions_dir=settings.sessions_dir)
    except ForgetError as exc:
        return fail(str(exc))
    synced = _reindex(settings)
    if args.json:
        print_json(done.to_dict() | {"reindexed": synced})
        return 0
    for change in done.changes:
        hid = change.entry.id if change.entry else "?"
        print(f"forgot {change.path} (history {hid}; `openclaw-tui memory restore {change.path} --to {hid}` brings it back)")
    print(f"{done.tombstones} tombstone(s) keep it from being stored again" + ("" if synced else "; the index syncs on next use"))
    if done.transcripts:
        n = sum(f.lines for f in done.transcripts)
        print(f"removed from {len(done.transcripts)} session transcript(s) ({n} line(s)), so --continue and --resume do not bring it back")
    for line in done.still_held():
        print(f"note: {line}")
    print("the memory history keeps the removed lines for `memory restore`; a chat session open now keeps "
          "it in its context until /forget is run there (or /new)")
    return 0


def _confirmed(plan: ForgetPlan, args: argparse.Namespace) -> bool:
    """Show what would go; at a terminal ask, else tell how to run it for real."""
    if args.json:
        print_json({"wouldForget": [t.to_dict() for t in plan.targets], "applied": False})
        return False
    print("would forget:\n" + plan.describe())
    if not sys.stdin.isatty():
        print("nothing changed: run again with --yes to remove these lines")
        return False
    try:
        answer = input("remove these lines? [y/N] ")
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        print("nothing changed")
        return False
    return True


def _reindex(settings: AgentSettings) -> bool:
    from openclaw_tui.memory.open import open_memory  # noqa: PLC0415

    memory = None
    try:
        memory = open_memory(settings)
        if memory is None:
            return False
        memory.sync(reason=SYNC_FORGET)  # the builtin index also purges the text from its file
        return True
    except Exception:  # noqa: BLE001 - the file change stands; the index catches up on its next sync
        return False
    finally:
        if memory is not None:
            memory.close()
