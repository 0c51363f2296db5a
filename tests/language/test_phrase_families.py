"""Phrase families and general signals of the lexicon reader (issue 35): each row is a
family member the tables must read, not a sentence they were tuned on."""

from __future__ import annotations

import pytest

from openclaw_tui.language import read_message
from openclaw_tui.language.detect import detect
from openclaw_tui.language.reading import Intent


@pytest.mark.parametrize("text,fact", [
    ("Please remember I'm allergic to penicillin.", "I'm allergic to penicillin"),
    ("Would you mind noting that the gate code is 1234?", "the gate code is 1234"),
    ("Jot down that the plumber comes on Monday.", "the plumber comes on Monday"),
    ("Apúntate esto: la cita es el 4 de mayo.", "la cita es el 4 de mayo"),
    ("Schreib dir bitte auf, dass der Zug um 7 Uhr fährt.", "der Zug um 7 Uhr fährt"),
    ("J'aimerais que tu notes que le train part à 7 h.", "le train part à 7 h"),
    ("Podes lembrar-te de que o jantar é às 20h?", "o jantar é às 20h"),
    ("Segnati che la cena è alle 20.", "la cena è alle 20"),
])
def test_remember_family(text: str, fact: str) -> None:
    r = read_message(text)
    assert r.intent is Intent.REMEMBER
    assert any(fact.lower() in f.lower() for f in r.facts)


@pytest.mark.parametrize("text", [
    "remember the name of my dentist?",
    "¿Puedes recordar qué te dije del hotel?",
    "Lembra-me em que dia é a consulta.",
    "Tu pourrais te rappeler à quelle heure part le train",
])
def test_a_remember_verb_put_as_a_question_recalls(text: str) -> None:
    r = read_message(text)
    assert r.intent is Intent.QUESTION and r.asks


@pytest.mark.parametrize("text,secret", [
    ("My PIN is 5521, don't hold on to that.", "5521"),
    ("Der Code ist 4711, speicher das bitte nicht.", "4711"),
    ("Le code est 8812. Ne le note nulle part.", "8812"),
    ("O código é 3390, não guarde isso.", "3390"),
    ("Il codice è 6677, non salvarlo da nessuna parte.", "6677"),
    ("La clave es 9090, no la apuntes.", "9090"),
])
def test_refusal_in_any_placement(text: str, secret: str) -> None:
    r = read_message(text)
    assert r.intent is Intent.DO_NOT_KEEP and not any(secret in f for f in r.facts)


@pytest.mark.parametrize("text", [
    "My bad, the meeting is at 3.", "Me he confundido: la reunión es a las 3.",
    "Falsch gesagt: das Treffen ist um 3.", "En fait non, la réunion est à 15 h.",
    "Afinal a reunião é às 15h.", "Anzi, la riunione è alle 15.",
])
def test_correction_openers(text: str) -> None:
    r = read_message(text)
    assert r.intent is Intent.CORRECTION and r.facts


@pytest.mark.parametrize("text", [
    "Talk to you tomorrow!", "Hasta el lunes", "Bis morgen!", "À demain !", "Até amanhã", "Ci vediamo domani",
])
def test_goodbyes_name_no_fact(text: str) -> None:
    r = read_message(text)
    assert r.intent is Intent.SMALL_TALK and not r.facts


@pytest.mark.parametrize("text", [
    "Fix the heading in notes.md.", "Corrige el título en notas.md.", "Kannst du in notizen.md eine Zeile ergänzen?",
    "Corrige le titre dans notes.md.", "Corrija o título em notas.md.", "Correggi il titolo in note.md.",
])
def test_file_change_verbs(text: str) -> None:
    assert read_message(text).intent is Intent.FILE_CHANGE


def test_a_request_to_read_a_named_file_looks_nothing_up() -> None:
    r = read_message("Read USER.md for me")
    assert r.intent is Intent.QUESTION and r.asks and r.query == ""
    assert read_message("Read me what you know about Bruno").query  # no file named: a lookup


@pytest.mark.parametrize("text", [
    "We're godparents to her son.", "Somos voluntarios en el comedor.", "On est témoins.",
    "Somos sócios do clube.", "Siamo testimoni.", "Ich bin Trauzeuge.",
])
def test_first_person_roles_are_facts(text: str) -> None:
    assert read_message(text).facts


@pytest.mark.parametrize("text,lang", [
    ("Jag bor i Göteborg med min syster.", "sv"),
    ("Bunu bana yarın hatırlat lütfen.", "tr"),
    ("No como pescado.", "es"),
])
def test_detection(text: str, lang: str) -> None:
    assert detect(text) == lang
