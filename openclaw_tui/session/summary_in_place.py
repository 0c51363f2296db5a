"""A compaction summary asked where the conversation already is (issue 38).

The standalone summary request (``compaction_request``) is a prompt of its own: the system line
of the summariser and the older turns rendered as text, all of it read by the model again. On
a local model that is the slowest request of a session (706 tokens read for 83 written,
docs/local-llm.md). Asked instead as one more user message after the session's own request
start (its system messages, the same tool schemas, the older turns as the turns sent them),
the server finds everything before that message in its cache and reads only the instruction.

Only when the older turns are what the model already read: a head from which withheld
messages were taken out (consent) differs from the cache and goes the standalone way, and a
reply that is a tool call or no text falls back to it too. The 1.5B, asked with the tool
schemas in view, often copies a call the turns made into its bullets: that line is left out
and the rest is the summary (``answer``), instead of paying for a second prompt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openclaw_tui.llm.messages import ChatMessage
from openclaw_tui.session.plain_answer import looks_like_call

#: the instruction (the model's language: the prompts are English; the turns keep the user's)
IN_PLACE_ASK = (
    "Stop the conversation here for a moment. Summarise the conversation above (the user's and your "
    "messages, with the earlier summary if there is one) so you can continue without it: 3 to 8 short "
    "bullet points with what the user said, asked and decided. Keep names, numbers, dates, file paths "
    "and identifiers exactly as written. Do not call tools; reply with the bullet points only."
)


@dataclass(frozen=True)
class InPlace:
    """The session's request start up to the end of the older turns, rendered as the turns sent
    it, and the tool schemas every request of the session carries."""

    start: tuple[ChatMessage, ...]
    tools: tuple[dict[str, Any], ...]

    def request(self, instructions: str | None = None) -> list[ChatMessage]:
        ask = IN_PLACE_ASK
        if instructions:
            ask += f"\n\nExtra instructions from the user: {instructions.strip()}"
        return [*self.start, {"role": "user", "content": ask}]


def answer(text: str) -> str:
    """The summary in an in-place reply: its lines that are no tool call (a call tag, JSON with
    a name, a tool's name), or "" when nothing else is left (a call, or no text)."""
    kept = [line for line in text.splitlines() if not looks_like_call(line)]
    body = "\n".join(kept).strip()
    return body if any(ch.isalnum() for ch in body) else ""
