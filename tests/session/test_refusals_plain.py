"""Refusals said plainly, for every agent profile (issue 37: with --workspace-access ro, "Please
write the line 'buy milk' into todo.md" got "Noted for this conversation.", no refusal, no
timeline event). What the sandbox refused is in the chat with why, and on the timeline."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui import events
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.workspace.tombstones import Tombstones
from tests.session.conftest import FAST_RETRY, SECRET_KEY

WRITE = "Please write the line 'buy milk' into todo.md"


def _engine(kind: str, make_settings, server, recorder, **kw) -> SessionEngine:
    if kind == "offline":
        return SessionEngine(make_settings(model="offline", **kw), sink=recorder)
    settings = make_settings(model="openai/gpt-4o-mini", api_base=server.base_url, api_key=SECRET_KEY, **kw)
    return SessionEngine(settings, sink=recorder, retry_policy=FAST_RETRY)


@pytest.mark.parametrize("kind", ["offline", "hosted"])
@pytest.mark.parametrize("access, why", [("ro", "read-only"), ("none", "no workspace access")])
async def test_a_write_the_sandbox_refuses_is_refused_in_the_chat_and_on_the_timeline(
        kind: str, access: str, why: str, make_settings, server, recorder, workspace: Path) -> None:
    server.push({"text": "Noted for this conversation."})
    eng = _engine(kind, make_settings, server, recorder, workspace_access=access)
    result = await eng.send(WRITE)
    eng.close()
    assert why in result.text and "nothing was written" in result.text and "Noted" not in result.text
    assert any(why in r.reason and r.path == "todo.md" for r in recorder.of(events.AccessRefused))
    assert not (workspace / "todo.md").exists()
    assert server.chat_requests() == []  # the model is not asked: it would claim the change


@pytest.mark.parametrize("kind", ["offline", "hosted"])
async def test_a_request_to_remember_in_a_read_only_workspace_is_refused(kind: str, make_settings, server, recorder) -> None:
    server.push({"text": "Sure, I'll remember that."})
    eng = _engine(kind, make_settings, server, recorder, workspace_access="ro")
    result = await eng.send("Remember that my locker code is 4471.")
    eng.close()
    assert "read-only" in result.text and "remember that" not in result.text.lower()


async def test_a_forgotten_fact_the_model_writes_back_is_refused_and_said(make_settings, server, recorder, workspace: Path) -> None:
    Tombstones.for_workspace(workspace).add(["The alarm code is 7731."], "memory/2026-01-01.md", "f1")
    server.push({"tool_calls": [{"name": "append", "arguments": {"path": "memory/notes.md",
                                                                  "content": "- The alarm code is 7731."}}]},
                {"text": "Saved it for you."})
    eng = _engine("hosted", make_settings, server, recorder)
    result = await eng.send("Please add the line 'The alarm code is 7731.' to memory/notes.md")
    eng.close()
    assert "Not kept: what you asked me to forget" in result.text
    assert recorder.of(events.AccessRefused)


async def test_a_forgotten_fact_told_again_is_not_stored_and_says_so_offline(make_settings, recorder, workspace: Path) -> None:
    Tombstones.for_workspace(workspace).add(["The garage door is painted RAL 5024."], "memory/2026-01-01.md", "f1")
    eng = SessionEngine(make_settings(model="offline"), sink=recorder)
    result = await eng.send("The garage door is painted RAL 5024.")
    eng.close()
    assert "Not kept: what you asked me to forget" in result.text, result.text
    assert recorder.of(events.AccessRefused)
