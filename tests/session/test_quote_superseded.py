"""A quote of memory never gives a superseded note (survival eval, seeds 1 and 2: 44 of 52
stale answers): ``memory_get`` of a day's notes returns the corrected note's line with its
``<!-- status: superseded -->`` mark beside the new one, and the offline agent (and the tool
loop's fallback) quoted both, so the answer gave the old value. A quote leaves superseded
lines out, in any language; a control keeps an unmarked note and an unrelated HTML comment."""

from __future__ import annotations

import pytest

from openclaw_tui.session.quote import quote_lines

PATH = "memory/2027-04-02.md"


@pytest.mark.parametrize("old,new,query", [
    ("- User: The team dinner starts at 19:00. <!-- status: superseded -->", "- User: The team dinner starts at 20:30.", "team dinner start"),
    ("- User: La cena del equipo empieza a las 19:00. <!-- status: superseded -->", "- User: La cena del equipo empieza a las 20:30.", "hora empieza cena equipo"),
    ("- User: Das Teamessen beginnt um 19:00 Uhr. <!-- status: superseded -->", "- User: Das Teamessen beginnt um 20:30 Uhr.", "wann beginnt teamessen"),
    ("- User: Le dîner d'équipe commence à 10:40. <!-- status: superseded -->", "- User: Le dîner d'équipe commence à 12:10.", "heure commence dîner d'équipe"),
    ("- User: O jantar da equipa começa às 19:00. <!-- observed: 2027-04-01 | status: superseded -->", "- User: O jantar da equipa começa às 20:30.", "horas começa jantar equipa"),
    ("- User: La cena del team inizia alle 19:00.\n  <!-- status: superseded -->", "- User: La cena del team inizia alle 20:30.", "ora inizia cena team"),
])
def test_a_quote_leaves_a_superseded_note_out(old: str, new: str, query: str) -> None:
    out = quote_lines(f"{old}\n{new}", PATH, 1, query, lead="From memory:")
    assert "19:00" not in out and "10:40" not in out, out
    assert new.removeprefix("- ") in out
    n = 2 + old.count("\n")
    assert out.endswith(f"Source: {PATH}#L{n}"), out


def test_an_unmarked_note_and_another_comment_are_quoted() -> None:
    text = ("- User: The team dinner starts at 19:00. <!-- observed: 2027-04-01 -->\n"
            "- User: The team dinner is at Luigi's.")
    out = quote_lines(text, PATH, 1, "team dinner", lead="From memory:")
    assert "19:00" in out and "Luigi" in out, out


def test_only_superseded_lines_quote_nothing_of_them() -> None:
    out = quote_lines("- User: The team dinner starts at 19:00. <!-- status: superseded -->", PATH, 1, "team dinner",
                      lead="From memory:")
    assert "19:00" not in out, out
