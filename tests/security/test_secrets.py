"""API keys never leak: transcripts, sessions.json, every file in the state dir and the
workspace, CLI output and error messages, ``config show``, log lines and crash output are
grepped for sentinel keys (the chat key and the embedding key), including when the
provider echoes the key back in its error message."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from tests.fakes.chat_server import ChatServer
from tests.inproc import run_cli
from tests.faults.conftest import ROOT, cli_cmd, cli_env, write_config

CHAT_KEY = "sk-SENTINEL-chat-4b9d2e7a1c"
EMBED_KEY = "sk-SENTINEL-embed-8e3f6a0b5d"
KEYS = (CHAT_KEY, EMBED_KEY, "SENTINEL-chat", "SENTINEL-embed")


def leaks(text: str) -> list[str]:
    return [k for k in KEYS if k in text]


def tree_leaks(*roots: Path) -> list[str]:
    found = []
    for root in roots:
        for p in root.rglob("*"):
            if p.is_file() and not p.is_symlink():
                data = p.read_bytes().decode("utf-8", "replace")
                found += [f"{p}: {k}" for k in leaks(data)]
    return found


def config_with_keys(tmp_path: Path, embed_url: str) -> Path:
    return write_config(tmp_path / "openclaw.json", {
        "models": {"providers": {"openai": {"apiKey": CHAT_KEY}}},
        "agents": {"defaults": {"memorySearch": {
            "provider": "openai", "model": "fake-embed",
            "remote": {"baseUrl": embed_url, "apiKey": EMBED_KEY, "headers": {"X-Api-Key": EMBED_KEY}},
        }}},
    })


def run(args: list[str], state: Path, **env: str) -> subprocess.CompletedProcess:
    """The CLI in this process (``cli.main``): what it prints to stdout and stderr, its log
    lines included, is what a child would print; the crash cases below start real ones."""
    return run_cli(*args, cwd=ROOT, env=cli_env(state, OPENCLAW_EMBED_BACKOFF_BASE_S="0.01",
                   OPENCLAW_LLM_RETRY_BASE_S="0.01", OPENCLAW_LLM_RETRY_MAX_S="0.02", **env))


def test_keys_never_leak(workspace: Path, state_dir: Path, server: ChatServer, embed_server, tmp_path: Path) -> None:
    (workspace / "memory" / "2026-01-02.md").write_text("- Met Bob about the garden tomatoes.\n")
    cfg = config_with_keys(tmp_path, embed_server.base_url)
    common = ["--config", str(cfg), "--workspace", str(workspace), "--model", "openai/fake-model", "--api-base", server.base_url]
    outputs: list[str] = []

    # a normal turn that searches memory (embedding key in use), key from config + --api-key
    server.push(
        {"tool_calls": [{"name": "memory_search", "arguments": {"query": "garden tomatoes"}}]},
        {"text": "Bob and the tomatoes."},
    )
    r = run(common + ["--api-key", CHAT_KEY, "chat", "-p", "what about the garden?", "--session", "s1", "--json"], state_dir)
    assert r.returncode == 0, r.stderr
    outputs += [r.stdout, r.stderr]
    assert json.loads(r.stdout)["text"] == "Bob and the tomatoes."

    # the provider rejects the key and echoes it back; key from the environment this time
    server.push({"error": 401, "message": f"Incorrect API key provided: {CHAT_KEY}. Bearer {CHAT_KEY}"})
    r = run(common + ["chat", "-p", "again", "--session", "s1"], state_dir, OPENAI_API_KEY=CHAT_KEY)
    assert r.returncode == 1 and "401" in r.stderr
    outputs += [r.stdout, r.stderr]

    # the embedding provider rejects its key and echoes it: memory CLI output and log lines
    embed_server.fail_always(401, f"Incorrect API key provided: {EMBED_KEY}")
    for args in (["memory", "search", "garden"], ["memory", "status", "--json"]):
        r = run(common + args, state_dir)
        assert "Traceback" not in r.stderr
        outputs += [r.stdout, r.stderr]
    assert any("401" in o for o in outputs[-4:])

    # config show, with every key source set
    r = run(common + ["--api-key", CHAT_KEY, "config", "show"], state_dir, OPENAI_API_KEY=CHAT_KEY)
    assert r.returncode == 0, r.stderr
    shown = json.loads(r.stdout)
    assert shown["_resolved"]["apiKey"] == "***"
    outputs += [r.stdout, r.stderr]

    assert [k for o in outputs for k in leaks(o)] == []
    sessions = state_dir / "agents" / "main" / "sessions"
    assert (sessions / "s1.jsonl").exists() and (sessions / "sessions.json").exists()
    assert tree_leaks(state_dir, workspace) == []
    # the keys did reach the providers (the grep above would be meaningless otherwise)
    assert any(r["headers"].get("authorization") == f"Bearer {CHAT_KEY}" for r in server.requests)
    assert any(r["headers"].get("authorization") == f"Bearer {EMBED_KEY}" for r in embed_server.requests)


def _crash_mid_stream(workspace: Path, state: Path, tmp_path: Path, sig: int) -> subprocess.CompletedProcess:
    with ChatServer() as srv:
        srv.push({"text": "a long answer that stalls half way through", "stall_after": 2, "stall_s": 30})
        cmd = cli_cmd("--workspace", str(workspace), "--model", "openai/fake-model", "--api-base", srv.base_url,
                      "--api-key", CHAT_KEY, "chat", "-p", "hello", "--session", "crash")
        proc = subprocess.Popen(cmd, cwd=ROOT, env=cli_env(state, PYTHONFAULTHANDLER="1", OPENAI_API_KEY=CHAT_KEY),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.time() + 60
            while not srv.chat_requests() and time.time() < deadline:
                time.sleep(0.05)
            time.sleep(0.5)
            os.kill(proc.pid, sig)
            out, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def test_crash_output_has_no_keys(workspace: Path, state_dir: Path, tmp_path: Path) -> None:
    # a hard crash: faulthandler dumps every thread's stack
    seg = _crash_mid_stream(workspace, state_dir, tmp_path, signal.SIGSEGV)
    assert seg.returncode == -signal.SIGSEGV
    assert "Fatal Python error" in seg.stderr  # there really was crash output to grep
    # an interrupt mid-stream: one line, no traceback
    intr = _crash_mid_stream(workspace, state_dir, tmp_path, signal.SIGINT)
    assert intr.returncode != 0 and "Traceback" not in intr.stderr, intr.stderr
    assert leaks(seg.stdout + seg.stderr + intr.stdout + intr.stderr) == []
    assert tree_leaks(state_dir, workspace) == []


def test_tui_crash_traceback_locals_have_no_keys(workspace: Path, tmp_path: Path, embed_server) -> None:
    """Textual renders an unhandled exception as a rich traceback *with locals*
    (``App._fatal_error``: ``Traceback(show_locals=True, locals_max_length=5)``). The objects a
    crashing frame holds — settings, config, the model choice, the engine — must not render a key."""
    import io

    from rich.console import Console
    from rich.traceback import Traceback

    from openclaw_tui.config import load_config, resolve_agent
    from openclaw_tui.session.engine import SessionEngine

    cfg_path = config_with_keys(tmp_path, embed_server.base_url)

    def crash() -> None:
        config = load_config(str(cfg_path))
        settings = resolve_agent(config, workspace=str(workspace), model="openai/fake-model", api_key=CHAT_KEY)
        engine = SessionEngine(settings, sink=lambda _e: None, probe_ollama=False)
        try:
            memory_search = settings.memory_search
            providers = config.models.providers
            raise RuntimeError(f"boom with {len(providers)} provider(s) and {memory_search.provider}")
        finally:
            engine.close()

    try:
        crash()
    except RuntimeError:
        tb = Traceback(show_locals=True, width=None, locals_max_length=5)
    console = Console(file=io.StringIO(), width=240, color_system=None)
    console.print(tb)
    out = console.file.getvalue()
    assert "boom with 1 provider(s) and openai" in out and "settings" in out  # locals were rendered
    assert leaks(out) == []
