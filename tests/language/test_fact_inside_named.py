"""A fact told inside a question, naming someone and a span of time with no digit (survival
eval, "inside" kind: "Ya que Lucía Abernethy está de guardia esta semana, ¿a quién llamo por la
noche?" stored nothing). Two causes: an interjection of the table cut the first word of a
longer fact lead ("ya" of "ya que"), and the clause after a lead was held to the test of a
whole sentence, where a capital opening it names nobody; after "since", "puisque", "da" it
does (in German, a bare capitalised word with no article before it). Controls: the same
clause after "if" (a supposition), a clause naming no one, a clause naming someone and no
time, a question opening on a question word."""

from __future__ import annotations

import pytest

from openclaw_tui.language import read_message
from tests.language.family_checks import expect, keeps, reads_as

NAMED = [
    ("en", "Since Kowalski is on call this week, who should I page at night?", "Kowalski"),
    ("en", "Since Anna Kowalski is the on-call lead this week, who should I page at night?", "Kowalski"),
    ("es", "Ya que Lucía Kowalski está de guardia esta semana, ¿a quién llamo por la noche?", "Kowalski"),
    ("es", "Ya que Kowalski está de guardia esta semana, ¿a quién llamo por la noche?", "Kowalski"),
    ("es", "Como Kowalski está de guardia este mes, ¿a quién aviso?", "Kowalski"),
    ("de", "Da Kowalski diese Woche Rufbereitschaft hat, wen rufe ich nachts an?", "Kowalski"),
    ("de", "Da Anna Kowalski diese Woche Rufbereitschaft hat, wen rufe ich nachts an?", "Kowalski"),
    ("fr", "Puisque Kowalski est d'astreinte cette semaine, qui dois-je appeler la nuit ?", "Kowalski"),
    ("fr", "Puisque Claire Kowalski est d'astreinte cette semaine, qui dois-je appeler la nuit ?", "Kowalski"),
    ("pt", "Já que Kowalski está de plantão esta semana, a quem ligo à noite?", "Kowalski"),
    ("pt", "Já que Ana Kowalski está de plantão esta semana, a quem ligo à noite?", "Kowalski"),
    ("it", "Dato che Kowalski è di reperibilità questa settimana, chi chiamo di notte?", "Kowalski"),
    ("it", "Dato che Marco Kowalski è di reperibilità questa settimana, chi chiamo di notte?", "Kowalski"),
]


@pytest.mark.parametrize("lang,text,name", NAMED)
def test_a_named_fact_for_a_time_inside_a_question_is_kept(lang: str, text: str, name: str) -> None:
    expect((text, name), reads_as(asks=True, language=lang) & keeps(1, fold=False))


CONTROLS = [
    ("en", "If Kowalski is on call this week, who should I page at night?"),
    ("en", "Since the weather is nice this week, should we go to the beach?"),
    ("en", "Since Kowalski is so reliable, who else should I ask?"),
    ("es", "Si Kowalski está de guardia esta semana, ¿a quién llamo por la noche?"),
    ("es", "Ya que hace buen tiempo esta semana, ¿vamos a la playa?"),
    ("es", "Ya que Kowalski es tan fiable, ¿a quién más pregunto?"),
    ("de", "Wenn Kowalski diese Woche Rufbereitschaft hat, wen rufe ich nachts an?"),
    ("de", "Da das Wetter diese Woche schön ist, sollen wir an den Strand?"),
    ("de", "Da Kowalski so zuverlässig ist, wen soll ich sonst fragen?"),
    ("fr", "Si Kowalski est d'astreinte cette semaine, qui dois-je appeler la nuit ?"),
    ("fr", "Puisque le temps est beau cette semaine, on va à la plage ?"),
    ("fr", "Puisque Kowalski est si fiable, qui d'autre dois-je appeler ?"),
    ("pt", "Se Kowalski está de plantão esta semana, a quem ligo à noite?"),
    ("pt", "Já que o tempo está bom esta semana, vamos à praia?"),
    ("pt", "Já que Kowalski é tão fiável, a quem mais pergunto?"),
    ("it", "Se Kowalski è di reperibilità questa settimana, chi chiamo di notte?"),
    ("it", "Dato che il tempo è bello questa settimana, andiamo al mare?"),
    ("it", "Dato che Kowalski è così affidabile, a chi altro chiedo?"),
]


@pytest.mark.parametrize("lang,text", CONTROLS)
def test_a_supposition_or_a_clause_naming_no_one_for_no_time_is_not_kept(lang: str, text: str) -> None:
    r = read_message(text)
    assert r.language == lang and r.asks
    assert not any("Kowalski" in f or "tiempo" in f or "Wetter" in f or "temps" in f or "tempo" in f or "weather" in f
                   for f in r.facts), r.facts


NAMED_LEADS = [
    ("en", "With Kowalski on call this week, who should I page at night?"),
    ("es", "Con Kowalski de guardia esta semana, ¿a quién llamo por la noche?"),
    ("de", "Wo Felix Kowalski diese Woche Rufbereitschaft hat, wen rufe ich nachts an?"),
    ("de", "Wo Kowalski diese Woche Rufbereitschaft hat, wen rufe ich nachts an?"),
    ("fr", "Avec Kowalski d'astreinte cette semaine, qui dois-je appeler la nuit ?"),
    ("pt", "Com o Kowalski de plantão esta semana, a quem ligo à noite?"),
    ("it", "Con Kowalski di reperibilità questa settimana, chi chiamo di notte?"),
]


@pytest.mark.parametrize("lang,text", NAMED_LEADS)
def test_a_lead_that_states_only_before_a_name_keeps_the_named_clause(lang: str, text: str) -> None:
    """"With Kowalski on call …", German causal "Wo Kowalski … hat, …": a lead that is a
    preposition or a question word elsewhere states a fact when a name follows it."""
    expect((text, "Kowalski"), reads_as(asks=True, language=lang) & keeps(1, fold=False))


NAMED_LEAD_CONTROLS = [
    ("en", "With the budget this week, what can we still do?"),
    ("es", "Con el presupuesto de esta semana, ¿qué podemos hacer?"),
    ("de", "Wo ist Kowalski diese Woche, weißt du das?"),
    ("de", "Wo finde ich diese Woche den Bericht, den Kowalski geschrieben hat?"),
    ("fr", "Avec le budget de cette semaine, qu'est-ce qu'on peut faire ?"),
    ("pt", "Com o orçamento desta semana, o que dá para fazer?"),
    ("it", "Con il budget di questa settimana, cosa possiamo fare?"),
]


@pytest.mark.parametrize("lang,text", NAMED_LEAD_CONTROLS)
def test_the_same_lead_before_no_name_states_nothing(lang: str, text: str) -> None:
    expect(text, reads_as(asks=True, facts=False, language=lang))
