"""The conversations of ``eval survival``: six languages, every kind, seeded, unambiguous."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from openclaw_tui.evals.conversations import conversation, conversations
from openclaw_tui.evals.material import DATE_RULES, KINDS, LANGUAGES, SECRET_SHAPES, material
from openclaw_tui.evals.values import iban_ok, luhn_ok

FACT_KINDS = {"facts", "corrections", "inside", "private", "dates"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_every_kind_date_rule_and_secret_shape(lang: str) -> None:
    m = material(lang)
    assert all(m.kinds[k] for k in KINDS)
    assert {t.when for t in m.kinds["dates"]} == set(DATE_RULES)
    assert {t.shape for t in m.kinds["secrets"]} == set(SECRET_SHAPES)
    assert len(m.months) == 12 and len(m.weekdays) == 7 and m.small_talk and m.general


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_conversation_holds_every_kind_with_every_slot_filled(lang: str) -> None:
    conv = conversation(3, 1, language=lang)
    assert conv.language == lang
    assert {f.kind for f in conv.facts} == FACT_KINDS
    assert conv.withheld and conv.secrets and len(conv.dates) == 2 and conv.private
    for turn in conv.turns:
        assert "{" not in turn and "}" not in turn, turn
    for fact in conv.facts:
        assert fact.statement in conv.turns and fact.token and fact.question
        assert "{" not in fact.question
    tokens = [f.stored_key for f in conv.facts]
    assert len(set(tokens)) == len(tokens)  # no two facts share a value
    fix = next(f for f in conv.facts if f.kind == "corrections")
    assert conv.turns.index(fix.correction) > conv.turns.index(fix.statement)
    assert fix.token in fix.correction and fix.stale in fix.statement and fix.stale not in fix.correction


def test_sentences_are_written_per_language_not_copied_from_english() -> None:
    english = {t.say for k in KINDS for t in material("en").kinds[k]}
    for lang in LANGUAGES[1:]:
        said = {t.say for k in KINDS for t in material(lang).kinds[k]}
        assert not said & english, lang
        assert set(material(lang).small_talk).isdisjoint(material("en").small_talk)


def test_the_seed_picks_and_orders_and_repeats() -> None:
    a, b = conversation(1, 0, language="es"), conversation(2, 0, language="es")
    assert a.turns != b.turns and a.day != b.day
    assert conversation(1, 0, language="es").turns == a.turns  # the same seed, the same conversation
    assert conversation(1, 1, language="es").turns != a.turns
    firsts = {conversation(s, 0, language="de").facts[-3].statement for s in range(1, 9)}
    assert len(firsts) > 1


def test_count_is_per_language_and_kinds_filter() -> None:
    convs = conversations(5, 2, languages=("fr", "it"))
    assert [c.language for c in convs] == ["fr", "fr", "it", "it"]
    only = conversation(5, 0, language="pt", kinds=("facts", "secrets"))
    assert {f.kind for f in only.facts} == {"facts"} and only.secrets
    assert not only.withheld and not only.dates and not only.private
    with pytest.raises(ValueError):
        conversation(5, 0, language="pt", kinds=("jokes",))
    with pytest.raises(ValueError):
        conversation(5, 0, language="nl")


def test_secrets_have_real_shapes_and_every_shape_comes_in_four_conversations() -> None:
    shapes = set()
    for i in range(4):
        conv = conversation(9, i, language="en")
        secret = conv.secrets[0]
        shapes.add(secret.shape)
        assert secret.value in secret.statement
        if secret.shape == "card":
            assert luhn_ok(secret.value) and not luhn_ok(secret.value[:-1] + str((int(secret.value[-1]) + 1) % 10))
        elif secret.shape == "iban":
            assert iban_ok(secret.value) and secret.value.startswith("GB")
        elif secret.shape == "api_key":
            assert re.fullmatch(r"sk-[A-Za-z0-9]{32}", secret.value)
        else:
            assert re.fullmatch(r"\d{4}", secret.value)
    assert shapes == set(SECRET_SHAPES)
    assert conversation(9, 0, language="de").secrets[0].shape in SECRET_SHAPES


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_relative_date_means_one_day(lang: str) -> None:
    m = material(lang)
    names = [w[0] for w in m.weekdays]
    seen = set()
    for seed in range(1, 25):
        conv = conversation(seed, 0, language=lang)
        for d, fact in zip(conv.dates, [f for f in conv.facts if f.kind == "dates"]):
            assert fact.token == d.true_date.isoformat() and d.anchor in d.statement and fact.alt == (d.expression,)
            assert d.expression.lower() in d.statement.lower()
            named = [i for i, n in enumerate(names) if n.lower() in d.statement.lower()]
            if named:  # a weekday said: the date is that weekday, never the day it is said
                assert d.true_date.weekday() in named and d.true_date != d.said_on
                seen.add("weekday")
            else:
                assert abs((d.true_date - d.said_on).days) in (1, 2, 3)
                seen.add("days")
            assert abs(d.true_date - d.said_on) <= timedelta(days=25)
    assert seen == {"weekday", "days"}
