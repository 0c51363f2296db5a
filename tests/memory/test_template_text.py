"""The workspace template's own words are no search result (memory/template_text.py), on the
real index of a workspace made by ``init_workspace``."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui.memory.template_text import template_lines, template_only
from openclaw_tui.workspace.template import init_workspace, template_root


def test_the_template_files_have_lines_and_other_paths_none() -> None:
    assert "## Preferences" in template_lines("MEMORY.md") and "- Name:" in template_lines("USER.md")
    assert template_lines("memory/2026-12-05.md") == frozenset() and template_lines("NOTES.md") == frozenset()


@pytest.mark.parametrize(("rel", "text", "only"), [
    ("MEMORY.md", (template_root() / "MEMORY.md").read_text(encoding="utf-8"), True),
    ("USER.md", "# USER.md — who you help\n\n- Name:\n- Preferred name:\n", True),
    ("MEMORY.md", "## Preferences\n\n- I prefer tea over coffee.\n\n## Decisions\n", False),  # one line of the user's
    ("USER.md", "- Name: Ada\n", False),  # a template line filled in is the user's
    ("memory/2026-12-05.md", "## Preferences\n", False),  # a daily log is never the template
    ("MEMORY.md", "\n\n", False),
])
def test_a_chunk_of_template_lines_only(rel: str, text: str, only: bool) -> None:
    assert template_only(rel, text) is only


def test_a_new_workspace_finds_the_users_note_not_the_template(workspace: Path, keyword_manager) -> None:
    init_workspace(workspace)
    m = keyword_manager()
    # the template's "Curated facts, decisions and preferences" and "Preferred name" matched before
    assert m.search("preferences decisions")["results"] == []
    assert m.search("preferred name")["results"] == []
    memory = workspace / "MEMORY.md"
    memory.write_text(memory.read_text(encoding="utf-8").replace("## Preferences\n", "## Preferences\n\n- Preferences: tea, never coffee.\n"),
                      encoding="utf-8")
    m.sync()
    hits = m.search("preferences decisions")["results"]
    assert [h["path"] for h in hits] == ["MEMORY.md"] and "tea, never coffee" in hits[0]["snippet"]


def test_qmd_hits_of_the_template_are_dropped_too(tmp_path: Path) -> None:
    from openclaw_tui.memory.qmd.collections import CollectionSpec
    from openclaw_tui.memory.qmd.parse import QmdHit
    from openclaw_tui.memory.qmd.search import to_hits
    from tests.qmd.helpers import make_settings

    ws = tmp_path / "ws"
    init_workspace(ws)
    settings = make_settings(tmp_path / "state", ws, {})
    spec = CollectionSpec(name="memory-root", root=ws, pattern="MEMORY.md", kind="memory", workspace_prefix="")
    template = (template_root() / "MEMORY.md").read_text(encoding="utf-8")
    hits = [QmdHit("memory-root", "MEMORY.md", 1, 10, 0.9, template),
            QmdHit("memory-root", "MEMORY.md", 1, 8, 0.8, "## Preferences\n\n- Tea, never coffee.\n")]
    got = to_hits(settings, {"memory-root": spec}, hits, 6, "agent:main:main")
    assert [h.snippet.strip() for h in got] == ["## Preferences\n\n- Tea, never coffee."]
