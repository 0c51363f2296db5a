"""Relative dates: the user's words stay, an absolute date is added beside them only when certain."""

from __future__ import annotations

import re
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openclaw_tui.language.dates import (
    Kind,
    Tense,
    tokens,
    annotate_dates,
    date_mentions,
    date_table,
    relative_expressions,
    sentence_tense,
)

SUNDAY = date(2026, 12, 6)  # the day of the examples
LANGS = ("en", "es", "de", "fr", "pt", "it")

# (lang, text said on SUNDAY, expected output)
CASES = [
    # the four wrong examples
    ("en", "I had dinner with Ana on Monday.", "I had dinner with Ana on Monday (2026-11-30)."),
    ("en", "I went to the dentist on Monday.", "I went to the dentist on Monday (2026-11-30)."),
    ("en", "The offsite is on Thursday the 12th.", "The offsite is on Thursday the 12th."),  # no upcoming Thursday the 12th
    ("en", "Delivery is on Friday 2026-12-11.", "Delivery is on Friday 2026-12-11."),
    ("es", "Ayer vi a Ana.", "Ayer (2026-12-05) vi a Ana."),
    ("de", "Gestern war ich in Berlin.", "Gestern (2026-12-05) war ich in Berlin."),
    # English
    ("en", "I met Ana yesterday.", "I met Ana yesterday (2026-12-05)."),
    ("en", "We fly next Tuesday.", "We fly next Tuesday (2026-12-08)."),
    ("en", "I paid last Monday.", "I paid last Monday (2026-11-30)."),
    ("en", "I will call her on Monday.", "I will call her on Monday (2026-12-07)."),
    ("en", "The party is on Monday.", "The party is on Monday."),  # tense not certain
    ("en", "I booked a table for Monday.", "I booked a table for Monday."),
    ("en", "I said I would come on Friday.", "I said I would come on Friday."),
    ("en", "The last Monday of the month is free.", "The last Monday of the month is free."),
    ("en", "Friday, December 11 is the delivery.", "Friday, December 11 is the delivery."),
    ("en", "Thursday 10 am works for me.", "Thursday 10 am works for me."),
    ("en", "We met 3 days ago.", "We met 3 days ago (2026-12-03)."),
    ("en", "We meet again in two weeks.", "We meet again in two weeks (2026-12-20)."),
    ("en", "I finished it in 3 days.", "I finished it in 3 days."),  # a duration
    ("en", "Next week is busy.", "Next week (week of 2026-12-07) is busy."),
    ("en", "Last week was quiet.", "Last week (week of 2026-11-23) was quiet."),
    ("en", "I saw him the day before yesterday.", "I saw him the day before yesterday (2026-12-04)."),
    ("en", "I went there on Sunday.", "I went there on Sunday."),  # said on a Sunday: which one?
    ("en", "My son was born on a Monday.", "My son was born on a Monday."),
    ("en", "Last Friday I got the keys; next Friday I move in.",
     "Last Friday (2026-12-04) I got the keys; next Friday (2026-12-11) I move in."),
    ("en", "I met her on Monday and will see her on Friday.",
     "I met her on Monday (2026-11-30) and will see her on Friday (2026-12-11)."),
    ("en", "I met her on Monday, will see her on Friday.", "I met her on Monday, will see her on Friday."),  # mixed
    ("en", "We had lunch in the sun on Monday.", "We had lunch in the sun on Monday (2026-11-30)."),
    # Spanish
    ("es", "El próximo lunes vuelo a Lima.", "El próximo lunes (2026-12-07) vuelo a Lima."),
    ("es", "El lunes que viene tengo médico.", "El lunes que viene (2026-12-07) tengo médico."),
    ("es", "Llegó el lunes pasado.", "Llegó el lunes pasado (2026-11-30)."),
    ("es", "Llegó el lunes.", "Llegó el lunes (2026-11-30)."),
    ("es", "Hace 3 días cené con Ana.", "Hace 3 días (2026-12-03) cené con Ana."),
    ("es", "La semana que viene estoy fuera.", "La semana que viene (semana del 2026-12-07) estoy fuera."),
    ("es", "Mañana por la mañana llamo.", "Mañana (2026-12-07) por la mañana llamo."),
    ("es", "Hoy en día nadie escribe cartas.", "Hoy en día nadie escribe cartas."),
    ("es", "La entrega es el viernes 11 de diciembre.", "La entrega es el viernes 11 de diciembre."),
    ("es", "Pasado mañana me mudo.", "Pasado mañana (2026-12-08) me mudo."),
    ("es", "El lunes fui al médico y el martes iré al dentista.",
     "El lunes (2026-11-30) fui al médico y el martes (2026-12-08) iré al dentista."),
    ("es", "El lunes fui al médico y el martes al dentista.", "El lunes (2026-11-30) fui al médico y el martes al dentista."),
    # German
    ("de", "Nächsten Montag fliege ich.", "Nächsten Montag (2026-12-07) fliege ich."),
    ("de", "Vor 3 Tagen habe ich Ana getroffen.", "Vor 3 Tagen (2026-12-03) habe ich Ana getroffen."),
    ("de", "Ich habe am Montag gearbeitet.", "Ich habe am Montag (2026-11-30) gearbeitet."),
    ("de", "Guten Morgen! Morgen komme ich.", "Guten Morgen! Morgen (2026-12-07) komme ich."),
    ("de", "Am Montag habe ich einen Termin.", "Am Montag habe ich einen Termin."),  # "habe" alone: possession
    ("de", "Die Lieferung ist am Freitag, den 11. Dezember.", "Die Lieferung ist am Freitag, den 11. Dezember."),
    ("de", "Nächste Woche bin ich in Rom.", "Nächste Woche (Woche vom 2026-12-07) bin ich in Rom."),
    ("de", "Vorgestern war es kalt.", "Vorgestern (2026-12-04) war es kalt."),
    # French
    ("fr", "Hier j'ai vu Marie.", "Hier (2026-12-05) j'ai vu Marie."),
    ("fr", "Lundi prochain je pars.", "Lundi prochain (2026-12-07) je pars."),
    ("fr", "Il y a 3 jours j'étais malade.", "Il y a 3 jours (2026-12-03) j'étais malade."),
    ("fr", "J'ai rencontré Paul lundi.", "J'ai rencontré Paul lundi (2026-11-30)."),
    ("fr", "La semaine prochaine je suis libre.", "La semaine prochaine (semaine du 2026-12-07) je suis libre."),
    ("fr", "Aujourd'hui il pleut.", "Aujourd'hui (2026-12-06) il pleut."),
    ("fr", "La livraison est vendredi 11 décembre.", "La livraison est vendredi 11 décembre."),
    ("fr", "Avant-hier on a dîné ensemble.", "Avant-hier (2026-12-04) on a dîné ensemble."),
    ("fr", "Le lundi je vais à la piscine.", "Le lundi je vais à la piscine."),  # every Monday
    ("fr", "Je partirai mardi.", "Je partirai mardi (2026-12-08)."),
    # Portuguese
    ("pt", "Ontem fui ao cinema.", "Ontem (2026-12-05) fui ao cinema."),
    ("pt", "Na próxima segunda vou viajar.", "Na próxima segunda (2026-12-07) vou viajar."),
    ("pt", "Fui na segunda passada.", "Fui na segunda passada (2026-11-30)."),
    ("pt", "A segunda vez foi melhor.", "A segunda vez foi melhor."),  # "second", not Monday
    ("pt", "Há 3 dias comecei a correr.", "Há 3 dias (2026-12-03) comecei a correr."),
    ("pt", "Semana que vem estou de férias.", "Semana que vem (semana de 2026-12-07) estou de férias."),
    ("pt", "A entrega é sexta-feira, dia 11 de dezembro.", "A entrega é sexta-feira, dia 11 de dezembro."),
    # Italian
    ("it", "Ieri ho visto Marco.", "Ieri (2026-12-05) ho visto Marco."),
    ("it", "Lunedì prossimo parto.", "Lunedì prossimo (2026-12-07) parto."),
    ("it", "Ho mangiato con lei lunedì.", "Ho mangiato con lei lunedì (2026-11-30)."),
    ("it", "3 giorni fa ho chiamato.", "3 giorni fa (2026-12-03) ho chiamato."),
    ("it", "L'altro ieri pioveva.", "L'altro ieri (2026-12-04) pioveva."),
    ("it", "La settimana prossima sono a Roma.", "La settimana prossima (settimana del 2026-12-07) sono a Roma."),
    ("it", "Ho una partita lunedì.", "Ho una partita lunedì."),  # a noun in -ita is no participle
    ("it", "La consegna è venerdì 11 dicembre.", "La consegna è venerdì 11 dicembre."),
]


@pytest.mark.parametrize(("lang", "text", "expected"), CASES)
def test_annotates_only_what_is_certain(lang: str, text: str, expected: str) -> None:
    assert annotate_dates(text, said_on=SUNDAY, lang=lang) == expected


# weekday + day of month: the date only when that weekday falls on that day, said on 2026-11-01
NOV_1 = date(2026, 11, 1)
DAY_OF_MONTH = [
    ("en", "The offsite is on Thursday the 12th.", "2026-11-12"),
    ("en", "The offsite is on Friday the 12th.", None),  # 12 Nov is a Thursday; no Friday the 12th ahead
    ("es", "La fiesta es el jueves 12.", "2026-11-12"),
    ("de", "Das Treffen ist am Donnerstag, den 12.", "2026-11-12"),
    ("fr", "La fête est jeudi 12.", "2026-11-12"),
    ("pt", "A festa é na quinta-feira, dia 12.", "2026-11-12"),
    ("it", "La festa è giovedì 12.", "2026-11-12"),
    ("it", "La festa è mercoledì 12.", None),
    ("en", "Offsite: Thu. 12th, all day.", "2026-11-12"),
    ("de", "Treffen: Do, den 12.", "2026-11-12"),
    ("en", "Wed 12th is free.", None),  # 12 Nov is a Thursday
]


@pytest.mark.parametrize(("lang", "text", "iso"), DAY_OF_MONTH)
def test_weekday_with_day_of_month_only_when_they_agree(lang: str, text: str, iso: str | None) -> None:
    out = annotate_dates(text, said_on=NOV_1, lang=lang)
    if iso is None:
        assert out == text
    else:
        assert f"({iso})" in out and out.replace(f" ({iso})", "") == text


def test_past_tense_day_of_month_looks_back() -> None:
    # said on Sunday 2026-12-06: the only Thursday the 12th within six months is behind us
    assert annotate_dates("The offsite was on Thursday the 12th.", said_on=SUNDAY, lang="en") == \
        "The offsite was on Thursday the 12th (2026-11-12)."


@pytest.mark.parametrize("lang", LANGS)
def test_every_table_loads_with_seven_weekdays_and_twelve_months(lang: str) -> None:
    table = date_table(lang)
    assert table is not None and table.language == lang
    assert {wd for _, wd in table.weekdays} == set(range(7))
    assert table.week_label and table.relative_days


def test_unknown_language_leaves_text_alone() -> None:
    assert date_table("xx") is None
    assert annotate_dates("ayer yesterday gestern", said_on=SUNDAY, lang="xx") == "ayer yesterday gestern"
    assert date_table("pt-BR") is date_table("pt")


def test_relative_expressions_lists_the_words() -> None:
    assert relative_expressions("El lunes que viene y ayer, hace dos semanas.", "es") == \
        ("lunes que viene", "ayer", "hace dos semanas")


@pytest.mark.parametrize(("lang", "text", "tense"), [
    ("en", "I went there", Tense.PAST), ("en", "I will go", Tense.FUTURE), ("en", "I go", Tense.UNKNOWN),
    ("es", "Llegó tarde", Tense.PAST), ("es", "Llegará tarde", Tense.FUTURE), ("es", "He comido", Tense.PAST),
    ("de", "Ich habe gearbeitet", Tense.PAST), ("de", "Ich werde arbeiten", Tense.FUTURE),
    ("de", "Die Gesellschaft", Tense.UNKNOWN),
    ("fr", "J'ai mangé", Tense.PAST), ("fr", "Je partirai", Tense.FUTURE), ("fr", "J'ai un café", Tense.UNKNOWN),
    ("pt", "Ele falou", Tense.PAST), ("pt", "Eu estou aqui", Tense.UNKNOWN), ("pt", "Ele falará", Tense.FUTURE),
    ("it", "Ho mangiato", Tense.PAST), ("it", "Farò la spesa", Tense.FUTURE), ("it", "Ho una partita", Tense.UNKNOWN),
    ("en", "I booked it", Tense.UNKNOWN),
])
def test_sentence_tense_from_cue_words(lang: str, text: str, tense: Tense) -> None:
    table = date_table(lang)
    assert table is not None
    assert sentence_tense(tokens(text), table.tense) is tense


# ---------------------------------------------------------------- properties

_INSERTION = re.compile(r" \([^()\d]{0,30}\d{4}-\d{2}-\d{2}\)")


def _only_insertions(original: str, out: str) -> bool:
    """``out`` is ``original`` with zero or more `` (… YYYY-MM-DD)`` pieces inserted."""
    i = j = 0
    while j < len(out):
        m = _INSERTION.match(out, j)
        if m and not original.startswith(m.group(), i):
            j = m.end()
        elif i < len(original) and original[i] == out[j]:
            i, j = i + 1, j + 1
        else:
            return False
    return i == len(original)


def _fragments(lang: str) -> list[str]:
    table = date_table(lang)
    assert table is not None
    words = [" ".join(w) for w, _ in table.weekdays] + [" ".join(w) for w, _ in table.relative_days]
    words += [" ".join(w) for w, _ in table.modifiers_before + table.modifiers_after]
    words += sorted(table.week_words) + sorted(table.day_units) + sorted(table.numbers)
    words += [" ".join(w) for w, _ in table.count_before + table.count_after]
    words += [" ".join(w) for w in table.tense.past_words[:8] + table.tense.future_words[:8]]
    return words + ["12", "12th", "the", "dia", "den", "11", "2026-12-11", "(2026-12-05)", ",", ".", "3", "December",
                    "diciembre", "Dezember", "x", "Ana"]


@st.composite
def _sentences(draw: st.DrawFn) -> tuple[str, str, date]:
    lang = draw(st.sampled_from(LANGS))
    parts = draw(st.lists(st.sampled_from(_fragments(lang)), min_size=1, max_size=12))
    seps = draw(st.lists(st.sampled_from([" ", " ", ", ", ". ", "-", "\n"]), min_size=len(parts), max_size=len(parts)))
    text = "".join(p + s for p, s in zip(parts, seps))
    if draw(st.booleans()):
        text = text.capitalize()
    said = draw(st.dates(min_value=date(2000, 1, 1), max_value=date(2090, 12, 31)))
    return lang, text, said


PROPS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(_sentences())
def test_output_keeps_every_word_in_order(case: tuple[str, str, date]) -> None:
    lang, text, said = case
    assert _only_insertions(text, annotate_dates(text, said_on=said, lang=lang))


@PROPS
@given(_sentences())
def test_annotating_twice_changes_nothing(case: tuple[str, str, date]) -> None:
    lang, text, said = case
    once = annotate_dates(text, said_on=said, lang=lang)
    assert annotate_dates(once, said_on=said, lang=lang) == once


@PROPS
@given(_sentences())
def test_no_date_contradicts_the_named_weekday(case: tuple[str, str, date]) -> None:
    lang, text, said = case
    for m in date_mentions(text, said_on=said, lang=lang):
        if m.when is not None and m.weekday is not None and m.kind is Kind.WEEKDAY:
            assert m.when.weekday() == m.weekday, m
            assert abs((m.when - said).days) <= 183
        if m.when is not None and m.kind is Kind.WEEK:
            assert m.when.weekday() == 0 and abs((m.when - said).days) <= 13


@PROPS
@given(st.text(max_size=200), st.sampled_from(LANGS + ("xx", "")), st.dates())
def test_never_raises_on_any_text(text: str, lang: str, said: date) -> None:
    out = annotate_dates(text, said_on=said, lang=lang)
    assert _only_insertions(text, out)


def test_dates_near_the_calendar_edges_do_not_raise() -> None:
    text = "I met her yesterday and will see her tomorrow, next Monday and in 3 weeks."
    assert annotate_dates(text, said_on=date(1, 1, 1), lang="en") == \
        "I met her yesterday and will see her tomorrow (0001-01-02), next Monday (0001-01-08) and in 3 weeks (0001-01-22)."
    assert annotate_dates(text, said_on=date(9999, 12, 31), lang="en") == \
        "I met her yesterday (9999-12-30) and will see her tomorrow, next Monday and in 3 weeks."
