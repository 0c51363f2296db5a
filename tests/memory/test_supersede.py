"""Corrections supersede (issue 35 item 6, the read side): a note marked superseded in place
stays on disk but is left out of the prompt, search (builtin and qmd snippets) and trigger
recall; the writer helpers find the note a correction replaces and mark it atomically.

Real files in a real workspace, the real index, the real bootstrap and trigger recall."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from openclaw_tui.memory.qmd.collections import CollectionSpec
from openclaw_tui.memory.qmd.parse import QmdHit
from openclaw_tui.memory.qmd.search import to_hits
from openclaw_tui.memory.triggers import triggered_for
from openclaw_tui.workspace.bootstrap import build_system_prompt, startup_notes
from openclaw_tui.workspace.daily import daily_rel, today
from openclaw_tui.workspace.supersede import (
    blank_superseded,
    find_replaced,
    hidden_lines,
    is_superseded,
    mark_superseded,
    visible_text,
)

from .conftest import write

DIRECT = "agent:main:main"


@pytest.mark.parametrize("line,superseded", [
    ("- User: The offsite is on Thursday. <!-- status: superseded -->", True),
    ("- Prefers tea <!-- observed: 2026-11-02 | status: superseded -->", True),
    ("- Prefers tea <!-- observed: 2026-11-02 | status: active -->", False),
    ("- Bevorzugt Tee <!--status:SUPERSEDED-->", True),
    ("<!-- status: superseded -->", True),
    ("- The status: superseded flag is a word here, not a comment", False),
    ("- Prefers tea <!-- status: superseded-later -->", False),
    ("- Prefers tea <!-- observed: 2026-11-02 --> then status: superseded", False),
    ("", False),
])
def test_is_superseded(line: str, superseded: bool) -> None:
    assert is_superseded(line) is superseded


def test_a_status_comment_on_its_own_line_hides_the_entry_above_it() -> None:
    lines = ["# Prefs", "- Likes tea", "  every morning", "<!-- observed: 2026-11-02 | status: superseded -->",
             "- Likes coffee", "", "A paragraph", "<!-- status: superseded -->", "- kept"]
    assert hidden_lines(lines) == {1, 2, 3, 6, 7}
    assert blank_superseded(lines) == ["# Prefs", "", "", "", "- Likes coffee", "", "", "", "- kept"]
    assert visible_text("\n".join(lines) + "\n") == "# Prefs\n- Likes coffee\n\n- kept\n"


@pytest.mark.parametrize("lines,words,found", [
    (["- User: The offsite is in Porto.", "- User: The offsite is in Lisbon."], ["offsite"], 2),  # the newest
    (["- User: The offsite is in Porto.", "- User: The offsite is in Lisbon. <!-- status: superseded -->"], ["offsite"], 1),
    (["- User: La reunión es el lunes.", "- User: Me gusta el té."], ["Reunion"], 1),  # accents and case folded
    (["- User: Das Treffen ist am Montag.", "- User: Ich trinke Tee."], ["treffen", "montag"], 1),
    (["- User: Le rendez-vous est mardi."], ["rendez", "mercredi"], None),  # every word must be there
    (["# offsite", "<!-- offsite -->", "- User: Lunch at noon."], ["offsite"], None),  # headings and comments are not notes
    (["- User: The offsite is in Porto."], [], None),
])
def test_find_replaced(lines: list[str], words: list[str], found: int | None) -> None:
    assert find_replaced(lines, words) == found


def test_mark_superseded_edits_in_place_keeps_the_mode_and_flips_observed(tmp_path: Path) -> None:
    path = write(tmp_path / "USER.md", "# User\r\n- Prefers tea <!-- observed: 2026-11-02 | status: active -->\r\n- Lives in Porto\r\n")
    os.chmod(path, 0o600)
    inode = path.stat().st_ino
    assert mark_superseded(path, 2)
    assert path.stat().st_ino != inode  # a new file renamed over the old one, not a rewrite in place
    assert mark_superseded(path, 3)
    assert path.read_bytes() == (b"# User\r\n- Prefers tea <!-- observed: 2026-11-02 | status: superseded -->\r\n"
                                 b"- Lives in Porto <!-- status: superseded -->\r\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    before = path.read_bytes()
    assert not mark_superseded(path, 2)  # already superseded
    assert not mark_superseded(path, 9) and not mark_superseded(path, 0)
    assert not mark_superseded(tmp_path / "missing.md", 1)
    assert path.read_bytes() == before
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


def test_concurrent_marks_and_appends_lose_nothing(tmp_path: Path) -> None:
    from openclaw_tui.tools.files import FileTools

    ws = tmp_path / "ws"
    rel = daily_rel()
    log = write(ws / rel, "".join(f"- User: note {i}\n" for i in range(40)))
    tools = FileTools(ws)
    marker = threading.Thread(target=lambda: [mark_superseded(log, n) for n in range(1, 41, 2)])
    marker.start()
    for i in range(20):
        assert tools.append({"path": rel, "content": f"- User: later {i}"})["ok"]
    marker.join()
    lines = log.read_text().splitlines()
    assert len(lines) == 60 and sum(is_superseded(line) for line in lines) == 20
    assert all(f"- User: later {i}" in lines for i in range(20))


# ---------------------------------------------------------------- the readers


def _corrected_workspace(ws: Path) -> None:
    write(ws / "MEMORY.md", "# Memory\n- The offsite is in Porto (OLD-PORTO). <!-- status: superseded -->\n- The offsite is in Lisbon.\n")
    write(ws / "USER.md", "# User\n- Prefers tea (OLD-TEA) <!-- observed: 2026-11-02 | status: superseded -->\n"
                          "- Prefers coffee <!-- observed: 2026-12-01 | status: active -->\n")
    write(ws / daily_rel(), "- User: The demo is on Tuesday (OLD-TUESDAY). <!-- status: superseded -->\n"
                            "- User: Correction: the demo is on Friday.\n")


def test_the_prompt_leaves_superseded_entries_out(workspace: Path) -> None:
    _corrected_workspace(workspace)
    prompt = build_system_prompt(workspace, session_key=DIRECT).text
    assert "Lisbon" in prompt and "Prefers coffee" in prompt
    assert "OLD-PORTO" not in prompt and "OLD-TEA" not in prompt
    notes = startup_notes(workspace, session_key=DIRECT, day=today())
    assert "the demo is on Friday" in notes and "OLD-TUESDAY" not in notes
    assert "OLD-PORTO" in (workspace / "MEMORY.md").read_text()  # nothing is deleted


def test_builtin_search_never_shows_a_superseded_line_and_keeps_line_numbers(workspace: Path, keyword_manager) -> None:
    _corrected_workspace(workspace)
    m = keyword_manager()
    m.sync()
    old = m.search("offsite Porto OLD-PORTO")
    assert "OLD-PORTO" not in str(old.to_dict())
    new = m.search("offsite Lisbon")["results"]
    hit = next(r for r in new if r["path"] == "MEMORY.md")
    assert "Lisbon" in hit["snippet"] and "OLD-PORTO" not in hit["snippet"]
    lisbon = (workspace / "MEMORY.md").read_text().splitlines().index("- The offsite is in Lisbon.") + 1
    assert hit["startLine"] <= lisbon <= hit["endLine"]
    assert "OLD-TUESDAY" not in str(m.search("demo Tuesday").to_dict())
    # marking a line later re-indexes it out of search
    assert "Friday" in str(m.search("demo Friday").to_dict())
    assert mark_superseded(workspace / daily_rel(), 2)
    m.sync()
    assert "Friday" not in str(m.search("demo Friday").to_dict())


def test_qmd_snippets_drop_superseded_lines(workspace: Path, make_settings) -> None:
    settings = make_settings(memory={"backend": "qmd"})
    spec = CollectionSpec(name="memory-dir", root=workspace / "memory", pattern="**/*.md", kind="memory", workspace_prefix="memory")
    snippet = "- User: The demo is on Tuesday. <!-- status: superseded -->\n- User: The demo is on Friday.\n- User: Lunch."
    only_old = "- User: The demo is on Tuesday. <!-- status: superseded -->"
    hits = [QmdHit(collection="memory-dir", path="2026-12-01.md", start_line=4, end_line=6, score=0.9, snippet=snippet, docid="#a"),
            QmdHit(collection="memory-dir", path="2026-11-30.md", start_line=2, end_line=2, score=0.8, snippet=only_old, docid="#b")]
    got = to_hits(settings, {"memory-dir": spec}, hits, 5, DIRECT)
    assert len(got) == 1 and got[0].start_line == 5 and got[0].end_line == 6
    assert "Tuesday" not in got[0].snippet and "Friday" in got[0].snippet


def test_trigger_recall_skips_superseded_entries(workspace: Path) -> None:
    write(workspace / "MEMORY.md", "# Memory\n"
          "- Taxes go through Ada (OLD-ADA) <!-- trigger: taxes --> <!-- status: superseded -->\n\n"
          "- Taxes go through Bea <!-- trigger: taxes -->\n")
    found = triggered_for(workspace, DIRECT, "What about my taxes?")
    assert [t.entry.text for t in found] == ["- Taxes go through Bea"]
