"""Configuration: pydantic models for openclaw.json, JSON5 loader, per-agent settings.

The names are loaded on first use (PEP 562): ``ConfigError`` alone does not import pydantic,
so the CLI and the TUI's first frame do not pay for the config models they read later.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from openclaw_tui.config.errors import ConfigError

if TYPE_CHECKING:
    from openclaw_tui.config.loader import (
        AgentSettings,
        default_config_path,
        deep_merge,
        load_config,
        masked_dump,
        resolve_agent,
        set_dotted,
        state_dir,
        validate_config,
    )
    from openclaw_tui.config.models import OpenClawConfig

_LAZY = {
    "AgentSettings": "loader",
    "default_config_path": "loader",
    "deep_merge": "loader",
    "load_config": "loader",
    "masked_dump": "loader",
    "resolve_agent": "loader",
    "set_dotted": "loader",
    "state_dir": "loader",
    "validate_config": "loader",
    "OpenClawConfig": "models",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"openclaw_tui.config.{module}"), name)
    globals()[name] = value
    return value


__all__ = ["ConfigError", *_LAZY]
