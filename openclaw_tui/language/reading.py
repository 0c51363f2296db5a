"""What one message says, read once per turn: the contract every consumer shares.

A :class:`MessageReading` is made by a :class:`Reader` from the user's message before the
turn starts and is then passed, not re-parsed: the turn plan, the engine's notes, auto-recall,
the reply check, the flush, compaction's extractive fallback and the offline agent all take it.
A :class:`ReplyReading` is the same for the model's answer (does it claim a save, promise not
to store, say it cannot answer).

The words that decide an intent are data (``language/data/<lang>.reader.json``), one table
per language; a language without a table gets the neutral reading (``known`` False), which
leaves the model in charge: tools offered, the model's own flush, nothing stored by the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol


class Intent(str, Enum):
    STATEMENT = "statement"  # tells something (facts may be empty: "I went for a walk.")
    QUESTION = "question"  # asks (may carry facts: "Since my flight lands at 9, can I make it?")
    REMEMBER = "remember"  # asks the agent to keep something ("Remember that …", "Merk dir, dass …")
    FILE_CHANGE = "file_change"  # asks the agent to write/edit/delete a file ("Write … into notes.md")
    DO_NOT_KEEP = "do_not_keep"  # asks not to keep what it says ("don't write that down", "off the record")
    CORRECTION = "correction"  # replaces something said before ("Correction: the offsite moved to …")
    SMALL_TALK = "small_talk"  # greetings, thanks, acknowledgements
    UNKNOWN = "unknown"  # a language we have no table for, or nothing to go on


@dataclass(frozen=True)
class MessageReading:
    text: str  # the message as typed
    language: str  # ISO 639-1 code of the table used ("en", "es", "de", "fr", "pt", "it"), "und" when unknown
    intent: Intent
    #: the sentences worth keeping, in the user's words (a "remember that" lead-in dropped);
    #: empty for do-not-keep, small talk and unknown languages
    facts: tuple[str, ...] = ()
    #: what auto-recall searches ("" = no lookup: statements, small talk, requests to remember)
    query: str = ""
    #: the question has no words of its own ("And when was that?") and refers to the message before
    follow_up: bool = False
    #: the message holds a question (also when it states facts around it)
    asks: bool = False
    #: the user marked it private ("this is private", "entre nous"): kept only in the private tier
    private: bool = False
    #: sentences the user asked not to keep (do-not-keep): never written anywhere
    withheld: tuple[str, ...] = ()
    #: for a correction: words naming what it replaces (the old note is the one sharing them)
    replaces: tuple[str, ...] = ()
    #: False for the neutral reading of a language without a table
    known: bool = True
    #: how the intent was decided (internal): "cue" (a table row: keep, refusal, correction, file
    #: change, greeting or goodbye), "asked" (an asking word, clause or request), "mark" (only a
    #: question mark asks), "default" (nothing fired: a statement), "examples" (a weak basis the
    #: labelled examples overrode, ``language/examples.py``), "" (neutral or empty)
    basis: str = ""

    @property
    def keeps(self) -> bool:
        """Whether the engine stores anything of this message."""
        return bool(self.facts) and self.intent is not Intent.DO_NOT_KEEP and self.known


@dataclass(frozen=True)
class ReplyReading:
    claims_save: bool = False  # "I've noted that", "Lo he guardado", "Ich habe es gespeichert"
    promises_not_to_store: bool = False  # "I won't store that", "No lo guardaré"
    cannot_answer: bool = False  # "I could not find that", "No pude encontrarlo"
    language: str = "und"


@dataclass(frozen=True)
class ReaderSettings:
    #: pin one language ("es") instead of detecting it per message; "" = detect
    language: str = ""
    languages: tuple[str, ...] = field(default=("en", "es", "de", "fr", "pt", "it"))
    #: let the classifier trained on the labelled examples (``language/examples.py``) decide
    #: where the tables' decision is weak (basis "mark" or "default"); False = the tables alone
    examples: bool = True


class Reader(Protocol):
    def read(self, text: str, *, previous: str | None = None) -> MessageReading: ...

    def read_reply(self, text: str) -> ReplyReading: ...
