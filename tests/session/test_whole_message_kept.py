"""Everything a message states is kept (issue 37: "My neighbour is Frau Berger." / "She waters our
plants when we travel." stored only the first sentence, and the reply said "Noted — saved")."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui.language import read_message
from openclaw_tui.session.note_writer import NoteWriter
from openclaw_tui.tools.files import FileTools
from openclaw_tui.workspace.daily import daily_rel


@pytest.mark.parametrize("text, kept", [
    # a statement after a fact says more about it: kept with it, where its "she" has a name
    ("My neighbour is Gerda Berger.\nShe waters our plants when we travel.",
     "My neighbour is Gerda Berger. She waters our plants when we travel."),
    ("My neighbour is Gerda Berger. She waters our plants when we travel.",
     "My neighbour is Gerda Berger. She waters our plants when we travel."),
    # one before a fact goes with it
    ("We adopted a dog last spring. His name is Bruno.", "We adopted a dog last spring. His name is Bruno."),
    ("Wir haben eine neue Nachbarin. Sie heißt Gerda Berger.", "Wir haben eine neue Nachbarin. Sie heißt Gerda Berger."),
])
def test_every_statement_of_a_message_with_a_fact_is_kept(text: str, kept: str) -> None:
    assert " ".join(read_message(text).facts) == kept


def test_the_two_line_message_lands_whole_in_the_log(make_settings, workspace: Path) -> None:
    settings = make_settings()
    reading = read_message("My neighbour is Gerda Berger.\nShe waters our plants when we travel.")
    outcome = NoteWriter(settings).write(reading, FileTools(workspace), session_key=settings.session_key)
    log = (workspace / daily_rel()).read_text(encoding="utf-8")
    assert "Gerda Berger" in log and "waters our plants when we travel" in log and not outcome.not_kept


def test_small_talk_around_a_fact_is_not_kept() -> None:
    assert read_message("Our VPN host is vpn-east.acme.io. Thanks, that helps a lot.").facts == (
        "Our VPN host is vpn-east.acme.io.",)
