"""``memorySearch.extraPaths`` as OpenClaw reads it: a per-agent list is added to the
defaults' list (not a replacement), every entry trimmed, empty ones dropped, duplicates
kept once — checked on the resolved config and on a real index searched through the CLI."""

from __future__ import annotations

import json

import pytest

from openclaw_tui.config import resolve_agent, validate_config

from .conftest import write
from .test_cli import cli


def resolved(defaults: list[str] | None, agent: list[str] | None) -> list[str]:
    raw: dict = {"agents": {"defaults": {}, "list": [{"id": "main"}]}}
    if defaults is not None:
        raw["agents"]["defaults"]["memorySearch"] = {"extraPaths": defaults}
    if agent is not None:
        raw["agents"]["list"][0]["memorySearch"] = {"extraPaths": agent}
    return resolve_agent(validate_config(raw), agent_id="main").memory_search.extra_paths


@pytest.mark.parametrize(
    "defaults, agent, expected",
    [
        # the case: union, trimmed, three paths
        (["/shared/notes"], [" docs ", "../team-notes"], ["/shared/notes", "docs", "../team-notes"]),
        (["/shared/notes"], None, ["/shared/notes"]),
        (None, [" docs "], ["docs"]),
        ([" notes "], [], ["notes"]),
        (["a", " a", "a "], ["a", "b", "b"], ["a", "b"]),
        (["", "   "], ["\tdocs\n"], ["docs"]),
        ([], [], []),
    ],
)
def test_extra_paths_union_trim_dedupe(defaults, agent, expected):
    assert resolved(defaults, agent) == expected


def test_padded_and_per_agent_extra_paths_are_indexed(workspace, state_dir, tmp_path):
    write(workspace / "MEMORY.md", "# Memory\n")
    write(workspace / "notes" / "garden.md", "- The quince tree needs pruning in February.\n")
    team = tmp_path / "team-notes"
    write(team / "oncall.md", "- Oncall rotation: Priya takes the quince release week.\n")
    cfg = tmp_path / "openclaw.json"
    cfg.write_text(json.dumps({
        "agents": {
            "defaults": {"workspace": str(workspace), "memorySearch": {"provider": "none", "extraPaths": [" notes "]}},
            "list": [{"id": "main", "memorySearch": {"extraPaths": [f" {team} ", "notes"]}}],
        }
    }))
    p = cli("--config", str(cfg), "memory", "search", "quince", "--json", state=state_dir)
    assert p.returncode == 0, p.stderr
    paths = sorted(r["path"] for r in json.loads(p.stdout)["results"])
    assert "notes/garden.md" in paths  # " notes " (defaults) was neither dropped nor left untrimmed
    assert any(path.endswith("oncall.md") for path in paths), paths  # the per-agent entry, trimmed
