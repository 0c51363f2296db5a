"""What the engine does around the model in one turn, decided before it starts.

A statement ("My VPN host is vpn-east.acme.io") is not a question: with a local model the
engine stores its fact sentences itself (``session/notes.py``) and asks the model for a reply
with no tools offered (measured: offered tools, the 1.5B model read today's log, searched,
read again and answered "I could not answer that"). Every reply is then checked
(``reply_check.py``): citations against what the turn found, save claims against what it
wrote, and a statement's reply against the system prompt it may repeat.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from openclaw_tui.session.notes import fact_sentences, has_cue, is_statement
from openclaw_tui.session.reply_check import Evidence, check_reply, fix_statement_reply, reads_of, verify_citations
from openclaw_tui.session.tool_loop import RunScratch
from openclaw_tui.tools.files import FileTools


# the user asks for a file change: only then does a local model get the tools that write
WRITE_ASK_RE = re.compile(
    r"\b(?:write|edit|update|append|change|delete|remove|rewrite|fix|correct|add|save|store|record)\b.*"
    r"\b(?:memory|notes?|file|log|[\w./-]+\.md)\b",
    re.IGNORECASE | re.DOTALL,
)


@dataclass(frozen=True)
class TurnPlan:
    text: str
    statement: bool  # tells rather than asks
    cue: bool  # "remember …"
    store_now: bool  # the engine appends the fact sentences before the model answers (a statement's, or a question's)
    no_tools: bool  # the model answers without tools (a statement, local profile)
    no_writes: bool  # only tools that write nothing (a question to a local model: the engine keeps the notes)


def plan_turn(text: str, *, local: bool, engine_notes: bool, access: str, memory_on: bool) -> TurnPlan:
    """``local``: the local profile; ``engine_notes``: the flush mode lets the engine write notes."""
    statement = is_statement(text)
    helped = local and statement and engine_notes  # memoryFlush.mode "model": the model keeps its tools and notes
    # a fact told with a question ("My dentist moved to Tuesday. When is it now?"): stored now,
    # as the flush would store it later, so the question's lookup finds it
    told_with_question = local and engine_notes and not statement and bool(fact_sentences(text))
    return TurnPlan(
        text=text,
        statement=statement,
        cue=has_cue(text),
        store_now=(helped or told_with_question) and access == "rw" and memory_on,
        no_tools=helped,
        # a question, small talk, anything but an explicit request to change a file: the 1.5B
        # appended its answers ("12 times 7 equals 84.") and small talk to the log
        no_writes=local and engine_notes and not WRITE_ASK_RE.search(text),
    )


@dataclass
class ReplyCheck:
    """The check run on the turn's final answer before it is kept (``LoopRun.check``)."""

    plan: TurnPlan
    local: bool
    access: str
    memory_on: bool
    system: Callable[[], str]
    evidence: Callable[[], Evidence]
    saved_to: Callable[[], str | None]

    def __call__(self, text: str) -> str:
        ev = self.evidence()
        if self.plan.statement and self.local:
            # a statement's turn searched nothing: a reference in its reply was made up
            text, invented = verify_citations(text, ev)
            text = fix_statement_reply(text, system=self.system(), user=self.plan.text, saved_to=self.saved_to(),
                                       access=self.access, cue=self.plan.cue, invented=bool(invented))
        return check_reply(text, ev, access=self.access, memory_on=self.memory_on).text


def reply_check_for(plan: TurnPlan, scratch: RunScratch, files: FileTools, wrote: int, *, local: bool, access: str,
                    memory_on: bool, system: Callable[[], str]) -> ReplyCheck:
    """The check of this turn's answer: evidence from the turn's ``scratch`` (hits, reads) and ``files``
    (writes after the first ``wrote``)."""
    return ReplyCheck(
        plan, local=local, access=access, memory_on=memory_on, system=system,
        evidence=lambda: Evidence(tuple(scratch.hits), tuple(reads_of(scratch.calls)), len(files.writes) - wrote),
        saved_to=lambda: next((w.path for w in files.writes[wrote:] if w.tool == "append"), None),
    )
