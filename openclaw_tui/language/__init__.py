"""The user's language: one reading per message (``reading.py``), words per language as data
(``data/<lang>.reader.json``, loaded by ``lexicon.py``). Nothing outside this package decides
behaviour from English words.

    reading = read_message("¿Puedes recordar que prefiero té?")
    reading.intent, reading.facts  # Intent.REMEMBER, ("Prefiero té.",)
"""

from __future__ import annotations

from functools import lru_cache

from openclaw_tui.language.lexicon import Lexicon, lexicon
from openclaw_tui.language.reader import LexiconReader
from openclaw_tui.language.reading import Intent, MessageReading, Reader, ReaderSettings, ReplyReading

__all__ = ["Intent", "Lexicon", "LexiconReader", "MessageReading", "Reader", "ReaderSettings", "ReplyReading",
           "get_reader", "lexicon", "read_message", "read_reply"]


@lru_cache(maxsize=16)
def get_reader(settings: ReaderSettings | None = None) -> Reader:
    """The reader for ``settings`` (the default: detect among the six tables per message)."""
    return LexiconReader(settings)


def read_message(text: str, *, previous: str | None = None, settings: ReaderSettings | None = None) -> MessageReading:
    """The one reading of a user's message; ``previous`` is the user's message before it (a
    short message takes its language; a follow-up question its words)."""
    return get_reader(settings).read(text, previous=previous)


def read_reply(text: str) -> ReplyReading:
    """What a model's reply says about memory: a save claim, a promise not to store, no answer."""
    return get_reader(None).read_reply(text)
