"""Secrets never reach a memory file in plain text, on every write path (issue 35 item 3): the
model's append, edit and write (the file tools on a real workspace), the engine's notes (the
one note writer, and a whole turn through the engine and a scripted server), with the file on
disk, its mode, the memory history and the real SQLite index checked for the value."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from openclaw_tui import events
from openclaw_tui.language import Intent, MessageReading
from openclaw_tui.memory.open import open_memory
from openclaw_tui.records.history import MemoryHistory
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.session.note_writer import ALREADY_NOTED, SECRET_WITHHELD, NoteWriter, NotKept
from openclaw_tui.tools.files import FileTools
from openclaw_tui.workspace.daily import daily_rel
from tests.session.conftest import FAST_RETRY, SECRET_KEY

CARD = "4111 1111 1111 1111"
API_KEY = "sk-proj-Zq8Xw2Lm5Np7Rt9Vb3Kc"
IBAN = "DE89 3704 0044 0532 0130 00"
PIN = "4821"


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _tools(workspace: Path, history: MemoryHistory) -> tuple[FileTools, list[tuple[str, str, tuple[str, ...]]]]:
    told: list[tuple[str, str, tuple[str, ...]]] = []
    tools = FileTools(workspace, history=history, on_withheld=lambda *a: told.append(a))
    return tools, told


def test_model_append_keeps_the_note_without_the_secrets(workspace: Path, tmp_path: Path) -> None:
    history = MemoryHistory(tmp_path / "history")
    tools, told = _tools(workspace, history)
    day = daily_rel()
    res = tools.append({"path": day, "content": f"- OpenAI key {API_KEY}; card {CARD}, expires 09/28"})
    # the expiry beside the card is withheld with it (a card's date is part of the card)
    assert res["ok"] and res["withheld"] == ["api key", "card number", "expiry date"]
    assert "the api key" in res["note"] and "the card number" in res["note"] and "the expiry date" in res["note"]
    text = (workspace / day).read_text()
    assert text == ("- OpenAI key [secret withheld: api key]; card [secret withheld: card number], "
                    "expires [secret withheld: expiry date]\n")
    assert _mode(workspace / day) == 0o600  # owner-only, like the index
    assert tools.writes[-1].withheld == ("api key", "card number", "expiry date") and API_KEY not in tools.writes[-1].text
    assert told == [("append", day, ("api key", "card number", "expiry date"))]
    (entry,) = history.entries()
    assert CARD not in (history.content(entry.after) or b"").decode()  # the kept version is the redacted one
    assert text.encode() == history.content(entry.after)


def test_model_edit_and_write_of_memory_md(workspace: Path, tmp_path: Path) -> None:
    tools, told = _tools(workspace, MemoryHistory(tmp_path / "history"))
    memory = workspace / "MEMORY.md"
    own = "- wifi password: hunter2\n"  # the user's own line, written by hand: a rewrite keeps it
    memory.write_text(memory.read_text() + own)
    os.chmod(memory, 0o644)
    tools.read({"path": "MEMORY.md"})
    res = tools.edit({"path": "MEMORY.md", "old_text": own, "new_text": own + f"- Salary account {IBAN}\n"})
    assert res["ok"] and res["withheld"] == ["IBAN"]
    assert "hunter2" in memory.read_text() and "0532" not in memory.read_text()
    assert _mode(memory) == 0o600  # narrowed on the next change
    tools.read({"path": "MEMORY.md"})
    res = tools.write({"path": "MEMORY.md", "content": memory.read_text() + "- Door code is 7B19#\n"})
    assert res["ok"] and res["withheld"] == ["access code"]
    assert memory.read_text().endswith("- Door code is [secret withheld: access code]\n") and own in memory.read_text()
    assert [t[:2] for t in told] == [("edit", "MEMORY.md"), ("write", "MEMORY.md")]


def test_an_open_daily_log_is_narrowed_on_the_next_append(workspace: Path) -> None:
    day = workspace / daily_rel()
    day.parent.mkdir(exist_ok=True)
    day.write_text("- met Dana\n")
    os.chmod(day, 0o644)
    assert FileTools(workspace).append({"path": daily_rel(), "content": "- lunch at noon"})["ok"]
    assert _mode(day) == 0o600 and day.read_text() == "- met Dana\n- lunch at noon\n"


def test_files_outside_memory_are_the_users_to_write(workspace: Path) -> None:
    """A file the user asked for (not memory, not indexed) is written as asked, with the usual mode."""
    tools = FileTools(workspace)
    res = tools.write({"path": "deploy/env.txt", "content": f"OPENAI_API_KEY={API_KEY}\n"})
    assert res["ok"] and "withheld" not in res
    assert API_KEY in (workspace / "deploy/env.txt").read_text() and _mode(workspace / "deploy/env.txt") == 0o644 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _reading(text: str) -> MessageReading:
    return MessageReading(text=text, language="en", intent=Intent.STATEMENT, facts=(text,))


def test_engine_notes_withhold_and_say_what(make_settings, workspace: Path) -> None:
    settings = make_settings()
    writer, files = NoteWriter(settings), FileTools(workspace)
    said = f"My PIN is {PIN} and my card is {CARD}."
    outcome = writer.write(_reading(said), files, session_key=settings.session_key)
    assert outcome.kept == ("- User: My PIN is [secret withheld: PIN] and my card is [secret withheld: card number].",)
    assert outcome.not_kept == (NotKept("PIN", SECRET_WITHHELD), NotKept("card number", SECRET_WITHHELD))
    log = (workspace / daily_rel()).read_text()
    assert PIN not in log and "1111" not in log and _mode(workspace / daily_rel()) == 0o600
    again = writer.write(_reading(said), files, session_key=settings.session_key)  # the same fact again: already noted
    assert not again.wrote and again.not_kept[0].reason == ALREADY_NOTED and PIN not in again.not_kept[0].text


async def test_a_turn_stores_the_fact_without_the_secret_and_the_index_never_holds_it(
        make_settings, server, recorder, workspace: Path) -> None:
    server.push({"text": "Noted."})
    settings = make_settings({"agents": {"defaults": {"toolProfile": "local"}}}, model="openai/fake-model",
                             api_base=server.base_url, api_key=SECRET_KEY)
    eng = SessionEngine(settings, sink=recorder, retry_policy=FAST_RETRY)
    await eng.send(f"Remember that my API key for the billing service is {API_KEY}.")
    eng.close()
    log = (workspace / daily_rel()).read_text()
    assert "billing service" in log and "[secret withheld: api key]" in log and API_KEY not in log
    assert _mode(workspace / daily_rel()) == 0o600
    notices = [n.message for n in recorder.of(events.Notice) if "api key" in n.message]
    assert notices and all(API_KEY not in n for n in notices)
    memory = open_memory(settings)
    try:
        memory.sync(reason="test")
        assert memory.search("billing service").results  # the note is indexed ...
    finally:
        memory.close()
    index = settings.index_path
    stored = b"".join(p.read_bytes() for p in index.parent.glob(index.name + "*"))
    assert b"billing service" in stored and API_KEY.encode() not in stored  # ... the key never is


async def test_a_model_flush_appends_the_note_without_the_card(make_settings, server, recorder, workspace: Path) -> None:
    settings = make_settings(model="openai/fake-model", api_base=server.base_url, api_key=SECRET_KEY)
    eng = SessionEngine(settings, sink=recorder, retry_policy=FAST_RETRY)
    server.push({"text": "ok"})
    await eng.send("Book the hotel for the offsite, please.")
    server.push({"tool_calls": [{"name": "append", "arguments": {"path": daily_rel(), "content": f"- Hotel paid with card {CARD}"}}]},
                {"text": "NO_REPLY"})
    recorder.clear()
    await eng.flush()
    (done,) = recorder.of(events.FlushFinished)
    assert done.stored and "[secret withheld: card number]" in done.written and CARD not in done.written
    log = (workspace / daily_rel()).read_text()
    assert "- Hotel paid with card [secret withheld: card number]" in log and CARD not in log
    flushes = [x for x in eng.transcript_path.read_text().splitlines() if '"flush"' in x]
    assert flushes and CARD not in flushes[-1]
    assert any("card number" in n.message for n in recorder.of(events.Notice))
    eng.close()
