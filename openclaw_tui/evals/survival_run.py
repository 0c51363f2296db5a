"""Running the fact-survival evaluation: one workspace and state dir per conversation, the
real engine headless, one model shared by every session (a local model's server starts
once), the engine's clock pinned to the day the conversation is said on
(``OPENCLAW_TODAY``; the index's clock too, ``OPENCLAW_MEMORY_NOW``)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any, Callable, Iterator

from openclaw_tui import events
from openclaw_tui.evals.conversations import Conversation, Fact, conversations
from openclaw_tui.evals.disk import Snapshot, memory_lines
from openclaw_tui.evals.resume import ResumePoint
from openclaw_tui.evals.resume import load as load_resume
from openclaw_tui.evals.resume import state as resume_state
from openclaw_tui.evals.survival import (
    DIRECT_KEY,
    GROUP_KEY,
    TEMPLATE,
    SurvivalOptions,
    Tally,
    Watch,
    score_answer,
    score_disk,
    score_group,
    source_refs_unfound,
)
from openclaw_tui.language import read_reply
from openclaw_tui.llm.client import ChatModel
from openclaw_tui.session.reply_check import echoes_prompt, flags_not_stored
from openclaw_tui.session.summary_check import unsupported_lines
from openclaw_tui.workspace.tiers import daily_log_rel

Progress = Callable[[int, int, str], None]


def overrides(opts: SurvivalOptions) -> dict[str, Any]:
    flush: dict[str, Any] = {"softThresholdTokens": opts.soft_threshold, "enabled": opts.flush, "mode": opts.flush_mode,
                             "onSessionEnd": opts.flush}
    comp = {"reserveTokensFloor": opts.reserve_floor, "keepRecentTokens": opts.keep_recent, "memoryFlush": flush}
    return {"agents": {"defaults": {"contextTokens": opts.context_tokens, "compaction": comp}}}


@contextmanager
def _env(values: dict[str, str]) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@contextmanager
def state_dir(path: Path) -> Iterator[None]:
    """OPENCLAW_STATE_DIR at ``path`` for the block; the models dir stays where the models are."""
    from openclaw_tui.llm.local.files import models_dir

    with _env({"OPENCLAW_MODELS_DIR": os.environ.get("OPENCLAW_MODELS_DIR") or str(models_dir()),
               "OPENCLAW_STATE_DIR": str(path)}):
        yield


@contextmanager
def said_on(day: date) -> Iterator[None]:
    """The engine's today (daily logs, relative dates) and the index's now pinned to ``day``."""
    with _env({"OPENCLAW_TODAY": day.isoformat(), "OPENCLAW_MEMORY_NOW": f"{day.isoformat()}T12:00:00"}):
        yield


def _settings(opts: SurvivalOptions, workspace: Path, session_key: str = DIRECT_KEY) -> Any:
    from openclaw_tui.config import load_config, resolve_agent

    return resolve_agent(load_config(None, overrides=overrides(opts)), workspace=workspace, model=opts.model,
                         api_base=opts.api_base, api_key=opts.api_key, session_key=session_key)


def shared_model(opts: SurvivalOptions, scratch: Path) -> ChatModel:
    from openclaw_tui.llm.resolve import resolve_model
    from openclaw_tui.session.model_slot import make_model

    settings = _settings(opts, scratch)
    return make_model(resolve_model(settings, probe=False), settings)


def _dump(value: Any) -> str:
    try:
        return json.dumps(value, default=str, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


def group_view(watch: Watch) -> dict[str, str]:
    """What a session's tools showed it: every search's results, every tool result."""
    seen = {}
    for i, e in enumerate(watch.events):
        if isinstance(e, events.MemoryRetrieved):
            seen[f"search:{e.query[:40]}#{i}"] = "\n".join(h.snippet for h in e.result.results)
        elif isinstance(e, events.ToolResult):
            seen[f"tool:{e.name}#{i}"] = _dump(e.result)
        elif isinstance(e, events.MemoryTriggered):
            seen[f"triggered#{i}"] = _dump(e.entries)
    return seen


class ConversationRun:
    """One conversation: its turns and same-session questions in a direct session, the
    questions again in a new direct session, the private facts asked in a group session."""

    def __init__(self, conv: Conversation, opts: SurvivalOptions, model: ChatModel, root: Path,
                 progress: Callable[[str], None]):
        self.conv, self.opts, self.model = conv, opts, model
        self.ws, self.state = root / "ws", root / "state"
        shutil.copytree(TEMPLATE, self.ws)
        self.tally = Tally()
        self.tick = progress
        self.said: list[str] = []  # everything said, for the summary check
        self.statements = set(conv.kept) | {w.statement for w in conv.withheld}
        self.statements -= {f.statement for f in conv.facts if f.kind == "inside"}

    async def _send(self, engine: Any, watch: Watch, text: str) -> str:
        before = len(watch.events)
        t0 = time.monotonic()
        result = await engine.send(text)
        self.tally.turns += 1
        self.tally.turn_seconds += time.monotonic() - t0
        reply = result.text or ""
        self.said += [text, reply]
        n, bad = source_refs_unfound(reply, self.ws)
        self.tally.sources += n
        self.tally.sources_unfound += bad
        if bad:
            self.tally.examples.append({"asked": text, "unfoundSource": reply[-300:]})
        changed = [e for e in watch.events[before:] if isinstance(e, events.MemoryChanged)]
        if read_reply(reply).claims_save and not flags_not_stored(reply) and not changed:
            self.tally.save_claims_unflagged += 1
        self.tick(text[:40])
        return reply

    async def _conversation(self, engine: Any, watch: Watch) -> None:
        for turn in self.conv.turns:
            reply = await self._send(engine, watch, turn)
            if turn in self.statements:
                self.tally.statements += 1
                echo = echoes_prompt(reply, engine.system_prompt, turn)
                cannot = read_reply(reply).cannot_answer
                self.tally.echoes += echo
                self.tally.unanswerable_statements += cannot
                if echo or cannot:
                    self.tally.examples.append({"statement": turn, "reply": reply[:300]})

    def _engine(self, settings: Any, watch: Watch) -> Any:
        from openclaw_tui.session.engine import SessionEngine

        return SessionEngine(settings, sink=watch, model=self.model, probe_ollama=False)

    async def _direct(self, settings: Any) -> None:
        watch = Watch()
        engine = self._engine(settings, watch)
        try:
            await self._conversation(engine, watch)
            for fact in self.conv.facts if self.opts.same_session else ():
                self.tally.asked_same = True
                score_answer(self.tally, await self._send(engine, watch, fact.question), fact, same=True)
        finally:
            engine.close()
        self._score_events(watch)
        fresh_watch = Watch()
        fresh = self._engine(settings, fresh_watch)
        try:
            for fact in self.conv.facts:
                score_answer(self.tally, await self._send(fresh, fresh_watch, fact.question), fact, same=False)
        finally:
            fresh.close()
        self._score_events(fresh_watch, flushes=False)

    async def _group(self, settings: Any) -> None:
        """A new group session asks for each private fact; its answer, what its searches and
        tools returned, the evaluation's own searches and its system prompt are checked."""
        if not self.conv.private:
            return
        watch = Watch()
        engine = self._engine(settings, watch)
        try:
            answers: dict[str, str] = {}
            for i, fact in enumerate(self.conv.private):
                answers[f"answer#{i}"] = await self._send(engine, watch, fact.question)
                for probe in (fact.question, fact.token):
                    found = await engine.memory_search(probe)
                    answers[f"probe:{probe[:40]}"] = "\n".join(h.snippet for h in found.results)
            seen = {**answers, **group_view(watch), "systemPrompt": engine.system_prompt}
            for fact in self.conv.private:
                score_group(self.tally, fact, seen)
        finally:
            engine.close()
        self._score_events(watch, flushes=False)

    async def run(self) -> Tally:
        with state_dir(self.state), said_on(self.conv.day):
            direct = _settings(self.opts, self.ws)
            before = Snapshot.take(self.ws, self.state)
            baseline = set(memory_lines(self.ws))
            await self._direct(direct)
            await self._group(_settings(self.opts, self.ws, GROUP_KEY))
            score_disk(self.conv, before, Snapshot.take(self.ws, self.state), baseline, memory_lines(self.ws), self.tally)
        return self.tally

    def _score_events(self, watch: Watch, *, flushes: bool = True) -> None:
        today = {daily_log_rel(self.conv.day, key) for key in (DIRECT_KEY, GROUP_KEY)}
        self.tally.appends_elsewhere += sum(
            1 for e in watch.of(events.MemoryChanged) if e.tool == "append" and e.path not in today and e.path.startswith("memory/")
        )
        if not flushes:
            return
        done = [e for e in watch.of(events.FlushFinished) if not e.skipped_reason]
        self.tally.flushes += len(done)
        self.tally.flush_seconds += sum(watch.flush_seconds)
        source = "\n".join(self.said)
        for comp in watch.of(events.CompactionFinished):
            self.tally.compactions += 1
            invented = unsupported_lines(comp.summary, source)
            if invented:
                self.tally.summaries_invented += 1
                self.tally.examples.append({"invented": invented[:3]})
            source += "\n" + comp.summary


def _label(model: Any) -> str:
    return str(getattr(model, "label", getattr(model, "model", "?")))


async def run_survival(opts: SurvivalOptions, progress: Progress | None = None,
                       partial: Callable[[dict[str, Any]], None] | None = None,
                       resume: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run ``opts.conversations`` conversations per language; the report: the totals
    (``Tally.summary``), ``languages`` (one summary per language), the options and examples.
    ``resume``: a partial file an earlier run with the same options wrote; its conversations
    are not run again and their tallies are added (:mod:`openclaw_tui.evals.resume`)."""
    convs = conversations(opts.seed, opts.conversations, languages=opts.languages, facts=opts.facts, kinds=opts.kinds)
    # conversation-major: a run cut off early has the same number of conversations in every language
    convs.sort(key=lambda c: (c.index, opts.languages.index(c.language)))
    start = load_resume(resume, opts, len(convs)) if resume is not None else ResumePoint(
        per_language={lang: Tally() for lang in opts.languages})
    asks = 2 if opts.same_session else 1
    total = sum(len(c.turns) + asks * len(c.facts) + len(c.private) for c in convs[start.done:])
    done = 0

    def tick(label: str) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total, label)

    tally, per_language = start.tally, start.per_language
    with tempfile.TemporaryDirectory(prefix="openclaw-survival-") as tmp:
        root = Path(tmp)
        with state_dir(root / "model-state"):
            model = shared_model(opts, root / "scratch")
        try:
            for n, conv in enumerate(convs[start.done:], start=start.done):
                part = root / f"conv-{conv.language}-{conv.index:03d}"
                part.mkdir()
                one = await ConversationRun(conv, opts, model, part, tick).run()
                tally.add(one)
                per_language[conv.language].add(one)
                if partial is not None:  # the running totals after each conversation (a long run can be read early)
                    partial({"conversationsDone": n + 1, "conversationsPlanned": len(convs), "language": conv.language,
                             **tally.summary(), "seed": opts.seed,
                             "languages": {lang: t.summary() for lang, t in per_language.items() if t.conversations},
                             "resume": resume_state(opts, n + 1, tally, per_language, start.resumed_at)})
        finally:
            label = _label(model)  # after the run: a local model's label says it loaded
            close = getattr(model, "close", None)
            if close is not None:
                close()
    report = tally.summary()
    report.update({"model": label, "seed": opts.seed, "conversationsPerLanguage": opts.conversations,
                   "languages": {lang: t.summary() for lang, t in per_language.items()},
                   "kinds": list(opts.kinds), "flush": opts.flush, "flushMode": opts.flush_mode,
                   "contextTokens": opts.context_tokens, "examples": tally.examples[:24],
                   "resumedAt": list(start.resumed_at)})
    return report
