"""``ChatMessage``: one message of a chat request as the LLM layer takes it (the OpenAI
chat-completions shape every provider here speaks). The session's history holds these
messages as they are; ``render_messages`` (``llm/profiles.py``) turns a history into the
request a model's profile wants."""

from __future__ import annotations

from typing import Any, Required, TypedDict


class ChatMessage(TypedDict, total=False):
    role: Required[str]  # system | user | assistant | tool
    content: str | None  # None: an assistant message with tool calls only
    tool_calls: list[dict[str, Any]]  # an assistant's calls (``ToolCall.to_message()``)
    tool_call_id: str  # a tool result: the call it answers
    name: str  # a tool result: the tool's name
