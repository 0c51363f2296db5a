"""SecretRef objects (``{source, provider, id}``) on secret keys, as OpenClaw configs use them:
accepted at load, ``env`` resolved when the key is used (real HTTP to scripted servers),
unresolvable ones an error naming the key only when that key is needed, masked by
``config show``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.cli import main
from openclaw_tui.config import ConfigError, resolve_agent, validate_config
from openclaw_tui.llm.resolve import ENV_DEFAULTS
from openclaw_tui.memory.embeddings import EmbeddingError, describe_resolution, make_provider
from openclaw_tui.workspace.template import init_workspace
from tests.fakes.chat_server import ChatServer
from tests.fakes.embed_server import EmbedServer

KEY = "sk-SENTINEL-from-env-123456"
REF = {"source": "env", "provider": "default", "id": "OC_TEST_KEY"}


def put(path: str, value: object) -> dict:
    """``"a.b[0].c"`` → nested dict/list holding ``value``."""
    root: dict = {}
    cur: object = root
    parts = path.replace("[", ".[").split(".")
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        nxt: object = value if last else ([{"id": "main"}] if parts[i + 1].startswith("[") else {})
        if part.startswith("["):
            assert isinstance(cur, list)
            if last:
                cur[0] = value
            cur = cur[0]
        else:
            assert isinstance(cur, dict)
            cur = cur.setdefault(part, nxt)
    return root


SECRET_KEYS = [
    "models.providers.openai.apiKey",
    "models.providers.openai.headers.X-Api-Token",
    "agents.defaults.memorySearch.remote.apiKey",
    "agents.defaults.memorySearch.remote.headers.Authorization",
    "agents.list[0].memorySearch.remote.apiKey",
]


def _get(cfg, path: str):
    if path.startswith("agents.list"):
        s = resolve_agent(cfg, agent_id="main")
        return s.memory_search.remote.api_key
    node = cfg
    for part in path.split("."):
        node = node[part] if isinstance(node, dict) else getattr(node, {"apiKey": "api_key", "memorySearch": "memory_search"}.get(part, part))
    return node


@pytest.mark.parametrize("path", SECRET_KEYS)
def test_secret_ref_loads_on_every_secret_key(path):
    cfg = validate_config(put(path, dict(REF)))  # main rejected: "Input should be a valid string"
    ref = _get(cfg, path)
    assert not isinstance(ref, str) and ref.model_dump() == REF


@pytest.mark.parametrize(
    "ref, fragment",
    [
        ({"source": "env", "id": "lower_case"}, "environment variable name"),
        ({"source": "vault", "id": "X"}, "source"),
        ({"source": "env", "id": "X", "path": "/x"}, "path"),
        ({"source": "file", "provider": "filemain", "id": "relative/ptr"}, "JSON pointer"),
        ({"source": "env", "provider": "Bad Name", "id": "X"}, "provider"),
        (42, "string or a SecretRef"),
    ],
)
def test_malformed_secret_ref_is_a_one_line_error_naming_the_key(ref, fragment):
    with pytest.raises(ConfigError) as err:
        validate_config(put("models.providers.openai.apiKey", ref))
    text = str(err.value)
    assert "models.providers.openai.apiKey" in text and fragment in text and "\n" not in text


# ----------------------------------------------------------------------------- chat model


@pytest.fixture
def chat_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OPENCLAW_OLLAMA_URL", "http://127.0.0.1:9")
    for var, _p, _m in ENV_DEFAULTS:
        monkeypatch.delenv(var, raising=False)
    ws = tmp_path / "ws"
    init_workspace(ws)
    with ChatServer() as srv:
        cfg = {
            # keyword-only memory: the openai entry's key and baseUrl would take embeddings to this chat server
            "agents": {"defaults": {"workspace": str(ws), "model": "openai/fake-model", "memorySearch": {"provider": "none"}}},
            "models": {"providers": {
                "openai": {"baseUrl": srv.base_url, "apiKey": dict(REF),
                           "headers": {"X-Team": {"source": "env", "id": "OC_TEAM"}}, "models": [{"id": "fake-model"}]},
                # never used in these runs: its unresolvable source must not matter
                "anthropic": {"apiKey": {"source": "exec", "provider": "vault", "id": "anthropic/key"}},
            }},
        }
        path = tmp_path / "openclaw.json"
        path.write_text(json.dumps(cfg))
        yield srv, path


def test_chat_sends_the_env_resolved_key_and_header(capsys, chat_env, monkeypatch):
    srv, path = chat_env
    monkeypatch.setenv("OC_TEST_KEY", KEY)
    monkeypatch.setenv("OC_TEAM", "team-blue")
    srv.push({"text": "hi from the server"})
    code = main(["--config", str(path), "chat", "-p", "hi", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert json.loads(out.out)["text"] == "hi from the server"
    [req] = [r for r in srv.requests if r["path"].endswith("/chat/completions")]
    assert req["headers"]["authorization"] == f"Bearer {KEY}"
    assert req["headers"]["x-team"] == "team-blue"
    assert KEY not in out.out + out.err


def test_unset_env_ref_fails_only_when_that_key_is_needed(capsys, chat_env, monkeypatch):
    srv, path = chat_env
    monkeypatch.delenv("OC_TEST_KEY", raising=False)
    monkeypatch.setenv("OC_TEAM", "team-blue")
    code = main(["--config", str(path), "chat", "-p", "hi"])
    err = capsys.readouterr().err
    assert code == 2
    assert "models.providers.openai.apiKey" in err and "OC_TEST_KEY" in err and "not set" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not srv.requests  # nothing was sent without the key
    # the same config with another model: the openai key (and the exec ref) are never needed
    code = main(["--config", str(path), "--model", "offline", "chat", "-p", "hello"])
    assert code == 0, capsys.readouterr().err


def test_config_show_masks_secret_refs(chat_env, monkeypatch):
    _srv, path = chat_env
    env = {"OC_TEST_KEY": KEY, "PATH": "/usr/bin:/bin", "HOME": str(path.parent)}
    out = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "--config", str(path), "config", "show"],
                         capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    shown = json.loads(out.stdout)["models"]["providers"]
    assert shown["openai"]["apiKey"] == {"source": "env", "provider": "default", "id": "***"}
    assert shown["openai"]["headers"]["X-Team"]["id"] == "***"
    assert shown["anthropic"]["apiKey"]["source"] == "exec" and "anthropic/key" not in out.stdout
    assert KEY not in out.stdout and "OC_TEST_KEY" not in out.stdout


# ----------------------------------------------------------------------------- embeddings


def test_embedding_provider_resolves_env_ref_over_http(monkeypatch):
    with EmbedServer(require_key=KEY) as srv:
        monkeypatch.setenv("OC_TEST_KEY", KEY)
        raw = {"agents": {"defaults": {"memorySearch": {
            "provider": "openai", "remote": {"baseUrl": srv.base_url, "apiKey": dict(REF)}}}}}
        s = resolve_agent(validate_config(raw))
        vec = make_provider(s, "openai").embed_query("deploy window")
        assert len(vec) == srv.dims
        assert describe_resolution(s)["keySource"] == "memorySearch.remote.apiKey"
        assert "error" not in describe_resolution(s)

        monkeypatch.delenv("OC_TEST_KEY")
        with pytest.raises(EmbeddingError) as err:
            make_provider(s, "openai")
        assert "memorySearch.remote.apiKey" in err.value.message and "OC_TEST_KEY" in err.value.message
        assert "OC_TEST_KEY" in describe_resolution(s)["error"]
