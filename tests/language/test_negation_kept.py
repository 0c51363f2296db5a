"""A note never loses the negation its clause opens with (issue 35, item 5: the user's words
are never changed into something else). In Portuguese "não" is both "no" and "not": "Não é
para amanhã, a reunião é hoje." had been read as a correction opened by "Não" and stored as
"É para amanhã, a reunião é hoje." — the opposite of what was said. Only "no" set off by a
comma opens a correction, in every language."""

from __future__ import annotations

import pytest

from openclaw_tui.language import Intent, read_message
from openclaw_tui.language.words import fold

NEGATED = [
    ("pt", "Não é para amanhã, a reunião é hoje.", "nao e para amanha"),
    ("pt", "Não era o Pedro, era o Rui que ligou.", "nao era o pedro"),
    ("pt", "Não é às 3, o jantar é às 4.", "nao e as 3"),
    ("es", "No es para mañana, la reunión es hoy.", "no es para manana"),
    ("de", "Nicht morgen, das Treffen ist heute.", "nicht morgen"),
    ("fr", "Ce n'est pas demain, la réunion est aujourd'hui.", "n'est pas demain"),
    ("it", "Non è per domani, la riunione è oggi.", "non e per domani"),
    ("en", "It's not tomorrow, the meeting is today.", "not tomorrow"),
]

CORRECTIONS = [  # "no" set off by a comma still opens a correction, and the cue is not kept
    ("pt", "Não, é amanhã às 10.", "e amanha as 10"),
    ("es", "No, es mañana a las 10.", "es manana a las 10"),
    ("it", "No, è domani alle 10.", "e domani alle 10"),
]


@pytest.mark.parametrize(("lang", "text", "negated"), NEGATED)
def test_a_negated_clause_is_kept_with_its_negation(lang: str, text: str, negated: str) -> None:
    reading = read_message(text)
    assert reading.facts, (lang, text, reading)
    assert negated in fold(" ".join(reading.facts)), (lang, text, reading.facts)


@pytest.mark.parametrize(("lang", "text", "fact"), CORRECTIONS)
def test_no_with_a_comma_still_corrects(lang: str, text: str, fact: str) -> None:
    reading = read_message(text)
    assert reading.intent is Intent.CORRECTION, (lang, text, reading)
    joined = fold(" ".join(reading.facts))
    assert fact in joined and not joined.startswith(("nao", "no,")), (lang, text, reading.facts)
