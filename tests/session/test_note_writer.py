"""The one note writer: the facts of a reading, in the user's words, appended once to the day's
log; what was not kept comes back with its reason. Readings are built here, not read, so these
tests hold whatever reader is plugged in; real files in a real workspace."""

from __future__ import annotations

from pathlib import Path

from openclaw_tui.language import Intent, MessageReading
from openclaw_tui.session.note_writer import ALREADY_NOTED, ASKED_NOT_TO_KEEP, NoteWriter, NotKept
from openclaw_tui.tools.files import FileTools
from openclaw_tui.workspace.daily import daily_rel


def _reading(text: str, intent: Intent = Intent.STATEMENT, facts: tuple[str, ...] | None = None, **kw: object) -> MessageReading:
    return MessageReading(text=text, language="en", intent=intent, facts=(text,) if facts is None else facts, **kw)  # type: ignore[arg-type]


def _log(workspace: Path) -> str:
    path = workspace / daily_rel()
    return path.read_text(encoding="utf-8") if path.exists() else ""


def test_the_facts_of_a_reading_go_to_the_log_in_the_users_words(make_settings, workspace: Path) -> None:
    settings = make_settings()
    files = FileTools(workspace)
    outcome = NoteWriter(settings).write(_reading("My VPN host is vpn-east.acme.io."), files, session_key=settings.session_key)
    assert outcome.path == daily_rel() and outcome.kept == ("- User: My VPN host is vpn-east.acme.io.",)
    assert "- User: My VPN host is vpn-east.acme.io." in _log(workspace)
    assert len(outcome.changes) == 1 and outcome.not_kept == ()


def test_a_fact_already_in_the_log_is_not_kept_again_and_says_why(make_settings, workspace: Path) -> None:
    settings = make_settings()
    writer, files = NoteWriter(settings), FileTools(workspace)
    writer.write(_reading("The billing database is PostgreSQL 16."), files, session_key=settings.session_key)
    again = writer.write_all([_reading("The billing database is PostgreSQL 16."), _reading("The cache is Redis 7.")], files,
                             session_key=settings.session_key)
    assert again.kept == ("- User: The cache is Redis 7.",)
    assert again.not_kept == (NotKept("The billing database is PostgreSQL 16.", ALREADY_NOTED),)
    assert _log(workspace).count("PostgreSQL 16") == 1


def test_nothing_is_written_of_a_message_the_user_asked_not_to_keep(make_settings, workspace: Path) -> None:
    settings = make_settings()
    reading = _reading("My PIN is 4417, don't write that down.", Intent.DO_NOT_KEEP, facts=("My PIN is 4417.",),
                       withheld=("My PIN is 4417.",))
    outcome = NoteWriter(settings).write(reading, FileTools(workspace), session_key=settings.session_key)
    assert not outcome.wrote and outcome.path is None and "4417" not in _log(workspace)
    assert outcome.not_kept == (NotKept("My PIN is 4417.", ASKED_NOT_TO_KEEP),)


def test_an_unknown_language_leaves_no_engine_note(make_settings, workspace: Path) -> None:
    settings = make_settings()
    reading = MessageReading(text="Mae'r cyfarfod ar ddydd Iau.", language="und", intent=Intent.UNKNOWN, known=False)
    outcome = NoteWriter(settings).write(reading, FileTools(workspace), session_key=settings.session_key)
    assert not outcome.wrote and _log(workspace) == ""


def test_a_turns_reading_is_reused_for_the_flush_not_read_again(make_settings) -> None:
    writer = NoteWriter(make_settings())
    told = _reading("Das Angebot gilt bis 2026-12-31.", facts=("Das Angebot gilt bis 2026-12-31.",))
    writer.know(told)
    history = [{"role": "user", "content": told.text}, {"role": "assistant", "content": "ok"},
               {"role": "user", "content": "engine text", "engine": True}]
    read = writer.readings(history)
    assert len(read) == 1 and read[0] is told  # the same object: the message was read once
