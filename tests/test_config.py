from __future__ import annotations

import json

import pytest

from openclaw_tui.config import ConfigError, load_config, masked_dump, resolve_agent, validate_config
from tests.inproc import run_cli


@pytest.mark.parametrize(
    "raw, key, fragment",
    [
        ({"agents": {"defaults": {"memorySearch": {"query": {"maxResults": "many"}}}}}, "agents.defaults.memorySearch.query.maxResults", "'many'"),
        ({"agents": {"defaults": {"memorySearch": {"query": {"hybrid": {"mmr": {"lambda": 3}}}}}}}, "agents.defaults.memorySearch.query.hybrid.mmr.lambda", "3"),
        ({"agents": {"defaults": {"memorySearch": {"provider": "cohere"}}}}, "agents.defaults.memorySearch.provider", "cohere"),
        ({"agents": {"defaults": {"memorySearch": {"chunking": {"tokens": 100, "overlap": 100}}}}}, "agents.defaults.memorySearch.chunking", "overlap"),
        ({"agents": {"defaults": {"compaction": {"memoryFlush": {"enabled": "maybe"}}}}}, "agents.defaults.compaction.memoryFlush.enabled", "maybe"),
        ({"agents": {"defaults": {"sandbox": {"workspaceAccess": "rwx"}}}}, "agents.defaults.sandbox.workspaceAccess", "rwx"),
        ({"memory": {"backend": "redis"}}, "memory.backend", "redis"),
        ({"memory": {"citations": "sometimes"}}, "memory.citations", "sometimes"),
        ({"memory": {"qmd": {"limits": {"maxResults": 0}}}}, "memory.qmd.limits.maxResults", "0"),
        ({"agents": {"list": [{"default": True}]}}, "agents.list[0].id", "Field required"),
        ({"agents": {"defaults": {"maxToolSteps": True}}}, "agents.defaults.maxToolSteps", "must be a number, not true"),
        ({"agents": {"defaults": {"memorySearch": {"chunking": {"overlap": False}}}}}, "agents.defaults.memorySearch.chunking.overlap", "not false"),
        ({"agents": {"defaults": {"contextTokens": True}}}, "agents.defaults.contextTokens", "must be a number"),
        ({"agents": {"defaults": {"memorySearch": {"query": {"minScore": True}}}}}, "agents.defaults.memorySearch.query.minScore", "must be a number"),
        ({"agents": {"defaults": {"autoRecallResults": 0}}}, "agents.defaults.autoRecallResults", "0"),
    ],
)
def test_bad_values_name_the_dotted_key(raw, key, fragment):
    with pytest.raises(ConfigError) as info:
        validate_config(raw)
    msg = str(info.value)
    assert key in msg
    assert fragment in msg
    assert "\n" not in msg


def test_unknown_sections_are_ignored_and_defaults_apply():
    cfg = validate_config({"channels": {"discord": {"token": "x"}}, "gateway": {"port": 1}, "agents": {"defaults": {"memorySearch": {"query": {"maxResults": 9}}}}})
    ms = cfg.agents.defaults.memory_search
    assert ms.query.max_results == 9
    assert ms.query.min_score == pytest.approx(0.35)
    assert ms.chunking.tokens == 400 and ms.chunking.overlap == 80
    assert ms.query.hybrid.vector_weight == pytest.approx(0.7)
    assert cfg.agents.defaults.compaction.reserve_tokens_floor == 20000
    assert cfg.agents.defaults.compaction.memory_flush.soft_threshold_tokens == 4000
    assert cfg.memory.citations == "auto"


def test_json5_file_with_comments_and_trailing_commas(tmp_path, state_dir):
    path = tmp_path / "openclaw.json"
    path.write_text("// comment\n{agents: {defaults: {workspace: '%s', contextTokens: 32000,},},}\n" % (tmp_path / "ws"))
    cfg = load_config(path)
    settings = resolve_agent(cfg)
    assert settings.workspace == (tmp_path / "ws").absolute()
    assert settings.index_path == state_dir / "memory" / "main.sqlite"
    assert settings.session_key == "agent:main:main"


def test_broken_json5_is_one_line_error(tmp_path):
    path = tmp_path / "c.json"
    path.write_text("{agents: {defaults: ")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert "not valid JSON5" in str(info.value)


def test_broken_json5_error_names_line_and_column_not_string(tmp_path):
    path = tmp_path / "c.json"
    path.write_text('{\n  agents: {defaults: {contextTokens: 9000}}}}\n')
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value) == f'config {path} is not valid JSON5: line 2, column 45: Unexpected "}}"; fix the syntax there'


def test_per_agent_memory_search_override():
    cfg = validate_config({"agents": {"list": [{"id": "work", "default": True, "memorySearch": {"query": {"maxResults": 3}}}]}})
    s = resolve_agent(cfg)
    assert s.agent_id == "work"
    assert s.memory_search.query.max_results == 3
    assert s.index_path.name == "work.sqlite"


def test_secrets_masked():
    cfg = validate_config({"models": {"providers": {"openai": {"apiKey": "sk-SENTINEL-abcdef123456"}}}, "agents": {"defaults": {"memorySearch": {"remote": {"apiKey": "sk-SENTINEL-zzzzzzzz9999", "headers": {"Authorization": "Bearer sk-SENTINEL-h"}}}}}})
    dumped = json.dumps(masked_dump(cfg))
    assert "SENTINEL" not in dumped


def test_cli_config_show_masks_and_errors(tmp_path, state_dir):
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"models": {"providers": {"openai": {"apiKey": "sk-SENTINEL-abcdef123456"}}}}))
    out = run_cli("--config", str(good), "config", "show")
    assert out.returncode == 0, out.stderr
    assert "SENTINEL" not in out.stdout
    assert json.loads(out.stdout)["_resolved"]["agentId"] == "main"
    bad = tmp_path / "bad.json"
    bad.write_text('{"memory": {"backend": 7}}')
    out = run_cli("--config", str(bad), "config", "show")
    assert out.returncode == 2
    assert "memory.backend" in out.stderr and "Traceback" not in out.stderr


def test_cookie_headers_and_url_passwords_are_masked(tmp_path, state_dir):
    cfg = validate_config({
        "models": {"providers": {"openai": {"baseUrl": "https://bob:SENTINEL-pw@proxy.example/v1", "headers": {"Cookie": "session=SENTINEL-c"}}}},
        "agents": {"defaults": {"memorySearch": {"remote": {"baseUrl": "http://u:SENTINEL-pw2@127.0.0.1:8080/v1", "headers": {"Proxy-Authorization": "Basic SENTINEL-p", "X-Trace": "keep-me"}}}}},
    })
    dumped = json.dumps(masked_dump(cfg))
    assert "SENTINEL" not in dumped
    assert "https://bob:***@proxy.example/v1" in dumped and "keep-me" in dumped
    out = run_cli("--api-base", "http://me:SENTINEL-cli@h/v1", "config", "show")
    assert out.returncode == 0, out.stderr
    assert "SENTINEL" not in out.stdout and json.loads(out.stdout)["_resolved"]["apiBase"] == "http://me:***@h/v1"


def test_bad_agent_ids_name_where_they_came_from(tmp_path):
    cfg = validate_config({"agents": {"list": [{"id": "ok"}, {"id": "Bad Id", "default": True}]}})
    with pytest.raises(ConfigError) as info:
        resolve_agent(cfg)
    assert str(info.value).startswith("agents.list[1].id: agent id 'Bad Id' is invalid")
    with pytest.raises(ConfigError) as info:
        resolve_agent(validate_config({}), agent_id="no/slash")
    assert str(info.value).startswith("--agent: agent id 'no/slash' is invalid")


def test_config_path_that_is_a_directory(tmp_path):
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path)
    assert "is a directory" in str(info.value) and "--config FILE" in str(info.value)
