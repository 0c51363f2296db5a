"""A correction whose verb is a compound tense ("se ha cambiado", "has shifted", "hat sich
… verschoben", "s'est déplacée", "foi remarcada", "si è spostata") names what it replaces by
the words before the verb, so the old note is found and marked superseded (survival eval,
Spanish: "Corrección: la reunión de planificación se ha cambiado a la sala …" named
"cambiado" and "sala" too, found no note, and the old room was answered). Controls: a
correction about something else finds no note."""

from __future__ import annotations

import pytest

from openclaw_tui.language import Intent, read_message
from openclaw_tui.workspace.supersede import find_replaced

CASES = [
    ("en", "The planning meeting is in room 4.12.", "Correction: the planning meeting has shifted to room 5.07.",
     "Correction: the budget review has shifted to room 5.07."),
    ("en", "The team dinner starts at 19:00.", "Correction: the team dinner has been pushed to 20:30.",
     "Correction: the board call has been pushed to 20:30."),
    ("es", "La reunión de planificación es en la sala 4.12.",
     "Corrección: la reunión de planificación se ha cambiado a la sala 5.07.",
     "Corrección: la revisión del presupuesto se ha cambiado a la sala 5.07."),
    ("es", "La cena del equipo empieza a las 19:00.", "Corrección: la cena del equipo ha pasado a las 20:30.",
     "Corrección: la llamada del consejo ha pasado a las 20:30."),
    ("de", "Das Planungsmeeting ist in Raum 4.12.", "Korrektur: Das Planungsmeeting hat sich in Raum 5.07 verlagert.",
     "Korrektur: Die Budgetrunde hat sich in Raum 5.07 verlagert."),
    ("de", "Das Teamessen beginnt um 19:00 Uhr.", "Korrektur: Das Teamessen fängt um 20:30 Uhr an.",
     "Korrektur: Die Vorstandssitzung fängt um 20:30 Uhr an."),
    ("fr", "La réunion de planification a lieu dans la salle 4.12.",
     "Correction : la réunion de planification s'est déplacée dans la salle 5.07.",
     "Correction : la revue du budget s'est déplacée dans la salle 5.07."),
    ("fr", "Le dîner d'équipe commence à 19:00.", "Correction : le dîner d'équipe a été repoussé à 20:30.",
     "Correction : l'appel du conseil a été repoussé à 20:30."),
    ("pt", "A reunião de planeamento é na sala 4.12.", "Correção: a reunião de planeamento foi remarcada para a sala 5.07.",
     "Correção: a revisão do orçamento foi remarcada para a sala 5.07."),
    ("pt", "O jantar da equipa começa às 19:00.", "Correção: o jantar da equipa passou para as 20:30.",
     "Correção: a chamada do conselho passou para as 20:30."),
    ("it", "La riunione di pianificazione è nella sala 4.12.",
     "Correzione: la riunione di pianificazione si è trasferita nella sala 5.07.",
     "Correzione: la revisione del budget si è trasferita nella sala 5.07."),
    ("it", "La cena del team inizia alle 19:00.", "Correzione: la cena del team è slittata alle 20:30.",
     "Correzione: la chiamata del consiglio è slittata alle 20:30."),
]


def _note(statement: str) -> list[str]:
    (fact,) = read_message(statement).facts
    return ["# 2027-04-02", "", f"- User: {fact}"]


@pytest.mark.parametrize("lang,old,fix,other", CASES)
def test_a_compound_tense_correction_finds_the_old_note(lang: str, old: str, fix: str, other: str) -> None:
    r = read_message(fix)
    assert r.language == lang and r.intent is Intent.CORRECTION, (r.language, r.intent)
    assert find_replaced(_note(old), r.replaces) == 3, r.replaces


@pytest.mark.parametrize("lang,old,fix,other", CASES)
def test_a_correction_of_something_else_finds_no_note(lang: str, old: str, fix: str, other: str) -> None:
    r = read_message(other)
    assert r.intent is Intent.CORRECTION
    assert find_replaced(_note(old), r.replaces) is None, r.replaces


@pytest.mark.parametrize("old,fix", [
    ("We have 48 chairs in the new office.", "Correction: we have 74 chairs in the new office."),
    ("Wir haben 48 Stühle für das neue Büro bestellt.", "Korrektur: Wir haben 74 Stühle für das neue Büro bestellt."),
    ("Hemos pedido 48 sillas para la oficina nueva.", "Corrección: hemos pedido 74 sillas para la oficina nueva."),
    ("Nous avons commandé 48 chaises pour le nouveau bureau.", "Correction : nous avons commandé 74 chaises pour le nouveau bureau."),
    ("Nós temos 48 cadeiras no escritório novo.", "Correção: nós temos 74 cadeiras no escritório novo."),
    ("Abbiamo ordinato 48 sedie per il nuovo ufficio.", "Correzione: abbiamo ordinato 74 sedie per il nuovo ufficio."),
])
def test_a_pronoun_before_the_verb_leaves_the_words_after_it(old: str, fix: str) -> None:
    """Only a pronoun before the auxiliary ("we have", "wir haben"): what is corrected is named
    by the words after it, never by nothing."""
    r = read_message(fix)
    assert r.replaces and find_replaced(_note(old), r.replaces) == 3, r.replaces
