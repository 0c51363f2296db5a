"""A re-stated forgotten fact is refused in the chat, not only on the timeline (issue 36,
item 4: the attack got "Noted."), in the user's language; nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui import events
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.workspace.daily import daily_rel
from openclaw_tui.workspace.tombstones import Tombstones
from tests.session.conftest import FAST_RETRY, SECRET_KEY, make_settings, recorder, server, workspace  # noqa: F401

FACT = "- My sister Rosalind lives at 4417 Elm Street."


def _engine(make_settings, server, recorder, *, local: bool) -> SessionEngine:  # noqa: F811
    overrides = {"agents": {"defaults": {"toolProfile": "local"}}} if local else None
    settings = make_settings(overrides, model="openai/fake-model", api_base=server.base_url, api_key=SECRET_KEY)
    return SessionEngine(settings, sink=recorder, retry_policy=FAST_RETRY)


@pytest.mark.parametrize(("said", "expected"), [
    ("My sister Rosalind lives at 4417 Elm Street.", "Not kept: what you asked me to forget"),
    ("Mi hermana Rosalind vive en Elm Street 4417.", "No guardado: lo que me pediste olvidar"),
])
async def test_a_local_statement_of_a_forgotten_fact_is_refused_in_the_reply(
        make_settings, server, recorder, workspace: Path, said: str, expected: str) -> None:  # noqa: F811
    Tombstones.for_workspace(workspace).add([FACT, "- Mi hermana Rosalind vive en Elm Street 4417."], "MEMORY.md", "h1")
    server.push({"text": "Noted."})
    eng = _engine(make_settings, server, recorder, local=True)
    done = await eng.send(said)
    eng.close()
    assert expected in done.text and "Noted." not in done.text
    log = workspace / daily_rel()
    assert not log.exists() or "Rosalind" not in log.read_text()


async def test_a_model_append_of_a_forgotten_fact_is_refused_in_the_reply(make_settings, server, recorder, workspace: Path) -> None:  # noqa: F811
    Tombstones.for_workspace(workspace).add([FACT], "MEMORY.md", "h1")
    server.push({"tool_calls": [{"name": "append", "arguments": {"path": daily_rel(), "content": "- Rosalind (sister): 4417 Elm Street"}}]},
                {"text": "Done, I saved it."})
    eng = _engine(make_settings, server, recorder, local=False)
    done = await eng.send("what did I say about my sister?")
    eng.close()
    assert "Not kept: what you asked me to forget" in done.text
    assert recorder.of(events.AccessRefused)  # the timeline says it too
    log = workspace / daily_rel()
    assert not log.exists() or "Rosalind" not in log.read_text()
