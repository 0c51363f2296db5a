"""Refusals that say what the words are not for ("This is not for writing down:", "Nicht zum
Aufschreiben:", "Non va scritto:", "Não é para anotar:"): what follows is not kept. Found after
holdout10's blind reading, where "Não é para escrever em lado nenhum: …" was read as a
correction opened by "Não" and its withheld remark stored as "É para escrever …"."""

from __future__ import annotations

import pytest

from openclaw_tui.language import Intent, read_message

WITHHELD = [
    ("en", "This is not for writing down: my sister is moving to Leeds", "Leeds"),
    ("en", "It's not to be noted: Farid is leaving the company in spring", "Farid"),
    ("en", "That's not for the notes: our landlord is selling the flat", "landlord"),
    ("de", "Nicht zum Aufschreiben: mein Bruder zieht nach Graz", "Graz"),
    ("de", "Das ist nicht zum Notieren: Jana bekommt ein Baby", "Jana"),
    ("de", "Das hier ist nicht zum Mitschreiben: der Chef geht in Rente", "Rente"),
    ("it", "Non è da annotare: Rocco cambia lavoro a giugno", "Rocco"),
    ("it", "Non va scritto da nessuna parte: mia cugina si separa", "cugina"),
    ("it", "Non è da segnare: il capo va in pensione", "pensione"),
    ("pt", "Não é para anotar: o Rui vai mudar de emprego", "Rui"),
    ("pt", "Não é pra salvar: a Ana está grávida", "grávida"),
    ("pt", "Não é para registar: o meu pai vai ser operado", "operado"),
    ("es", "No es para apuntar: mi hermano se separa", "hermano"),
    ("fr", "Ce n'est pas à noter : Rui change de travail", "travail"),
]

KEPT = [  # near misses: a thing not for something else, said as a fact
    ("en", "The whiteboard is for writing down the sprint goals", Intent.STATEMENT),
    ("de", "Das ist nicht zum Essen, der Kuchen ist nur Deko", Intent.STATEMENT),
    ("it", "Non è da buttare, la lavatrice funziona ancora", Intent.STATEMENT),
    ("pt", "O caderno azul é para anotar as despesas da casa", Intent.STATEMENT),
]


@pytest.mark.parametrize(("lang", "text", "word"), WITHHELD)
def test_not_for_writing_down_keeps_nothing(lang: str, text: str, word: str) -> None:
    reading = read_message(text)
    assert reading.intent is Intent.DO_NOT_KEEP, (text, reading.intent)
    assert not any(word in fact for fact in reading.facts)


@pytest.mark.parametrize(("lang", "text", "intent"), KEPT)
def test_a_thing_not_for_something_else_keeps_its_reading(lang: str, text: str, intent: Intent) -> None:
    assert read_message(text).intent is intent
