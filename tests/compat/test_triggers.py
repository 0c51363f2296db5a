"""memory/triggers.py: entries and annotations, the trigger score and its 0.72 threshold,
the cap of 3, importance in ranking (trigger recall and memory_search), privacy."""

from __future__ import annotations

import pytest

from openclaw_tui.memory.triggers import (
    THRESHOLD, Entry, importance_boost, match_triggers, parse_entries, phrase_score, triggered_for, word_similarity, words,
)
from tests.memory.conftest import keyword_manager, make_settings, managers, workspace, write  # noqa: F401

DOC = """# Memory

- Quarterly taxes go through the accountant <!-- trigger: taxes, tax return -->
  <!-- importance: 8 -->
- Deploys happen on Fridays
<!-- trigger: deploy -->

<!-- trigger: birthday -->
<!-- importance: 2 -->
- Mum's birthday is 3 May

A paragraph about the cat
continued here. <!-- trigger: cat food -->

```
- inside code <!-- trigger: taxes -->
```
- plain entry
"""


def test_entries_and_annotations():
    got = [(e.start, e.end, e.triggers, e.importance) for e in parse_entries(DOC, "MEMORY.md")]
    assert got == [
        (3, 4, ("taxes", "tax return"), 8.0),  # a note line directly below joins the entry
        (5, 6, ("deploy",), None),
        (8, 10, ("birthday",), 2.0),  # note lines directly above the entry they precede
        (12, 13, ("cat food",), None),  # a paragraph
        (18, 18, (), None),  # fenced code is no entry; its annotation counts for nothing
    ]
    first = parse_entries(DOC, "MEMORY.md")[0]
    assert first.text == "- Quarterly taxes go through the accountant"  # annotations left out


@pytest.mark.parametrize(
    "a,b,expected",
    [("tax", "tax", 1.0), ("deploy", "deploying", 0.8), ("taxes", "tax", 0.75), ("deploys", "deploy", 12 / 13),
     ("cat", "car", 0.0), ("food", "foods", 8 / 9), ("boat", "coat", 0.0), ("birthday", "birthdays", 16 / 17)],
)
def test_word_similarity(a, b, expected):
    assert word_similarity(a, b) == pytest.approx(expected)


@pytest.mark.parametrize(
    "phrase,message,triggered",
    [
        ("tax return", "did I file the tax return?", True),  # 1.0
        ("tax return", "tax stuff only", False),  # 0.5: every word of a phrase must be there
        ("deploy", "we are deploying today", True),  # 0.8
        ("cat food", "car foods", False),
        ("the gym", "going to the gym", True),  # function words are dropped from the phrase
        ("birthday", "two birthdays this week", True),
    ],
)
def test_phrase_score_threshold(phrase, message, triggered):
    assert (phrase_score(phrase, words(message)) >= THRESHOLD) is triggered


def test_at_most_three_best_rank_first_importance_orders_never_admits():
    entries = [Entry("MEMORY.md", i, i, f"e{i}", ("boat",), imp) for i, imp in enumerate([2, 9, None, 7, 10], start=1)]
    entries.append(Entry("MEMORY.md", 9, 9, "weak", ("boat trailer",), 10))  # 0.5: not admitted by importance 10
    got = match_triggers(entries, "the boats are ready")
    assert [t.entry.start for t in got] == [5, 2, 4]
    assert importance_boost(None) == importance_boost(5) == 1.0 and importance_boost(99) == pytest.approx(1.2)


@pytest.mark.parametrize("key,found", [("agent:main:main", 1), ("agent:main:discord:group:1", 0), ("agent:main:slack:channel:c", 0)])
def test_private_sessions_only(workspace, key, found):  # noqa: F811
    write(workspace / "USER.md", "- Speak French about recipes <!-- trigger: recipe -->\n")
    assert len(triggered_for(workspace, key, "a recipe for soup")) == found


@pytest.mark.parametrize("important,first", [("USER.md", "USER.md"), ("MEMORY.md", "MEMORY.md")])
def test_importance_orders_memory_search(workspace, keyword_manager, important, first):  # noqa: F811
    for name in ("MEMORY.md", "USER.md"):
        imp = " <!-- importance: 10 -->" if name == important else ""
        write(workspace / name, f"- The harbour pilot is called Ingrid Vale{imp}\n")
    m = keyword_manager()
    m.sync()
    res = m.search("harbour pilot Ingrid", min_score=0)
    assert [r["path"] for r in res["results"]][:2] == [first, "MEMORY.md" if first == "USER.md" else "USER.md"]
    assert res["results"][0]["score"] > res["results"][1]["score"]


def test_trigger_phrases_split_on_semicolons_as_on_commas():
    (entry,) = parse_entries("- Sauna on Tuesdays <!-- trigger: sauna; weekly swim, gym day -->\n", "USER.md")
    assert entry.triggers == ("sauna", "weekly swim", "gym day")
    assert [t.trigger for t in match_triggers([entry], "is it gym day today")] == ["gym day"]


def test_a_superseded_user_md_preference_is_not_recalled():
    text = ("- Prefers tea <!-- trigger: drink order --> <!-- observed: 2026-11-02 | status: superseded -->\n"
            "- Prefers coffee <!-- trigger: drink order --> <!-- observed: 2026-12-01 | status: active -->\n")
    found = match_triggers(parse_entries(text, "USER.md"), "what is my drink order")
    assert [t.entry.start for t in found] == [2]
