"""The check every reader round's test file makes of its families: each family's fresh
sentences, per language, are read right at least as often as when its mechanism was committed
(the round files name their families, the right-reading predicate of each, and the floor)."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import pytest

Families = Mapping[str, tuple[Mapping[str, list[Any]], Callable[[Any], bool]]]

#: the tabled languages, in the order the floor tests are parametrized
LANGS: tuple[str, ...] = ("en", "es", "de", "fr", "pt", "it")


def every(n: int, **but: int) -> dict[str, int]:
    """A floor of ``n`` sentences read right in every language, but the ones named (``es=2``)."""
    assert set(but) <= set(LANGS), but
    return {lang: but.get(lang, n) for lang in LANGS}


def all_read(cases: Mapping[str, list[Any]]) -> dict[str, int]:
    """A floor of every sentence written, in every language."""
    return {lang: len(cases[lang]) for lang in LANGS}


def score(families: Families, family: str, lang: str) -> tuple[int, int]:
    """(read right, written) of one family in one language."""
    cases, right = families[family]
    return sum(bool(right(c)) for c in cases[lang]), len(cases[lang])


def floor_test(families: Families, floor: Mapping[str, Mapping[str, int]],
               langs: Sequence[str] = LANGS) -> Callable[..., None]:
    """A test, parametrized by family and language, that the family holds its measured count."""

    @pytest.mark.parametrize("family", sorted(floor))
    @pytest.mark.parametrize("lang", list(langs))
    def test_family_holds_its_measured_count(family: str, lang: str) -> None:
        got, total = score(families, family, lang)
        assert got >= floor[family][lang], f"{family} {lang}: {got}/{total} read right, {floor[family][lang]} measured"

    return test_family_holds_its_measured_count
