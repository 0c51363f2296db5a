"""What the engine does around the model in one turn, decided before it starts from the
message's one reading (``openclaw_tui.language``).

A statement ("My VPN host is vpn-east.acme.io") is not a question: with a local model the
engine stores its facts itself (``note_writer.py``) and asks the model for a reply with no
tools offered (measured: offered tools, the 1.5B model read today's log, searched, read again
and answered "I could not answer that"). A fact told inside a question is stored now and the
question answered; a request to change a file gets the writing tools; a message the user asked
not to keep is stored nowhere; a language without a table leaves the model in charge (its
tools, no engine note); a request to change a file when the workspace cannot be written is
refused plainly, without the model. Every reply is then checked (``reply_check.py``): citations
against what the turn found, save claims and promises not to store against what it wrote, a
statement's reply against the system prompt it may repeat; and the user is told, in their
language, what the turn kept and did not keep (``acknowledge.py``).
"""

from __future__ import annotations

import re

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from openclaw_tui.language import Intent, MessageReading, read_reply
from openclaw_tui.session.acknowledge import forgotten_line, is_bare_acknowledgement, refusals_said, said, with_said, wrote_anyway
from openclaw_tui.session.note_writer import FORGOTTEN, NoteOutcome
from openclaw_tui.session.reply_check import Evidence, acknowledgement, check_reply, fix_statement_reply, reads_of, verify_citations
from openclaw_tui.session.tool_loop import RunScratch
from openclaw_tui.tools.files import FileTools
from openclaw_tui.workspace import safe_fs

#: a cited file larger than this is checked against its hits only
CITED_FILE_MAX = 2_000_000


def file_lines(workspace: Path, paths: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """The lines of the Markdown files ``paths`` in ``workspace`` as they are now (normalised
    path → lines), for the citation check; a file that cannot be read is left out."""
    out: dict[str, tuple[str, ...]] = {}
    for path in paths:
        rel = path.strip().lstrip("./")
        if not rel.endswith(".md") or rel in out:
            continue
        try:
            data = safe_fs.current_bytes(Path(workspace), rel)
        except (OSError, safe_fs.PathRefused, ValueError):
            continue
        if data is not None and len(data) <= CITED_FILE_MAX:
            out[rel] = tuple(data.decode("utf-8", "replace").split("\n"))
    return out

#: the file tools whose refusal the reply must tell
WRITING_TOOLS = ("append", "write", "edit")
#: intents that tell rather than ask
TELLING = (Intent.STATEMENT, Intent.REMEMBER, Intent.CORRECTION)


@dataclass(frozen=True)
class TurnPlan:
    text: str
    statement: bool  # tells rather than asks
    cue: bool  # a request to remember
    store_now: bool  # the engine writes the facts before the model answers (a statement's, or a question's)
    no_tools: bool  # the model answers without tools (a statement, local profile)
    no_writes: bool  # only tools that write nothing (a question to a local model: the engine keeps the notes)
    #: the message withholds something (do-not-keep): the writer reports what it did not keep, and no tool writes
    withholds: bool = False
    #: a request to change a file the workspace cannot take (access ro/none), local profile: refused without the model
    refused: bool = False
    #: a remark that keeps nothing and asks nothing ("The office is quiet today.", "Thanks!")
    remark: bool = False
    #: the message asks something (a question, a fact told inside one, "Give me one tip …")
    asks: bool = False


def plan_turn(reading: MessageReading, *, local: bool, engine_notes: bool, access: str, memory_on: bool,
              offline: bool = False) -> TurnPlan:
    """``local``: the local profile; ``engine_notes``: the flush mode lets the engine write notes;
    ``offline``: the offline agent serves (the engine keeps a statement's facts at once for it
    too: it answered "Noted." and then "found nothing" until the session ended)."""
    # memoryFlush.mode "model", or a language we cannot read: the model decides
    # (the offline agent stores a request to remember itself, with its append)
    helps = (local or offline and reading.intent is not Intent.REMEMBER) and engine_notes and reading.known
    statement = reading.intent in TELLING and (bool(reading.facts) or reading.intent is Intent.REMEMBER)
    # a fact told with a question ("My dentist moved to Tuesday. When is it now?"): stored now,
    # as the flush would store it later, so the question's lookup finds it
    told_with_question = not statement and reading.keeps
    withholds = reading.intent is Intent.DO_NOT_KEEP or bool(reading.withheld)
    return TurnPlan(
        text=reading.text,
        statement=statement,
        cue=reading.intent is Intent.REMEMBER,
        store_now=helps and (statement or told_with_question) and reading.keeps and access == "rw" and memory_on,
        no_tools=helps and statement,
        # a question, small talk, anything but an explicit request to change a file: the 1.5B
        # appended its answers ("12 times 7 equals 84.") and small talk to the log
        no_writes=helps and reading.intent is not Intent.FILE_CHANGE or withholds,
        withholds=withholds,
        # a small model answered "Noted for this conversation." (issue 37), and a hosted one's
        # word is not the engine's: every profile gets the plain refusal, in the chat and on the
        # timeline; so does a request to remember that the workspace cannot keep
        refused=access != "rw" and (reading.intent is Intent.FILE_CHANGE
                                    or reading.intent is Intent.REMEMBER and not reading.asks),
        remark=reading.known and reading.intent in (Intent.STATEMENT, Intent.SMALL_TALK) and not reading.facts
        and not reading.asks,
        asks=reading.known and reading.asks and reading.intent in (Intent.QUESTION, Intent.STATEMENT),
    )


@dataclass(frozen=True)
class ReplyCheck:
    """The check run on the turn's final answer before it is kept (an ``AnswerCheck``): the
    evidence is what this turn's ``scratch`` saw and what ``files`` wrote after ``mark``."""

    plan: TurnPlan
    scratch: RunScratch
    files: FileTools
    mark: int  # len(files.writes) when the turn began
    local: bool
    access: str
    memory_on: bool
    notes: NoteOutcome = NoteOutcome()  # what the engine kept of the message this turn, and what not
    language: str = "en"  # the user's language, for the engine's own lines
    refused_mark: int = 0  # len(files.refusals) when the turn began
    forgot_mark: int = 0  # len(files.forgotten_refusals) when the turn began

    def restates_forgotten(self) -> bool:
        """The turn tried to store a forgotten fact, or the user told one again (a statement):
        the reply says it is not kept (the notes' outcome may have said it already)."""
        if any(n.reason == FORGOTTEN for n in self.notes.not_kept):
            return False
        refused = len(self.files.forgotten_refusals) > self.forgot_mark
        return refused or ((self.plan.statement or self.plan.cue) and self.files.is_forgotten(self.plan.text))

    def evidence(self) -> Evidence:
        hits, reads = tuple(self.scratch.hits), tuple(reads_of(self.scratch.calls))
        paths = {str(h.get("path", "")) for h in hits} | {r[0] for r in reads}
        return Evidence(hits, reads, len(self.files.writes) - self.mark, texts=file_lines(self.files.workspace, paths),
                        asked=self.plan.text)

    def saved_to(self) -> str | None:
        return next((w.path for w in self.files.writes[self.mark:] if w.tool == "append"), None)

    def written(self) -> list[tuple[str, int]]:
        """(path, lines) of the memory writes this turn made, the engine's notes included."""
        return [(w.path, w.lines) for w in self.files.writes[self.mark:] if w.tool in ("append", "write")]

    def wants_answer(self, text: str) -> bool:
        """The local model's reply to a question is only an acknowledgement or a one-sentence save
        claim (an ``AnswerCheck``; the engine's note of a fact told inside the question is no answer)."""
        if not (self.local and self.plan.asks) or self.plan.withholds:
            return False
        one_sentence = len(re.split(r"(?<=[.!?。！？])\s+", text.strip())) == 1
        return is_bare_acknowledgement(text) or one_sentence and read_reply(text).claims_save

    def check(self, text: str, *, system: str) -> str:
        ev = self.evidence()
        acknowledged = False
        if self.plan.statement and self.local:
            # a statement's turn searched nothing: a reference in its reply was made up
            text, invented = verify_citations(text, ev)
            fixed = fix_statement_reply(text, system=system, user=self.plan.text, saved_to=self.saved_to(),
                                        access=self.access, cue=self.plan.cue, invented=bool(invented), lang=self.language)
            acknowledged, text = fixed != text, fixed
        one_sentence = len(re.split(r"(?<=[.!?。！？])\s+", text.strip())) == 1
        if (self.local and self.plan.remark and self.access == "rw" and not self.plan.withholds and not self.written()
                and one_sentence and read_reply(text).claims_save):
            # "The office is quiet today." answered "Noted — saved to memory/…" (the 1.5B copying an
            # earlier reply) when nothing was worth keeping: the plain acknowledgement instead of a
            # claim followed by the engine's correction of it
            text = acknowledgement(saved_to=None, access=self.access, cue=False, lang=self.language)
            acknowledged = True
        promised = read_reply(text).promises_not_to_store  # the model's words, before the engine adds its own
        out = check_reply(text, ev, access=self.access, memory_on=self.memory_on, lang=self.language).text
        restated = self.restates_forgotten()
        if (restated or any(n.reason == FORGOTTEN for n in self.notes.not_kept)) and (
                read_reply(text).claims_save or is_bare_acknowledgement(text)):
            acknowledged = True  # "Noted." to a fact the user made memory forget: the refusal stands instead
        short = len(re.split(r"(?<=[.!?。！？])\s+", text.strip())) == 1  # one sentence: a claim, not an answer with one
        if self.plan.withholds and not self.written() and (
                is_bare_acknowledgement(text) or short and read_reply(text).claims_save):
            # "Please don't write this down: my PIN is 4821." answered "Noted — saved to …" (the 1.5B
            # copying its last reply): what happened is said instead of a claim and its correction
            acknowledged = True
        out = with_said(out, said(self.notes, self.language), acknowledgement_only=acknowledged)
        if restated:
            out = with_said(out, forgotten_line(self.language), acknowledgement_only=acknowledged and out == text)
        written = self.written()
        if promised and written:
            out = with_said(out, wrote_anyway(written, self.language), acknowledgement_only=False)
        # what the sandbox refused this turn, said plainly whatever the model said (every profile)
        # (a forgotten fact's refusal is said above, once, as "Not kept: what you asked me to forget")
        refused = [r for r in self.files.refusals[self.refused_mark:] if r[0] in WRITING_TOOLS and r[3] != "forgotten"]
        return with_said(out, refusals_said(refused, self.language), acknowledgement_only=acknowledged and not written)
