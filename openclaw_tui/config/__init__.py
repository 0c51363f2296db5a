"""Configuration: pydantic models for openclaw.json, JSON5 loader, per-agent settings."""

from openclaw_tui.config.loader import (
    AgentSettings,
    ConfigError,
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

__all__ = [
    "AgentSettings",
    "ConfigError",
    "OpenClawConfig",
    "default_config_path",
    "deep_merge",
    "load_config",
    "masked_dump",
    "resolve_agent",
    "set_dotted",
    "state_dir",
    "validate_config",
]
