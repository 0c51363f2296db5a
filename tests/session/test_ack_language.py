"""A statement's reply that is only the engine's acknowledgement in another language (the 1.5B
copying the "Anotado — guardado en …" of an earlier Spanish turn after a Portuguese statement,
seen in the TUI) is replaced by the engine's line in the user's language, with the path the
turn really wrote; a reply in the user's language, or one that says more, is kept."""

from __future__ import annotations

import pytest

from openclaw_tui.language import read_reply
from openclaw_tui.language.engine_lines import engine_lines
from openclaw_tui.session.reply_check import fix_statement_reply

PATH = "memory/2026-12-07.md"
KW = dict(system="You are a helpful agent.", user="…", saved_to=PATH, access="rw", cue=False)


@pytest.mark.parametrize(("copied", "lang"), [("es", "pt"), ("en", "de"), ("fr", "it"), ("de", "en"), ("it", "es"),
                                               ("pt", "fr")])
def test_a_foreign_acknowledgement_becomes_the_users_language(copied: str, lang: str) -> None:
    foreign = engine_lines(copied).say("noted_saved", path="memory/2026-12-06.md")
    out = fix_statement_reply(foreign, lang=lang, **KW)
    assert out == engine_lines(lang).say("noted_saved", path=PATH), (copied, lang, out)


@pytest.mark.parametrize("lang", ["en", "es", "de", "fr", "pt", "it"])
def test_the_users_own_acknowledgement_and_real_replies_stay(lang: str) -> None:
    own = engine_lines(lang).say("noted_saved", path=PATH)
    assert fix_statement_reply(own, lang=lang, **KW) == own
    reply = "Entendido, o técnico vem a 7 de março." if lang == "pt" else "Got it, the plumber comes on 7 March."
    assert fix_statement_reply(reply, lang=lang, **KW) == reply


@pytest.mark.parametrize("lang", ["en", "es", "de", "fr", "pt", "it"])
def test_the_engines_own_acknowledgement_reads_as_a_save_claim(lang: str) -> None:
    """'Notiert — gespeichert in …' and 'Annotato — salvato in …' were read as no claim at all, so a
    copied one after a refusal was shown beside 'Nothing was written' with no correction."""
    assert read_reply(engine_lines(lang).say("noted_saved", path=PATH)).claims_save
