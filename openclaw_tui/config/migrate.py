"""``config migrate``: a raw openclaw.json rewritten in OpenClaw's current key generation.

``agents.defaults.memorySearch`` moves to ``memory.search`` and each
``agents.list[i].memorySearch`` to ``agents.entries.<id>.memory.search``. Where both
generations are written the result keeps exactly what resolution (config/generations.py)
would pick: the current key's value wins, ``extraPaths`` lists are joined. Everything else
(channels, gateway, unknown sections) is carried over untouched. Pure: dict in, dict out;
the command does the file work (backup, atomic replace).
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

    @property
    def changed(self) -> bool:
        return bool(self.moved)


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
    agents = data.get("agents")
    items = agents.get("list") if isinstance(agents, dict) else None
    if not isinstance(items, list):
        return
    for index, item in enumerate(items):
        if not (isinstance(item, dict) and isinstance(item.get("memorySearch"), dict) and isinstance(item.get("id"), str)):
            continue
        old: dict[str, Any] = item.pop("memorySearch")
        agent_id = item["id"].strip().lower()
        entries = _dict_at(agents, "entries") if isinstance(agents, dict) else {}
        name = next((k for k in entries if k.strip().lower() == agent_id), agent_id)
        memory = _dict_at(entries, name, "memory")
        found = memory.get("search")
        current = found if isinstance(found, dict) else {}
        memory["search"] = _merge(old, current)
        moved.append(f"agents.list[{index}].memorySearch -> agents.entries.{name}.memory.search")


def migrate_config(raw: dict[str, Any]) -> Migration:
    """The config in the current generation (a new dict; ``raw`` is not modified)."""
    data = copy.deepcopy(raw)
    moved: list[str] = []
    _move_defaults(data, moved)
    _move_list(data, moved)
    return Migration(data, moved)
