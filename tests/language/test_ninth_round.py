"""Ninth round: general mechanisms, not rows (docs/language.md, "Ninth round"). Each test holds
members no labelled split has, and negatives that must not fire."""

from __future__ import annotations

import pytest

from openclaw_tui.language import Intent, read_message
from openclaw_tui.language.detect import detect


# -- detection confidence: a short message no table knows is read neutrally, not guessed --------

@pytest.mark.parametrize("text", [
    "Fijne avond nog, doei",  # Dutch
    "Hvala, vidimo se",  # Croatian: no table, no list
    "Usuń z pliku notatki.md ostatnią linię",  # Polish file change
    "Dopisz do pliku todo.md jajka",
    "Teşekkürler, iyi akşamlar",
])
def test_a_message_no_table_knows_is_read_neutrally(text: str) -> None:
    assert detect(text) not in ("en", "es", "de", "fr", "pt", "it"), detect(text)
    reading = read_message(text)
    assert reading.intent is Intent.UNKNOWN and not reading.facts


@pytest.mark.parametrize(("text", "lang"), [
    ("I prefer tea over coffee.", "en"),  # few words a table lists, but votes enough
    ("Pizza tonight?", "en"),
    ("Danke dir!", "de"),
    ("Grazie, a domani", "it"),
    ("Gracias, hasta luego", "es"),
    ("9:40", "en"),  # no words at all: the first of the settings' languages
    ("LH 402?", "en"),  # a code in capitals is no word of another language
])
def test_a_short_message_a_table_knows_keeps_its_table(text: str, lang: str) -> None:
    assert detect(text) == lang


def test_a_message_before_it_still_decides() -> None:
    assert detect("Eyvallah", previous="¿A qué hora aterriza mi vuelo?") == "es"
