"""Where OpenClaw keeps its state: ``$OPENCLAW_STATE_DIR``, else ``~/.openclaw``.

Its own module (no imports) so that hot paths below ``config/`` (the write tools' tombstone
check) can find the state dir without loading the config models."""

from __future__ import annotations

import os
from pathlib import Path


def state_dir() -> Path:
    env = os.environ.get("OPENCLAW_STATE_DIR")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".openclaw"
