"""Shared fixtures. Every test gets its own state dir and home; nothing touches ~/.openclaw."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")


@pytest.fixture(autouse=True)
def _restore_package_logger():
    """The CLI's one-line stderr logging (``memory`` commands) sets ``propagate = False`` on
    the ``openclaw_tui`` logger; a test that runs the CLI in-process must not hide later
    tests' log records from ``caplog``."""
    lg = logging.getLogger("openclaw_tui")
    saved = (list(lg.handlers), lg.level, lg.propagate)
    yield
    lg.handlers[:] = saved[0]
    lg.setLevel(saved[1])
    lg.propagate = saved[2]


@pytest.fixture(autouse=True)
def _isolated_state(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(state))
    monkeypatch.delenv("OPENCLAW_CONFIG_PATH", raising=False)
    # the default install runs the bundled MiniLM (hybrid search); tests that expect the
    # keyword-only default keep it, tests of the bundled default unset this
    monkeypatch.setenv("OPENCLAW_BUNDLED_EMBEDDINGS", "off")
    for var in ("OPENAI_API_KEY", "GEMINI_API_KEY", "VOYAGE_API_KEY", "MISTRAL_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(var, raising=False)
    return state


@pytest.fixture
def state_dir(_isolated_state: Path) -> Path:
    return _isolated_state
