"""The language of each message, from the tables' own words; a pinned language wins; a short
message takes the language of the one before."""

from __future__ import annotations

import pytest

from openclaw_tui.language import ReaderSettings, read_message
from openclaw_tui.language.detect import detect, guess


@pytest.mark.parametrize(("text", "lang"), [
    ("My dentist appointment is on Friday at 9am.", "en"),
    ("What is my VPN host?", "en"),
    ("¿Dónde está mi pasaporte?", "es"),
    ("Prefiero el té.", "es"),
    ("Corrección: la reunión se movió al viernes.", "es"),
    ("Das Wetter ist heute schön.", "de"),
    ("Merk dir, dass mein Zahnarzt Dr. Weber heißt.", "de"),
    ("Rappelle-toi que je préfère le thé.", "fr"),
    ("Quand est mon rendez-vous chez le dentiste ?", "fr"),
    ("Prefiro café sem açúcar.", "pt"),
    ("Você pode lembrar que a minha irmã se chama Ana?", "pt"),
    ("Preferisco il tè verde.", "it"),
    ("Quando parte il treno per Milano?", "it"),
    # languages without a table: recognised as theirs, not read as the nearest table
    ("Mijn tandarts heet Dr. Jansen en woont in Utrecht.", "nl"),
    ("Min syster heter Anna och bor i Stockholm.", "sv"),
    ("Moja siostra ma na imię Anna i mieszka w Krakowie.", "pl"),
    ("私の妹の名前はアンナです。", "und"),
])
def test_detect(text: str, lang: str) -> None:
    assert detect(text) == lang


def test_a_pinned_language_wins() -> None:
    assert detect("What is my VPN host?", pinned="es") == "es"
    reading = read_message("What is my VPN host?", settings=ReaderSettings(language="de"))
    assert reading.language == "de"


@pytest.mark.parametrize(("text", "previous", "lang"), [
    ("LH 402?", "¿A qué hora aterriza mi vuelo?", "es"),
    ("ok", "Merk dir, dass mein Zahnarzt Dr. Weber heißt.", "de"),
    ("9:40", None, "en"),  # nothing to go on: the first of the settings' languages
])
def test_a_short_message_takes_the_language_before_it(text: str, previous: str | None, lang: str) -> None:
    assert not guess(text).language
    assert detect(text, previous=previous) == lang


def test_the_default_language_is_the_first_of_the_settings() -> None:
    assert detect("9:40", langs=("fr", "en")) == "fr"
    assert read_message("9:40", settings=ReaderSettings(languages=("it", "en"))).language == "it"


@pytest.mark.parametrize(("text", "lang"), [
    # issue 37's walk: "Frau" voted German and the English fact was read as German and dropped
    ("My neighbour is Frau Berger.", "en"),
    ("My neighbour is Madame Roussel.", "en"),
    ("Our landlord is Señor Ortega.", "en"),
    ("Il vicino è Mr Dawson.", "it"),
    ("Mon voisin, c'est Herr Schmidt.", "fr"),
    # the same words vote where no name follows, and around a name in their own language
    ("Frau Berger kommt morgen um neun.", "de"),
    ("Meine Frau arbeitet bei Siemens.", "de"),
    ("La señora de enfrente tiene dos gatos.", "es"),
])
def test_a_form_of_address_before_a_name_does_not_vote(text: str, lang: str) -> None:
    assert detect(text) == lang


def test_the_two_line_message_of_the_walk_keeps_both_sentences() -> None:
    reading = read_message("My neighbour is Frau Berger.\nShe waters our plants when we travel.")
    assert reading.language == "en"
    kept = " ".join(reading.facts)
    assert "Frau Berger" in kept and "waters our plants" in kept, reading.facts
