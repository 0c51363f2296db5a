"""Session keys: ``agent:<id>:main``, ``agent:<id>:<channel>:group:<gid>``, … (DESIGN §1)."""

from __future__ import annotations

from dataclasses import dataclass

GROUP_TOKENS = {"group", "channel"}


@dataclass(frozen=True)
class SessionKeyInfo:
    raw: str
    agent_id: str | None
    rest: str  # key without the "agent:<id>:" prefix, lowercased
    channel: str | None
    chat_type: str  # direct | group | channel

    @property
    def is_group(self) -> bool:
        return self.chat_type in GROUP_TOKENS


def parse_session_key(key: str) -> SessionKeyInfo:
    raw = (key or "").strip()
    low = raw.lower()
    parts = [p for p in low.split(":")]
    agent_id = None
    rest_parts = parts
    if len(parts) >= 2 and parts[0] == "agent":
        agent_id = parts[1] or None
        rest_parts = parts[2:]
    chat_type = "direct"
    for token in rest_parts:
        if token in GROUP_TOKENS:
            chat_type = token
            break
    channel = None
    if chat_type != "direct":
        idx = rest_parts.index(chat_type)
        channel = rest_parts[idx - 1] if idx > 0 else None
    elif len(rest_parts) >= 2 and rest_parts[1] in ("dm", "direct"):
        channel = rest_parts[0]
    return SessionKeyInfo(raw=raw, agent_id=agent_id, rest=":".join(rest_parts), channel=channel, chat_type=chat_type)


def is_direct_session(key: str) -> bool:
    return not parse_session_key(key).is_group


#: The memory files at the workspace root: curated long-term memory (MEMORY.md) and the
#: user's directive-style preferences (USER.md, a memory file in OpenClaw since mid-2026).
#: Indexed, readable by memory_get, evergreen, and loaded, read and searched only in direct
#: (private) sessions, like the private tier of ``memory/`` (``workspace/tiers.py``).
ROOT_MEMORY_FILES = ("MEMORY.md", "memory.md", "USER.md", "user.md")
PRIVATE_FILES = frozenset(ROOT_MEMORY_FILES)
PRIVATE_REFUSAL = ("MEMORY.md and USER.md are private, like the notes in memory/ outside memory/shared/, "
                   "and not available in group sessions")
