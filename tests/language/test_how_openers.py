"""A how-are-you opener of more than one word after a greeting ("¡Buenas! ¿Qué tal dormiste?",
"Hey! What's up with you?") is small talk by the tables' ``how_openers``, as one-word "how"
is; the example classifier no longer turns a question asked by a word into small talk, so the
tables must read these. Controls ask something and stay questions."""

from __future__ import annotations

from openclaw_tui.language import Intent
from tests.language.family_checks import control_test, reads_as, small_talk

SMALL_TALK = [
    "Hey! What's up with you?", "Morning! Whats up?",
    "¡Buenas! ¿Qué tal dormiste?", "Hola, ¿qué onda contigo?",
    "Hallo! Na wie läuft's bei dir?", "Servus! Wie geht's dir heute?",
    "Salut ! Ça va de ton côté ?", "Coucou ! Quoi de neuf chez toi ?",
    "Oi! Que tal por aí?", "Olá! Tudo bem contigo?",
    "Ciao! Come va da te?", "Ehi! Che si dice da quelle parti?",
]

QUESTIONS = [
    "Hi! What's up with the boiler repair on the 12th?", "Hey, how do I reset the router?",
    "¡Buenas! ¿Cómo se llama la farmacia de la esquina?", "Hola, ¿qué tal si me recuerdas el código?",
    "Hallo! Wie heißt der Zahnarzt von Oma?", "Salut ! Ça va être à quelle heure, le dîner ?",
    "Oi! Que tal me dizer a hora do dentista?", "Ciao! Come si chiama il meccanico di Luca?",
    "Hola, ¿qué te dijo el médico?",
]


test_a_greeting_and_a_how_opener_is_small_talk = control_test(SMALL_TALK, small_talk(facts=False))
test_a_question_after_a_greeting_still_asks = control_test(QUESTIONS, reads_as(Intent.QUESTION, asks=True))
