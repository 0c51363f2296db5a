"""The word tables outside the reader (stopwords, function words, cues, month names) and the
consumers that take them: queries, compaction's fallback, the summary, reply and own-call
checks. Tables of cases in the six languages."""

from __future__ import annotations

import pytest

from openclaw_tui.language.lexicon import TABLES
from openclaw_tui.language.stopwords import ALL, LANGUAGES, stopwords
from openclaw_tui.language.words import (PHRASE_PURPOSES, WORD_PURPOSES, cue_phrases, cues, function_words,
                                         month_numbers)
from openclaw_tui.llm.toolcall_text import recover_tool_calls
from openclaw_tui.memory.builtin.query import query_dates, query_terms
from openclaw_tui.session.compaction import extractive_summary
from openclaw_tui.session.own_calls import context_for, is_own_call
from openclaw_tui.session.reply_check import answer_words, claims_save
from openclaw_tui.session.summary_check import check_summary, identifiers


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_stopword_file_loads_lowercase_words(lang: str) -> None:
    words = stopwords(lang)
    assert len(words) >= 40
    assert all(w == w.lower() and " " not in w for w in words)


@pytest.mark.parametrize("lang", TABLES)
def test_every_table_language_has_every_cue_purpose_and_function_words(lang: str) -> None:
    for purpose in PHRASE_PURPOSES + ("summary_words", "frame_words"):
        assert cue_phrases(purpose, lang), (lang, purpose)
    assert len(function_words((lang,))) >= 30


@pytest.mark.parametrize(("query", "dropped", "kept"), [
    ("Was hat die Katze gestern gegessen?", {"gestern", "was"}, {"katze", "gegessen"}),
    ("Qu'est-ce que le médecin a dit hier ?", {"le", "hier"}, {"médecin", "dit"}),
    ("Che cosa ha detto il dentista ieri?", {"il", "ieri", "che"}, {"dentista", "detto"}),
    ("die hard sequel", set(), {"die", "hard", "sequel"}),  # an English word stays a term
    ("son of the mayor", set(), {"son", "mayor"}),
])
def test_query_terms_drop_german_french_italian_stopwords_but_not_english_words(query: str, dropped: set[str],
                                                                                 kept: set[str]) -> None:
    terms = set(query_terms(query))
    assert not terms & dropped and kept <= terms
    assert dropped <= ALL


@pytest.mark.parametrize(("query", "expected"), [
    ("what happened on October 13, 2023?", [(2023, 10, 13)]),
    ("the 3rd of March", [(None, 3, 3)]),
    ("¿Qué pasó el 13 de marzo?", [(None, 3, 13)]),
    ("Was war am 3. März 2024?", [(2024, 3, 3)]),
    ("le 1er mai", [(None, 5, 1)]),
    ("il 5 settembre", [(None, 9, 5)]),
    ("no dia 7 de agosto", [(None, 8, 7)]),
    ("12 out of 20 people", []),  # Portuguese "out" (October) is an English stopword: no date
    ("30 de febrero", []),  # impossible days are dropped
])
def test_query_dates_in_six_languages(query: str, expected: list[tuple[int | None, int, int]]) -> None:
    assert query_dates(query) == expected


def test_month_names_come_from_the_date_tables() -> None:
    months = month_numbers()
    assert (months["marz"], months["fevrier"], months["dicembre"], months["outubro"]) == (3, 2, 12, 10)


@pytest.mark.parametrize(("sentence", "purpose"), [
    ("Prefiero reuniones por la mañana.", "preference"),
    ("Hemos decidido usar Postgres.", "decision"),
    ("Nächster Schritt: das Backup prüfen.", "todo"),
    ("Nous avons décidé de partir lundi.", "decision"),
    ("Preferisco il tè.", "preference"),
    ("Tenho que renovar o passaporte.", "todo"),
    ("We settled on blue-green deploys.", "decision"),
])
def test_cue_phrases_find_their_sentences(sentence: str, purpose: str) -> None:
    assert cues(purpose).search(sentence)
    others = [p for p in ("preference", "decision", "todo") if p != purpose]
    assert not any(cues(p, TABLES).search("Das Wetter ist schön.") for p in others)


def test_extractive_summary_sorts_spanish_sentences_by_their_cues() -> None:
    rendered = ("User: Quiero migrar la facturación. Prefiero despliegues azul-verde.\n"
                "Assistant: Hemos decidido usar pgbouncer. Próximo paso: actualizar config/db.yaml.")
    summary = extractive_summary(rendered)
    sections = {block.split("\n")[0]: block for block in summary.split("## ") if block}
    assert "Prefiero despliegues azul-verde." in sections["Constraints and preferences"]
    assert "Hemos decidido usar pgbouncer." in sections["Decisions"]
    assert "Próximo paso: actualizar config/db.yaml." in sections["Open todos"]


def test_names_in_any_script_and_no_names_from_german_nouns() -> None:
    assert identifiers("Cené con José en Málaga, luego Ana Souza llegó.") == ["José", "Málaga", "Ana Souza"]
    german = "User: Das Wetter ist heute schön und die Besprechung mit dem Team ist um 9 Uhr."
    assert check_summary("- Besprechung um 9 Uhr", german).missing == []
    english = "User: I had lunch with Marta at noon."
    assert check_summary("- Lunch at noon.", english).missing == ["Marta"]


@pytest.mark.parametrize(("reply", "said"), [
    ("Sí, según tus notas.", set()),
    ("Ja, laut deinen Notizen.", set()),
    ("Oui, selon tes notes : Lisbonne.", {"lisbonne"}),
    ("Yes, according to your notes: Teal.", {"teal"}),
])
def test_frame_words_say_how_not_what_in_every_language(reply: str, said: set[str]) -> None:
    assert answer_words(reply) == said


@pytest.mark.parametrize(("reply", "claims"), [
    ("I've saved it to your notes.", True),
    ("Lo he guardado en tus notas.", True),
    ("Do you remember where we put the keys?", False),
])
def test_save_claims_are_the_reply_reading(reply: str, claims: bool) -> None:
    assert claims_save(reply) is claims


@pytest.mark.parametrize(("lead", "own"), [
    ("Por ejemplo, así: ", False),
    ("Zum Beispiel: ", False),
    ("Par exemple : ", False),
    ("Saving it now: ", True),
])
def test_a_call_presented_as_an_example_does_not_run_in_any_language(lead: str, own: bool) -> None:
    tools = [{"type": "function", "function": {"name": "append", "parameters": {"type": "object"}}}]
    text = lead + '{"name": "append", "arguments": {"path": "memory/x.md", "content": "- a"}}'
    call = recover_tool_calls(text, tools).calls[0]
    ctx = context_for([{"role": "user", "content": "Guarda esto por favor."}], tools)
    assert is_own_call(ctx, call, text) is own


@pytest.mark.parametrize(("ask", "asks"), [
    ("¿Cómo se ve una llamada a la herramienta append en json?", True),
    ("Wie sieht der Aufruf als JSON aus? Zeig ein Beispiel.", True),
    ("Guarda que mi vuelo sale a las 9.", False),
])
def test_a_user_asking_what_a_call_looks_like_in_any_language(ask: str, asks: bool) -> None:
    tools = [{"type": "function", "function": {"name": "append", "parameters": {"type": "object"}}}]
    assert context_for([{"role": "user", "content": ask}], tools).asks_for_format is asks


def test_word_purposes_are_known() -> None:
    with pytest.raises(KeyError):
        cues("summary_words")
    assert "day_month_joiners" in WORD_PURPOSES
