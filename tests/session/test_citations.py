"""The Source: line the local profile adds to an answer drawn from memory (session/citations.py)."""

from __future__ import annotations

import pytest

from openclaw_tui.session.citations import best_citation, source_suffix

HITS = [
    {"snippet": "- Caroline: I went to the LGBTQ support group yesterday.", "citation": "memory/2023-05-08.md#L5-L9"},
    {"snippet": "- Melanie: I painted a lake at sunrise last weekend.", "citation": "memory/2023-05-25.md#L3-L4"},
]


def test_an_uncited_answer_gets_the_source_of_the_hit_it_draws_on() -> None:
    assert source_suffix("Melanie painted a lake at sunrise.", HITS) == "\n\nSource: memory/2023-05-25.md#L3-L4"
    assert best_citation("Caroline went to an LGBTQ support group.", HITS) == "memory/2023-05-08.md#L5-L9"


@pytest.mark.parametrize(
    "answer",
    [
        "Melanie painted a lake at sunrise.\n\nSource: memory/2023-05-25.md#L3-L4",
        "Melanie painted a lake at sunrise.\n**Source:** memory/2023-05-25.md#L3-L4",
        # written inline by the model: no second Source: line (it was added twice before)
        "Melanie painted a lake at sunrise (Source: memory/2023-05-25.md#L3-L4).",
        "Melanie painted a lake at sunrise [memory/2023-05-25.md#L3-L4].",
        "Melanie painted a lake at sunrise, see memory/2023-05-25.md#L3.",
        "Melanie painted a lake at sunrise. Sources: memory/2023-05-25.md",
    ],
)
def test_an_answer_that_cites_already_gets_nothing_added(answer: str) -> None:
    assert source_suffix(answer, HITS) == ""


@pytest.mark.parametrize("answer", ["", "   ", "Hello! How can I help?", "I could not find that."])
def test_no_source_for_an_answer_that_uses_no_hit(answer: str) -> None:
    assert source_suffix(answer, HITS) == ""


def test_hits_without_citations_add_nothing() -> None:
    hits = [{k: v for k, v in h.items() if k != "citation"} for h in HITS]
    assert source_suffix("Melanie painted a lake at sunrise.", hits) == ""


def test_shared_stopwords_alone_make_no_source() -> None:
    # the 0.5B's "could not answer" line shared only "that" and "from" with a snippet
    hit = {"snippet": "Caroline said that she moved from Sweden four years ago.", "citation": "memory/2023-05-08.md#L3-L9"}
    assert source_suffix("I could not answer that from what I found.", [hit]) == ""
    assert source_suffix("She moved from Sweden.", [hit]) == "\n\nSource: memory/2023-05-08.md#L3-L9"
