"""The reading of a message in a language without a table: nothing decided by words.

The intent is unknown and nothing is stored by the engine (``known`` False): the model stays
in charge (tools offered, its own flush), and auto-recall searches the message as typed.
"""

from __future__ import annotations

from openclaw_tui.language.reading import Intent, MessageReading, ReplyReading

_QUESTION_MARKS = ("?", "？", "؟")


def neutral_reading(text: str, language: str = "und") -> MessageReading:
    stripped = (text or "").strip()
    return MessageReading(text=text, language=language or "und", intent=Intent.UNKNOWN, facts=(),
                          query=stripped, asks=stripped.endswith(_QUESTION_MARKS), known=False)


def neutral_reply(language: str = "und") -> ReplyReading:
    return ReplyReading(language=language or "und")
