"""OpenClaw's two config generations: April's agents.defaults.memorySearch / agents.list[].memorySearch
and today's memory.search / agents.entries.<id>.memory.search resolve to the same settings;
one precedence when both are written; config show names each value's key; migrate round-trips."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import json5
import pytest

from openclaw_tui.config import ConfigError, resolve_agent, validate_config
from openclaw_tui.config.migrate import migrate_config

SHARED = {"provider": "openai", "query": {"maxResults": 9, "hybrid": {"mmr": {"enabled": True, "lambda": 0.5}}},
          "chunking": {"tokens": 300, "overlap": 40}, "extraPaths": ["notes"]}
WORK = {"query": {"minScore": 0.2}, "extraPaths": ["work-notes"]}

APRIL = {"agents": {"defaults": {"memorySearch": SHARED}, "list": [{"id": "main", "default": True}, {"id": "work", "memorySearch": WORK}]}}
CURRENT = {"memory": {"search": SHARED}, "agents": {"list": [{"id": "main", "default": True}, {"id": "work"}],
                                                    "entries": {"work": {"memory": {"search": WORK}}}}}
MIXED = {  # half the keys in each generation
    "agents": {"defaults": {"memorySearch": {"provider": "openai", "chunking": {"tokens": 300}, "extraPaths": ["notes"]}},
               "list": [{"id": "main", "default": True}, {"id": "work", "memorySearch": {"query": {"minScore": 0.2}}}],
               "entries": {"work": {"memory": {"search": {"extraPaths": ["work-notes"]}}}}},
    "memory": {"search": {"query": {"maxResults": 9, "hybrid": {"mmr": {"enabled": True, "lambda": 0.5}}}, "chunking": {"overlap": 40}}},
}
# sections of a full OpenClaw config this product does not read: ignored, never an error
UNKNOWN = {"channels": {"discord": {"token": "x"}}, "gateway": {"port": 18789}, "plugins": {"entries": {"active-memory": {"enabled": True}}},
           "memory": {"search": {"someNewerKey": {"a": 1}}, "dreaming": {"enabled": True}}, "agents": {"entries": {"work": {"heartbeat": {"every": "1h"}}}}}


def _effective(raw: dict, agent: str | None) -> dict:
    return resolve_agent(validate_config(raw), agent_id=agent).memory_search.model_dump()


@pytest.mark.parametrize("name,raw", [("april", APRIL), ("current", CURRENT), ("mixed", MIXED),
                                      ("current+unknown", json5.loads(json.dumps(CURRENT)) | {k: v for k, v in UNKNOWN.items() if k not in ("memory", "agents")})])
@pytest.mark.parametrize("agent", [None, "work"])
def test_every_generation_resolves_to_the_same_settings(name, raw, agent):
    assert _effective(raw, agent) == _effective(APRIL, agent)
    ms = resolve_agent(validate_config(raw), agent_id=agent).memory_search
    assert (ms.provider, ms.query.max_results, ms.query.hybrid.mmr.lambda_, ms.chunking.tokens, ms.chunking.overlap) == ("openai", 9, 0.5, 300, 40)
    assert ms.extra_paths == (["notes", "work-notes"] if agent == "work" else ["notes"])
    assert ms.query.min_score == (0.2 if agent == "work" else 0.35)


def test_unknown_valid_sections_are_ignored():
    raw = {**UNKNOWN, "memory": {**UNKNOWN["memory"], "search": {"query": {"maxResults": 4}, "someNewerKey": 1}}}
    assert resolve_agent(validate_config(raw), agent_id="work").memory_search.query.max_results == 4


@pytest.mark.parametrize(
    "layers,expected,source",
    [
        ({"april": 1}, 1, "agents.defaults.memorySearch.query.maxResults"),
        ({"current": 2}, 2, "memory.search.query.maxResults"),
        ({"april": 1, "current": 2}, 2, "memory.search.query.maxResults"),
        ({"april": 1, "current": 2, "list": 3}, 3, "agents.list[0].memorySearch.query.maxResults"),
        ({"april": 1, "list": 3, "entries": 4}, 4, "agents.entries.work.memory.search.query.maxResults"),
        ({"current": 2, "entries": 4}, 4, "agents.entries.work.memory.search.query.maxResults"),
        ({}, 6, "default"),
    ],
)
def test_precedence_entry_over_list_over_memory_search_over_april(layers, expected, source):
    raw: dict = {"agents": {"list": [{"id": "work", "default": True}]}}
    if "april" in layers:
        raw["agents"]["defaults"] = {"memorySearch": {"query": {"maxResults": layers["april"]}}}
    if "current" in layers:
        raw["memory"] = {"search": {"query": {"maxResults": layers["current"]}}}
    if "list" in layers:
        raw["agents"]["list"][0]["memorySearch"] = {"query": {"maxResults": layers["list"]}}
    if "entries" in layers:
        raw["agents"]["entries"] = {"work": {"memory": {"search": {"query": {"maxResults": layers["entries"]}}}}}
    s = resolve_agent(validate_config(raw))
    assert s.memory_search.query.max_results == expected
    assert s.memory_search_sources.source_of("query.maxResults") == source


def test_entries_of_other_agents_do_not_apply():
    raw = {"agents": {"list": [{"id": "main"}], "entries": {"work": {"memory": {"search": {"query": {"maxResults": 2}}}}}}}
    assert resolve_agent(validate_config(raw)).memory_search.query.max_results == 6  # main
    assert resolve_agent(validate_config(raw), agent_id="WORK").memory_search.query.max_results == 2


def test_an_agent_only_in_entries_is_an_agent_and_the_first_is_the_default():
    raw = {"agents": {"entries": {"work": {"memory": {"search": {"query": {"maxResults": 2}}}}}}}
    settings = resolve_agent(validate_config(raw))
    assert settings.agent_id == "work" and settings.memory_search.query.max_results == 2


@pytest.mark.parametrize(
    "raw,key",
    [
        ({"memory": {"search": {"query": {"maxResults": 0}}}}, "memory.search.query.maxResults"),
        ({"memory": {"search": {"provider": "cohere"}}}, "memory.search.provider"),
        ({"agents": {"entries": {"main": {"memory": {"search": {"chunking": {"overlap": 900}}}}}}}, "agents.entries.main.memory.search.chunking"),
        ({"agents": {"entries": {"main": {"memory": {"search": {"query": {"minScore": "high"}}}}}}}, "agents.entries.main.memory.search.query.minScore"),
        ({"agents": {"defaults": {"compaction": {"memoryFlush": {"model": 5}}}}}, "agents.defaults.compaction.memoryFlush.model"),
    ],
)
def test_bad_values_name_the_key_that_wrote_them(raw, key):
    with pytest.raises(ConfigError) as info:
        resolve_agent(validate_config(raw))
    assert key in str(info.value)


def test_memory_flush_model_is_typed():
    cfg = validate_config({"agents": {"defaults": {"compaction": {"memoryFlush": {"model": "openai/gpt-4o-mini"}}}}})
    assert cfg.agents.defaults.compaction.memory_flush.model == "openai/gpt-4o-mini"
    cfg = validate_config({"agents": {"defaults": {"compaction": {"memoryFlush": {"model": {"primary": "ollama/qwen"}}}}}})
    assert cfg.agents.defaults.compaction.memory_flush.model == "ollama/qwen"
    assert validate_config({}).agents.defaults.compaction.memory_flush.model is None


@pytest.mark.parametrize("raw", [APRIL, CURRENT, MIXED])
def test_migrate_round_trips(raw):
    once = migrate_config(raw)
    assert "memorySearch" not in json.dumps(once.data)  # nothing left in the April spelling
    for agent in (None, "main", "work"):
        assert _effective(once.data, agent) == _effective(raw, agent)
    assert migrate_config(once.data).data == once.data and not migrate_config(once.data).changed  # idempotent
    assert migrate_config(raw).data == once.data and raw == json5.loads(json.dumps(raw))  # input untouched


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "openclaw_tui.cli", *args], capture_output=True, text=True, timeout=60)


def test_config_show_names_each_values_source(tmp_path: Path):
    cfg = tmp_path / "openclaw.json"
    cfg.write_text(json.dumps({**MIXED, "memory": {**MIXED["memory"], "search": {**MIXED["memory"]["search"], "remote": {"apiKey": "sk-SENTINEL-abcdef123456"}}}}))
    out = _cli("--config", str(cfg), "--agent", "work", "config", "show")
    assert out.returncode == 0, out.stderr
    assert "SENTINEL" not in out.stdout
    ms = json.loads(out.stdout)["_resolved"]["memorySearch"]
    assert ms["query.maxResults"] == {"value": 9, "from": "memory.search.query.maxResults"}
    assert ms["chunking.tokens"]["from"] == "agents.defaults.memorySearch.chunking.tokens"
    assert ms["query.minScore"] == {"value": 0.2, "from": "agents.list[1].memorySearch.query.minScore"}
    assert ms["extraPaths"]["from"] == "agents.defaults.memorySearch.extraPaths + agents.entries.work.memory.search.extraPaths"
    assert ms["sync.watch"] == {"value": True, "from": "default"}
    assert ms["remote.apiKey"]["value"] != "sk-SENTINEL-abcdef123456"


def test_config_migrate_prints_then_writes_with_a_backup(tmp_path: Path):
    cfg = tmp_path / "openclaw.json"
    original = "// April\n" + json.dumps({**APRIL, "channels": {"x": 1}}, indent=1) + "\n"
    cfg.write_text(original)
    os.chmod(cfg, 0o640)
    printed = _cli("--config", str(cfg), "config", "migrate")
    assert printed.returncode == 0, printed.stderr
    assert cfg.read_text() == original  # printing changes nothing
    assert json.loads(printed.stdout) == migrate_config(json5.loads(original)).data
    assert "moved agents.defaults.memorySearch -> memory.search" in printed.stderr
    wrote = _cli("--config", str(cfg), "config", "migrate", "--write")
    assert wrote.returncode == 0, wrote.stderr
    backups = list(tmp_path.glob("openclaw.json.bak-*"))
    assert len(backups) == 1 and backups[0].read_text() == original and (backups[0].stat().st_mode & 0o777) == 0o600
    assert (cfg.stat().st_mode & 0o777) == 0o640
    assert json.loads(cfg.read_text())["channels"] == {"x": 1}
    again = _cli("--config", str(cfg), "config", "migrate", "--write")
    assert "nothing written" in again.stdout and len(list(tmp_path.glob("openclaw.json.bak-*"))) == 1
    for agent in ("main", "work"):
        shown = json.loads(_cli("--config", str(cfg), "--agent", agent, "config", "show").stdout)["_resolved"]["memorySearch"]
        assert shown["query.maxResults"]["from"] == "memory.search.query.maxResults"
