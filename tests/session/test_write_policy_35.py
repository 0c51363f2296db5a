"""Issue 35's write side through the real engine, a scripted OpenAI-compatible server and a real
workspace: dates only when certain in the user's language, corrections that supersede, consent
in six languages (also at /new, quitting and compaction), private remarks kept out of group
sessions, replies that say what was kept and not, a plain refusal in a read-only workspace, and a
fact told inside a question stored before the answer."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from openclaw_tui import events
from openclaw_tui.language import Intent, MessageReading
from openclaw_tui.language.engine_lines import engine_lines
from openclaw_tui.language.lexicon import DATA_PACKAGE
from openclaw_tui.session.acknowledge import said
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.session.note_writer import (
    ALREADY_NOTED,
    ASKED_NOT_TO_KEEP,
    PRIVATE_IN_GROUP,
    SECRET_WITHHELD,
    NoteOutcome,
    NoteWriter,
    NotKept,
)
from openclaw_tui.session.turn_plan import plan_turn
from openclaw_tui.tools.files import FileTools
from openclaw_tui.workspace.daily import daily_rel
from tests.session.conftest import FAST_RETRY, SECRET_KEY, small_window

MODEL = "openai/fake-model"
LOCAL = {"agents": {"defaults": {"toolProfile": "local"}}}
SUNDAY = "2026-12-06"
GROUP = "agent:main:discord:group:42"


@pytest.fixture(autouse=True)
def sunday(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENCLAW_TODAY", SUNDAY)


def engine_for(make_settings, server, recorder, overrides=None, **kw) -> SessionEngine:
    settings = make_settings(overrides, model=MODEL, api_base=server.base_url, api_key=SECRET_KEY, **kw)
    return SessionEngine(settings, sink=recorder, retry_policy=FAST_RETRY)


def log(workspace: Path, rel: str | None = None) -> str:
    path = workspace / (rel or daily_rel())
    return path.read_text(encoding="utf-8") if path.exists() else ""


def memory_text(workspace: Path) -> str:
    """Every memory file on disk (MEMORY.md, USER.md, daily logs of both tiers)."""
    files = [workspace / "MEMORY.md", workspace / "USER.md", *sorted((workspace / "memory").rglob("*.md"))]
    return "\n".join(p.read_text(encoding="utf-8") for p in files if p.is_file())


# ---------------------------------------------------------------- 1. dates only when certain

DATED = [
    # said on Sunday 2026-12-06: past tense → the Monday before, beside the words
    ("I met Ana on Monday.", "- User: I met Ana on Monday (2026-11-30)."),
    # Thursday the 12th does not agree with December 2026: kept as said
    ("The offsite is on Thursday the 12th.", "- User: The offsite is on Thursday the 12th."),
    # an absolute date already beside the weekday: unchanged
    ("Delivery is on Friday 2026-12-11.", "- User: Delivery is on Friday 2026-12-11."),
    ("Ayer vi a Ana en Madrid.", "- User: Ayer (2026-12-05) vi a Ana en Madrid."),
    ("Gestern habe ich Ana in Berlin getroffen.", "- User: Gestern (2026-12-05) habe ich Ana in Berlin getroffen."),
]


@pytest.mark.parametrize(("said", "note"), DATED)
async def test_a_note_keeps_the_users_words_and_adds_a_date_only_when_certain(
        make_settings, server, recorder, workspace, said: str, note: str) -> None:
    server.push({"text": "ok"})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    await eng.send(said)
    assert daily_rel() == f"memory/{SUNDAY}.md"
    assert note in log(workspace).splitlines()
    eng.close()


# ---------------------------------------------------------------- 2. corrections supersede


async def test_a_correction_supersedes_the_old_note_and_a_later_question_finds_only_the_new_fact(
        make_settings, server, recorder, workspace) -> None:
    old_rel = "memory/2026-12-05.md"
    (workspace / old_rel).write_text("# 2026-12-05\n\n- User: The offsite is on Thursday in Porto.\n", encoding="utf-8")
    server.push({"text": "ok"})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    result = await eng.send("Correction: the offsite moved to Friday in Lisbon.")
    assert "- User: The offsite moved to Friday in Lisbon." in log(workspace)
    assert "- User: The offsite is on Thursday in Porto. <!-- status: superseded -->" in log(workspace, old_rel).splitlines()
    turn = eng.last_turn
    assert turn is not None and [(s.path, s.line) for s in turn.notes.superseded] == [(old_rel, 3)]
    assert "superseded" in result.text and "Porto" in result.text  # the user is told which note
    changed = {(c.path, c.tool) for c in recorder.of(events.MemoryChanged)}
    assert {(old_rel, "supersede"), (daily_rel(), "append")} <= changed  # both announced, both in the history

    server.push({"text": "Friday, in Lisbon."})
    await eng.send("Where is the offsite?")
    found = [e.result for e in recorder.of(events.ToolResult) if e.name == "memory_search"]
    seen = json.dumps([str(r) for r in found])
    assert "Lisbon" in seen and "Porto" not in seen
    request = json.dumps(server.chat_requests()[-1]["messages"])
    assert "Lisbon" in request and "Thursday in Porto" not in request.split('"role": "user"', 2)[-1]
    # the mark went through the memory history: /undo takes the turn's changes back, newest first
    eng.undo_memory()
    eng.undo_memory()
    assert "superseded" not in log(workspace, old_rel) and "Lisbon" not in log(workspace)
    eng.close()


# ---------------------------------------------------------------- 3. consent

DO_NOT_KEEP = [
    "My PIN is 4411, don't write that down.",
    "Mi PIN es 4411, no lo apuntes.",
    "Meine PIN ist 4411, schreib das nicht auf.",
    "Mon code PIN est 4411, ne le note pas.",
    "Meu PIN é 4411, não anote isso.",
    "Il mio PIN è 4411, non scriverlo.",
]


@pytest.mark.parametrize("said", DO_NOT_KEEP)
async def test_asked_not_to_keep_nothing_is_stored_now_at_compaction_or_at_the_end(
        make_settings, server, recorder, workspace, said: str) -> None:
    server.push({"text": "ok"}, {"text": "ok"})
    eng = engine_for(make_settings, server, recorder, {**LOCAL, **small_window(10_000, 2_000, 1_000, keep=10)})
    result = await eng.send(said)
    turn = eng.last_turn
    assert turn is not None and {n.reason for n in turn.notes.not_kept} == {ASKED_NOT_TO_KEEP}
    assert "4411" not in result.text  # told it was not kept, without the value
    await eng.send("The build host is ci-9.acme.net.")
    server.push({"text": ""}, {"text": ""})  # no summary from the model: compaction's extractive fallback
    await eng.compact()
    (done,) = recorder.of(events.CompactionFinished)
    assert "4411" not in done.summary
    compaction = [json.loads(x) for x in eng.transcript_path.read_text().splitlines() if '"compaction"' in x]
    assert compaction and "4411" not in json.dumps(compaction)
    eng.new_session()  # the engine's notes at /new read every earlier message again
    eng.close()
    assert "ci-9.acme.net" in memory_text(workspace) and "4411" not in memory_text(workspace)


async def test_a_reply_that_promises_not_to_store_is_corrected_when_the_turn_did_write(
        make_settings, server, recorder, workspace) -> None:
    server.push({"text": "Understood, I will not store that."})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    result = await eng.send("My locker is number 17.")
    assert "locker is number 17" in log(workspace)
    assert result.text.startswith("Understood, I will not store that.")
    assert "did write to memory" in result.text and daily_rel() in result.text
    eng.close()


async def test_a_private_remark_in_a_group_session_is_not_stored(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "ok"})
    eng = engine_for(make_settings, server, recorder, LOCAL, session_key=GROUP)
    result = await eng.send("This is private: my salary is 90000 euros.")
    eng.close()
    assert "90000" not in memory_text(workspace)
    turn = eng.last_turn
    assert turn is not None and [n.reason for n in turn.notes.not_kept] == [PRIVATE_IN_GROUP]
    assert "private, said in a group session" in result.text


# ---------------------------------------------------------------- 4. said, in the user's language


async def test_the_reply_says_what_was_kept_and_what_not_in_the_users_language(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "Vale."}, {"text": "Vale."})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    first = await eng.send("Mi contraseña del wifi es hunter22x.")
    assert "hunter22x" not in memory_text(workspace) and "[secret withheld: password]" in log(workspace)
    turn = eng.last_turn
    assert turn is not None and [(n.text, n.reason) for n in turn.notes.not_kept] == [("password", SECRET_WITHHELD)]
    assert first.text.startswith("Vale.") and "No guardado: la contraseña" in first.text
    assert f"Guardé 1 nota en {daily_rel()}" in first.text
    again = await eng.send("Mi contraseña del wifi es hunter22x.")
    assert "ya anotado" in again.text and log(workspace).count("wifi") == 1
    eng.close()


async def test_an_acknowledgement_alone_is_replaced_by_what_was_kept_and_not(make_settings, server, recorder, workspace) -> None:
    # the 1.5B echoed the system prompt: the engine speaks instead, and says the key was withheld
    server.push({"text": "To remember something the user tells you, call `append` with path memory/x.md."})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    result = await eng.send("My API key is sk-abc123def456ghi789jkl012mno345 and the build host is ci-9.acme.net.")
    assert result.text == (f"Kept 1 note in {daily_rel()}. "
                           "Not kept: the API key (a secret, written as a marker).")
    assert "sk-abc123" not in memory_text(workspace) and "ci-9.acme.net" in log(workspace)
    eng.close()


# ---------------------------------------------------------------- 5. read-only says so


@pytest.mark.parametrize(("access", "said", "line"), [
    ("ro", "Please update the note in MEMORY.md about the logo colour",
     "The workspace is read-only (--workspace-access ro): nothing was written."),
    ("ro", "Schreib eine kurze Notiz in die Datei notes.md.",
     "Der Arbeitsbereich ist schreibgeschützt (--workspace-access ro): nichts wurde geschrieben."),
    ("none", "Ajoute une ligne au fichier notes.md.",
     "Cette session n’a pas accès à l’espace de travail (--workspace-access none) : rien n’a été écrit."),
])
async def test_a_file_change_in_a_workspace_that_cannot_be_written_is_refused_plainly(
        make_settings, server, recorder, workspace, access: str, said: str, line: str) -> None:
    before = memory_text(workspace)
    eng = engine_for(make_settings, server, recorder, LOCAL, workspace_access=access)
    result = await eng.send(said)
    assert result.text == line and "Noted" not in result.text
    assert line in [r.reason for r in recorder.of(events.AccessRefused)]  # on the timeline too
    assert server.chat_requests() == [] and memory_text(workspace) == before and not (workspace / "notes.md").exists()
    assert eng.history[-1] == {"role": "assistant", "content": line}
    eng.close()


# ---------------------------------------------------------------- 6. a fact inside a question


async def test_a_fact_told_inside_a_question_is_stored_before_the_answer(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "Yes: landing at 9:40 leaves you over an hour."})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    result = await eng.send("Since my flight LH 442 lands at 9:40, can I still make the 11:00 meeting?")
    assert "- User: My flight LH 442 lands at 9:40" in log(workspace)
    assert result.text == "Yes: landing at 9:40 leaves you over an hour."  # answered, nothing added
    kinds = [type(e).__name__ for e in recorder.events if isinstance(e, (events.MemoryChanged, events.TextDelta))]
    assert kinds and kinds[0] == "MemoryChanged"  # written before the model's first token
    (request,) = server.chat_requests()
    assert "LH 442" in json.dumps(request["messages"][2:])  # the lookup before the answer found it
    eng.close()


# ---------------------------------------------------------------- the parts, as tables

LANGS = ("en", "es", "de", "fr", "pt", "it")


def _fields(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("lang", LANGS[1:])
def test_every_language_has_every_engine_line_with_the_same_fields(lang: str) -> None:
    en = json.loads(resources.files(DATA_PACKAGE).joinpath("en.replies.json").read_text(encoding="utf-8"))
    other = json.loads(resources.files(DATA_PACKAGE).joinpath(f"{lang}.replies.json").read_text(encoding="utf-8"))
    for key, value in en.items():
        assert key in other, key
        if isinstance(value, dict):
            assert set(value) == set(other[key]), key
            assert all(_fields(value[k]) == _fields(other[key][k]) for k in value), key
        elif key != "_doc":
            assert _fields(value) == _fields(other[key]), key
    assert engine_lines(lang).language == lang and engine_lines("cy").language == "en"  # no table: English


def _r(intent: Intent, facts: tuple[str, ...] = (), **kw: object) -> MessageReading:
    return MessageReading(text=" ".join(facts) or "…", language="en", intent=intent, facts=facts, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(("reading", "local", "access", "refused", "withholds", "no_writes"), [
    (_r(Intent.FILE_CHANGE), True, "ro", True, False, False),
    (_r(Intent.FILE_CHANGE), True, "none", True, False, False),
    (_r(Intent.FILE_CHANGE), True, "rw", False, False, False),
    # every profile: a hosted model's word is not the engine's (issue 37, refusals said plainly)
    (_r(Intent.FILE_CHANGE), False, "ro", True, False, False),
    (_r(Intent.REMEMBER, ("The gate is blue.",)), False, "ro", True, False, False),
    (_r(Intent.REMEMBER, ("The gate is blue.",)), False, "none", True, False, False),
    (_r(Intent.REMEMBER, ("The gate is blue.",), asks=True), False, "ro", False, False, False),  # the question is answered
    (_r(Intent.DO_NOT_KEEP, withheld=("My PIN is 4411.",)), False, "rw", False, True, True),  # no tool writes, any model
    (_r(Intent.STATEMENT, ("The gate is blue.",), withheld=("My PIN is 4411.",)), True, "rw", False, True, True),
    (_r(Intent.STATEMENT, ("The gate is blue.",)), False, "rw", False, False, False),
])
def test_the_plan_refuses_and_withholds_from_the_reading(reading: MessageReading, local: bool, access: str, refused: bool,
                                                         withholds: bool, no_writes: bool) -> None:
    plan = plan_turn(reading, local=local, engine_notes=True, access=access, memory_on=access != "none")
    assert (plan.refused, plan.withholds, plan.no_writes) == (refused, withholds, no_writes)


def test_a_correction_in_the_same_flush_marks_the_line_it_replaces_before_it_is_written(make_settings, workspace: Path) -> None:
    settings = make_settings()
    old = _r(Intent.STATEMENT, ("The offsite is in Porto.",))
    new = _r(Intent.CORRECTION, ("The offsite is in Lisbon.",), replaces=("offsite",))
    outcome = NoteWriter(settings).write_all([old, new], FileTools(workspace), session_key=settings.session_key)
    assert log(workspace).splitlines()[-2:] == ["- User: The offsite is in Porto. <!-- status: superseded -->",
                                               "- User: The offsite is in Lisbon."]
    assert [(s.line, s.text) for s in outcome.superseded] == [(0, "- User: The offsite is in Porto.")]


def test_a_correction_looks_only_in_its_own_tier(make_settings, workspace: Path) -> None:
    (workspace / "memory" / "2026-12-05.md").write_text("- User: The offsite is in Porto.\n", encoding="utf-8")
    settings = make_settings(session_key=GROUP)
    new = _r(Intent.CORRECTION, ("The offsite is in Lisbon.",), replaces=("offsite",))
    outcome = NoteWriter(settings).write(new, FileTools(workspace, session_key=GROUP), session_key=GROUP)
    assert outcome.path == f"memory/shared/{SUNDAY}.md" and outcome.superseded == ()
    assert "superseded" not in (workspace / "memory" / "2026-12-05.md").read_text(encoding="utf-8")  # a private note


@pytest.mark.parametrize(("outcome", "lang", "line"), [
    (NoteOutcome("memory/x.md", ("- User: a",)), "en", ""),  # only kept: the usual "Noted" says it
    (NoteOutcome(not_kept=(NotKept("My PIN is 4411.", ASKED_NOT_TO_KEEP),)), "de",
     "Nichts wurde geschrieben. Nicht gespeichert: was du nicht gespeichert haben wolltest."),
    (NoteOutcome("memory/x.md", ("- User: a", "- User: b"), (NotKept("c", ALREADY_NOTED),)), "fr",
     "2 notes enregistrées dans memory/x.md. Non conservé : 1 déjà noté."),
    (NoteOutcome("memory/x.md", ("- User: a",), (NotKept("card number", SECRET_WITHHELD), NotKept("IBAN", SECRET_WITHHELD))),
     "it", "Ho salvato 1 nota in memory/x.md. Non salvato: il numero della carta, l’IBAN (un segreto, scritto come segnaposto)."),
])
def test_what_was_kept_and_not_reads_in_the_users_language(outcome: NoteOutcome, lang: str, line: str) -> None:
    assert said(outcome, lang) == line


async def test_a_model_flush_never_reads_what_the_user_asked_not_to_keep(make_settings, server, recorder, workspace) -> None:
    # memoryFlush.mode "model": the flush is the model's own turn over the conversation; the
    # refused sentence is not in what it reads, so it cannot write it (a hosted model would)
    server.push({"text": "ok"}, {"text": "ok"}, {"text": "NO_REPLY"})
    eng = engine_for(make_settings, server, recorder, {"agents": {"defaults": {"compaction": {"memoryFlush": {"mode": "model"}}}}})
    await eng.send("I'm interviewing at Globex next week, don't write that down.")
    await eng.send("The build host is ci-9.acme.net.")
    await eng.flush()
    flush_request = server.chat_requests()[-1]
    said = json.dumps(flush_request["messages"])
    assert "ci-9.acme.net" in said and "Globex" not in said
    eng.close()
    assert "Globex" not in memory_text(workspace)


async def test_a_save_claim_to_a_refusal_is_replaced_by_what_happened(make_settings, server, recorder, workspace) -> None:
    """Newcomer walk, real 1.5B: "Please don't write this down: my PIN is 4821." was answered
    "Noted — saved to memory/…md." (its previous reply, copied) followed by the engine's
    correction and the refusal: three lines saying opposite things. What happened is said alone."""
    server.push({"text": "Noted — saved to memory/2026-12-06.md."}, {"text": "Noted — saved to memory/2026-12-06.md. Also, 12 times 7 is 84 as you asked, and I checked the rest."})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    result = await eng.send("Please don't write this down: my PIN is 4821.")
    assert "saved" not in result.text and "Nothing was stored" not in result.text, result.text
    assert result.text == said(eng.last_turn.notes, "en"), result.text
    # a reply that says more than the claim keeps its words, and the correction follows them
    result = await eng.send("Don't keep this, it's private: my locker code is 5521. Also, what is 12 times 7?")
    assert "84" in result.text, result.text
    eng.close()
    assert "4821" not in memory_text(workspace) and "5521" not in memory_text(workspace)
