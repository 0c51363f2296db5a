"""Environment a benchmark sets for a while (``OPENCLAW_STATE_DIR`` per run) and puts back."""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def restored_env(name: str) -> Iterator[None]:
    """Whatever the body does to ``os.environ[name]``, it is as before afterwards (unset if it was)."""
    saved = os.environ.get(name)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = saved
