"""Sentences cut where they end, and nowhere else (abbreviations per language are data)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from openclaw_tui.language import lexicon
from openclaw_tui.language.sentences import spans, split


@pytest.mark.parametrize(("lang", "text", "expected"), [
    ("en", "The call is at 5 p.m. with Dr. Moreau. Bring the file.",
     ["The call is at 5 p.m. with Dr. Moreau.", "Bring the file."]),
    ("en", "We met Mr. J. R. Hartley at 9.40 today. He paid $3.50!", ["We met Mr. J. R. Hartley at 9.40 today.", "He paid $3.50!"]),
    ("en", "Is it Tuesday? It is.", ["Is it Tuesday?", "It is."]),
    ("en", "first line\nsecond line", ["first line", "second line"]),
    ("es", "Mi dentista es la Dra. Ruiz. Vive en Madrid.", ["Mi dentista es la Dra. Ruiz.", "Vive en Madrid."]),
    ("es", "La Sra. Gómez llega a las 5 p. m. con el Sr. Díaz.", ["La Sra. Gómez llega a las 5 p. m. con el Sr. Díaz."]),
    ("de", "Wir brauchen z. B. 12 Stühle am 3. Mai. Danach nicht mehr.",
     ["Wir brauchen z. B. 12 Stühle am 3. Mai.", "Danach nicht mehr."]),
    ("de", "Frau Dr. Weber kommt um 9 Uhr. Bitte pünktlich.", ["Frau Dr. Weber kommt um 9 Uhr.", "Bitte pünktlich."]),
    ("fr", "J'ai rendez-vous avec M. Dupont. C'est à 15 h.", ["J'ai rendez-vous avec M. Dupont.", "C'est à 15 h."]),
    ("pt", "A consulta com a Dra. Costa é às 10h. Não posso faltar.", ["A consulta com a Dra. Costa é às 10h.", "Não posso faltar."]),
    ("it", "Ho appuntamento con il Sig. Rossi e il Dott. Bianchi. Alle 10.",
     ["Ho appuntamento con il Sig. Rossi e il Dott. Bianchi.", "Alle 10."]),
])
def test_split(lang: str, text: str, expected: list[str]) -> None:
    assert split(text, lexicon(lang)) == expected


def test_an_abbreviation_of_one_language_is_a_sentence_end_in_another() -> None:
    # "Sig." is Italian: in English "Sig. Rossi" is read as two sentences
    assert len(split("I met Sig. Rossi today.", lexicon("en"))) == 2
    assert len(split("Ho visto il Sig. Rossi oggi.", lexicon("it"))) == 1


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200), st.sampled_from(["en", "es", "de", "fr", "pt", "it"]))
def test_sentences_are_the_text_in_order_without_losing_a_character(text: str, lang: str) -> None:
    cut = spans(text, lexicon(lang))
    assert all(a < b for a, b in cut) and all(b1 <= a2 for (_, b1), (a2, _) in zip(cut, cut[1:]))
    rebuilt = "".join(text[a:b] for a, b in cut)
    assert "".join(rebuilt.split()) == "".join(text.split())
