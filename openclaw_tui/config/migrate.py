"""``config migrate``: a raw openclaw.json rewritten in OpenClaw's current key generation,
as ``openclaw doctor`` rewrites it.

Moved (``moved``): ``agents.defaults.memorySearch`` -> ``memory.search``; each
``agents.list[i]`` -> ``agents.entries.<id>`` (its ``memorySearch`` -> ``memory.search``
there); ``agents.entries.<id>.memorySearch`` -> ``agents.entries.<id>.memory.search``; an MCP
server's ``type`` -> ``transport``, ``disabled`` -> ``enabled``, ``timeout`` ->
``requestTimeoutMs``. Where both spellings are written the result keeps exactly what
resolution (config/generations.py, config/agents_table.py) picks: the current key's value
wins, ``extraPaths`` lists are joined.

Retired (``removed``, each with what follows for this product): ``compaction.reserveTokens``
and ``reserveTokensFloor`` (OpenClaw's reserve is built in), ``memoryFlush.prompt`` and
``systemPrompt`` (the memory plugin owns the flush prompt), ``compaction.identifierInstructions``
with ``identifierPolicy: "custom"`` -> ``"strict"``. Everything else (channels, gateway,
unknown sections) is carried over untouched. Pure: dict in, dict out; the command does the
file work (backup, atomic replace).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from openclaw_tui.config.generations import _merge


@dataclass
class Migration:
    data: dict[str, Any]
    moved: list[str] = field(default_factory=list)  # "old key -> new key", in order
    removed: list[str] = field(default_factory=list)  # "key (what follows here)", in order

    @property
    def changed(self) -> bool:
        return bool(self.moved or self.removed)


#: retired compaction keys -> what this product does without them
RETIRED_COMPACTION = {
    "reserveTokens": "the compaction reserve is the built-in 20,000-token floor",
    "reserveTokensFloor": "the compaction reserve is the built-in 20,000-token floor",
    "identifierInstructions": "the summary keeps exact identifiers (identifierPolicy strict)",
}
RETIRED_FLUSH = {
    "prompt": "the flush uses the built-in prompt",
    "systemPrompt": "the flush uses the built-in system prompt",
}


def _dict_at(node: dict[str, Any], *keys: str) -> dict[str, Any]:
    """``node[k1][k2]…``, created as empty objects where missing (a non-object is replaced)."""
    for key in keys:
        nxt = node.get(key)
        if not isinstance(nxt, dict):
            nxt = {}
            node[key] = nxt
        node = nxt
    return node


def _move_defaults(data: dict[str, Any], moved: list[str]) -> None:
    agents = data.get("agents")
    defaults = agents.get("defaults") if isinstance(agents, dict) else None
    if not isinstance(defaults, dict) or not isinstance(defaults.get("memorySearch"), dict):
        return
    old: dict[str, Any] = defaults.pop("memorySearch")
    memory = _dict_at(data, "memory")
    found = memory.get("search")
    current: dict[str, Any] = found if isinstance(found, dict) else {}
    memory["search"] = _merge(old, current)  # the current key wins, extraPaths joined
    moved.append("agents.defaults.memorySearch -> memory.search")
    if not defaults and isinstance(agents, dict):
        agents.pop("defaults")


def _move_list(data: dict[str, Any], moved: list[str]) -> None:
    """Each ``agents.list`` item becomes ``agents.entries.<id>`` (the entry's own keys win)."""
    agents = data.get("agents")
    items = agents.get("list") if isinstance(agents, dict) else None
    if not isinstance(agents, dict) or not isinstance(items, list):
        return
    if not all(isinstance(item, dict) and isinstance(item.get("id"), str) and item["id"].strip() for item in items):
        return  # an item without an id: left for the user (the loader names it)
    entries = _dict_at(agents, "entries")
    for index, item in enumerate(items):
        item = dict(item)
        agent_id = item.pop("id").strip().lower()
        name = next((k for k in entries if k.strip().lower() == agent_id), agent_id)
        found = entries.get(name)
        current: dict[str, Any] = found if isinstance(found, dict) else {}
        old_search = item.pop("memorySearch", None)
        merged = _merge(item, current)
        if isinstance(old_search, dict):
            memory: dict[str, Any] = merged["memory"] if isinstance(merged.get("memory"), dict) else {}
            now: dict[str, Any] = memory["search"] if isinstance(memory.get("search"), dict) else {}
            merged["memory"] = {**memory, "search": _merge(old_search, now)}
            moved.append(f"agents.list[{index}].memorySearch -> agents.entries.{name}.memory.search")
        entries[name] = merged
        moved.append(f"agents.list[{index}] -> agents.entries.{name}")
    agents.pop("list")


def _move_entry_spelling(data: dict[str, Any], moved: list[str]) -> None:
    """``agents.entries.<id>.memorySearch`` (the intermediate spelling) -> ``.memory.search``."""
    agents = data.get("agents")
    entries = agents.get("entries") if isinstance(agents, dict) else None
    if not isinstance(entries, dict):
        return
    for name, item in entries.items():
        if isinstance(item, dict) and isinstance(item.get("memorySearch"), dict):
            old = item.pop("memorySearch")
            memory = _dict_at(item, "memory")
            now: dict[str, Any] = memory["search"] if isinstance(memory.get("search"), dict) else {}
            memory["search"] = _merge(old, now)
            moved.append(f"agents.entries.{name}.memorySearch -> agents.entries.{name}.memory.search")


def _retire_compaction(data: dict[str, Any], removed: list[str]) -> None:
    agents = data.get("agents")
    defaults = agents.get("defaults") if isinstance(agents, dict) else None
    compaction = defaults.get("compaction") if isinstance(defaults, dict) else None
    if not isinstance(compaction, dict):
        return
    for key, after in RETIRED_COMPACTION.items():
        if key in compaction:
            value = compaction.pop(key)
            removed.append(f"agents.defaults.compaction.{key} = {value!r} ({after})")
    if compaction.get("identifierPolicy") == "custom":
        compaction["identifierPolicy"] = "strict"
        removed.append("agents.defaults.compaction.identifierPolicy = 'custom' (now 'strict')")
    flush = compaction.get("memoryFlush")
    if isinstance(flush, dict):
        for key, after in RETIRED_FLUSH.items():
            if key in flush:
                flush.pop(key)
                removed.append(f"agents.defaults.compaction.memoryFlush.{key} ({after})")


def _move_mcp(data: dict[str, Any], moved: list[str]) -> None:
    from openclaw_tui.config.models import legacy_timeout_ms  # noqa: PLC0415

    mcp = data.get("mcp")
    servers = mcp.get("servers") if isinstance(mcp, dict) else None
    if not isinstance(servers, dict):
        return
    for name, server in servers.items():
        if not isinstance(server, dict):
            continue
        if "type" in server:
            value = server.pop("type")
            server.setdefault("transport", "streamable-http" if value == "http" else value)
            moved.append(f"mcp.servers.{name}.type -> mcp.servers.{name}.transport")
        if "disabled" in server:
            value = server.pop("disabled")
            if isinstance(value, bool):
                server.setdefault("enabled", not value)
            moved.append(f"mcp.servers.{name}.disabled -> mcp.servers.{name}.enabled")
        if "timeout" in server:
            value = server.pop("timeout")
            ms = legacy_timeout_ms(value)
            if ms is not None and "requestTimeoutMs" not in server and "timeoutSeconds" not in server:
                server["requestTimeoutMs"] = ms
            moved.append(f"mcp.servers.{name}.timeout -> mcp.servers.{name}.requestTimeoutMs")


def migrate_config(raw: dict[str, Any]) -> Migration:
    """The config in the current generation (a new dict; ``raw`` is not modified)."""
    data = copy.deepcopy(raw)
    moved: list[str] = []
    removed: list[str] = []
    _move_defaults(data, moved)
    _move_list(data, moved)
    _move_entry_spelling(data, moved)
    _move_mcp(data, moved)
    _retire_compaction(data, removed)
    return Migration(data, moved, removed)
