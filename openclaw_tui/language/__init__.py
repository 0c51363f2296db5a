from __future__ import annotations

"""The user's language: one reading per message (``reading.py``), words per language as data
(``data/``). Nothing outside this package decides behaviour from English words."""


from openclaw_tui.language.reading import Intent, MessageReading, Reader, ReaderSettings, ReplyReading

__all__ = ["Intent", "MessageReading", "Reader", "ReaderSettings", "ReplyReading", "read_message", "read_reply"]


def read_message(text: str, *, previous: str | None = None, settings: ReaderSettings | None = None) -> MessageReading:
    """PLACEHOLDER (replaced by the lexicon reader): the English reading of the old helpers."""
    from openclaw_tui.session import notes, recall

    stripped = (text or "").strip()
    if not stripped:
        return MessageReading(text=text, language="und", intent=Intent.UNKNOWN, known=False)
    facts = tuple(notes.fact_sentences(stripped))
    if notes.has_cue(stripped):
        intent = Intent.REMEMBER
    elif notes.is_statement(stripped):
        intent = Intent.STATEMENT
    elif recall.GREETING_RE.match(stripped):
        intent = Intent.SMALL_TALK
    else:
        intent = Intent.QUESTION
    query = recall.recall_query(stripped, previous) if recall.wants_recall(stripped) else ""
    return MessageReading(text=text, language="en", intent=intent, facts=facts, query=query,
                          follow_up=not recall.names_something(stripped), asks=intent is Intent.QUESTION)


def read_reply(text: str) -> ReplyReading:
    """PLACEHOLDER (replaced by the lexicon reader)."""
    from openclaw_tui.session import reply_check

    return ReplyReading(claims_save=reply_check.claims_save(text),
                        cannot_answer=bool(reply_check.CANNOT_ANSWER_RE.search(text or "")), language="en")
