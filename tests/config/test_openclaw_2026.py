"""Config files of today's OpenClaw (tests/config/openclaw_2026/, one per shape, written from
OpenClaw's docs) load here and mean what they mean there; what we do not honour is named by
``config show`` and in the one line a session starts with."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from openclaw_tui.config import ConfigError, load_config, resolve_agent, validate_config
from openclaw_tui.config.agents_table import agent_rows
from openclaw_tui.config.embedding_target import DEEPINFRA_BASE, LMSTUDIO_BASE, embedding_target
from openclaw_tui.config.honoured import not_honoured, summary_line
from openclaw_tui.memory.embeddings import describe_resolution, resolve_provider
from openclaw_tui.memory.embeddings.fallback import UnavailableProvider
from openclaw_tui.memory.sources import memory_docs
from tests.fakes.embed_server import EmbedServer

FILES = Path(__file__).parent / "openclaw_2026"
ROOT = Path(__file__).resolve().parents[2]


def load(name: str, overrides: dict | None = None):
    return load_config(FILES / name, overrides=overrides)


def keys(cfg) -> set[str]:
    return {item.key for item in not_honoured(cfg)}


@pytest.mark.parametrize("path", sorted(FILES.glob("*.json5")), ids=lambda p: p.stem)
def test_every_file_loads_and_every_agent_resolves(path: Path, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path))
    cfg = load_config(path)
    for row in agent_rows(cfg) or [None]:
        resolve_agent(cfg, agent_id=row.entry.id if row else None)


# ------------------------------------------------------------------ providers


def test_openai_compatible_embeds_at_remote_base_with_its_own_key_and_headers(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-chat-key-never-sent-0000")
    with EmbedServer() as srv:
        settings = resolve_agent(load("provider_openai_compatible.json5", {"memory": {"search": {"remote": {"baseUrl": srv.base_url}}}}))
        provider = resolve_provider(settings)
        assert len(provider.embed_query("where is the launch checklist")) == srv.dims
        (req,) = srv.requests
    assert req["path"].endswith("/v1/embeddings") and req["json"]["model"] == "asymmetric-embedder"
    headers = {k.lower(): v for k, v in req["headers"].items()}
    assert headers["authorization"] == "Bearer sk-compat-fixture-0001" and headers["x-tenant"] == "team-a"
    # the input-type keys load but are not sent: config show names them
    assert {"memory.search.queryInputType", "memory.search.documentInputType"} <= keys(settings.config)


def test_openai_compatible_without_base_url_is_unavailable_not_openai(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-chat-key-never-sent-0000")
    settings = resolve_agent(validate_config({"memory": {"search": {"provider": "openai-compatible"}}}))
    assert isinstance(resolve_provider(settings), UnavailableProvider)
    assert "remote.baseUrl" in describe_resolution(settings)["error"]


def test_a_models_providers_id_embeds_at_its_base_url_with_its_key_and_headers():
    with EmbedServer() as srv:
        over = {"models": {"providers": {"gpu-embed": {"baseUrl": srv.base_url}}}}
        cfg = load("provider_models_providers.json5", over)
        provider = resolve_provider(resolve_agent(cfg, agent_id="main"))
        provider.embed_documents(["the deploy runbook lives in ops/"])
        (req,) = srv.requests
    headers = {k.lower(): v for k, v in req["headers"].items()}
    assert headers["authorization"] == "Bearer sk-gpu-fixture-0002" and headers["x-route"] == "gpu-2"
    assert req["json"]["model"] == "embed-small"


def test_a_models_providers_id_with_api_ollama_uses_the_ollama_adapter_at_its_host():
    cfg = load("provider_models_providers.json5")
    settings = resolve_agent(cfg, agent_id="gpu")
    target = embedding_target(cfg, settings.memory_search, settings.memory_search.provider)
    assert (target.adapter, target.base_url, target.api_key) == ("ollama", "http://gpu-box.local:11435", "ollama-local")
    assert describe_resolution(settings)["endpoint"] == "http://gpu-box.local:11435"


def test_lmstudio_and_deepinfra_defaults(monkeypatch):
    monkeypatch.setenv("DEEPINFRA_API_KEY", "di-fixture-key-0003")
    cfg = load("provider_lmstudio_deepinfra.json5")
    main, hosted = resolve_agent(cfg), resolve_agent(cfg, agent_id="hosted")
    assert main.agent_id == "main"
    assert resolve_provider(main).base_url == LMSTUDIO_BASE  # type: ignore[union-attr]
    provider = resolve_provider(hosted)
    assert provider.base_url == DEEPINFRA_BASE and provider.model == "BAAI/bge-m3"  # type: ignore[union-attr]
    assert describe_resolution(hosted)["keySource"] == "DEEPINFRA_API_KEY"
    assert not keys(cfg)


def test_what_is_not_honoured_is_named_and_the_provider_is_unavailable():
    cfg = load("provider_not_honoured.json5")
    assert keys(cfg) == {
        "memory.search.provider", "memory.search.outputDimensionality",
        "memory.search.multimodal", "memory.rememberAcrossConversations",
    }
    settings = resolve_agent(cfg)
    assert isinstance(resolve_provider(settings), UnavailableProvider)
    assert "AWS" in describe_resolution(settings)["error"]
    line = summary_line(not_honoured(cfg))
    assert line is not None and line.count("\n") == 0 and "memory.search.provider" in line


def test_an_unknown_provider_is_refused_by_its_key():
    with pytest.raises(ConfigError, match=r"agents\.entries\.w\.memory\.search\.provider: unknown embedding provider 'cohere'"):
        validate_config({"agents": {"entries": {"w": {"memory": {"search": {"provider": "cohere"}}}}}})


# ------------------------------------------------------------------ extra paths


def test_extra_path_objects_match_their_glob_and_skip_symlinks(tmp_path):
    ws = tmp_path / "ws"
    for rel in ("plain-notes/a.md", "plain-notes/deep/b.md", "team-docs/decisions/2026/q1.md", "team-docs/decisions/top.md",
                "team-docs/drafts/c.md", "journal/2026-01-02.md", "journal/2025-12-31.md", "journal/sub/2026-03-01.md",
                "outside/secret.md"):
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(f"# {rel}\n")
    os.symlink(ws / "outside" / "secret.md", ws / "team-docs" / "decisions" / "linked.md")
    settings = resolve_agent(load("extra_paths_objects.json5"), workspace=ws)
    got = {d.path for d in memory_docs(ws, settings.memory_search.extra_paths)}
    assert got == {"plain-notes/a.md", "plain-notes/deep/b.md", "team-docs/decisions/2026/q1.md",
                   "team-docs/decisions/top.md", "journal/2026-01-02.md", "journal/sub/2026-03-01.md"}


def test_extra_path_objects_of_all_layers_are_joined_and_deduplicated():
    raw = {"memory": {"search": {"extraPaths": [{"path": "a", "pattern": "*.md"}, "b"]}},
           "agents": {"entries": {"main": {"memory": {"search": {"extraPaths": [{"path": "a", "pattern": "*.md"}, {"path": "a"}]}}}}}}
    ms = resolve_agent(validate_config(raw)).memory_search
    assert [(p if isinstance(p, str) else (p.path, p.pattern)) for p in ms.extra_paths] == [("a", "*.md"), "b", ("a", "**/*.md")]


# ------------------------------------------------------------------ agents


def test_agents_entries_define_workspace_model_sandbox_default_and_memory(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENCLAW_STATE_DIR", str(tmp_path))
    cfg = load("agents_entries.json5")
    default = resolve_agent(cfg)
    assert default.agent_id == "research"  # marked default under agents.entries
    assert (str(default.workspace), default.model, default.workspace_access) == ("/srv/oc/research", "openai/gpt-5.4", "ro")
    assert default.memory_search.query.max_results == 9
    ops = resolve_agent(cfg, agent_id="ops")  # in both: agents.entries wins key by key
    assert (str(ops.workspace), ops.model) == ("/srv/oc/ops-april", "anthropic/claude-sonnet-4-6")
    scratch = resolve_agent(cfg, agent_id="scratch")  # neither: defaults.workspace/<id>
    assert str(scratch.workspace) == "/srv/oc/workspace/scratch" and scratch.model == "openai/gpt-5.4-mini"
    assert scratch.memory_search.query.min_score == 0.6
    assert scratch.memory_search_sources.source_of("query.minScore") == "agents.entries.scratch.memory.search.query.minScore"
    assert not keys(cfg)


def test_the_intermediate_memorysearch_spelling_applies_under_memory_search():
    raw = {"agents": {"entries": {"a": {"memorySearch": {"query": {"maxResults": 3, "minScore": 0.2}},
                                        "memory": {"search": {"query": {"minScore": 0.7}}}}}}}
    settings = resolve_agent(validate_config(raw))
    assert (settings.memory_search.query.max_results, settings.memory_search.query.min_score) == (3, 0.7)
    assert settings.memory_search_sources.source_of("query.maxResults") == "agents.entries.a.memorySearch.query.maxResults"


# ------------------------------------------------------------------ compaction, flush, MCP


def test_compaction_keys_load_typed_and_the_unread_one_is_named():
    cfg = load("compaction_safeguard.json5")
    c = cfg.agents.defaults.compaction
    assert (c.mode, c.recent_turns_preserve, c.identifier_policy, c.notify_user) == ("safeguard", 3, "off", True)
    assert (c.quality_guard.enabled, c.quality_guard.max_retries) == (True, 2)
    assert c.memory_flush.force_flush_transcript_bytes == 1024 * 1024
    assert keys(cfg) == {"agents.defaults.compaction.maxHistoryShare"}


@pytest.mark.parametrize("value,expected", [("2mb", 2 * 1024**2), ("512kb", 512 * 1024), (4096, 4096), ("0", 0), ("1.5 MiB", 1572864)])
def test_force_flush_sizes(value, expected):
    cfg = validate_config({"agents": {"defaults": {"compaction": {"memoryFlush": {"forceFlushTranscriptBytes": value}}}}})
    assert cfg.agents.defaults.compaction.memory_flush.force_flush_transcript_bytes == expected


def test_a_bad_force_flush_size_names_its_key():
    with pytest.raises(ConfigError, match=r"memoryFlush\.forceFlushTranscriptBytes: .*'lots' is not a size"):
        validate_config({"agents": {"defaults": {"compaction": {"memoryFlush": {"forceFlushTranscriptBytes": "lots"}}}}})


def test_mcp_servers_in_the_current_spelling():
    cfg = load("mcp_servers.json5")
    files, index, legacy = (cfg.mcp.servers[n] for n in ("files", "index", "legacy"))
    assert (files.timeout_seconds, files.startup_timeout_seconds) == (45, 10)
    assert index.startup_timeout_seconds == 20 and index.timeout_seconds == 30
    assert keys(cfg) == {"mcp.servers.legacy.transport"}
    from openclaw_tui.mcp.manager import McpManager

    manager = McpManager(cfg.mcp.servers, Path("/nonexistent"))
    assert manager.connections["legacy"].status.state == "failed"
    assert "sse" in manager.connections["legacy"].status.message


def test_retired_mcp_spellings_are_read_as_doctor_migrates_them():
    cfg = load("retired_keys.json5")
    files, web = cfg.mcp.servers["files"], cfg.mcp.servers["web"]
    assert (files.transport, files.enabled, files.timeout_seconds) == ("stdio", False, 30)
    assert (web.transport, web.enabled, web.timeout_seconds) == ("http", True, 20)


# ------------------------------------------------------------------ config show and migrate (the CLI)


def run_cli(*args: str, state: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENCLAW_STATE_DIR": str(state)}
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *args], capture_output=True, text=True, env=env, timeout=120)


def test_config_show_lists_what_is_not_honoured(tmp_path):
    done = run_cli("--config", str(FILES / "provider_not_honoured.json5"), "config", "show", state=tmp_path)
    assert done.returncode == 0, done.stderr
    shown = {item["key"]: item for item in json.loads(done.stdout)["_notHonoured"]}
    assert shown["memory.search.provider"]["value"] == "bedrock" and "AWS" in shown["memory.search.provider"]["why"]
    assert "memory.search.store.fts.tokenizer" not in shown  # honoured: a trigram index (tests/memory/test_fts_trigram.py)


def test_config_migrate_dry_run_then_write(tmp_path):
    cfg_path = tmp_path / "openclaw.json"
    cfg_path.write_text((FILES / "retired_keys.json5").read_text())
    dry = run_cli("--config", str(cfg_path), "config", "migrate", "--dry-run", state=tmp_path)
    assert dry.returncode == 0, dry.stderr
    assert "nothing written" in dry.stdout and cfg_path.read_text() == (FILES / "retired_keys.json5").read_text()
    for line in ("moved agents.list[0] -> agents.entries.main", "moved agents.entries.side.memorySearch -> agents.entries.side.memory.search",
                 "moved mcp.servers.files.disabled -> mcp.servers.files.enabled",
                 "retired agents.defaults.compaction.reserveTokensFloor = 24000",
                 "retired agents.defaults.compaction.memoryFlush.prompt"):
        assert line in dry.stderr, dry.stderr
    wrote = run_cli("--config", str(cfg_path), "config", "migrate", "--write", state=tmp_path)
    assert wrote.returncode == 0, wrote.stderr
    data = json.loads(cfg_path.read_text())
    assert "list" not in data["agents"] and set(data["agents"]["entries"]) == {"main", "side"}
    assert data["agents"]["entries"]["main"]["memory"]["search"] == {"query": {"minScore": 0.4}}
    assert data["agents"]["entries"]["side"] == {"model": "openai/gpt-5.4-mini", "memory": {"search": {"extraPaths": ["side-notes"]}}}
    assert data["memory"]["search"] == {"provider": "none", "query": {"maxResults": 4}}
    comp = data["agents"]["defaults"]["compaction"]
    assert comp == {"identifierPolicy": "strict", "memoryFlush": {}}
    assert data["mcp"]["servers"] == {
        "files": {"transport": "stdio", "command": "mcp-files", "enabled": False, "requestTimeoutMs": 30000},
        "web": {"transport": "streamable-http", "url": "https://mcp.example.test/mcp", "requestTimeoutMs": 20000},
    }
    again = run_cli("--config", str(cfg_path), "config", "migrate", "--dry-run", state=tmp_path)
    assert "already uses the current key generation" in again.stdout


def test_trigram_is_named_not_honoured_for_the_qmd_backend_only(tmp_path):
    """qmd's keyword table has a fixed tokenizer: with memory.backend "qmd" a trigram setting
    is named (config show and the start line); with the builtin backend it is honoured."""
    tri = {"search": {"store": {"fts": {"tokenizer": "trigram"}}}}
    assert "memory.search.store.fts.tokenizer" not in keys(validate_config({"memory": tri}))
    qmd = validate_config({"memory": {**tri, "backend": "qmd"}})
    found = [i for i in not_honoured(qmd) if i.key == "memory.search.store.fts.tokenizer"]
    assert [(i.value, "qmd" in i.why) for i in found] == [("trigram", True)]
    assert "memory.search.store.fts.tokenizer" in (summary_line(not_honoured(qmd)) or "")
    assert not [i for i in not_honoured(validate_config({"memory": {"backend": "qmd", "search": {"store": {"fts": {"tokenizer": "unicode61"}}}}}))
                if i.key.endswith("tokenizer")]
    cfg_path = tmp_path / "openclaw.json"
    cfg_path.write_text(json.dumps({"memory": {**tri, "backend": "qmd"}}))
    done = run_cli("--config", str(cfg_path), "config", "show", state=tmp_path)
    assert done.returncode == 0, done.stderr
    shown = {item["key"]: item for item in json.loads(done.stdout)["_notHonoured"]}
    assert shown["memory.search.store.fts.tokenizer"]["value"] == "trigram"
