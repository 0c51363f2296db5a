"""A secret's marker the model writes that memory does not hold is not shown as if a value were
kept and hidden (issue 35; seen with the 1.5B in a real-model `eval survival`: "Das Budget für
Atlas ist [secret withheld: Budget]." when no budget was stored). A marker the turn's search
found stays."""

from __future__ import annotations

from pathlib import Path

from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.session.invented_marker import without_invented_markers
from openclaw_tui.session.reply_check import Evidence
from openclaw_tui.workspace.daily import daily_rel
from tests.session.conftest import FAST_RETRY, SECRET_KEY

MODEL = "openai/fake-model"
LOCAL = {"agents": {"defaults": {"toolProfile": "local"}}}


def _engine(make_settings, server, recorder) -> SessionEngine:
    settings = make_settings(LOCAL, model=MODEL, api_base=server.base_url, api_key=SECRET_KEY)
    return SessionEngine(settings, sink=recorder, retry_policy=FAST_RETRY)


async def test_a_marker_nothing_found_is_replaced_in_the_users_language(make_settings, server, recorder,
                                                                         workspace: Path) -> None:
    (workspace / daily_rel()).parent.mkdir(exist_ok=True)
    (workspace / daily_rel()).write_text("# today\n\n- Der Kickoff für Atlas ist am Montag.\n")
    server.push(*[{"text": "Das Budget für Atlas ist [secret withheld: Budget]."}] * 3)
    eng = _engine(make_settings, server, recorder)
    result = await eng.send("Wie hoch ist das Budget für Atlas?")
    assert "[secret withheld" not in result.text
    assert "(dieser Wert steht nicht im Gedächtnis)" in result.text
    eng.close()


async def test_a_marker_the_search_found_stays(make_settings, server, recorder, workspace: Path) -> None:
    (workspace / daily_rel()).parent.mkdir(exist_ok=True)
    (workspace / daily_rel()).write_text("# today\n\n- The PIN of my bank card is [secret withheld: PIN].\n")
    reply = f"Your PIN is kept as [secret withheld: PIN].\n\nSource: {daily_rel()}#L3"
    server.push(*[{"text": reply}] * 3)
    eng = _engine(make_settings, server, recorder)
    result = await eng.send("What is the PIN of my bank card?")
    assert "[secret withheld: PIN]" in result.text and "no such value" not in result.text
    eng.close()


def test_only_markers_absent_from_the_hits_and_lines_go() -> None:
    ev = Evidence(hits=({"path": "memory/x.md", "startLine": 1, "endLine": 1,
                         "snippet": "- Card: [secret withheld: card number]"},))
    text, gone = without_invented_markers("Card [secret withheld: card number], IBAN [Secret Withheld: IBAN].", ev, "fr")
    assert gone == ["[Secret Withheld: IBAN]"]
    assert text == "Card [secret withheld: card number], IBAN (cette valeur n'est pas en mémoire)."
    # a turn that read files whole: nothing to compare with, nothing replaced
    read = Evidence(reads=(("memory/x.md", 1, None),))
    assert without_invented_markers("It is [secret withheld: PIN].", read)[1] == []
    assert without_invented_markers("No marker here.", Evidence()) == ("No marker here.", [])
