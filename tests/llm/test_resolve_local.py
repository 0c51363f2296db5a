"""Where the local GGUF sits in the model order, `local/<path>`, its context window, and the
fallback to the offline agent when the file is unusable (no server is started here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from openclaw_tui import events
from openclaw_tui.config import load_config, resolve_agent
from openclaw_tui.llm.context import LOCAL_CONTEXT_WINDOW, resolve_context_window
from openclaw_tui.llm.local.catalog import DEFAULT_MODEL, QWEN_0_5B
from openclaw_tui.llm.resolve import ENV_DEFAULTS, resolve_model
from openclaw_tui.session.engine import SessionEngine


def _settings(tmp_path: Path, overrides: dict[str, Any] | None = None, **kw: Any):
    return resolve_agent(load_config(None, overrides=overrides or {}), workspace=str(tmp_path / "ws"), **kw)


@pytest.fixture
def models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A models dir holding a file under the default model's name; discovery on, no keys, no Ollama."""
    d = tmp_path / "models"
    d.mkdir()
    (d / DEFAULT_MODEL.filename).write_bytes(b"GGUF-placeholder")
    monkeypatch.setenv("OPENCLAW_MODELS_DIR", str(d))
    monkeypatch.setenv("OPENCLAW_OLLAMA_URL", "http://127.0.0.1:9")
    monkeypatch.delenv("OPENCLAW_NO_LOCAL_MODEL", raising=False)
    for var, _p, _m in ENV_DEFAULTS:
        monkeypatch.delenv(var, raising=False)
    return d


def test_an_installed_gguf_comes_after_keys_and_before_the_offline_agent(tmp_path: Path, models: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = resolve_model(_settings(tmp_path))
    assert (c.model, c.provider, c.source, c.offline) == (f"local/{DEFAULT_MODEL.name}", "local", "local", False)
    assert c.local_path == models / DEFAULT_MODEL.filename and c.local_spec is DEFAULT_MODEL
    assert c.label == "local · Qwen2.5-Coder-1.5B (llama.cpp)"
    # a configured model wins, then a provider key
    assert resolve_model(_settings(tmp_path, model="offline")).offline
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    assert resolve_model(_settings(tmp_path)).model == "openai/gpt-4o-mini"


def test_discovery_can_be_switched_off(tmp_path: Path, models: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENCLAW_NO_LOCAL_MODEL", "1")
    assert resolve_model(_settings(tmp_path)).offline


def test_local_model_strings(tmp_path: Path, models: Path) -> None:
    gguf = tmp_path / "any" / "My-Model.Q8.gguf"
    c = resolve_model(_settings(tmp_path, model=f"local/{gguf}"))
    assert (c.local_path, c.local_spec, c.model) == (gguf, None, "local/My-Model.Q8")
    small = resolve_model(_settings(tmp_path, model="local/0.5b"))
    assert small.local_spec is QWEN_0_5B and small.local_path == models / QWEN_0_5B.filename
    cfg = resolve_model(_settings(tmp_path, {"agents": {"defaults": {"model": "local/default"}}}))
    assert cfg.local_spec is DEFAULT_MODEL


def test_the_local_window_is_what_the_server_is_started_with(tmp_path: Path) -> None:
    cfg = load_config(None, overrides={})
    assert resolve_context_window(cfg, "local/x", allow_import=False) == (LOCAL_CONTEXT_WINDOW, "local")
    cfg = load_config(None, overrides={"agents": {"defaults": {"contextTokens": 16000}}})
    assert resolve_context_window(cfg, "local/x", allow_import=False) == (16000, "contextTokens")


async def test_an_unusable_gguf_is_one_error_then_the_offline_agent_answers(tmp_path: Path) -> None:
    junk = tmp_path / "junk.gguf"
    junk.write_text("not a model")
    seen: list[events.Event] = []
    engine = SessionEngine(_settings(tmp_path, model=f"local/{junk}"), sink=seen.append, probe_ollama=False)
    try:
        assert not engine.is_offline and "(llama.cpp)" in engine.model_label
        result = await engine.send("I prefer green tea.")
        second = await engine.send("Which tea do I prefer?")
    finally:
        engine.close()
    errors = [e.message for e in seen if isinstance(e, events.Notice) and e.level == "error"]
    assert len(errors) == 1, errors
    assert "not a GGUF file" in errors[0] and "--model local/<path.gguf>" in errors[0] and "offline agent" in errors[0]
    assert engine.is_offline and "offline agent" in engine.model_label
    assert result.error is None and second.error is None and result.text


def test_chat_json_names_the_fallback(tmp_path: Path) -> None:
    """A missing GGUF through the CLI: exit 0, the offline agent, the reason in the events."""
    missing = tmp_path / "nowhere.gguf"
    proc = subprocess.run(
        [sys.executable, "-m", "openclaw_tui.cli", "--workspace", str(tmp_path / "ws"), "--model", f"local/{missing}",
         "chat", "-p", "hello", "--json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["offline"] is True and "offline agent" in data["model"]
    notes = [e["message"] for e in data["events"] if e.get("type") == "notice" and e.get("level") == "error"]
    assert notes and "does not exist" in notes[0]
