"""What a config file writes that this product does not honour, each by its key.

Every config model ignores unknown keys, so a full OpenClaw config (channels, gateway, …)
loads. Inside the sections this product implements, that would hide a setting the user relies
on, so those are checked against the models here and every key or value we do not act on is
listed: ``config show`` prints the list (``_notHonoured``) and a session says it in one line
when it starts. The sections: the memory-search layers (``agents.defaults.memorySearch``,
``memory.search``, ``agents.list[i].memorySearch``, ``agents.entries.<id>.memorySearch`` and
``.memory.search``), ``memory`` (backend, citations, qmd), ``agents.defaults.compaction`` and
``mcp.servers.<name>``. Sections outside the product (channels, gateway, tools, skills,
plugins, per-agent prompt and channel keys) are not listed; docs/openclaw-compat.md says so.
Pure: config in, a list out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.alias_generators import to_camel

from openclaw_tui.config.embedding_target import embedding_target, is_mapped
from openclaw_tui.config.models import (
    CompactionConfig,
    McpServerConfig,
    MemoryConfig,
    MemorySearchConfig,
    OpenClawConfig,
)

#: keys a model reads in a before-validator (retired spellings it still honours)
READ_BEFORE: dict[type[BaseModel], tuple[str, ...]] = {McpServerConfig: ("type", "disabled", "timeout")}
#: values that load but are not acted on: (leaf, value) -> why (``store.fts.tokenizer:
#: "trigram"`` is honoured since issue 39: memory/builtin/fts_index.py)
UNHONOURED_VALUES: dict[tuple[str, Any], str] = {}
#: values the qmd backend (``memory.backend: "qmd"``) cannot act on: qmd builds its own
#: keyword table with a fixed tokenizer (``porter unicode61``, not configurable in qmd)
QMD_UNHONOURED_VALUES: dict[tuple[str, Any], str] = {
    ("store.fts.tokenizer", "trigram"): "qmd indexes with its own fixed tokenizer (porter unicode61); "
                                        "only the builtin index (qmd's fallback) is built with trigram",
}


@dataclass(frozen=True)
class NotHonoured:
    key: str
    value: Any
    why: str

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "value": self.value, "why": self.why}


def _model_of(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if get_origin(annotation) is Union or type(annotation).__name__ == "UnionType":
        for arg in get_args(annotation):
            found = _model_of(arg)
            if found is not None:
                return found
    return None


def _dict_of_models(annotation: Any) -> type[BaseModel] | None:
    if get_origin(annotation) is dict:
        args = get_args(annotation)
        return _model_of(args[1]) if len(args) == 2 else None
    return None


def _fields(model: type[BaseModel]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        out[info.alias or to_camel(name)] = info.annotation
        out[name] = info.annotation
    return out


def unknown_keys(model: type[BaseModel], raw: Any, prefix: str) -> list[NotHonoured]:
    """Keys of ``raw`` that ``model`` (recursively) does not read."""
    if not isinstance(raw, dict):
        return []
    fields = _fields(model)
    out: list[NotHonoured] = []
    for key, value in raw.items():
        dotted = f"{prefix}.{key}"
        if key not in fields:
            if str(key) not in READ_BEFORE.get(model, ()):
                out.append(NotHonoured(dotted, value, "not read by openclaw-tui"))
            continue
        sub = _model_of(fields[key])
        if sub is not None:
            out += unknown_keys(sub, value, dotted)
        elif (inner := _dict_of_models(fields[key])) is not None and isinstance(value, dict):
            for name, item in value.items():
                out += unknown_keys(inner, item, f"{dotted}.{name}")
    return out


def _obj(node: Any, key: str) -> dict[str, Any]:
    value = node.get(key) if isinstance(node, dict) else None
    return value if isinstance(value, dict) else {}


def _search_layers(raw: dict[str, Any]) -> tuple[list[tuple[str, dict[str, Any]]], list[NotHonoured]]:
    """The memory-search layers written (key, object), and the per-agent ``memory.*`` keys
    other than ``search`` (not read)."""
    agents = _obj(raw, "agents")
    out: list[tuple[str, Any]] = [("agents.defaults.memorySearch", _obj(agents, "defaults").get("memorySearch")),
                                  ("memory.search", _obj(raw, "memory").get("search"))]
    found = agents.get("list")
    items: list[Any] = found if isinstance(found, list) else []
    out += [(f"agents.list[{i}].memorySearch", item.get("memorySearch")) for i, item in enumerate(items) if isinstance(item, dict)]
    other: list[NotHonoured] = []
    for name, item in _obj(agents, "entries").items():
        out.append((f"agents.entries.{name}.memorySearch", _obj(item, "memorySearch") or None))
        mem = _obj(item, "memory")
        out.append((f"agents.entries.{name}.memory.search", mem.get("search")))
        other += [NotHonoured(f"agents.entries.{name}.memory.{k}", v, "not read by openclaw-tui (per agent, only memory.search is)")
                  for k, v in mem.items() if k != "search"]
    return [(k, v) for k, v in out if isinstance(v, dict)], other


def _provider_values(cfg: OpenClawConfig, key: str, layer: dict[str, Any]) -> list[NotHonoured]:
    out = []
    for leaf in ("provider", "fallback"):
        name = layer.get(leaf)
        if isinstance(name, str) and is_mapped(name.strip()):
            target = embedding_target(cfg, MemorySearchConfig.model_validate({k: v for k, v in layer.items() if k == "remote"}), name.strip())
            if target.adapter is None:
                out.append(NotHonoured(f"{key}.{leaf}", name, f"{target.why}; memory search stays keyword-only"))
    return out


def not_honoured(cfg: OpenClawConfig) -> list[NotHonoured]:
    raw = cfg.raw
    layers, out = _search_layers(raw)
    for key, layer in layers:
        out += unknown_keys(MemorySearchConfig, layer, key)
        out += _provider_values(cfg, key, layer)
        values = {**UNHONOURED_VALUES, **(QMD_UNHONOURED_VALUES if cfg.memory.backend == "qmd" else {})}
        for (leaf, value), why in values.items():
            node: Any = layer
            for part in leaf.split("."):
                node = node.get(part) if isinstance(node, dict) else None
            if node == value:
                out.append(NotHonoured(f"{key}.{leaf}", value, why))
    out += unknown_keys(MemoryConfig, {k: v for k, v in _obj(raw, "memory").items() if k != "search"}, "memory")
    out += unknown_keys(CompactionConfig, _obj(_obj(raw, "agents"), "defaults").get("compaction"), "agents.defaults.compaction")
    for name, server in _obj(_obj(raw, "mcp"), "servers").items():
        out += unknown_keys(McpServerConfig, server, f"mcp.servers.{name}")
        if isinstance(server, dict) and (server.get("transport") or server.get("type")) == "sse":
            out.append(NotHonoured(f"mcp.servers.{name}.transport", "sse", "SSE servers are not run here (streamable-http and stdio are); the server is not started"))
    return out


def summary_line(items: list[NotHonoured], limit: int = 4) -> str | None:
    """The one line a session starts with; None when everything written is honoured."""
    if not items:
        return None
    keys = [i.key for i in items]
    shown = ", ".join(keys[:limit]) + (f" and {len(keys) - limit} more" if len(keys) > limit else "")
    return f"not honoured by openclaw-tui: {shown} (`openclaw-tui config show` lists why)"
