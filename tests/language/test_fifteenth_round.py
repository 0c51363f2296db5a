"""Fifteenth-round families of the lexicon reader (issue 35), written from holdout10's misses
(holdout10 is development data now) and measured on sentences written for this file before the
mechanism was (none of them is in a split; same author as the mechanism, so weaker evidence than
a blind split): a greeting with a pet name, or a question whether the listener is still up or how
their week goes, as small talk ("Fala, meu querido, como vão as coisas?", "evening! you still
awake in there?", "Ehilà, come ti va la settimana?").

Each family's test counts the sentences read right per language and holds the count measured
when the mechanism was committed (docs/language.md, "Fifteenth round"); the controls are
sentences that must keep their reading."""

from __future__ import annotations

import pytest

from openclaw_tui.language import read_message
from openclaw_tui.language.reading import Intent
from tests.language.family_floor import floor_test

LANGS = ("en", "es", "de", "fr", "pt", "it")

# a greeting with a pet name, a question whether the listener is still up, or how their week
# or day goes: small talk
GREETING_DEAR: dict[str, list[str]] = {
    "en": ["evening! you still up?", "hiya my dear, how's your week going?", "hey love, you still around?"],
    "es": ["¡Buenas, mi amor! ¿Cómo te va la semana?", "¡Wena! ¿Sigues despierto?", "¡Wena, compadre! ¿Cómo estái?"],
    "de": ["Na, mein Lieber, wie läuft die Woche?", "Guten Abend! Bist du noch wach?", "Hallo Schatz, bist du noch da?"],
    "fr": ["Bonsoir ! T'es encore debout ?", "Salut mon grand, comment se passe ta semaine ?", "Heille toi! Comment se passe ta journée?"],
    "pt": ["Oi, minha querida, como vai a semana?", "Boa noite! Ainda acordado?", "E aí, meu velho, ainda está por aí?"],
    "it": ["Buonasera! Sei ancora sveglio?", "Ciao tesoro, come ti va la giornata?", "Ehi caro, come ti va la settimana?"],
}

GREETING_DEAR_CONTROLS = [  # the same greeting before a question about a thing, or about someone: a question
    "Hi my dear, what time does the pharmacy open?",
    "Is Mia still up?",
    "are you still up for dinner at Nando's on Friday?",
    "Hola, cariño, ¿a qué hora abre la farmacia?",
    "Na, mein Lieber, wann kommt der Zug?",
    "Ist Mia noch wach?",
    "Salut mon grand, à quelle heure ferme la poste ?",
    "Léa est encore debout ?",
    "Oi, minha querida, a que horas abre a farmácia?",
    "O Caio ainda está acordado?",
    "Ciao tesoro, a che ora parte il treno?",
    "Giulia è ancora sveglia?",
]


def greeting_dear_right(text: str) -> bool:
    return read_message(text).intent is Intent.SMALL_TALK


FAMILIES = {
    "greeting_dear": (GREETING_DEAR, greeting_dear_right),
}

#: sentences read right per language when each mechanism was committed
FLOOR: dict[str, dict[str, int]] = {
    "greeting_dear": {"en": 3, "es": 3, "de": 3, "fr": 3, "pt": 3, "it": 3},
}


test_family_holds_its_measured_count = floor_test(FAMILIES, FLOOR, LANGS)


@pytest.mark.parametrize("text", GREETING_DEAR_CONTROLS)
def test_a_greeting_with_a_pet_name_before_a_question_about_a_thing_asks(text: str) -> None:
    assert read_message(text).intent is Intent.QUESTION

