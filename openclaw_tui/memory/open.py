"""Pick the memory backend for an agent: the builtin index, or QMD with builtin fallback."""

from __future__ import annotations

import logging

from openclaw_tui.config import AgentSettings
from openclaw_tui.events import EventSink
from openclaw_tui.memory.api import MemoryBackend
from openclaw_tui.memory.builtin.manager import MemoryManager

log = logging.getLogger("openclaw_tui.memory")


def open_memory(settings: AgentSettings, *, sink: EventSink | None = None) -> MemoryBackend:
    """``MemoryManager`` or, with ``memory.backend = "qmd"``, a ``QmdBackend`` that falls
    back to a builtin manager. Both implement ``memory.api.MemoryBackend``."""
    builtin = MemoryManager(settings, sink=sink)
    if settings.config.memory.backend == "qmd":
        try:
            from openclaw_tui.memory.qmd import QmdBackend  # noqa: PLC0415
        except Exception as exc:  # missing or broken qmd package → builtin serves
            log.warning("QMD backend unavailable (%s); using the builtin index", exc)
            return builtin
        try:
            return QmdBackend(settings, sink=sink, builtin=builtin)
        except Exception as exc:  # noqa: BLE001
            log.warning("QMD backend failed to start (%s); using the builtin index", exc)
            return builtin
    return builtin
