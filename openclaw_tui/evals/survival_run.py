"""Running the fact-survival evaluation: one workspace and state dir per conversation, the
real engine, one model shared by every session (a local model's server starts once)."""

from __future__ import annotations

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
from openclaw_tui.evals.survival import (
    NOT_STORED,
    TEMPLATE,
    SurvivalOptions,
    Tally,
    Watch,
    holds,
    memory_lines,
    score_memory,
    source_refs_unfound,
)
from openclaw_tui.llm.client import ChatModel
from openclaw_tui.session.notes import is_statement
from openclaw_tui.language import read_reply
from openclaw_tui.session.reply_check import claims_save, echoes_prompt
from openclaw_tui.session.summary_check import unsupported_lines
from openclaw_tui.workspace.daily import daily_rel

Progress = Callable[[int, int, str], None]


def overrides(opts: SurvivalOptions) -> dict[str, Any]:
    flush: dict[str, Any] = {"softThresholdTokens": opts.soft_threshold, "enabled": opts.flush, "mode": opts.flush_mode,
                             "onSessionEnd": opts.flush}
    comp = {"reserveTokensFloor": opts.reserve_floor, "keepRecentTokens": opts.keep_recent, "memoryFlush": flush}
    return {"agents": {"defaults": {"contextTokens": opts.context_tokens, "compaction": comp}}}


@contextmanager
def state_dir(path: Path) -> Iterator[None]:
    """OPENCLAW_STATE_DIR at ``path`` for the block; the models dir stays where the models are."""
    from openclaw_tui.llm.local.files import models_dir

    saved = {k: os.environ.get(k) for k in ("OPENCLAW_STATE_DIR", "OPENCLAW_MODELS_DIR")}
    os.environ.setdefault("OPENCLAW_MODELS_DIR", str(models_dir()))
    os.environ["OPENCLAW_STATE_DIR"] = str(path)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _settings(opts: SurvivalOptions, workspace: Path) -> Any:
    from openclaw_tui.config import load_config, resolve_agent

    return resolve_agent(load_config(None, overrides=overrides(opts)), workspace=workspace, model=opts.model,
                         api_base=opts.api_base, api_key=opts.api_key)


def shared_model(opts: SurvivalOptions, scratch: Path) -> ChatModel:
    from openclaw_tui.llm.resolve import resolve_model
    from openclaw_tui.session.model_slot import make_model

    settings = _settings(opts, scratch)
    return make_model(resolve_model(settings, probe=False), settings)


class ConversationRun:
    """One conversation: its statements, same-session questions, a new session's questions."""

    def __init__(self, conv: Conversation, opts: SurvivalOptions, model: ChatModel, root: Path, progress: Callable[[str], None]):
        self.conv, self.opts, self.model = conv, opts, model
        self.ws, self.state = root / "ws", root / "state"
        shutil.copytree(TEMPLATE, self.ws)
        self.tally = Tally(facts=len(conv.facts))
        self.tick = progress
        self.said: list[str] = []  # everything said, for the summary check

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
        if claims_save(reply) and NOT_STORED not in reply and not changed:
            self.tally.save_claims_unflagged += 1
        self.tick(text[:40])
        return reply

    async def _statements(self, engine: Any, watch: Watch) -> None:
        for turn in self.conv.turns:
            reply = await self._send(engine, watch, turn)
            if is_statement(turn):
                self.tally.statements += 1
                echo = echoes_prompt(reply, engine.system_prompt, turn)
                cannot = read_reply(reply).cannot_answer
                self.tally.echoes += echo
                self.tally.unanswerable_statements += cannot
                if echo or cannot:
                    self.tally.examples.append({"statement": turn, "reply": reply[:300]})

    async def run(self) -> Tally:
        from openclaw_tui.session.engine import SessionEngine

        with state_dir(self.state):
            settings = _settings(self.opts, self.ws)
            baseline = set(memory_lines(self.ws))
            watch = Watch()
            engine = SessionEngine(settings, sink=watch, model=self.model, probe_ollama=False)
            try:
                await self._statements(engine, watch)
                for fact in self.conv.facts:
                    self._answered(await self._send(engine, watch, fact.question), fact, same=True)
            finally:
                engine.close()
            self._score_events(watch)
            score_memory(self.ws, self.conv.facts, baseline, self.tally)
            fresh_watch = Watch()
            fresh = SessionEngine(settings, sink=fresh_watch, model=self.model, probe_ollama=False)
            try:
                for fact in self.conv.facts:
                    self._answered(await self._send(fresh, fresh_watch, fact.question), fact, same=False)
            finally:
                fresh.close()
            self._score_events(fresh_watch, flushes=False)
        return self.tally

    def _answered(self, reply: str, fact: Fact, *, same: bool) -> None:
        """Count an answer to a fact's question; a miss goes to the examples with what was expected."""
        ok = holds(reply, fact, alt=same)
        if same:
            self.tally.answered_same += ok
        else:
            self.tally.answered_new += ok
        if not ok:
            self.tally.examples.append({"missed": fact.question, "session": "same" if same else "new",
                                        "expected": fact.token, "reply": reply[:300]})

    def _score_events(self, watch: Watch, *, flushes: bool = True) -> None:
        today = daily_rel()
        self.tally.appends_elsewhere += sum(
            1 for e in watch.of(events.MemoryChanged) if e.tool == "append" and e.path != today and e.path.startswith("memory/")
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


async def run_survival(opts: SurvivalOptions, progress: Progress | None = None,
                       partial: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Run every conversation of ``opts``; the report (``Tally.summary`` and the options)."""
    convs = conversations(opts.seed, opts.conversations, today=date.today(), facts=opts.facts)
    total = sum(len(c.turns) + 2 * len(c.facts) for c in convs)
    done = 0

    def tick(label: str) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total, label)

    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="openclaw-survival-") as tmp:
        root = Path(tmp)
        with state_dir(root / "model-state"):
            model = shared_model(opts, root / "scratch")
        try:
            for conv in convs:
                part = root / f"conv-{conv.index:03d}"
                part.mkdir()
                tally.add(await ConversationRun(conv, opts, model, part, tick).run())
                if partial is not None:  # the running totals after each conversation (a long run can be read early)
                    partial({"conversationsDone": conv.index + 1, **tally.summary()})
        finally:
            label = getattr(model, "label", getattr(model, "model", "?"))  # after the run: a local model's label says it loaded
            close = getattr(model, "close", None)
            if close is not None:
                close()
    report = tally.summary()
    report.update({"model": label, "seed": opts.seed, "conversations": opts.conversations, "flush": opts.flush,
                   "flushMode": opts.flush_mode, "contextTokens": opts.context_tokens, "examples": tally.examples[:8]})
    return report
