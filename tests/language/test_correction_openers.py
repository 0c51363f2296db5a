"""Corrections as the survival eval says them (issue 35; two were missed by a real-model run,
seed 4): every language's correction lines read as corrections naming what they replace, with
the cue out of the fact; English "Sorry, I got that wrong: …"; German, a verb-second language,
keeps an opener with no mark in its clause ("Eigentlich haben wir 74 Stühle bestellt", not
"Haben wir 74 Stühle bestellt", which reads as a question)."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from openclaw_tui.language import Intent, read_message

VALUES = {"new_room": "B12", "new_time": "6:20 pm", "new_count": "74"}


def _fixes() -> list[tuple[str, str]]:
    out = []
    for lang in ("en", "es", "de", "fr", "pt", "it"):
        data = json.loads(resources.files("openclaw_tui.evals.data").joinpath(f"{lang}.json").read_text(encoding="utf-8"))
        for c in data["corrections"]:
            out.append((lang, re.sub(r"\{(\w+)\}", lambda m: VALUES.get(m.group(1), "X1"), c["fix"])))
    return out


@pytest.mark.parametrize("lang,text", _fixes())
def test_the_evals_corrections_name_what_they_replace(lang: str, text: str) -> None:
    r = read_message(text)
    assert r.intent is Intent.CORRECTION and r.replaces, (r.intent, r.replaces)
    (fact,) = r.facts
    assert any(v in fact for v in VALUES.values())
    assert not re.search(r"(?i)\b(got that wrong|me equivoqué|das war falsch|trompé|enganei|sbagliato|correction|korrektur)\b", fact)


@pytest.mark.parametrize("text,fact,subject", [
    ("Eigentlich haben wir 74 Stühle für das neue Büro bestellt.", "Eigentlich haben wir 74 Stühle", "stuhle"),
    ("Tatsächlich beginnt das Teamessen um 19 Uhr.", "Tatsächlich beginnt das Teamessen", "teamessen"),
    ("Eigentlich ist der Zahnarzttermin am Donnerstag.", "Eigentlich ist der Zahnarzttermin", "zahnarzttermin"),
])
def test_a_german_opener_with_no_mark_stays_in_its_clause(text: str, fact: str, subject: str) -> None:
    r = read_message(text)
    assert r.intent is Intent.CORRECTION
    assert r.facts[0].startswith(fact)
    assert subject in r.replaces and "eigentlich" not in r.replaces and "tatsachlich" not in r.replaces


@pytest.mark.parametrize("text,fact", [
    ("Eigentlich, wir haben 74 Stühle bestellt.", "Wir haben 74 Stühle bestellt."),  # a mark: the opener goes
    ("Ich hab mich vertan, der TÜV ist am 30. November", "Der TÜV ist am 30. November"),
    ("Korrektur: Das Planungsmeeting wurde in Raum B12 verlegt.", "Das Planungsmeeting wurde in Raum B12 verlegt."),
    ("Actually, we ordered 74 chairs for the new office.", "We ordered 74 chairs for the new office."),  # not verb-second
])
def test_an_opener_set_off_by_a_mark_or_outside_german_goes(text: str, fact: str) -> None:
    assert read_message(text).facts[0].rstrip(".") == fact.rstrip(".")
