"""The one writer of the engine's notes: the user's facts, in the user's words, appended to the
day's log. It serves every place the engine keeps something without the model: a statement's
turn (stored before the model answers), the flush's engine notes, the notes before compaction,
``/new`` and quitting.

It never parses a message: the facts come from the message's :class:`MessageReading` (read
once per turn by ``openclaw_tui.language``; a user message of an earlier session is read once
when a flush first needs it). What it writes and what it leaves out, and why, come back as one
:class:`NoteOutcome`, so the turn can tell the user. The seams for the write side's rules are
here: ``target`` (where a session's notes go: the privacy tier), ``_kept_facts`` (what of a
reading may be written: consent; secrets and corrections plug in beside it).

    outcome = writer.write(reading, files, session_key="agent:main:main")
    outcome.kept      # ("- User: My VPN host is vpn-east.acme.io.",)
    outcome.not_kept  # (NotKept("I prefer tea.", ALREADY_NOTED),)
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Iterable

from openclaw_tui.config import AgentSettings
from openclaw_tui.language import Intent, MessageReading, read_message
from openclaw_tui.language.secrets import redact_for_disk
from openclaw_tui.records.history import MemoryChange
from openclaw_tui.session.notes import note_lines
from openclaw_tui.tools.files import FileTools
from openclaw_tui.workspace import safe_fs
from openclaw_tui.workspace.daily import today
from openclaw_tui.workspace.tiers import daily_log_rel
from openclaw_tui.workspace.privacy import hidden_for

#: why a fact was not written
ALREADY_NOTED = "already noted"
ASKED_NOT_TO_KEEP = "asked not to keep"
SECRET_WITHHELD = "secret withheld"  # the NotKept's text is the kind ("card number"), never the value

#: how many readings of earlier messages are kept for the flush (one session's worth)
READINGS_KEPT = 512


@dataclass(frozen=True)
class NotKept:
    text: str  # the fact or sentence, in the user's words
    reason: str  # ALREADY_NOTED, ASKED_NOT_TO_KEEP, …


@dataclass(frozen=True)
class NoteOutcome:
    """What one write kept (the note lines appended to ``path``) and what it did not, and why."""

    path: str | None = None
    kept: tuple[str, ...] = ()
    not_kept: tuple[NotKept, ...] = ()
    #: the file changes the append made (``FileTools.changes``), for the turn to announce
    changes: tuple[MemoryChange, ...] = ()

    @property
    def wrote(self) -> bool:
        return bool(self.kept)


class NoteWriter:
    def __init__(self, settings: AgentSettings):
        self.settings = settings
        self._readings: OrderedDict[str, MessageReading] = OrderedDict()

    # ------------------------------------------------------------------ readings

    def know(self, reading: MessageReading) -> None:
        """Keep a turn's reading, so a later flush of that message does not read it again."""
        self._readings[reading.text] = reading
        self._readings.move_to_end(reading.text)
        while len(self._readings) > READINGS_KEPT:
            self._readings.popitem(last=False)

    def reading_of(self, text: str) -> MessageReading:
        reading = self._readings.get(text)
        if reading is None:
            reading = read_message(text)
            self.know(reading)
        return reading

    def readings(self, history: Iterable[dict[str, Any]]) -> list[MessageReading]:
        """The readings of the user's own messages in ``history`` (not the engine's)."""
        return [self.reading_of(m["content"]) for m in history
                if m.get("role") == "user" and isinstance(m.get("content"), str) and not m.get("engine")]

    # ------------------------------------------------------------------ writing

    def target(self, session_key: str) -> str:
        """The log a session's notes go to (the privacy tier decides per ``session_key``)."""
        return daily_log_rel(today(), session_key)

    def write(self, reading: MessageReading, files: FileTools, *, session_key: str) -> NoteOutcome:
        """The facts of one message (a turn that stores now)."""
        return self.write_all([reading], files, session_key=session_key)

    def write_all(self, readings: Iterable[MessageReading], files: FileTools, *, session_key: str) -> NoteOutcome:
        """The facts of several messages, in one append through ``files`` (the same safe write,
        history and ``/undo`` as a tool call); facts already in memory are skipped."""
        facts: list[str] = []
        refused: list[NotKept] = []
        for reading in readings:
            kept, not_kept = self._kept_facts(reading)
            facts.extend(f for f in kept if f not in facts)
            refused.extend(not_kept)
        if not facts:
            return NoteOutcome(not_kept=tuple(refused))
        rel = self.target(session_key)
        existing = self._known_text(rel, session_key)
        lines: list[str] = []
        for fact in facts:
            disk = redact_for_disk(fact)  # a secret is a marker before the note is made (and cut to length)
            line = note_lines([disk.text], today=today(), existing=existing + "\n" + "\n".join(lines))
            if line:
                lines.extend(line)
                refused.extend(NotKept(kind, SECRET_WITHHELD) for kind in disk.kinds)
            else:
                refused.append(NotKept(disk.text, ALREADY_NOTED))
        if not lines:
            return NoteOutcome(not_kept=tuple(refused))
        since = len(files.changes)
        files.append({"path": rel, "content": "\n".join(lines)})
        return NoteOutcome(rel, tuple(lines), tuple(refused), tuple(files.changes[since:]))

    def _kept_facts(self, reading: MessageReading) -> tuple[list[str], list[NotKept]]:
        """What of ``reading`` may be written, and what may not (and why)."""
        if reading.intent is Intent.DO_NOT_KEEP:
            return [], [NotKept(s, ASKED_NOT_TO_KEEP) for s in (reading.withheld or reading.facts)]
        withheld = [NotKept(s, ASKED_NOT_TO_KEEP) for s in reading.withheld]
        return (list(reading.facts) if reading.keeps else []), withheld

    def _known_text(self, rel: str, session_key: str) -> str:
        """What memory holds already, for the dedup: the log, and MEMORY.md in a private session."""
        ws = self.settings.workspace
        names = [rel] if hidden_for(session_key) else [rel, "MEMORY.md", "memory.md"]
        parts: list[str] = []
        for name in names:
            try:
                parts.append((safe_fs.current_bytes(ws, name) or b"").decode("utf-8", "replace"))
            except (OSError, safe_fs.PathRefused):
                continue
        return "\n".join(parts)
