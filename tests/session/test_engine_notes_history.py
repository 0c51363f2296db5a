"""What the engine adds to a reply is shown and kept in the transcript, never fed back to the
model as its own words (real-model ``eval survival``, 2026-12-07: the 1.5B copied its earlier
"Noted — saved … _(Nothing was stored …)_" and each later reply piled the engine's lines up,
"Nothing was stored" beside "Note: this turn did write to memory")."""

from __future__ import annotations


import pytest

from openclaw_tui.records.transcript import read_transcript as read_entries
from openclaw_tui.session.conversation import replay
from openclaw_tui.session.engine import SessionEngine
from openclaw_tui.session.engine_notes import added_paragraphs, model_view
from tests.session.conftest import FAST_RETRY, SECRET_KEY

MODEL = "openai/fake-model"
LOCAL = {"agents": {"defaults": {"toolProfile": "local"}}}


@pytest.fixture(autouse=True)
def sunday(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENCLAW_TODAY", "2026-12-06")


def engine_for(make_settings, server, recorder, overrides=None) -> SessionEngine:
    settings = make_settings(overrides, model=MODEL, api_base=server.base_url, api_key=SECRET_KEY)
    return SessionEngine(settings, sink=recorder, retry_policy=FAST_RETRY)


def assistant_contents(request: dict) -> list[str]:
    return [str(m.get("content") or "") for m in request["messages"] if m.get("role") == "assistant"]


def test_added_paragraphs_and_the_model_view() -> None:
    shown = "Sure, 84.\n\n_(Nothing was stored: no memory file was written in this turn.)_"
    notes = added_paragraphs("Sure, 84.", shown)
    assert notes == ("_(Nothing was stored: no memory file was written in this turn.)_",)
    msg = {"role": "assistant", "content": shown}
    assert model_view(msg, notes) == {"role": "assistant", "content": "Sure, 84."}
    # the engine's line alone (it replaced the reply): the model may see it as its answer
    alone = {"role": "assistant", "content": "Not kept: what you asked me not to keep."}
    assert model_view(alone, ("Not kept: what you asked me not to keep.",)) == alone
    assert model_view(msg, ()) is msg


async def test_the_model_never_sees_the_engines_lines_as_its_own(make_settings, server, recorder, workspace) -> None:
    # a hosted-profile save claim with no write: the engine's correction follows the reply
    server.push({"text": "I've saved that for you. 12 times 7 is 84."}, {"text": "Sure."}, {"text": "Sure again."})
    eng = engine_for(make_settings, server, recorder)
    first = await eng.send("What is 12 times 7?")
    assert "84" in first.text and "Nothing was stored" in first.text, first.text
    await eng.send("Thanks, and what about 3 times 3?")
    sent = assistant_contents(server.chat_requests()[-1])
    assert any("84" in c for c in sent), sent
    assert not any("Nothing was stored" in c for c in sent), sent  # the correction is not the model's word
    transcript = eng.transcript_path
    eng.close()
    entries = read_entries(transcript)
    shown = [e for e in entries if e.get("type") == "message" and e["message"].get("role") == "assistant"]
    assert "Nothing was stored" in shown[0]["message"]["content"] and shown[0]["engineNotes"]  # the user's record
    # resumed: the history the model gets back is its own words too
    resumed = engine_for(make_settings, server, recorder)
    resumed.resume(eng.session_id)
    await resumed.send("And 2 times 2?")
    sent = assistant_contents(server.chat_requests()[-1])
    assert any("84" in c for c in sent) and not any("Nothing was stored" in c for c in sent), sent
    resumed.close()
    history = replay(read_entries(transcript)).messages
    assert not any("Nothing was stored" in str(m.get("content")) for m in history)


async def test_a_copied_save_claim_to_a_remark_worth_nothing_is_a_plain_acknowledgement(make_settings, server, recorder, workspace) -> None:
    # local profile: "The office is pretty quiet this afternoon." keeps nothing; the 1.5B's
    # copied "Noted — saved to memory/…md." was shown with "(Nothing was stored …)" after it
    server.push({"text": "Noted — saved to memory/2026-12-06.md."})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    result = await eng.send("The office is pretty quiet this afternoon.")
    eng.close()
    assert result.text == "Noted.", result.text
    assert not (workspace / "memory" / "2026-12-06.md").exists()


async def test_a_flush_never_writes_back_what_a_correction_superseded(make_settings, server, recorder, workspace) -> None:
    """Real-model eval survival: "The planning meeting is in room C297." then "Correction: the
    planning meeting moved to room E266."; the next flush read the conversation again and wrote
    the old room back, unmarked, beside the new one, so recall had both."""
    server.push({"text": "Noted."}, {"text": "Noted."})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    await eng.send("The planning meeting is in room C297.")
    await eng.send("Correction: the planning meeting moved to room E266.")
    log = (workspace / "memory" / "2026-12-06.md").read_text(encoding="utf-8")
    assert "C297. <!-- status: superseded -->" in log and "E266" in log, log
    await eng.flush()
    eng.close()
    after = (workspace / "memory" / "2026-12-06.md").read_text(encoding="utf-8")
    c297 = [line for line in after.splitlines() if "C297" in line]
    assert len(c297) == 1 and "superseded" in c297[0], after


@pytest.mark.parametrize(("lang", "head"), [("en", "_(Nothing was stored:"), ("es", "_(No se guardó nada:"),
                                            ("de", "_(Nichts wurde gespeichert:"), ("fr", "_(Rien n’a été enregistré :"),
                                            ("pt", "_(Nada foi guardado:"), ("it", "_(Non è stato salvato nulla:")])
def test_the_not_stored_note_is_in_the_users_language(lang: str, head: str) -> None:
    from openclaw_tui.session.reply_check import flags_not_stored, not_stored_note

    for access, memory_on in (("rw", True), ("ro", True), ("none", False)):
        note = not_stored_note(access, memory_on, lang)
        assert note.startswith(head) and note.endswith(".)_") and "{why}" not in note, note
        assert flags_not_stored(f"Done.\n\n{note}")
    assert not flags_not_stored("Nothing here was stored in a note.")


async def test_a_spanish_save_claim_without_a_write_is_flagged_in_spanish(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "Lo he guardado. Son 84."})
    eng = engine_for(make_settings, server, recorder)
    result = await eng.send("¿Cuánto es 12 por 7?")
    eng.close()
    assert "84" in result.text and "_(No se guardó nada:" in result.text and "Nothing was stored" not in result.text, result.text


async def test_a_question_answered_only_noted_is_asked_again_alone(make_settings, server, recorder, workspace) -> None:
    """Real-model eval survival: after a run of statements answered "Noted.", the 1.5B answered
    "Since my flight lands at 8:20 pm, can I still make a dinner at nine?" with "Noted." too. The
    question is asked again alone (no tools, no memory prompt); the fact is still kept."""
    server.push({"text": "Noted."}, {"text": "Yes: landing at 8:20 pm leaves you 40 minutes."})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    result = await eng.send("Since my flight AF2516 lands at 8:20 pm, can I still make a dinner at nine?")
    eng.close()
    assert "40 minutes" in result.text and not result.text.startswith("Noted"), result.text
    again = server.chat_requests()[-1]
    assert not again.get("tools") and "can I still make a dinner" in again["messages"][-1]["content"]
    assert "AF2516" in (workspace / "memory" / "2026-12-06.md").read_text(encoding="utf-8")


async def test_a_request_to_remember_may_be_answered_noted(make_settings, server, recorder, workspace) -> None:
    server.push({"text": "Noted."})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    await eng.send("Could you make a note that the gym closes at 9?")
    eng.close()
    assert len(server.chat_requests()) == 1  # nothing asked again


@pytest.mark.parametrize(("copied", "lang", "refusal"), [
    ("de", "fr", "Mon code de carte est 4821, ne le note surtout pas."),
    ("it", "es", "Mi PIN del banco es 4821, no lo apuntes."),
    ("de", "en", "My gym locker code is 4821, don't write that down."),
    ("it", "pt", "O código do cacifo é 4821, não anotes isso."),
    ("es", "de", "Mein Spind-Code ist 4821, schreib das bitte nicht auf."),
    ("fr", "it", "Il codice dell'armadietto è 4821, non segnarlo."),
])
async def test_a_copied_foreign_save_claim_to_a_refusal_is_not_shown(make_settings, server, recorder, workspace,
                                                                    copied, lang, refusal) -> None:
    # `chat -p`, real 1.5B: a French refusal answered "Notiert — gespeichert in memory/….md." (its
    # German acknowledgement of the turn before), shown above "Rien n'a été écrit": the German
    # claim was not read as a claim at all, so it stood beside the engine's line
    from openclaw_tui.language.engine_lines import engine_lines
    claim = engine_lines(copied).say("noted_saved", path="memory/2026-12-06.md")
    server.push({"text": claim})
    eng = engine_for(make_settings, server, recorder, LOCAL)
    result = await eng.send(refusal)
    eng.close()
    assert claim not in result.text and "4821" not in result.text, result.text
    assert result.text.strip(), result.text
    log = workspace / "memory" / "2026-12-06.md"
    assert not log.exists() or "4821" not in log.read_text(encoding="utf-8")
