"""openclaw-tui: a terminal chat-agent harness with built-in Markdown memory."""

from openclaw_tui._offline import ensure_offline_env

__version__ = "0.1.0"

ensure_offline_env()
