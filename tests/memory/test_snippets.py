"""Table tests for the query-focused snippet (``memory/snippets.py``, pure functions)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from openclaw_tui.memory.builtin import ranking
from openclaw_tui.memory.builtin import snippets as sn

FILLER = [f"- **Ann**: line {i} about the weather and nothing much " + "x" * 60 for i in range(30)]


def _doc(at: int, line: str) -> str:
    lines = list(FILLER)
    lines.insert(at, line)
    return "\n".join(lines)


def test_a_match_deep_in_the_chunk_is_shown():
    text = _doc(20, "- **Ann**: my dentist appointment moved to Friday")
    head = ranking.make_snippet(text)
    assert "dentist" not in head  # what the snippet showed before: the head of the chunk
    s = sn.focused_snippet(text, ["dentist", "appointment"])
    assert "- **Ann**: my dentist appointment moved to Friday" in s
    assert len(s) <= ranking.SNIPPET_MAX_CHARS
    assert s.startswith("…\n") and s.endswith("\n…")
    # whole lines only, besides the markers
    assert all(line in FILLER or "dentist" in line for line in s.split("\n")[1:-1])


def test_the_matching_line_sits_near_the_middle():
    text = _doc(20, "- **Ann**: my dentist appointment moved to Friday")
    lines = sn.focused_snippet(text, ["dentist"]).split("\n")[1:-1]
    pos = next(i for i, x in enumerate(lines) if "dentist" in x)
    assert abs(pos - (len(lines) - 1) / 2) <= 1


@pytest.mark.parametrize(
    "text, terms",
    [
        ("short text about the dentist", ["dentist"]),  # fits: unchanged
        (_doc(20, "nothing relevant here"), ["dentist"]),  # no line matches: the head
        (_doc(20, "my dentist"), []),  # no terms: the head
        ("x" * 2000, ["x"]),  # one line: the head, cut
    ],
)
def test_falls_back_to_the_head(text, terms):
    assert sn.focused_snippet(text, terms) == ranking.make_snippet(text)


def test_rare_terms_outweigh_common_ones():
    common = "- **Ann**: ann again " + "y" * 80
    lines = [common] * 12 + ["- **Bob**: the kickboxing class was hard " + "z" * 80] + [common] * 12
    text = "\n".join(lines)
    weights = sn.idf_weights(100, {"ann": 90, "kickboxing": 1})
    assert "kickboxing" in sn.focused_snippet(text, ["ann", "kickboxing"], weights)


@pytest.mark.parametrize(
    "lengths, scores, limit, expected",
    [
        ([10, 10, 10, 10], [0, 0, 1, 0], 21, (1, 2)),  # two lines fit; the earliest run holding the match
        ([10, 10, 10, 10], [1, 0, 0, 1], 21, (0, 1)),  # tie: the earlier run
        ([10, 10, 10, 10], [1, 0, 2, 2], 32, (1, 3)),  # three lines fit: the heaviest run
        ([50, 10], [0, 1], 20, (1, 1)),
        ([50, 10], [1, 0], 20, (0, 0)),  # a line longer than the limit is a run of its own
    ],
)
def test_best_window(lengths, scores, limit, expected):
    assert sn.best_window(lengths, scores, limit) == expected


@pytest.mark.parametrize(
    "lengths, first, last, limit, expected",
    [
        ([10, 10, 10, 10, 10], 2, 2, 32, (1, 3)),  # one after, then one before
        ([10, 10, 10, 10, 10], 4, 4, 32, (2, 4)),  # nothing after: before only
        ([10, 10, 10, 10, 10], 2, 2, 10, (2, 2)),
    ],
)
def test_widen(lengths, first, last, limit, expected):
    assert sn.widen(lengths, first, last, limit) == expected


def test_trim_to_scoring_ends():
    assert sn.trim([0, 1, 0, 2, 0], 0, 4) == (1, 3)
    assert sn.trim([0, 0, 0], 0, 2) == (2, 2)


def test_line_scores_use_coverage_rules_and_weights():
    lines = ["I went painting", "the 東京 trip", "nothing"]
    assert sn.line_scores(lines, ["paint", "東京"]) == [1.0, 1.0, 0.0]
    assert sn.line_scores(lines, ["paint"], {"paint": 2.5}) == [2.5, 0.0, 0.0]


def test_idf_weights():
    w = sn.idf_weights(10, {"rare": 1, "common": 9, "unknown": None})
    assert w["rare"] > w["common"] > 0
    assert math.isclose(w["unknown"], math.log(1 + 10.5 / 0.5))


@given(st.lists(st.text(alphabet="ab \n", max_size=120), min_size=1, max_size=40), st.sampled_from(["a", "ab", "b"]))
def test_never_over_the_limit(parts, term):
    text = "\n".join(parts)
    assert len(sn.focused_snippet(text, [term], limit=100)) <= 100


def test_stems_match_the_way_the_keyword_index_does():
    # the keyword index matched "camping" to "camped" by porter stems; the snippet follows it
    def stems(text):  # a stand-in for the index's tokenizer
        return ["camp" if w.startswith("camp") else w for w in sn.word_tokens(text)]

    lines = ["we camped by the lake", "a walk"]
    assert sn.line_scores(lines, ["camping"]) == [0.0, 0.0]
    assert sn.line_scores(lines, ["camping"], stems=stems) == [1.0, 0.0]
    text = _doc(20, "- **Ann**: we camped by the lake")
    assert sn.focused_snippet(text, ["camping"]) == ranking.make_snippet(text)
    assert "we camped by the lake" in sn.focused_snippet(text, ["camping"], stems=stems)


@pytest.mark.parametrize("text, words", [
    ("Don’t Stop at İzmir's port_2", ["don't", "stop", "at", "i̇zmir's", "port", "2"]),
    ("ÅSA  x__y 東京 123abc", ["åsa", "x", "y", "東京", "123abc"]),
    ("", []),
])
def test_word_tokens_are_lowercase_words_with_apostrophes_kept(text, words) -> None:
    from openclaw_tui.memory.builtin.query import word_tokens

    assert word_tokens(text) == words
