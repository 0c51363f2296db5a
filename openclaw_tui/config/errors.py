"""The one config error type (kept apart so every config module can raise it)."""

from __future__ import annotations


class ConfigError(Exception):
    """A config problem, phrased for a one-line error: key, bad value, what is allowed."""
