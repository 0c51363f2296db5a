"""Token counting with a per-message cache.

tiktoken for OpenAI-family models (o200k for the 4o/4.1/o-series/5 generation, cl100k
otherwise), ``litellm.token_counter`` for other providers (it falls back to tiktoken
itself for unknown models). Each history entry is counted once when it is added.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable

from openclaw_tui.llm.context import split_model

MESSAGE_OVERHEAD = 4  # role + separators, as OpenAI's chat format adds per message
OPENAI_PROVIDERS = {"", "openai", "azure", "openai_compatible", "text-completion-openai"}
# the managed llama.cpp server: litellm has no tokenizer for our GGUFs and would count them
# with cl100k itself, after a ~10 s import that commands needing no model must not pay
TIKTOKEN_PROVIDERS = OPENAI_PROVIDERS | {"local"}
O200K_PREFIXES = ("gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "o1", "o3", "o4", "chatgpt-4o")


@lru_cache(maxsize=4)
def _encoding(name: str) -> Any:
    from openclaw_tui._offline import ensure_offline_env

    ensure_offline_env()
    import tiktoken  # noqa: PLC0415

    return tiktoken.get_encoding(name)


def _tiktoken_counter(name: str) -> Callable[[str], int]:
    enc = _encoding(name)

    def count(text: str) -> int:
        return len(enc.encode(text, disallowed_special=()))

    return count


def make_text_counter(model: str | None) -> tuple[Callable[[str], int], str]:
    """Return (count(text) -> tokens, method label)."""
    provider, name = split_model(model)
    if not model or model == "offline" or provider in TIKTOKEN_PROVIDERS:
        enc = "o200k_base" if name.lower().startswith(O200K_PREFIXES) else "cl100k_base"
        return _tiktoken_counter(enc), f"tiktoken:{enc}"
    from openclaw_tui._offline import import_litellm

    litellm = import_litellm()

    def count(text: str) -> int:
        try:
            return int(litellm.token_counter(model=model, text=text))
        except Exception:  # noqa: BLE001 - unknown tokenizer: fall back to cl100k
            return _tiktoken_counter("cl100k_base")(text)

    return count, "litellm.token_counter"


def message_text(msg: dict[str, Any]) -> str:
    parts: list[str] = []
    content = msg.get("content")
    if isinstance(content, str):
        parts.append(content)
    elif isinstance(content, list):
        for item in content:
            if isinstance(item, dict) and isinstance(item.get("text"), str):
                parts.append(item["text"])
    for tc in msg.get("tool_calls") or []:
        fn = tc.get("function", {}) if isinstance(tc, dict) else {}
        parts.append(str(fn.get("name", "")))
        parts.append(str(fn.get("arguments", "")))
    if msg.get("name"):
        parts.append(str(msg["name"]))
    return "\n".join(parts)


class TokenCounter:
    def __init__(self, model: str | None):
        self.model = model
        self._count_text, self.method = make_text_counter(model)

    def count_text(self, text: str) -> int:
        return self._count_text(text) if text else 0

    def count_message(self, msg: dict[str, Any]) -> int:
        return MESSAGE_OVERHEAD + self.count_text(message_text(msg))

    def count_messages(self, msgs: list[dict[str, Any]]) -> int:
        return sum(self.count_message(m) for m in msgs)

    def count_tools(self, tools: list[dict[str, Any]] | None) -> int:
        return self.count_text(json.dumps(tools, sort_keys=True)) if tools else 0
