"""The one writer of the engine's notes: the user's facts, in the user's words, appended to the
day's log. It serves every place the engine keeps something without the model: a statement's
turn (stored before the model answers), the flush's engine notes, the notes before compaction,
``/new`` and quitting.

It never parses a message: the facts come from the message's :class:`MessageReading` (read
once per turn by ``openclaw_tui.language``; a user message of an earlier session is read once
when a flush first needs it). What it writes and what it leaves out, and why, come back as one
:class:`NoteOutcome`, so the turn can tell the user. The seams for the write side's rules are
here: ``target`` (where a session's notes go: the privacy tier), ``_kept_facts`` (what of a
reading may be written: consent, a private remark in a group session), secrets made markers
before a note is made (``language/secrets.py``), dates annotated in the reading's language
(``notes.py``), and a correction's old note marked superseded (``corrections.py``).

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
from openclaw_tui.session.corrections import Superseded, supersede
from openclaw_tui.session.notes import note_lines
from openclaw_tui.tools.files import FileTools
from openclaw_tui.workspace import safe_fs
from openclaw_tui.workspace.daily import today
from openclaw_tui.workspace.privacy import hidden_for
from openclaw_tui.workspace.supersede import find_replaced, superseded_line, visible_text
from openclaw_tui.workspace.tiers import daily_log_rel

#: why a fact was not written
ALREADY_NOTED = "already noted"
ASKED_NOT_TO_KEEP = "asked not to keep"
SECRET_WITHHELD = "secret withheld"  # the NotKept's text is the kind ("card number"), never the value
PRIVATE_IN_GROUP = "private, said in a group session"
FORGOTTEN = "forgotten"  # the user made memory forget it (a tombstone refuses it)

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
    #: the file changes the write made (``FileTools.changes``: the append, superseded marks), for the turn to announce
    changes: tuple[MemoryChange, ...] = ()
    #: the notes a correction replaced, marked ``<!-- status: superseded -->`` (line 0: a line of this write)
    superseded: tuple[Superseded, ...] = ()
    #: why the append did not happen (a refusal of the file tools), "" when it did or was not needed
    error: str = ""

    @property
    def wrote(self) -> bool:
        return bool(self.kept) or any(s.line for s in self.superseded)


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

    def write_all(self, readings: Iterable[MessageReading], files: FileTools, *, session_key: str,
                  replaying: bool = False) -> NoteOutcome:
        """The facts of several messages, in one append through ``files`` (the same safe write,
        history and ``/undo`` as a tool call); facts already in memory are skipped, a secret
        becomes a marker, and a correction marks the note it replaces superseded. ``replaying``:
        the messages are the conversation read again (a flush), so a fact a correction marked
        superseded counts as noted: the old value is not written back beside the new one."""
        rel = self.target(session_key)
        refused: list[NotKept] = []
        lines: list[str] = []
        superseded: list[Superseded] = []
        since = len(files.changes)
        existing: str | None = None
        for reading in readings:
            kept, not_kept = self._kept_facts(reading, session_key)
            refused.extend(not_kept)
            if not kept:
                continue
            if existing is None:
                existing = self._known_text(rel, session_key, superseded_too=replaying)
            new: list[str] = []
            for fact in kept:
                if files.is_forgotten(fact):  # said in the reply, not only refused on the timeline
                    refused.append(NotKept(fact, FORGOTTEN))
                    continue
                disk = redact_for_disk(fact)  # a secret is a marker before the note is made (and cut to length)
                line = note_lines([disk.text], today=today(), lang=reading.language,
                                  existing="\n".join([existing, *lines, *new]))
                if line:
                    new.extend(line)
                    refused.extend(NotKept(kind, SECRET_WITHHELD) for kind in disk.kinds)
                else:
                    refused.append(NotKept(disk.text, ALREADY_NOTED))
            if new and reading.intent is Intent.CORRECTION and reading.replaces:
                old = self._supersede(reading.replaces, lines, files, rel)
                if old is not None:
                    superseded.append(old)
                    existing = None  # the marked note no longer counts as known
            lines.extend(new)
        if not lines:
            return NoteOutcome(not_kept=tuple(refused), superseded=tuple(superseded), changes=tuple(files.changes[since:]))
        with files.writing_as("engine note"):
            done = files.append({"path": rel, "content": "\n".join(lines)})
        if not done.get("ok"):
            return NoteOutcome(not_kept=tuple(refused), superseded=tuple(superseded), changes=tuple(files.changes[since:]),
                               error=str(done.get("error") or ""))
        files.withheld_before(tuple(dict.fromkeys(n.text for n in refused if n.reason == SECRET_WITHHELD)))  # told, recorded
        record = files.writes[-1] if files.writes else None
        extra = [k for k in getattr(record, "withheld", ()) if NotKept(k, SECRET_WITHHELD) not in refused]
        refused.extend(NotKept(k, SECRET_WITHHELD) for k in extra)
        return NoteOutcome(rel, tuple(lines), tuple(refused), tuple(files.changes[since:]), tuple(superseded))

    @staticmethod
    def _supersede(replaces: tuple[str, ...], pending: list[str], files: FileTools, rel: str) -> Superseded | None:
        """The note a correction replaces, marked: one of this write's own lines (marked before it
        is written), else one on disk in the session's tier (``corrections.supersede``)."""
        n = find_replaced(pending, replaces)
        if n is not None:
            old = pending[n - 1]
            pending[n - 1] = superseded_line(old) or old
            return Superseded(rel, 0, old)
        with files.writing_as("engine note"):
            return supersede(files, replaces, target=rel)

    def _kept_facts(self, reading: MessageReading, session_key: str) -> tuple[list[str], list[NotKept]]:
        """What of ``reading`` may be written, and what may not (and why)."""
        if reading.intent is Intent.DO_NOT_KEEP:
            return [], [NotKept(s, ASKED_NOT_TO_KEEP) for s in (reading.withheld or reading.facts)]
        withheld = [NotKept(s, ASKED_NOT_TO_KEEP) for s in reading.withheld]
        facts = list(reading.facts) if reading.keeps else []
        if facts and reading.private and hidden_for(session_key):
            return [], withheld + [NotKept(s, PRIVATE_IN_GROUP) for s in facts]
        return facts, withheld

    def _known_text(self, rel: str, session_key: str, *, superseded_too: bool = False) -> str:
        """What memory holds already, for the dedup: the log, and MEMORY.md in a private session
        (with the superseded notes when ``superseded_too``)."""
        ws = self.settings.workspace
        names = [rel] if hidden_for(session_key) else [rel, "MEMORY.md", "memory.md"]
        parts: list[str] = []
        for name in names:
            try:
                text = (safe_fs.current_bytes(ws, name) or b"").decode("utf-8", "replace")
                parts.append(text if superseded_too else visible_text(text))
            except (OSError, safe_fs.PathRefused):
                continue
        return "\n".join(parts)
