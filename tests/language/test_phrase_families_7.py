"""Seventh-round phrase families of the lexicon reader (issue 35): each row is a family member
the tables must read, with negatives beside it; none is a sentence of a benchmark split."""

from __future__ import annotations

import pytest

from openclaw_tui.language import read_message
from openclaw_tui.language.reading import Intent


# an asking clause joined with no comma ("so", "así que", "also", "donc", "então", "quindi")
@pytest.mark.parametrize("text,fact,asked", [
    ("The movers come on the 12th so when should I book the parking permit",
     "The movers come on the 12th", "when should I book"),
    ("My flight lands at 9:40 and how long does it take to get downtown",
     "My flight lands at 9:40", "how long does it take"),
    ("La mudanza es el día 12 así que cuándo tengo que pedir el permiso",
     "La mudanza es el día 12", "cuándo tengo que pedir"),
    ("Die Umzugsfirma kommt am 12. also wann soll ich die Halteverbotszone beantragen",
     "Die Umzugsfirma kommt am 12.", "wann soll ich"),
    ("Les déménageurs viennent le 12 donc quand est-ce que je dois réserver la place",
     "Les déménageurs viennent le 12", "quand est-ce que je dois"),
    ("A mudança é dia 12 então quando devo pedir a vaga na rua",
     "A mudança é dia 12", "quando devo pedir"),
    ("Il trasloco è il 12 quindi quando devo chiedere il permesso per il furgone",
     "Il trasloco è il 12", "quando devo chiedere"),
])
def test_an_asking_clause_joined_without_a_comma_asks(text: str, fact: str, asked: str) -> None:
    r = read_message(text)
    assert r.intent is Intent.QUESTION and r.asks
    assert any(fact.lower() in f.lower() for f in r.facts), r.facts
    assert not any(asked.lower() in f.lower() for f in r.facts), r.facts


@pytest.mark.parametrize("text", [
    "My sister plays cello and so do I",
    "The rent went up in May and what's more the heating is broken",
    "Mi hermana vive en Lugo así que cuando puedo voy a verla",
    "Ich arbeite samstags und wann ich Zeit habe, gehe ich schwimmen",
    "Je travaille le samedi donc quand il fait beau je pars tôt",
])
def test_a_joined_clause_that_asks_nothing(text: str) -> None:
    assert not read_message(text).asks
