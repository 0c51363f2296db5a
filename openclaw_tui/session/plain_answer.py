"""The answer of last resort: the question asked again without tools or memory instructions.

A small local model told to answer after an empty memory search often prints the search
again instead (the 1.5B, for "What is 12 times 7?"), and the turn ended in "I could not
answer that from what I found." The system prompt's memory section is what primes it to
call tools; asked the question alone, with a two-sentence prompt and no tools offered, it
answers ("12 times 7 is 84."). A question about the user's own past gets a fixed sentence
instead of an invented memory.
"""

from __future__ import annotations

import re
from typing import Any

from openclaw_tui.llm.client import ChatModel, RetryPolicy, complete_with_retries
from openclaw_tui.llm.messages import ChatMessage

NOTHING_IN_MEMORY = "Nothing about that is in memory."
PLAIN_SYSTEM = (
    "Answer the user's question briefly from general knowledge. "
    f"If it asks about the user's own life, plans or earlier conversations, reply exactly: {NOTHING_IN_MEMORY}"
)
#: a reply that is a tool call again (printed JSON, a call tag, a tool's name): no answer
_CALL_RE = re.compile(r"<tool_call>|\"name\"\s*:|\bmemory_(?:search|get)\b|\bappend\s*\(", re.IGNORECASE)


def looks_like_call(text: str) -> bool:
    """Whether a reply is a tool call printed as text (a call tag, JSON with a name, a tool's name)."""
    return bool(_CALL_RE.search(text))


def last_user_text(messages: list[dict[str, Any]]) -> str:
    """The content of the last user message (the question), or ""."""
    for msg in reversed(messages):
        if msg.get("role") == "user" and isinstance(msg.get("content"), str):
            return str(msg["content"])
    return ""


async def plain_answer(model: ChatModel, question: str, policy: RetryPolicy | None = None) -> str | None:
    """The model's answer to ``question`` alone (no tools, no memory prompt), or None when it
    is empty or a tool call again."""
    if not question.strip():
        return None
    messages: list[ChatMessage] = [{"role": "system", "content": PLAIN_SYSTEM}, {"role": "user", "content": question}]
    done = await complete_with_retries(model, messages, None, on_delta=lambda _piece: None, purpose="turn", policy=policy)
    text = done.text.strip()
    if not text or done.tool_calls or looks_like_call(text):
        return None
    return text
