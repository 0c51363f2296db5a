"""Scripted scenarios: user turns, config overrides and expectations, run on the real engine.

A scenario file (YAML or JSON)::

    name: flush before compaction
    model: offline                 # optional; --model on the command line wins
    sessionKey: agent:main:main    # optional
    workspaceAccess: rw            # optional: rw | ro | none
    config:                        # deep-merged over the loaded config (never a command,
      agents: {defaults: {contextTokens: 4000}}   # provider or endpoint: config_policy.py)
    files:                         # written into the fresh workspace before the run
      MEMORY.md: "..."
    turns:                         # user messages; "/flush", "/compact [instr]", "/new" too
      - user: "I prefer tea over coffee."
    expect:
      - flushBeforeTurn: 3
      - flushCount: 1              # or noFlush: true
      - compactionCount: 1
      - fileContains: {path: "memory/{today}.md", text: "tea"}
      - fileNotContains: {path: "MEMORY.md", text: "tea"}
      - workspaceUnchanged: true
      - memorySearch: {query: "tea", path: "memory/{today}.md"}   # or notPath
      - noNoReply: true
      - replyContains: {turn: 2, text: "tea"}   # or replyNotContains
      - promptExcludes: "secret"
      - accessRefused: 1           # at least this many refusals

The expectation kinds live in one registry, :data:`openclaw_tui.scenario.expectations.EXPECTATIONS`.
``{today}`` and ``{yesterday}`` expand to local dates. Each run uses a fresh temporary
workspace (from the template) and state dir, so scenarios never touch real memory.
"""

from __future__ import annotations

import copy
import json
import shutil
import tempfile
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import yaml

from openclaw_tui import events
from openclaw_tui.config import AgentSettings, ConfigError
from openclaw_tui.config.loader import agent_of_session_key
from openclaw_tui.llm.client import ChatModel, Completion, DeltaFn
from openclaw_tui.llm.messages import ChatMessage
from openclaw_tui.scenario.config_policy import refusal
from openclaw_tui.scenario.expectations import EXPECTATIONS, Check, Run, TurnRecord, check, expand, snapshot
from openclaw_tui.workspace.template import init_workspace

TOP_KEYS = {"name", "description", "model", "sessionKey", "workspaceAccess", "config", "files", "turns", "expect"}


class ScenarioError(Exception):
    """The scenario file itself is wrong (one line, names the key)."""


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
        if key not in EXPECTATIONS:
            raise ScenarioError(f"{source}: expect[{i}]: unknown expectation {key!r}; known: {sorted(EXPECTATIONS)}")
        problem = EXPECTATIONS[key].arg_problem(e[key])
        if problem:
            raise ScenarioError(f"{source}: expect[{i}].{key}: {problem}")
    for key in ("config", "files"):
        if key in data and not isinstance(data[key], dict):
            raise ScenarioError(f"{source}: '{key}' must be a mapping")
    refused = refusal(data.get("config"), source)
    if refused:
        raise ScenarioError(refused)
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


class RecordingModel:
    """Wraps the real chat model and keeps every message list it was sent."""

    def __init__(self, inner: ChatModel):
        self.inner = inner
        self.model = inner.model
        self.provider = inner.provider
        self.label = inner.label
        self.is_offline = inner.is_offline
        self.secrets = getattr(inner, "secrets", ())
        self.prompts: list[list[ChatMessage]] = []

    async def complete(self, messages: list[ChatMessage], tools: Any, *, on_delta: DeltaFn, purpose: str = "turn") -> Completion:
        self.prompts.append(copy.deepcopy(messages))
        return await self.inner.complete(messages, tools, on_delta=on_delta, purpose=purpose)


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
        name = self.name
        if "offline agent" in name and not self.model.startswith(("offline", "offline agent")):
            # the file's name was written for its default model; say what actually answered
            name = name.replace("the offline agent", self.model).replace("offline agent", self.model)
        lines = [f"scenario: {name}  (model: {self.model}, session {self.session_id})"]
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
    before = snapshot(ws)

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
        run = Run(engine, model.prompts, turns, all_events, ws, before, day)
        checks = [await check(e, run) for e in data.get("expect") or []]
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


__all__ = ["ScenarioError", "ScenarioReport", "load_scenario", "run_scenario", "validate_scenario", "ConfigError"]
