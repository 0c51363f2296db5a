"""General questions through the real engine: does a reply cite only what was found, claim
only saves that happened, and write nothing where nothing was asked to be written?

Thirty questions of several kinds (arithmetic, facts of the world, code, advice, and a few
about the user's past that the seeded memory files can or cannot answer) are asked in one
session over a workspace whose memory holds a handful of notes. Scored per run: ``Source:``
lines naming no existing file or lines (the engine's "(unverified)" marks aside), save claims
with no write, appends outside today's log, memory writes on a question, empty replies and
seconds per question.

    report = asyncio.run(run_questions(QuestionOptions(model="local/1.5b")))
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any, Callable

from openclaw_tui import events
from openclaw_tui.evals.survival import TEMPLATE, Watch, source_refs_unfound
from openclaw_tui.session.reply_check import claims_save, flags_not_stored

INLINE_SOURCE_RE = re.compile(r"\bsources?\**\s*:\**(?P<rest>[^\n]*)", re.IGNORECASE)

QUESTIONS = (
    "What is 12 times 7?",
    "How many minutes are in three hours?",
    "What is 15 percent of 240?",
    "If a train leaves at 14:10 and the trip takes 95 minutes, when does it arrive?",
    "What is the square root of 144?",
    "What is the capital of Portugal?",
    "Which planet is closest to the sun?",
    "How many days are in a leap year?",
    "What language is spoken in Brazil?",
    "What does HTTP status code 404 mean?",
    "How do I reverse a list in Python?",
    "What is the difference between a tuple and a list in Python?",
    "How do I count the lines of a file in bash?",
    "What does `git stash` do?",
    "What is a race condition?",
    "Can you suggest a short name for a team chat channel?",
    "Give me one tip for writing clearer emails.",
    "How should I prepare for a one-hour design review?",
    "What is a good way to end a meeting that runs long?",
    "How can I keep a standup under fifteen minutes?",
    "What did we decide about the release freeze?",
    "Who is the on-call lead this week?",
    "What is the VPN hostname?",
    "When is the dentist appointment?",
    "What budget did we agree for the offsite?",
    "What is my sister's favourite colour?",
    "Which city is the conference in next year?",
    "What was the ticket number for the printer outage?",
    "Do you remember what I said about the database migration?",
    "What is the name of my manager's dog?",
)


def seed_memory(workspace: Path, today: date) -> None:
    """A few notes the questions about the past can find (some of them have no answer)."""
    yesterday = (today - timedelta(days=1)).isoformat()
    (workspace / "memory").mkdir(exist_ok=True)
    (workspace / "memory" / f"{yesterday}.md").write_text(
        f"# {yesterday}\n\n- User: the release freeze starts Thursday and lasts one week.\n"
        "- User: the on-call lead this week is Priya Raman.\n- User: the VPN hostname is vpn-east.corp.example.\n"
        "- User: the offsite budget is 4,800 EUR.\n", encoding="utf-8")
    with (workspace / "MEMORY.md").open("a", encoding="utf-8") as fh:
        fh.write("\n- The database migration to Postgres 16 is planned for the first week of March.\n"
                 "- Dentist appointment: Friday 09:00 at Dr. Kellner.\n")


def cited_not_from_turn(reply: str, turn_events: list[Any]) -> list[str]:
    """Files a ``Source:`` line of ``reply`` names (with or without lines) that no search of
    this turn returned and no read of this turn opened — read from the turn's events."""
    seen = {h.path.lstrip("./") for e in turn_events if isinstance(e, events.MemoryRetrieved) for h in e.result.results}
    seen |= {str(e.arguments.get("path", "")).lstrip("./") for e in turn_events
             if isinstance(e, events.ToolCalled) and e.name in ("read", "memory_get")}
    named = []
    for m in INLINE_SOURCE_RE.finditer(reply):
        for word in re.split(r"[\s,;]+", m.group("rest")):
            path = word.strip("()[]`*_.'\"").split("#L")[0]
            if path and ("." in path or "/" in path):
                named.append(path)
    return [p for p in dict.fromkeys(named) if p.lstrip("./") not in seen]


@dataclass(frozen=True)
class QuestionOptions:
    model: str | None = None
    api_base: str | None = None
    api_key: str | None = None
    limit: int = len(QUESTIONS)


@dataclass
class QuestionTally:
    questions: int = 0
    sources: int = 0
    sources_unfound: int = 0
    sources_not_from_turn: int = 0  # naming a file this turn neither searched up nor read (events, not the engine's check)
    save_claims_unflagged: int = 0
    appends_elsewhere: int = 0
    writes_on_questions: int = 0
    empty_replies: int = 0
    seconds: float = 0.0
    examples: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        out = {k: v for k, v in asdict(self).items() if k not in ("examples", "seconds")}
        out["secondsPerQuestion"] = round(self.seconds / self.questions, 2) if self.questions else 0.0
        return out


class QuestionRun:
    """One session over a seeded workspace, asking every question in turn."""

    def __init__(self, opts: QuestionOptions, root: Path, progress: Callable[[str], None]):
        self.opts, self.tick = opts, progress
        self.ws, self.state = root / "ws", root / "state"
        shutil.copytree(TEMPLATE, self.ws)
        seed_memory(self.ws, date.today())
        self.tally = QuestionTally()

    def _score(self, question: str, reply: str, new_events: list[Any]) -> None:
        from openclaw_tui.workspace.daily import daily_rel

        t = self.tally
        n, bad = source_refs_unfound(reply, self.ws)
        t.sources, t.sources_unfound = t.sources + n, t.sources_unfound + bad
        stray = cited_not_from_turn(reply, new_events)
        t.sources_not_from_turn += len(stray)
        changed = [e for e in new_events if isinstance(e, events.MemoryChanged)]
        t.writes_on_questions += bool(changed)
        t.appends_elsewhere += sum(1 for e in changed if e.tool == "append" and e.path != daily_rel())
        unflagged = claims_save(reply) and not flags_not_stored(reply) and not changed
        t.save_claims_unflagged += unflagged
        t.empty_replies += not reply.strip()
        if bad or unflagged or changed or stray:
            t.examples.append({"asked": question, "reply": reply[-300:], "wrote": [e.path for e in changed], "stray": stray})

    async def run(self, model: Any) -> QuestionTally:
        from openclaw_tui.evals.survival_run import _settings, state_dir
        from openclaw_tui.evals.survival import SurvivalOptions
        from openclaw_tui.session.engine import SessionEngine

        with state_dir(self.state):
            settings = _settings(SurvivalOptions(model=self.opts.model, api_base=self.opts.api_base,
                                                 api_key=self.opts.api_key, context_tokens=32768), self.ws)
            watch = Watch()
            engine = SessionEngine(settings, sink=watch, model=model, probe_ollama=False)
            try:
                for question in QUESTIONS[: self.opts.limit]:
                    before, t0 = len(watch.events), time.monotonic()
                    result = await engine.send(question)
                    self.tally.questions += 1
                    self.tally.seconds += time.monotonic() - t0
                    self._score(question, result.text or "", watch.events[before:])
                    self.tick(question)
            finally:
                engine.close()
        return self.tally


async def run_questions(opts: QuestionOptions, progress: Callable[[int, int, str], None] | None = None) -> dict[str, Any]:
    from openclaw_tui.evals.survival import SurvivalOptions
    from openclaw_tui.evals.survival_run import shared_model, state_dir

    total, done = min(opts.limit, len(QUESTIONS)), 0

    def tick(label: str) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total, label)

    with tempfile.TemporaryDirectory(prefix="openclaw-questions-") as tmp:
        root = Path(tmp)
        with state_dir(root / "model-state"):
            model = shared_model(SurvivalOptions(model=opts.model, api_base=opts.api_base, api_key=opts.api_key),
                                 root / "scratch")
        try:
            tally = await QuestionRun(opts, root, tick).run(model)
        finally:
            label = getattr(model, "label", getattr(model, "model", "?"))
            close = getattr(model, "close", None)
            if close is not None:
                close()
    report = tally.summary()
    report.update({"model": label, "examples": tally.examples[:8]})
    return report
