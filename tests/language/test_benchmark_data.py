"""The labelled benchmark of the message reader (issue 35, item 1) is well-formed and balanced.

``bench/data/language_messages.{dev,test,holdout,holdout2,holdout3,holdout4,holdout5,wide,holdout6,holdout7,holdout8,holdout9,holdout10,holdout11,holdout12,holdout13,holdout14,holdout15,holdout16,holdout17,holdout18,holdout19,holdout20,holdout21,holdout22,wide2}.jsonl`` and ``bench/data/language_replies.jsonl``
are hand-written labels (rules in ``bench/data/README.md``); these checks keep them honest:
every label in its set, every quoted substring really in the message, the label rules
applied the same way on every row, the held-out split not a copy of dev, and the per-language
minimums the issue asks for.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parents[2] / "bench" / "data"
# holdout … holdout22 (wide aside): written after the reader, by people who never saw it;
# wide: a broad development split, also written blind to the reader, for tuning (never a measure)
# wide2: a development split of short everyday messages for the example classifier (never a measure)
SPLITS = ("dev", "test", "holdout", "holdout2", "holdout3", "holdout4", "holdout5", "wide", "holdout6", "holdout7", "holdout8", "holdout9", "holdout10", "holdout11", "holdout12", "holdout13", "holdout14", "holdout15", "holdout16", "holdout17", "holdout18", "holdout19", "holdout20", "holdout21", "holdout22", "wide2")
TABLED = ("en", "es", "de", "fr", "pt", "it")
UNTABLED = ("nl", "sv", "pl", "tr", "ja", "da", "cs", "ro", "no", "fi", "hu", "ru", "zh", "ko", "el", "id")
UNTABLED_IN_EVERY_SPLIT = ("nl", "sv", "pl", "tr", "ja")
INTENTS = {"statement", "question", "remember", "file_change", "do_not_keep", "correction", "small_talk", "unknown"}
TAGS = {"abbreviation", "fact_in_question", "recall_request", "no_question_mark", "not_durable", "polite_request",
        "refusal_before", "refusal_after", "remind_me", "typo", "no_digits", "multi_line"}
MESSAGE_KEYS = {"id", "lang", "text", "intent", "facts", "must_not_keep", "asks", "private", "replaces", "tags"}
REPLY_KEYS = {"id", "lang", "text", "claims_save", "promises_not_to_store", "cannot_answer"}
NO_FACTS = {"small_talk", "do_not_keep", "file_change", "unknown"}

Row = dict[str, Any]


def _load(name: str) -> list[Row]:
    path = DATA / name
    rows: list[Row] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        assert line.strip(), f"{name}:{number}: blank line"
        row = json.loads(line)
        assert isinstance(row, dict), f"{name}:{number}: not an object"
        rows.append(row)
    return rows


MESSAGES: dict[str, list[Row]] = {split: _load(f"language_messages.{split}.jsonl") for split in SPLITS}
REPLIES: list[Row] = _load("language_replies.jsonl")
ALL_MESSAGES = [row for split in SPLITS for row in MESSAGES[split]]


def _flat(text: str) -> str:
    """Case, accents' composition, punctuation and spacing folded away: two rows that differ
    only in those are the same sentence."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(re.sub(r"[^\w\s]", " ", text).split())


def _words(text: str) -> set[str]:
    return set(_flat(text).split())


def _failures(rows: list[Row], check: Any) -> list[str]:
    """Every row ``check`` fails, with its id and why: one test per split and check, not one per
    row (8,000 row tests spent two minutes of the suite on one worker in pytest's own overhead)."""
    bad = []
    for row in rows:
        try:
            check(row)
        except AssertionError as exc:
            bad.append(f"{row.get('id')}: {str(exc).splitlines()[0] if str(exc) else 'failed'}")
    return bad


def _message_row_schema(row: Row) -> None:
    assert set(row) == MESSAGE_KEYS
    assert isinstance(row["id"], str) and row["id"].startswith(row["lang"] + "-")
    assert row["lang"] in TABLED + UNTABLED
    assert isinstance(row["text"], str) and row["text"].strip() == row["text"] and row["text"]
    assert row["intent"] in INTENTS
    for key in ("facts", "must_not_keep", "replaces", "tags"):
        assert isinstance(row[key], list) and all(isinstance(s, str) and s.strip() for s in row[key]), key
        assert len(set(row[key])) == len(row[key]), f"{key} repeats an item"
    assert isinstance(row["asks"], bool) and isinstance(row["private"], bool)
    assert set(row["tags"]) <= TAGS


def _quoted_substrings_are_in_the_text(row: Row) -> None:
    for key in ("facts", "must_not_keep", "replaces"):
        for part in row[key]:
            assert part in row["text"], f"{key} {part!r} not in {row['text']!r}"
    assert all(len(word.split()) == 1 for word in row["replaces"]), "replaces holds words, not phrases"


def _label_rules(row: Row) -> None:
    """The rules of README.md, row by row: a perfect reader can score 100 %."""
    intent, facts, tags = row["intent"], row["facts"], set(row["tags"])
    for secret in row["must_not_keep"]:  # what must not be kept is never part of what must be
        assert not any(_flat(secret) in _flat(fact) for fact in facts), secret
    if row["lang"] in UNTABLED:
        assert intent == "unknown" and not facts and not row["private"] and not row["replaces"]
        return
    assert intent != "unknown"
    assert row["asks"] is (intent == "question"), "asks is true exactly for questions in a tabled language"
    if intent in NO_FACTS:
        assert not facts
    if intent == "do_not_keep":
        assert row["must_not_keep"], "a refusal names what it withholds"
        assert len(tags & {"refusal_before", "refusal_after"}) == 1
    if intent == "question":
        assert bool(facts) is ("fact_in_question" in tags)
        if "fact_in_question" in tags:
            assert row["must_not_keep"], "the question part is named"
    if intent == "remember":
        assert facts and row["must_not_keep"], "the fact without its cue, and the cue"
    if intent == "statement":
        assert bool(facts) is ("not_durable" not in tags)
    if intent == "correction":
        assert facts and 1 <= len(row["replaces"]) <= 3
    else:
        assert not row["replaces"]
    if row["private"]:
        assert intent in {"statement", "remember"} and facts
    if "no_digits" in tags:
        assert not any(ch.isdigit() for ch in row["text"])
    if "abbreviation" in tags:
        assert any(re.search(r"\w\.\s*\S", fact) for fact in facts), "a period inside the fact"
    if "no_question_mark" in tags:
        assert not re.search(r"[?？¿]", row["text"])
    if "multi_line" in tags:
        assert "\n" in row["text"]


ROW_CHECKS = (_message_row_schema, _quoted_substrings_are_in_the_text, _label_rules)


@pytest.mark.parametrize("check", ROW_CHECKS, ids=[c.__name__.strip("_") for c in ROW_CHECKS])
@pytest.mark.parametrize("split", SPLITS)
def test_every_message_row(split: str, check: Any) -> None:
    bad = _failures(MESSAGES[split], check)
    assert not bad, f"{len(bad)} rows of {split}:\n" + "\n".join(bad[:40])


def test_a_broken_row_is_named_with_its_reason() -> None:
    """The checks above can fail: a row with an unknown intent and a fact not in its text."""
    row = {**MESSAGES["dev"][0], "intent": "chatter", "facts": ["not in the text"]}
    assert _failures([row], _message_row_schema) and _failures([row], _quoted_substrings_are_in_the_text)
    assert row["id"] in _failures([row], _message_row_schema)[0]


def test_ids_are_unique_across_files() -> None:
    ids = Counter(str(row["id"]) for row in [*ALL_MESSAGES, *REPLIES])
    assert [i for i, n in ids.items() if n > 1] == []


def test_no_text_repeats_within_a_split() -> None:
    for split in SPLITS:
        texts = Counter(_flat(row["text"]) for row in MESSAGES[split])
        assert [t for t, n in texts.items() if n > 1] == [], split


def test_splits_share_no_sentence() -> None:
    for later, split in enumerate(SPLITS[1:], 1):
        earlier = {_flat(row["text"]) for name in SPLITS[:later] for row in MESSAGES[name]}
        assert [row["id"] for row in MESSAGES[split] if _flat(row["text"]) in earlier] == [], split


def test_test_split_is_not_dev_with_words_swapped() -> None:
    """Held out means other sentences: no test message of five words or more shares 60 % of
    its words with a dev message (a template with a name swapped would); nor a holdout message
    with a dev or test one; nor a holdout2 message with a dev, test or holdout one; nor a
    holdout3 message with a dev, test, holdout or holdout2 one; nor a holdout4, holdout5, wide, holdout6, holdout7, holdout8, holdout9, holdout10, holdout11, holdout12, holdout13, holdout14, holdout15, holdout16, holdout17, holdout18, holdout19, holdout20, holdout21, holdout22 or wide2 message
    with any earlier one."""
    near = []
    for later, split in enumerate(SPLITS[1:], 1):
        earlier = [(row["id"], _words(row["text"])) for name in SPLITS[:later] for row in MESSAGES[name]]
        for row in MESSAGES[split]:
            words = _words(row["text"])
            if len(words) < 5:
                continue
            for other_id, other in earlier:
                if len(words & other) / len(words | other) >= 0.6:
                    near.append((row["id"], other_id))
    assert near == []


def _count(rows: list[Row], **want: Any) -> int:
    tag = want.pop("tag", None)
    with_facts = want.pop("with_facts", None)
    n = 0
    for row in rows:
        if any(row[key] != value for key, value in want.items()):
            continue
        if tag is not None and tag not in row["tags"]:
            continue
        if with_facts is not None and bool(row["facts"]) is not with_facts:
            continue
        n += 1
    return n


# (what, filter, at least) per tabled language in each split
MINIMUMS: list[tuple[str, dict[str, Any], int]] = [
    ("statements with facts", {"intent": "statement", "with_facts": True, "private": False}, 8),
    ("statements without a durable fact", {"intent": "statement", "tag": "not_durable"}, 1),
    ("preferences without digits", {"intent": "statement", "tag": "no_digits"}, 1),
    ("abbreviations inside a fact", {"tag": "abbreviation"}, 2),
    ("questions", {"intent": "question", "with_facts": False}, 9),
    ("questions without a question mark", {"intent": "question", "tag": "no_question_mark"}, 1),
    ("remind-me questions", {"intent": "question", "tag": "remind_me"}, 1),
    ("recall requests", {"intent": "question", "tag": "recall_request"}, 3),
    ("facts inside a question", {"intent": "question", "tag": "fact_in_question"}, 3),
    ("polite requests to remember", {"intent": "remember", "tag": "polite_request"}, 4),
    ("file changes", {"intent": "file_change"}, 3),
    ("refusals", {"intent": "do_not_keep"}, 4),
    ("refusals before the content", {"intent": "do_not_keep", "tag": "refusal_before"}, 1),
    ("refusals after the content", {"intent": "do_not_keep", "tag": "refusal_after"}, 1),
    ("private", {"private": True}, 2),
    ("corrections", {"intent": "correction"}, 3),
    ("small talk", {"intent": "small_talk"}, 3),
]


# holdout8's writer, blind to these minimums, wrote 2 polite requests to remember per language
# (and 4 imperative ones): measured as written, not topped up after the reading
EXCEPT = {("holdout8", "polite requests to remember"): 2}


@pytest.mark.parametrize("split", SPLITS)
def test_per_language_minimums(split: str) -> None:
    short = [f"{lang} {split}: {what} ({_count(rows, **filters)} < {EXCEPT.get((split, what), least)})"
             for lang in TABLED for rows in [[row for row in MESSAGES[split] if row["lang"] == lang]]
             for what, filters, least in MINIMUMS if _count(rows, **filters) < EXCEPT.get((split, what), least)]
    assert not short, "\n".join(short)


def test_totals() -> None:
    tabled = [row for row in ALL_MESSAGES if row["lang"] in TABLED]
    untabled = [row for row in ALL_MESSAGES if row["lang"] in UNTABLED]
    assert len(tabled) >= 400
    assert len(untabled) >= 20
    assert {row["lang"] for row in untabled} == set(UNTABLED)
    for split in SPLITS:
        assert set(UNTABLED_IN_EVERY_SPLIT) <= {row["lang"] for row in MESSAGES[split]}, split


def _reply_row_schema(row: Row) -> None:
    assert set(row) == REPLY_KEYS
    assert row["lang"] in TABLED and str(row["id"]).startswith(row["lang"] + "-")
    assert isinstance(row["text"], str) and row["text"].strip() == row["text"] and row["text"]
    for key in ("claims_save", "promises_not_to_store", "cannot_answer"):
        assert isinstance(row[key], bool), key


def test_every_reply_row() -> None:
    bad = _failures(REPLIES, _reply_row_schema)
    assert not bad, "\n".join(bad[:40])


def test_replies_cover_every_language_and_case() -> None:
    assert len(REPLIES) >= 150
    assert len({_flat(row["text"]) for row in REPLIES}) == len(REPLIES), "a reply text repeats"
    for lang in TABLED:
        rows = [row for row in REPLIES if row["lang"] == lang]
        assert len(rows) >= 20, lang
        for key in ("claims_save", "promises_not_to_store", "cannot_answer"):
            assert sum(row[key] for row in rows) >= 4, f"{lang}: {key}"
        neither = [row for row in rows if not (row["claims_save"] or row["promises_not_to_store"] or row["cannot_answer"])]
        assert len(neither) >= 6, f"{lang}: replies that claim nothing (offers, answers, 'nothing saved yet')"
        assert any(row["claims_save"] and row["promises_not_to_store"] for row in rows), f"{lang}: saved one, withheld one"
