"""Shared fixtures. Every test gets its own state dir and home; nothing touches ~/.openclaw."""

from __future__ import annotations

import logging
import os
from collections import Counter
from pathlib import Path

import pytest

os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")


def _real_models_dir() -> str:
    from openclaw_tui.llm.local.files import models_dir

    return str(models_dir())


# The local GGUF models live in the real models dir (`make test` assembles them there);
# pin it before any test swaps OPENCLAW_STATE_DIR for a temp dir, so real-model tests find them.
os.environ.setdefault("OPENCLAW_MODELS_DIR", _real_models_dir())


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
    # No test meets the local model by accident: the offline agent stays the default here.
    # Real-model tests opt back in (the `local_model` fixture).
    monkeypatch.setenv("OPENCLAW_NO_LOCAL_MODEL", "1")
    # the default install runs the bundled MiniLM (hybrid search); tests that expect the
    # keyword-only default keep it, tests of the bundled default unset this
    monkeypatch.setenv("OPENCLAW_BUNDLED_EMBEDDINGS", "off")
    for var in ("OPENAI_API_KEY", "GEMINI_API_KEY", "VOYAGE_API_KEY", "MISTRAL_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(var, raising=False)
    return state


@pytest.fixture
def state_dir(_isolated_state: Path) -> Path:
    return _isolated_state


@pytest.fixture
def local_model(monkeypatch: pytest.MonkeyPatch):
    """The default local GGUF (assembled from the venv's part packages if needed) with local
    model discovery switched back on. Skips when the `llm` extra is not installed, unless
    OPENCLAW_REQUIRE_LOCAL_MODEL=1 (`make test`), where a missing model fails the test."""
    return _local_model(monkeypatch, None)


@pytest.fixture
def small_local_model(monkeypatch: pytest.MonkeyPatch):
    """The 0.5B GGUF when it is installed (faster to load; for tests of the runtime rather
    than of answers), else the default model."""
    from openclaw_tui.llm.local.catalog import QWEN_0_5B
    from openclaw_tui.llm.local.install import parts_installed, target_path

    small = target_path(QWEN_0_5B).is_file() or parts_installed(QWEN_0_5B)
    return _local_model(monkeypatch, "0.5b" if small else None)


def _local_model(monkeypatch: pytest.MonkeyPatch, name: str | None):
    from openclaw_tui.llm.local.catalog import DEFAULT_MODEL, spec_named
    from openclaw_tui.llm.local.install import InstallError, install, parts_installed, target_path

    spec = spec_named(name) if name else DEFAULT_MODEL
    assert spec is not None
    required = os.environ.get("OPENCLAW_REQUIRE_LOCAL_MODEL", "") not in ("", "0")
    try:
        import xllamacpp  # noqa: F401
    except ImportError:
        (pytest.fail if required else pytest.skip)("xllamacpp is not installed: pip install -e '.[llm]' (make test does)")
    if not target_path(spec).is_file() and not parts_installed(spec):
        (pytest.fail if required else pytest.skip)(f"{spec.name} is not installed: openclaw-tui model install {name or ''}".strip())
    try:
        result = install(spec)
    except InstallError as exc:
        pytest.fail(str(exc))
    monkeypatch.delenv("OPENCLAW_NO_LOCAL_MODEL", raising=False)
    return result.path


# `make test` runs the suite on several xdist workers (`--dist loadgroup`). A module's tests
# stay together on one worker, in file order: some share a module-scoped fixture whose state
# a later test builds on (tests/qmd/test_real_qmd.py's collections). The tests that start the
# real local model share one worker, one after another: two llama.cpp servers side by side on
# a 2-core machine would each take twice as long and starve the other workers. Only those
# tests: the rest of their module stays in the module's group (that serial group is the
# suite's longest path, and a module's Pilot tests need no model).
LOCAL_MODEL_FIXTURES = {"local_model", "small_local_model", "real_llm"}


def _uses_local_model(item: pytest.Item) -> bool:
    return (bool(LOCAL_MODEL_FIXTURES & set(getattr(item, "fixturenames", ())))
            or item.get_closest_marker("real_llm") is not None or item.nodeid.startswith("tests/e2e_llm/"))


# before xdist's own hook, which reads the group marker into the test's id
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        item.add_marker(pytest.mark.xdist_group("local_model" if _uses_local_model(item) else module))
    # The order xdist hands groups out in (`make test` passes --no-loadscope-reorder, so it is
    # this one): the real-model group first, it is the suite's longest serial path (~8 min on
    # 2 cores; xdist's own order, by test count, started it late and it ran alone at the end);
    # then the other groups by test count, as xdist would.
    sizes = Counter(_group(item) for item in items)
    first = {}
    for index, item in enumerate(items):
        first.setdefault(_group(item), index)
    items.sort(key=lambda item: (_group(item) != "local_model", -sizes[_group(item)], first[_group(item)]))


def _group(item: pytest.Item) -> str:
    return "local_model" if _uses_local_model(item) else item.nodeid.split("::", 1)[0]
