"""The automatic lookup's query (session/recall.py): a follow-up with no words of its own is
searched with the message it refers to."""

from __future__ import annotations

import pytest

from openclaw_tui.session.recall import QUERY_CAP, names_something, own_words, recall_query


@pytest.mark.parametrize(
    ("text", "previous", "expected"),
    [
        ("And when was that?", "What did Melanie paint?", "What did Melanie paint? And when was that?"),
        ("Why?", "Search your memory: where did Caroline move from?", "where did Caroline move from? Why?"),
        ("What about her?", "Who mentors the teen?", "Who mentors the teen? What about her?"),
        ("And what’s that? Didn't she?", "Melanie's pottery class", "Melanie's pottery class And what’s that? Didn't she?"),
        # a question with words of its own is searched with its own words only
        ("When is the launch?", "What colour did we pick for the logo?", "When is the launch?"),
        ("What's Caroline's identity?", "What did Melanie paint?", "What's Caroline's identity?"),
        ("Search your memory: what is Caroline's identity?", None, "what is Caroline's identity?"),
        # nothing to refer to: the follow-up as typed
        ("And when was that?", None, "And when was that?"),
        ("And when was that?", "   ", "And when was that?"),
    ],
)
def test_recall_query(text: str, previous: str | None, expected: str) -> None:
    assert recall_query(text, previous) == expected


def test_a_long_previous_message_keeps_its_end_and_the_whole_follow_up() -> None:
    previous = "x " * 400 + "Where did Caroline move from?"
    got = recall_query("And when?", previous)
    assert len(got) == QUERY_CAP and got.endswith("Where did Caroline move from? And when?")


@pytest.mark.parametrize(
    ("text", "words"),
    [("What's Caroline's identity?", ["caroline", "identity"]), ("And when was that?", []), ("Didn't she?", []),
     ("Tell me about the launch", ["tell", "launch"]), ("", [])],
)
def test_own_words(text: str, words: list[str]) -> None:
    assert own_words(text) == words


@pytest.mark.parametrize(
    ("text", "expected"),
    [("What did Melanie paint?", True), ("And when was that?", False), ("Search your memory: why?", False),
     ("Search your memory for the launch date", True)],
)
def test_names_something(text: str, expected: bool) -> None:
    assert names_something(text) is expected
