"""A daily log's notes are hits of their own, each citing its own line (memory/builtin/note_hits.py,
issue 37: one day's notes were one hit ``#L1-L13``, so any line of the day passed as a citation)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from openclaw_tui.memory.builtin import note_hits

from .conftest import write

DAY = """# 2026-12-06

- User: My cat Pixel is 7 years old.
- User: My neighbour is Frau Berger. She waters our plants when we travel.
- User: Our VPN host is vpn-east.acme.io.
- User: The offsite is in Lisbon on 12 March.
- User: My dentist is Dr Okafor.
"""


def test_each_note_that_matches_is_a_hit_citing_its_own_line(workspace: Path, keyword_manager: Callable[..., Any]) -> None:
    write(workspace / "memory" / "2026-12-06.md", DAY)
    m = keyword_manager()
    m.sync()
    hits = m.search("How old is Pixel?")["results"]
    assert hits, "nothing found"
    top = hits[0]
    assert (top["startLine"], top["endLine"]) == (3, 3), top
    assert top["citation"] == "memory/2026-12-06.md#L3"
    assert "Pixel is 7 years old" in top["snippet"] and "Berger" not in top["snippet"]
    plants = m.search("who waters the plants")["results"][0]
    assert plants["citation"] == "memory/2026-12-06.md#L4" and "Frau Berger" in plants["snippet"]


def test_a_transcript_or_a_file_that_is_not_a_daily_log_is_not_split() -> None:
    assert note_hits.note_lines(["- **Ann**: I saw Pixel.", "- **Bob**: Pixel is a cat."], ["pixel"]) == []
    assert note_hits.note_lines(["Pixel is 7.", "- User: tea"], ["pixel"]) == []
    assert not note_hits.splits("MEMORY.md", "- a\n- b", 1, 2)
    assert note_hits.splits("memory/2026-12-06.md", "- a\n- b", 1, 2)
    assert note_hits.note_lines(["# 2026-12-06", "", "- Pixel is 7.", "- Tea, no sugar."], ["pixel"]) == [2]
