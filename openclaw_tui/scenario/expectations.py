"""The expectation kinds of a scenario: one registry of (argument check, run check).

Each kind is registered once, with what its argument must look like (checked before any
turn runs) and the function that checks a finished run. The scenario loader and runner
read this table only.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any, Awaitable, Callable

from openclaw_tui import events
from openclaw_tui.llm.messages import ChatMessage
from openclaw_tui.session.flush import ENGINE_NOTE_REASONS
from openclaw_tui.records.no_reply import is_no_reply


def expand(text: str, today: date) -> str:
    return text.replace("{today}", today.isoformat()).replace("{yesterday}", (today - timedelta(days=1)).isoformat())


def snapshot(root: Path) -> dict[str, str]:
    """Every regular file under ``root`` and its content hash."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink():
            out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def _diff(expected: str, actual: str, label: str) -> str:
    return "\n".join(
        difflib.unified_diff(expected.splitlines(), actual.splitlines(), fromfile=f"expected {label}", tofile=f"actual {label}", lineterm="")
    )


@dataclass
class TurnRecord:
    index: int
    user: str
    reply: str = ""
    error: str | None = None
    events: list[events.Event] = field(default_factory=list)


@dataclass
class Check:
    kind: str
    ok: bool
    expected: Any
    actual: Any
    diff: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "ok": self.ok, "expected": self.expected, "actual": self.actual, "diff": self.diff}


@dataclass(frozen=True)
class Run:
    """What a finished scenario run left to check."""

    engine: Any
    prompts: list[list[ChatMessage]]  # every message list sent to the model
    turns: list[TurnRecord]
    all_events: list[events.Event]
    ws: Path
    before: dict[str, str]  # the workspace snapshot before the first turn
    day: date

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.all_events if isinstance(e, kind)]


# ------------------------------------------------------------------ argument shapes

ArgCheck = Callable[[Any], "str | None"]


def _count(arg: Any) -> str | None:
    if isinstance(arg, bool) or not isinstance(arg, int) or arg < 0:
        return f"must be a whole number >= 0 (got {arg!r})"
    return None


def _mapping(*needed: str, one_of: tuple[str, ...] = ()) -> ArgCheck:
    def check(arg: Any) -> str | None:
        if not isinstance(arg, dict):
            return f"must be a mapping with {', '.join(needed)} (got {arg!r})"
        missing = [k for k in needed if k not in arg]
        if missing:
            return f"missing {', '.join(missing)}"
        if one_of and not any(k in arg for k in one_of):
            return f"needs {' or '.join(repr(k) for k in one_of)}"
        turn = arg.get("turn")
        if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int)):
            return f"turn must be a whole number (got {turn!r})"
        return None

    return check


def _text(arg: Any) -> str | None:
    return None if isinstance(arg, str) else f"must be a text (got {arg!r})"


def _anything(_arg: Any) -> str | None:
    return None


# ------------------------------------------------------------------ run checks


async def _flush_before_turn(kind: str, arg: Any, run: Run) -> Check:
    n, turns = int(arg), run.turns
    if not 1 <= n <= len(turns):
        return Check(kind, False, n, None, f"turn {n} does not exist (the scenario has {len(turns)} turns)")
    evs = turns[n - 1].events
    started = next((k for k, e in enumerate(evs) if isinstance(e, events.TurnStarted)), len(evs))
    ok = any(isinstance(e, events.FlushStarted) for e in evs[:started])
    flush_turns = [t.index for t in turns if any(isinstance(e, events.FlushStarted) for e in t.events)]
    return Check(kind, ok, n, flush_turns, "" if ok else f"- flush before turn {n}\n+ flushes happened in turns {flush_turns or 'none'}")


async def _flush_count(kind: str, arg: Any, run: Run) -> Check:
    """Flush turns (engine notes before a compaction or at a session's end are not counted)."""
    flushes = len([e for e in run.of(events.FlushStarted) if e.reason not in ENGINE_NOTE_REASONS])
    ok = flushes == int(arg)
    return Check(kind, ok, int(arg), flushes, "" if ok else f"- {int(arg)} flush(es)\n+ {flushes} flush(es)")


async def _no_flush(kind: str, _arg: Any, run: Run) -> Check:
    flushes = len(run.of(events.FlushStarted))
    return Check(kind, not flushes, True, flushes, "" if not flushes else f"- no flush\n+ {flushes} flush(es) started")


async def _compaction_count(kind: str, arg: Any, run: Run) -> Check:
    actual = run.engine.counters()["compactionCount"]
    ok = actual == int(arg)
    return Check(kind, ok, int(arg), actual, "" if ok else f"- compactionCount {int(arg)}\n+ compactionCount {actual}")


async def _file_text(kind: str, arg: Any, run: Run) -> Check:
    rel = expand(str(arg.get("path", "")), run.day)
    needle = expand(str(arg.get("text", "")), run.day)
    path = run.ws / rel
    content = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
    found = content is not None and needle in content
    ok = found if kind == "fileContains" else not found
    if ok:
        return Check(kind, True, {"path": rel, "text": needle}, True)
    shown = "(file does not exist)" if content is None else content
    verb = "contains" if kind == "fileContains" else "does not contain"
    tail = "\n".join("+   " + ln for ln in shown.splitlines()[-15:])
    return Check(kind, False, {"path": rel, "text": needle}, found, f"- {rel} {verb} {needle!r}\n+ {rel}:\n" + tail)


async def _workspace_unchanged(kind: str, arg: Any, run: Run) -> Check:
    after = snapshot(run.ws)
    changed = sorted(k for k in set(run.before) | set(after) if run.before.get(k) != after.get(k))
    ok = not changed if arg else bool(changed)
    return Check(kind, ok, bool(arg), changed, "" if ok else "- no file changed\n" + "\n".join(f"+ changed: {c}" for c in changed))


async def _memory_search(kind: str, arg: Any, run: Run) -> Check:
    query = expand(str(arg.get("query", "")), run.day)
    result = await run.engine.memory_search(query)
    paths = [str(r.get("path")) for r in (result.get("results") or [])]
    if "path" in arg:
        want = expand(str(arg["path"]), run.day)
        ok = want in paths
        error = f"\n+ error: {result.get('error')}" if result.get("error") else ""
        return Check(kind, ok, {"query": query, "path": want}, paths, "" if ok else f"- {want} among the results\n+ results: {paths or '(none)'}" + error)
    bad = expand(str(arg["notPath"]), run.day)
    ok = bad not in paths
    return Check(kind, ok, {"query": query, "notPath": bad}, paths, "" if ok else f"- {bad} not among the results\n+ results: {paths}")


async def _no_no_reply(kind: str, _arg: Any, run: Run) -> Check:
    shown = [t.index for t in run.turns if is_no_reply(t.reply) or "NO_REPLY" in t.reply]
    deltas = [e.text for e in run.of(events.TextDelta) if "NO_REPLY" in e.text]
    finished = [e.text for e in run.of(events.TurnFinished) if "NO_REPLY" in e.text]
    ok = not shown and not deltas and not finished
    return Check(kind, ok, True, {"turns": shown, "deltas": len(deltas)}, "" if ok else f"- NO_REPLY never shown\n+ shown in turns {shown}, {len(deltas)} streamed piece(s)")


async def _reply_text(kind: str, arg: Any, run: Run) -> Check:
    n = int(arg.get("turn", len(run.turns)))
    needle = expand(str(arg.get("text", "")), run.day)
    if not 1 <= n <= len(run.turns):
        return Check(kind, False, arg, None, f"turn {n} does not exist")
    reply = run.turns[n - 1].reply
    found = needle.lower() in reply.lower()
    ok = found if kind == "replyContains" else not found
    return Check(kind, ok, {"turn": n, "text": needle}, reply, "" if ok else _diff(needle, reply, f"reply of turn {n}"))


async def _prompt_excludes(kind: str, arg: Any, run: Run) -> Check:
    needle = expand(str(arg), run.day)
    hits = [k for k, prompt in enumerate(run.prompts, 1) if needle in json.dumps(prompt, ensure_ascii=False)]
    ok = not hits
    return Check(kind, ok, needle, hits, "" if ok else f"- {needle!r} in no prompt sent to the model\n+ found in model call(s) {hits} of {len(run.prompts)}")


async def _access_refused(kind: str, arg: Any, run: Run) -> Check:
    refused = len(run.of(events.AccessRefused))
    ok = refused >= int(arg)
    return Check(kind, ok, int(arg), refused, "" if ok else f"- at least {int(arg)} refusal(s)\n+ {refused}")


# ------------------------------------------------------------------ the registry


@dataclass(frozen=True)
class Expectation:
    arg_problem: ArgCheck  # what is wrong with the argument, or None
    check: Callable[[str, Any, Run], Awaitable[Check]]


EXPECTATIONS: dict[str, Expectation] = {
    "flushBeforeTurn": Expectation(_count, _flush_before_turn),
    "flushCount": Expectation(_count, _flush_count),
    "noFlush": Expectation(_anything, _no_flush),
    "compactionCount": Expectation(_count, _compaction_count),
    "fileContains": Expectation(_mapping("path", "text"), _file_text),
    "fileNotContains": Expectation(_mapping("path", "text"), _file_text),
    "workspaceUnchanged": Expectation(_anything, _workspace_unchanged),
    "memorySearch": Expectation(_mapping("query", one_of=("path", "notPath")), _memory_search),
    "noNoReply": Expectation(_anything, _no_no_reply),
    "replyContains": Expectation(_mapping("text"), _reply_text),
    "replyNotContains": Expectation(_mapping("text"), _reply_text),
    "promptExcludes": Expectation(_text, _prompt_excludes),
    "accessRefused": Expectation(_count, _access_refused),
}


async def check(exp: dict[str, Any], run: Run) -> Check:
    kind, arg = next(iter(exp.items()))
    entry = EXPECTATIONS.get(kind)
    if entry is None:
        return Check(kind, False, arg, None, f"unknown expectation {kind}")
    return await entry.check(kind, arg, run)
