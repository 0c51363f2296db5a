"""OpenClaw's two generations of memory-search keys, resolved to one setting per agent.

April 2026 (the anchor of this product)      current OpenClaw (2026 H2)
``agents.defaults.memorySearch.*``           ``memory.search.*``
``agents.list[i].memorySearch.*``            ``agents.entries.<id>.memory.search.*``
                                             (``agents.entries.<id>.memorySearch.*`` between)

Both load, alone or mixed. Each leaf key (``query.maxResults``, ``remote.baseUrl``, …) is
taken from the highest layer that writes it, in this order (low → high):

1. the built-in default;
2. ``agents.defaults.memorySearch`` (April, all agents);
3. ``memory.search`` (current, all agents): the newer spelling wins over the older one;
4. ``agents.list[i].memorySearch`` (April, this agent);
5. ``agents.entries.<id>.memorySearch`` (the intermediate spelling, this agent);
6. ``agents.entries.<id>.memory.search`` (current, this agent).

So a per-agent value beats a shared one, and at the same scope the current key beats the
April key. ``extraPaths`` is the exception, as in OpenClaw's per-agent rule: the lists of all
layers are joined (first occurrence kept). ``ResolvedSearch.sources`` says, for each leaf,
which key it came from (``config show`` prints it). Pure: no file access.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from openclaw_tui.config.errors import ConfigError
from openclaw_tui.config.models import OWN_PROVIDERS, UPSTREAM_PROVIDERS, AgentEntry, MemorySearchConfig, OpenClawConfig

DEFAULT_SOURCE = "default"
UNION_KEYS = ("extraPaths",)

APRIL_DEFAULTS = "agents.defaults.memorySearch"
CURRENT_DEFAULTS = "memory.search"


@dataclass(frozen=True)
class Layer:
    """One place memory-search keys were written: its dotted key and the keys it sets."""

    key: str
    values: dict[str, Any]


@dataclass(frozen=True)
class ResolvedSearch:
    config: MemorySearchConfig
    #: leaf (``query.maxResults``) -> the full key it came from, or ``default``
    sources: dict[str, str]

    def source_of(self, leaf: str) -> str:
        return self.sources.get(leaf, DEFAULT_SOURCE)


def set_keys(model: MemorySearchConfig | None) -> dict[str, Any]:
    """Only the keys a config file wrote (camelCase), nested."""
    if model is None:
        return {}
    return model.model_dump(by_alias=True, exclude_unset=True)


def entry_layers(cfg: OpenClawConfig, agent_id: str) -> list[Layer]:
    """``agents.entries.<id>.memorySearch`` (the intermediate spelling) and
    ``agents.entries.<id>.memory.search`` of ``agent_id`` (ids compare case-insensitively)."""
    out: list[Layer] = []
    for name, item in cfg.agents.entries.items():
        if name.strip().lower() != agent_id:
            continue
        if item.memory_search:
            out.append(Layer(f"agents.entries.{name}.memorySearch", dict(item.memory_search)))
        if item.memory is not None and item.memory.search:
            out.append(Layer(f"agents.entries.{name}.memory.search", dict(item.memory.search)))
    return out


def layers_for(cfg: OpenClawConfig, agent_id: str, entry: AgentEntry | None = None) -> list[Layer]:
    """The layers that apply to ``agent_id``, lowest first (empty ones left out). ``entry`` is
    not needed (the agent's ``agents.list`` item is found by its id); kept for callers."""
    out = [
        Layer(APRIL_DEFAULTS, set_keys(cfg.agents.defaults.memory_search)),
        Layer(CURRENT_DEFAULTS, set_keys(cfg.memory.search)),
    ]
    for index, item in enumerate(cfg.agents.list):
        if item.id.strip().lower() == agent_id and item.memory_search:
            out.append(Layer(f"agents.list[{index}].memorySearch", dict(item.memory_search)))
    out.extend(entry_layers(cfg, agent_id))
    return [layer for layer in out if layer.values]


def leaves(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"query": {"maxResults": 3}}`` -> ``{"query.maxResults": 3}`` (lists are leaves)."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(leaves(value, dotted + "."))
        else:
            out[dotted] = value
    return out


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        elif key in UNION_KEYS and isinstance(value, list) and isinstance(out.get(key), list):
            out[key] = [*out[key], *value]
        else:
            out[key] = value
    return out


def merge_layers(layers: list[Layer]) -> tuple[dict[str, Any], dict[str, str]]:
    """The merged keys and, per leaf, the key of the layer it came from."""
    merged: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for layer in layers:
        merged = _merge(merged, layer.values)
        for leaf in leaves(layer.values):
            sources[leaf] = f"{layer.key}.{leaf}"
    for key in UNION_KEYS:  # a joined list names every layer that added to it
        owners = [f"{layer.key}.{key}" for layer in layers if isinstance(layer.values.get(key), list)]
        if len(owners) > 1:
            sources[key] = " + ".join(owners)
    return merged, sources


def resolve_memory_search(cfg: OpenClawConfig, agent_id: str, entry: AgentEntry | None) -> ResolvedSearch:
    """The effective memorySearch of one agent (see the module docstring for the order)."""
    layers = layers_for(cfg, agent_id, entry)
    merged, sources = merge_layers(layers)
    try:
        config = MemorySearchConfig.model_validate(merged)
    except ValidationError as exc:
        raise ConfigError(_merged_error(exc, sources)) from None
    for leaf in ("provider", "fallback"):
        problem = unknown_provider(cfg, getattr(config, leaf))
        if problem:
            raise ConfigError(f"invalid config: {sources.get(leaf, leaf)}: {problem}. Fix the key named above or remove it to use the default.")
    return ResolvedSearch(config, sources)


def all_layers(cfg: OpenClawConfig) -> list[Layer]:
    """Every place memory-search keys are written, for every agent."""
    out = [Layer(APRIL_DEFAULTS, set_keys(cfg.agents.defaults.memory_search)), Layer(CURRENT_DEFAULTS, set_keys(cfg.memory.search))]
    out += [Layer(f"agents.list[{i}].memorySearch", dict(item.memory_search)) for i, item in enumerate(cfg.agents.list) if item.memory_search]
    for name in cfg.agents.entries:
        out += entry_layers(cfg, name.strip().lower())
    return out


def provider_problems(cfg: OpenClawConfig) -> list[str]:
    """``key: why`` for each provider or fallback written that names no provider."""
    out = []
    for layer in all_layers(cfg):
        for leaf in ("provider", "fallback"):
            value = layer.values.get(leaf)
            problem = unknown_provider(cfg, value.strip()) if isinstance(value, str) else None
            if problem:
                out.append(f"{layer.key}.{leaf}: {problem}")
    return out


def unknown_provider(cfg: OpenClawConfig, name: str) -> str | None:
    """Why ``name`` is no embedding provider: not one of OpenClaw's adapter ids and no
    ``models.providers.<id>``; None when it is one."""
    if name in OWN_PROVIDERS or name in UPSTREAM_PROVIDERS or name in cfg.models.providers:
        return None
    known = ", ".join(OWN_PROVIDERS + UPSTREAM_PROVIDERS)
    custom = ", ".join(sorted(cfg.models.providers)) or "none configured"
    return f"unknown embedding provider {name!r}: use {known} or a models.providers id ({custom})"


def _merged_error(exc: ValidationError, sources: dict[str, str]) -> str:
    """A merged-settings error named by the key that wrote the bad value."""
    from openclaw_tui.config.loader import _dotted, _short  # noqa: PLC0415 - loader imports this module

    parts = []
    for err in exc.errors():
        leaf = _dotted(tuple(err.get("loc", ())))
        where = _key_of(leaf, sources)
        msg = str(err.get("msg", "invalid value")).removeprefix("Value error, ")
        bad = err.get("input")
        got = "" if isinstance(bad, dict) else f" (got {_short(bad)})"
        parts.append(f"{where}: {msg}{got}")
    return "invalid config: " + "; ".join(parts) + ". Fix the key(s) named above or remove them to use the default."


def _key_of(leaf: str, sources: dict[str, str]) -> str:
    """The full key that wrote ``leaf``, or wrote something under it (an object-level error
    such as ``chunking``'s overlap rule); ``leaf`` itself when no layer did."""
    if leaf in sources:
        return sources[leaf]
    for key, source in sources.items():
        if key.startswith(leaf + "."):
            return source[: len(source) - len(key)] + leaf  # the layer's prefix + the object
    return leaf


def effective_leaves(resolved: ResolvedSearch) -> dict[str, dict[str, Any]]:
    """Every leaf of the effective settings with the key it came from (for ``config show``)."""
    dumped = resolved.config.model_dump(mode="json", by_alias=True)
    return {leaf: {"value": value, "from": resolved.source_of(leaf)} for leaf, value in sorted(leaves(dumped).items())}
