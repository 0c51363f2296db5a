"""The local profile's prompt leaves out TOOLS.md and MEMORY.md while they are exactly as the
workspace template ships them (issue 38: the schemas say what TOOLS.md says, and name tools the
local profile does not offer; MEMORY.md as shipped is headings with no entry); any change to
either, and every other profile, loads them as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui.workspace.bootstrap import build_system_prompt
from openclaw_tui.workspace.template import init_workspace

DIRECT = "agent:main:main"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    init_workspace(tmp_path / "ws")
    return tmp_path / "ws"


def test_as_shipped_they_are_left_out_of_the_local_prompt_only(ws: Path) -> None:
    local = build_system_prompt(ws, session_key=DIRECT, compact=True)
    hosted = build_system_prompt(ws, session_key=DIRECT, compact=False)
    assert local.files == ["AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md"]
    assert "## TOOLS.md" not in local.text and "## MEMORY.md" not in local.text
    assert hosted.files == ["AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "TOOLS.md", "MEMORY.md"]
    assert "memory_get(path, from, lines)" in hosted.text


def test_a_file_the_user_changed_is_loaded_again(ws: Path) -> None:
    with open(ws / "MEMORY.md", "a", encoding="utf-8") as fh:
        fh.write("- Prefers metric units.\n")
    with open(ws / "TOOLS.md", "a", encoding="utf-8") as fh:
        fh.write("- The build server is ci-7.\n")
    local = build_system_prompt(ws, session_key=DIRECT, compact=True)
    assert "MEMORY.md" in local.files and "Prefers metric units." in local.text
    assert "TOOLS.md" in local.files and "ci-7" in local.text


def test_only_a_trailing_blank_line_differs_still_counts_as_shipped(ws: Path) -> None:
    (ws / "TOOLS.md").write_text((ws / "TOOLS.md").read_text(encoding="utf-8") + "\n\n", encoding="utf-8")
    assert "TOOLS.md" not in build_system_prompt(ws, session_key=DIRECT, compact=True).files
    (ws / "TOOLS.md").write_text((ws / "TOOLS.md").read_text(encoding="utf-8").replace("hybrid", "keyword"), encoding="utf-8")
    assert "TOOLS.md" in build_system_prompt(ws, session_key=DIRECT, compact=True).files


def test_other_files_as_shipped_stay(ws: Path) -> None:
    local = build_system_prompt(ws, session_key=DIRECT, compact=True)
    assert "## AGENTS.md" in local.text and "Never write secrets into memory files" in local.text
    assert "## USER.md" in local.text  # its empty fields are what a flush fills in
