"""Reading replies and notes for values: tokens however written, dates in six languages,
the old value of a correction, and notes whose dates are wrong or contradict themselves."""

from __future__ import annotations

from datetime import date

import pytest

from openclaw_tui.evals.answers import contains, current, dates_in, gives_stale, holds, wrong_date
from openclaw_tui.evals.conversations import Fact

DATE = Fact("dates", "Ayer firmamos el contrato K-1234.", "¿Cuándo firmamos el contrato K-1234?", "2026-12-05",
            alt=("ayer",), key="K-1234")
ROOM = Fact("corrections", "La reunión es en la sala C297.", "¿En qué sala es la reunión?", "E266", stale="C297",
            correction="Corrección: la reunión se ha cambiado a la sala E266.")
TIME = Fact("facts", "Tomas picks up the van at 5:40 pm.", "When?", "5:40 pm", forms=("17:40", "17h40", "5:40pm"))


@pytest.mark.parametrize(("reply", "ok"), [
    ("Firmamos el contrato el 5 de diciembre de 2026.", True),
    ("Am 5. Dezember 2026.", True),
    ("Le 5 décembre.", True),
    ("A 5 de dezembro de 2026.", True),
    ("Il 5 dicembre 2026.", True),
    ("On December 5th, 2026.", True),
    ("2026-12-05", True),
    ("5/12/2026", True),
    ("Lo firmamos ayer.", True),  # the user's words: the run stays on the day they were said
    ("El 5 de diciembre de 2025.", False),
    ("El 15 de diciembre.", False),
    ("No lo sé.\n\nSource: memory/2026-12-05.md#L1", False),
])
def test_a_date_answer_in_any_language(reply: str, ok: bool) -> None:
    assert holds(reply, DATE, alt=True) is ok


def test_the_users_words_count_only_when_asked() -> None:
    assert holds("ayer", DATE, alt=True) and not holds("ayer", DATE)


@pytest.mark.parametrize(("reply", "ok"), [
    ("At 5:40 p.m.", True), ("Um 17:40 Uhr.", True), ("à 17h40", True), ("at 5:40", False), ("at 15:40", False),
])
def test_a_time_however_written(reply: str, ok: bool) -> None:
    assert holds(reply, TIME) is ok


@pytest.mark.parametrize(("text", "token", "ok"), [
    ("Das Budget beträgt 43.500 Euro.", "43,500", True),
    ("le budget est de 43 500 euros", "43.500", True),
    ("year 2045", "45", False),
    ("room E2661", "E266", False),
    ("we ordered 45 chairs", "45", True),
])
def test_a_value_of_its_own(text: str, token: str, ok: bool) -> None:
    assert contains(text, token) is ok


def test_a_correction_is_answered_with_the_new_value_only() -> None:
    assert current("En la sala E266.", ROOM)
    assert not current("En la sala C297.", ROOM)
    both = "> - User: La reunión es en la sala C297.\n> - User: se ha cambiado a la sala E266."
    assert holds(both, ROOM) and gives_stale(both, ROOM) and not current(both, ROOM)


def test_dates_in_reads_every_language_and_both_numeric_orders() -> None:
    assert dates_in("7. Dezember 2026") == {(2026, 12, 7)}
    assert dates_in("7 de dezembro") == {(None, 12, 7)}
    assert dates_in("4/12/2026") == {(2026, 12, 4), (2026, 4, 12)}
    assert dates_in("um 16.05 Uhr, Raum 12/3") == set()


SAID = date(2026, 12, 6)  # a Sunday
MONDAY_PAST = date(2026, 11, 30)


@pytest.mark.parametrize(("notes", "wrong"), [
    (["- User: We closed incident R-1 on Monday."], False),  # the words kept, no date added
    (["- User: We closed incident R-1 on Monday 2026-11-30."], False),
    (["- User: Cerré la incidencia R-1 el lunes (30 de noviembre de 2026)."], False),
    (["- User: We closed incident R-1 on Monday 2026-12-07."], True),  # the case: a future date for a past event
    (["- User: We closed incident R-1 on Monday 2026-11-30 2026-12-07."], True),  # two days for one expression
    (["- User: on Monday 2026-11-30", "- User: on Monday (7 December 2026)"], True),
    (["- User: on Monday <!-- observed: 2026-12-06 | status: active -->"], False),  # a marker is not the note's words
    (["- (2026-12-06) We closed incident R-1 on Monday."], False),  # the said-on day of a redirected append
    (["- User: Am Montag, 30. November 2025."], True),  # another year
])
def test_a_note_with_a_wrong_or_second_date_is_wrong(notes: list[str], wrong: bool) -> None:
    assert wrong_date(notes, MONDAY_PAST) is wrong
