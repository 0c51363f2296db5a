"""Scripted scenarios: user turns, config overrides and expectations, run on the real engine.

A scenario file (YAML or JSON)::

    name: flush before compaction
    model: offline                 # optional; --model on the command line wins
    sessionKey: agent:main:main    # optional
    workspaceAccess: rw            # optional: rw | ro | none
    config:                        # deep-merged over the loaded config
      agents: {defaults: {contextTokens: 4000}}
    files:                         # written into the fresh workspace before the run
      MEMORY.md: "..."
    turns:                         # user messages; "/flush", "/compact [instr]", "/new" too
      - user: "I prefer tea over coffee."
    expect:
      - flushBeforeTurn: 3
      - flushCount: 1
      - compactionCount: 1
      - fileContains: {path: "memory/{today}.md", text: "tea"}
      - fileNotContains: {path: "MEMORY.md", text: "tea"}
      - workspaceUnchanged: true
      - memorySearch: {query: "tea", path: "memory/{today}.md"}   # or notPath
      - noNoReply: true
      - replyContains: {turn: 2, text: "tea"}
      - promptExcludes: "secret"
      - accessRefused: 1           # at least this many refusals

``{today}`` and ``{yesterday}`` expand to local dates. Each run uses a fresh temporary
workspace (from the template) and state dir, so scenarios never touch real memory.
"""

from __future__ import annotations

import copy
import difflib
import hashlib
import json
import shutil
import tempfile
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import yaml

from openclaw_tui import events
from openclaw_tui.config import AgentSettings, ConfigError
from openclaw_tui.config.loader import agent_of_session_key
from openclaw_tui.llm.client import Completion, DeltaFn
from openclaw_tui.session.thresholds import is_no_reply
from openclaw_tui.workspace.template import init_workspace

KNOWN_EXPECTATIONS = {
    "flushBeforeTurn",
    "flushCount",
    "noFlush",
    "compactionCount",
    "fileContains",
    "fileNotContains",
    "workspaceUnchanged",
    "memorySearch",
    "noNoReply",
    "replyContains",
    "replyNotContains",
    "promptExcludes",
    "accessRefused",
}
TOP_KEYS = {"name", "description", "model", "sessionKey", "workspaceAccess", "config", "files", "turns", "expect"}


class ScenarioError(Exception):
    """The scenario file itself is wrong (one line, names the key)."""


def expand(text: str, today: date) -> str:
    return text.replace("{today}", today.isoformat()).replace("{yesterday}", (today - timedelta(days=1)).isoformat())


def load_scenario(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    try:
        raw = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(f"scenario file {p} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"cannot read scenario {p}: {exc}") from None
    try:
        data = json.loads(raw) if p.suffix.lower() == ".json" else yaml.safe_load(raw)
    except (ValueError, yaml.YAMLError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ScenarioError(f"scenario {p} is not valid {'JSON' if p.suffix.lower() == '.json' else 'YAML'}: {first}") from None
    return validate_scenario(data, str(p))


def validate_scenario(data: Any, source: str = "scenario") -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ScenarioError(f"{source}: the top level must be a mapping with 'turns' and 'expect'")
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise ScenarioError(f"{source}: unknown key(s) {sorted(unknown)}; allowed: {sorted(TOP_KEYS)}")
    turns = data.get("turns")
    if not isinstance(turns, list) or not turns:
        raise ScenarioError(f"{source}: 'turns' must be a non-empty list of {{user: text}}")
    for i, t in enumerate(turns, 1):
        if isinstance(t, str):
            turns[i - 1] = {"user": t}
        elif not isinstance(t, dict) or not isinstance(t.get("user"), str):
            raise ScenarioError(f"{source}: turns[{i}] must be {{user: text}}")
        elif set(t) - {"user"}:
            raise ScenarioError(
                f"{source}: turns[{i}]: unknown key(s) {sorted(set(t) - {'user'})}; a turn is only {{user: text}} "
                "(put checks under the top-level 'expect' list)"
            )
    expect = data.get("expect") or []
    if not isinstance(expect, list):
        raise ScenarioError(f"{source}: 'expect' must be a list")
    for i, e in enumerate(expect, 1):
        if not isinstance(e, dict) or len(e) != 1:
            raise ScenarioError(f"{source}: expect[{i}] must be a mapping with exactly one key")
        key = next(iter(e))
        if key not in KNOWN_EXPECTATIONS:
            raise ScenarioError(f"{source}: expect[{i}]: unknown expectation {key!r}; known: {sorted(KNOWN_EXPECTATIONS)}")
        problem = _expectation_problem(key, e[key])
        if problem:
            raise ScenarioError(f"{source}: expect[{i}].{key}: {problem}")
    for key in ("config", "files"):
        if key in data and not isinstance(data[key], dict):
            raise ScenarioError(f"{source}: '{key}' must be a mapping")
    if data.get("workspaceAccess") not in (None, "rw", "ro", "none"):
        raise ScenarioError(f"{source}: workspaceAccess must be rw, ro or none")
    for key in ("name", "description", "model", "sessionKey"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise ScenarioError(f"{source}: '{key}' must be a text (got {data[key]!r})")
    for rel, content in (data.get("files") or {}).items():
        if not isinstance(content, str):
            raise ScenarioError(f"{source}: files: the content of {str(rel)!r} must be a text (got {type(content).__name__})")
        parts = str(rel).replace("\\", "/").split("/")
        if not str(rel).strip() or str(rel).startswith(("/", "~")) or ".." in parts or ":" in parts[0]:
            raise ScenarioError(f"{source}: files: {str(rel)!r} must be a path relative to the workspace, without '..'")
    return data


_COUNT_EXPECTATIONS = {"flushBeforeTurn", "flushCount", "compactionCount", "accessRefused"}
_MAPPING_EXPECTATIONS = {
    "fileContains": ("path", "text"),
    "fileNotContains": ("path", "text"),
    "replyContains": ("text",),
    "replyNotContains": ("text",),
    "memorySearch": ("query",),
}


def _expectation_problem(kind: str, arg: Any) -> str | None:
    """What is wrong with an expectation's argument, checked before any turn runs."""
    if kind in _COUNT_EXPECTATIONS:
        if isinstance(arg, bool) or not isinstance(arg, int) or arg < 0:
            return f"must be a whole number >= 0 (got {arg!r})"
    elif kind in _MAPPING_EXPECTATIONS:
        needed = _MAPPING_EXPECTATIONS[kind]
        if not isinstance(arg, dict):
            return f"must be a mapping with {', '.join(needed)} (got {arg!r})"
        missing = [k for k in needed if k not in arg]
        if missing:
            return f"missing {', '.join(missing)}"
        if kind == "memorySearch" and "path" not in arg and "notPath" not in arg:
            return "needs 'path' or 'notPath'"
        turn = arg.get("turn")
        if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int)):
            return f"turn must be a whole number (got {turn!r})"
    elif kind == "promptExcludes" and not isinstance(arg, str):
        return f"must be a text (got {arg!r})"
    return None


class RecordingModel:
    """Wraps the real chat model and keeps every message list it was sent."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.model = inner.model
        self.provider = inner.provider
        self.label = inner.label
        self.is_offline = inner.is_offline
        self.secrets = getattr(inner, "secrets", ())
        self.prompts: list[list[dict[str, Any]]] = []

    async def complete(self, messages: list[dict[str, Any]], tools: Any, *, on_delta: DeltaFn, purpose: str = "turn") -> Completion:
        self.prompts.append(copy.deepcopy(messages))
        return await self.inner.complete(messages, tools, on_delta=on_delta, purpose=purpose)


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


@dataclass
class ScenarioReport:
    name: str
    passed: bool
    session_id: str
    model: str
    workspace: str
    turns: list[TurnRecord]
    checks: list[Check]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "passed": self.passed,
            "sessionId": self.session_id,
            "model": self.model,
            "workspace": self.workspace,
            "turns": [
                {
                    "turn": t.index,
                    "user": t.user,
                    "reply": t.reply,
                    "error": t.error,
                    "events": [e.to_dict() for e in t.events if not isinstance(e, events.TextDelta)],
                }
                for t in self.turns
            ],
            "expectations": [c.to_dict() for c in self.checks],
        }

    def text(self) -> str:
        lines = [f"scenario: {self.name}  (model: {self.model}, session {self.session_id})"]
        for t in self.turns:
            reply = t.reply.replace("\n", " ")
            lines.append(f"  turn {t.index}: {t.user[:70]!r} -> {reply[:90]!r}" + (f"  [error: {t.error}]" if t.error else ""))
        for c in self.checks:
            lines.append(f"  {'ok  ' if c.ok else 'FAIL'} {c.kind}: expected {json.dumps(c.expected, ensure_ascii=False, default=str)}")
            if not c.ok and c.diff:
                lines.extend("       " + d for d in c.diff.splitlines())
        failed_turns = [t.index for t in self.turns if t.error]
        lines.append(
            "PASSED" if self.passed else f"FAILED ({sum(not c.ok for c in self.checks)} of {len(self.checks)} expectations"
            + (f"; turn(s) {failed_turns} ended with an error)" if failed_turns else ")")
        )
        return "\n".join(lines)


def _snapshot(root: Path) -> dict[str, str]:
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink():
            out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def _diff(expected: str, actual: str, label: str) -> str:
    return "\n".join(
        difflib.unified_diff(expected.splitlines(), actual.splitlines(), fromfile=f"expected {label}", tofile=f"actual {label}", lineterm="")
    )


async def run_scenario(
    data: dict[str, Any],
    settings: AgentSettings,
    *,
    keep_dir: bool = False,
    today: date | None = None,
) -> ScenarioReport:
    """Run on ``settings`` (already resolved with the scenario's config overrides), in a
    fresh temporary workspace and state dir."""
    from openclaw_tui.llm.resolve import choice_for_model, resolve_model
    from openclaw_tui.session.engine import SessionEngine, make_model

    if data.get("sessionKey"):  # another agent's key is refused, not run as this agent
        agent_of_session_key(str(data["sessionKey"]), settings.agent_id, "sessionKey")
    day = today or date.today()
    tmp = Path(tempfile.mkdtemp(prefix="openclaw-scenario-"))
    ws = tmp / "workspace"
    init_workspace(ws)
    for rel, content in (data.get("files") or {}).items():
        target = ws / expand(str(rel), day)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(expand(str(content), day), encoding="utf-8")
    settings.workspace = ws
    settings.state_dir = tmp / "state"
    # keep the run hermetic even when the user's config pins an absolute index path
    settings.memory_search = settings.memory_search.model_copy(deep=True)
    settings.memory_search.store.path = "{stateDir}/memory/{agentId}.sqlite"
    if data.get("sessionKey"):
        settings.session_key = str(data["sessionKey"])
    if data.get("workspaceAccess") and not getattr(settings, "_access_from_cli", False):
        settings.workspace_access = str(data["workspaceAccess"])
    if data.get("model") and not settings.model:
        settings.model = str(data["model"])
    before = _snapshot(ws)

    choice = choice_for_model(settings.model, settings, "scenario") if settings.model else resolve_model(settings)
    model = RecordingModel(make_model(choice))
    turns: list[TurnRecord] = []
    all_events: list[events.Event] = []
    current: list[events.Event] = []

    def sink(ev: events.Event) -> None:
        all_events.append(ev)
        current.append(ev)

    engine = SessionEngine(settings, sink=sink, model=model)
    try:
        for i, t in enumerate(data["turns"], 1):
            text = expand(t["user"], day)
            current = []
            rec = TurnRecord(i, text)
            stripped = text.strip()
            if stripped == "/flush":
                await engine.flush()
            elif stripped.startswith("/compact"):
                await engine.compact(stripped[len("/compact") :].strip() or None)
            elif stripped == "/new":
                engine.new_session()
            else:
                result = await engine.send(text)
                rec.reply, rec.error = result.text, result.error
            rec.events = current
            turns.append(rec)
        checks = [await _check(e, engine=engine, model=model, turns=turns, all_events=all_events, ws=ws, before=before, day=day) for e in data.get("expect") or []]
        report = ScenarioReport(
            name=str(data.get("name") or "scenario"),
            passed=all(c.ok for c in checks) and not any(t.error for t in turns),  # a turn that errored did not run
            session_id=engine.session_id,
            model=engine.model_label,
            workspace=str(ws),
            turns=turns,
            checks=checks,
        )
    finally:
        engine.close()
        if not keep_dir:
            shutil.rmtree(tmp, ignore_errors=True)
    return report


async def _check(
    exp: dict[str, Any],
    *,
    engine: Any,
    model: RecordingModel,
    turns: list[TurnRecord],
    all_events: list[events.Event],
    ws: Path,
    before: dict[str, str],
    day: date,
) -> Check:
    kind, arg = next(iter(exp.items()))
    flushes = [e for e in all_events if isinstance(e, events.FlushStarted)]
    if kind == "flushBeforeTurn":
        n = int(arg)
        if not 1 <= n <= len(turns):
            return Check(kind, False, n, None, f"turn {n} does not exist (the scenario has {len(turns)} turns)")
        evs = turns[n - 1].events
        started = next((k for k, e in enumerate(evs) if isinstance(e, events.TurnStarted)), len(evs))
        ok = any(isinstance(e, events.FlushStarted) for e in evs[:started])
        flush_turns = [t.index for t in turns if any(isinstance(e, events.FlushStarted) for e in t.events)]
        return Check(kind, ok, n, flush_turns, "" if ok else f"- flush before turn {n}\n+ flushes happened in turns {flush_turns or 'none'}")
    if kind == "flushCount":
        ok = len(flushes) == int(arg)
        return Check(kind, ok, int(arg), len(flushes), "" if ok else f"- {int(arg)} flush(es)\n+ {len(flushes)} flush(es)")
    if kind == "noFlush":
        ok = not flushes
        return Check(kind, ok, True, len(flushes), "" if ok else f"- no flush\n+ {len(flushes)} flush(es) started")
    if kind == "compactionCount":
        actual = engine.counters()["compactionCount"]
        ok = actual == int(arg)
        return Check(kind, ok, int(arg), actual, "" if ok else f"- compactionCount {int(arg)}\n+ compactionCount {actual}")
    if kind in ("fileContains", "fileNotContains"):
        rel = expand(str(arg.get("path", "")), day)
        needle = expand(str(arg.get("text", "")), day)
        path = ws / rel
        content = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
        found = content is not None and needle in content
        ok = found if kind == "fileContains" else not found
        if ok:
            return Check(kind, True, {"path": rel, "text": needle}, True)
        shown = "(file does not exist)" if content is None else content
        verb = "contains" if kind == "fileContains" else "does not contain"
        return Check(kind, False, {"path": rel, "text": needle}, found, f"- {rel} {verb} {needle!r}\n+ {rel}:\n" + "\n".join("+   " + ln for ln in shown.splitlines()[-15:]))
    if kind == "workspaceUnchanged":
        after = _snapshot(ws)
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        ok = not changed if arg else bool(changed)
        return Check(kind, ok, bool(arg), changed, "" if ok else "- no file changed\n" + "\n".join(f"+ changed: {c}" for c in changed))
    if kind == "memorySearch":
        query = expand(str(arg.get("query", "")), day)
        result = await engine.memory_search(query)
        paths = [str(r.get("path")) for r in (result.get("results") or [])]
        if "path" in arg:
            want = expand(str(arg["path"]), day)
            ok = want in paths
            return Check(kind, ok, {"query": query, "path": want}, paths, "" if ok else f"- {want} among the results\n+ results: {paths or '(none)'}" + (f"\n+ error: {result.get('error')}" if result.get("error") else ""))
        if "notPath" in arg:
            bad = expand(str(arg["notPath"]), day)
            ok = bad not in paths
            return Check(kind, ok, {"query": query, "notPath": bad}, paths, "" if ok else f"- {bad} not among the results\n+ results: {paths}")
        return Check(kind, False, arg, None, "memorySearch needs 'path' or 'notPath'")
    if kind == "noNoReply":
        shown = [t.index for t in turns if is_no_reply(t.reply) or "NO_REPLY" in t.reply]
        deltas = [e.text for e in all_events if isinstance(e, events.TextDelta) and "NO_REPLY" in e.text]
        finished = [e.text for e in all_events if isinstance(e, events.TurnFinished) and "NO_REPLY" in e.text]
        ok = not shown and not deltas and not finished
        return Check(kind, ok, True, {"turns": shown, "deltas": len(deltas)}, "" if ok else f"- NO_REPLY never shown\n+ shown in turns {shown}, {len(deltas)} streamed piece(s)")
    if kind in ("replyContains", "replyNotContains"):
        n = int(arg.get("turn", len(turns)))
        needle = expand(str(arg.get("text", "")), day)
        if not 1 <= n <= len(turns):
            return Check(kind, False, arg, None, f"turn {n} does not exist")
        reply = turns[n - 1].reply
        found = needle.lower() in reply.lower()
        ok = found if kind == "replyContains" else not found
        return Check(kind, ok, {"turn": n, "text": needle}, reply, "" if ok else _diff(needle, reply, f"reply of turn {n}"))
    if kind == "promptExcludes":
        needle = expand(str(arg), day)
        hits = []
        for k, prompt in enumerate(model.prompts, 1):
            if needle in json.dumps(prompt, ensure_ascii=False):
                hits.append(k)
        ok = not hits
        return Check(kind, ok, needle, hits, "" if ok else f"- {needle!r} in no prompt sent to the model\n+ found in model call(s) {hits} of {len(model.prompts)}")
    if kind == "accessRefused":
        refused = [e for e in all_events if isinstance(e, events.AccessRefused)]
        ok = len(refused) >= int(arg)
        return Check(kind, ok, int(arg), len(refused), "" if ok else f"- at least {int(arg)} refusal(s)\n+ {len(refused)}")
    return Check(kind, False, arg, None, f"unknown expectation {kind}")


__all__ = ["ScenarioError", "ScenarioReport", "load_scenario", "run_scenario", "validate_scenario", "ConfigError"]
