"""A relative day inside a negated clause is the day the user says it is NOT: it stays without
an absolute date ("Não é para amanhã, a reunião é hoje." kept "amanhã (2026-12-08)" beside the
real day's date, a note that looked self-contradicting). The negation words are data (each
``<lang>.dates.json``'s ``negation``), in all six tabled languages; the affirmative day keeps its
date, and a negation elsewhere in the sentence, one that does not cover the day word, or one
lifted by "until" / "before" ("not until tomorrow" is tomorrow) leaves the date."""

from __future__ import annotations

from datetime import date

import pytest

from openclaw_tui.language.dates import annotate_dates

SUNDAY = date(2026, 12, 6)

NEGATED = [
    ("en", "It's not tomorrow, the meeting is today.", "It's not tomorrow, the meeting is today (2026-12-06)."),
    ("en", "The dentist is not on Monday but next Tuesday.",
     "The dentist is not on Monday but next Tuesday (2026-12-08)."),
    ("en", "No, not tomorrow: the day after tomorrow.", "No, not tomorrow: the day after tomorrow (2026-12-08)."),
    ("es", "No es mañana, la reunión es hoy.", "No es mañana, la reunión es hoy (2026-12-06)."),
    ("es", "La entrega no es para mañana sino para pasado mañana.",
     "La entrega no es para mañana sino para pasado mañana (2026-12-08)."),
    ("de", "Das Treffen ist nicht morgen, sondern heute.", "Das Treffen ist nicht morgen, sondern heute (2026-12-06)."),
    ("de", "Nicht morgen, übermorgen kommt der Techniker.",
     "Nicht morgen, übermorgen (2026-12-08) kommt der Techniker."),
    ("fr", "Ce n'est pas demain, la réunion est aujourd'hui.",
     "Ce n'est pas demain, la réunion est aujourd'hui (2026-12-06)."),
    ("fr", "Pas demain, après-demain on signe le bail.", "Pas demain, après-demain (2026-12-08) on signe le bail."),
    ("pt", "Não é para amanhã, a reunião é hoje.", "Não é para amanhã, a reunião é hoje (2026-12-06)."),
    ("pt", "A consulta não é amanhã, é depois de amanhã.", "A consulta não é amanhã, é depois de amanhã (2026-12-08)."),
    ("it", "Non è domani, la riunione è oggi.", "Non è domani, la riunione è oggi (2026-12-06)."),
    ("it", "La consegna non è per domani ma per dopodomani.",
     "La consegna non è per domani ma per dopodomani (2026-12-08)."),
]


@pytest.mark.parametrize(("lang", "text", "expected"), NEGATED)
def test_a_day_word_in_a_negated_clause_is_not_annotated(lang: str, text: str, expected: str) -> None:
    assert annotate_dates(text, said_on=SUNDAY, lang=lang) == expected


# controls: a negation in another clause, one that does not reach the day word, or one lifted
CONTROLS = [
    ("en", "I don't like rain, but tomorrow we go to the beach.",
     "I don't like rain, but tomorrow (2026-12-07) we go to the beach."),
    ("en", "The parcel won't arrive before the weekend; I called them yesterday about it.",
     "The parcel won't arrive before the weekend; I called them yesterday (2026-12-05) about it."),
    ("en", "The shop won't open until tomorrow.", "The shop won't open until tomorrow (2026-12-07)."),
    ("es", "No me gusta la lluvia, pero mañana vamos a la playa.",
     "No me gusta la lluvia, pero mañana (2026-12-07) vamos a la playa."),
    ("es", "La tienda no abre hasta mañana.", "La tienda no abre hasta mañana (2026-12-07)."),
    ("de", "Ich mag keinen Regen, aber morgen fahren wir an den Strand.",
     "Ich mag keinen Regen, aber morgen (2026-12-07) fahren wir an den Strand."),
    ("de", "Der Laden öffnet nicht vor morgen.", "Der Laden öffnet nicht vor morgen (2026-12-07)."),
    ("fr", "Je n'aime pas la pluie, mais demain on va à la plage.",
     "Je n'aime pas la pluie, mais demain (2026-12-07) on va à la plage."),
    ("fr", "Le magasin n'ouvre pas avant demain.", "Le magasin n'ouvre pas avant demain (2026-12-07)."),
    ("pt", "Não gosto de chuva, mas amanhã vamos à praia.",
     "Não gosto de chuva, mas amanhã (2026-12-07) vamos à praia."),
    ("pt", "A loja não abre até amanhã.", "A loja não abre até amanhã (2026-12-07)."),
    ("it", "Non mi piace la pioggia, ma domani andiamo al mare.",
     "Non mi piace la pioggia, ma domani (2026-12-07) andiamo al mare."),
    ("it", "Il negozio non apre prima di domani.", "Il negozio non apre prima di domani (2026-12-07)."),
]


@pytest.mark.parametrize(("lang", "text", "expected"), CONTROLS)
def test_a_negation_that_does_not_cover_the_day_word_leaves_its_date(lang: str, text: str, expected: str) -> None:
    assert annotate_dates(text, said_on=SUNDAY, lang=lang) == expected
