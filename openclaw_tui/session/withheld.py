"""What the user asked not to keep stays out of what compaction writes (issue 35 item 2).

Compaction's summary (the model's, or the extractive fallback that copies the user's own
sentences) is kept in the transcript and carried into every later prompt. Before the head of
the conversation is summarised, each of the user's messages that withholds something (a
do-not-keep reading, or sentences of it in ``withheld``) loses those sentences; a message left
with nothing says so in the user's language (``language/data/<lang>.replies.json``).

    head = without_withheld(messages, writer.reading_of)
"""

from __future__ import annotations

from typing import Any, Callable

from openclaw_tui.language import Intent, MessageReading
from openclaw_tui.language.engine_lines import engine_lines


def withheld_sentences(reading: MessageReading) -> tuple[str, ...]:
    """The sentences of ``reading`` nothing may keep (the whole message for a do-not-keep without any)."""
    if reading.withheld:
        return reading.withheld
    return (reading.text,) if reading.intent is Intent.DO_NOT_KEEP else ()


def redacted(reading: MessageReading) -> str:
    """The message without its withheld sentences (the placeholder when nothing else is left)."""
    text = reading.text
    for sentence in withheld_sentences(reading):
        text = text.replace(sentence, " ")
    text = " ".join(text.split())
    if reading.intent is Intent.DO_NOT_KEEP or not any(ch.isalnum() for ch in text):
        return engine_lines(reading.language).say("withheld")
    return text


def without_withheld(messages: list[dict[str, Any]], reading_of: Callable[[str], MessageReading]) -> list[dict[str, Any]]:
    """``messages`` with the user's withheld sentences taken out (the engine's own messages and
    the others as they are; the list and its dicts are not changed)."""
    out: list[dict[str, Any]] = []
    for m in messages:
        content = m.get("content")
        if m.get("role") == "user" and isinstance(content, str) and not m.get("engine"):
            reading = reading_of(content)
            if withheld_sentences(reading):
                m = {**m, "content": redacted(reading)}
        out.append(m)
    return out
