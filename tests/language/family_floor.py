"""The check every reader round's test file makes of its families: each family's fresh
sentences, per language, are read right at least as often as when its mechanism was committed
(the round files name their families, the right-reading predicate of each, and the floor)."""

from __future__ import annotations

from typing import Any, Callable, Mapping

import pytest

Families = Mapping[str, tuple[Mapping[str, list[Any]], Callable[[Any], bool]]]


def score(families: Families, family: str, lang: str) -> tuple[int, int]:
    """(read right, written) of one family in one language."""
    cases, right = families[family]
    return sum(bool(right(c)) for c in cases[lang]), len(cases[lang])


def floor_test(families: Families, floor: Mapping[str, Mapping[str, int]], langs: list[str]) -> Callable[..., None]:
    """A test, parametrized by family and language, that the family holds its measured count."""

    @pytest.mark.parametrize("family", sorted(floor))
    @pytest.mark.parametrize("lang", langs)
    def test_family_holds_its_measured_count(family: str, lang: str) -> None:
        got, total = score(families, family, lang)
        assert got >= floor[family][lang], f"{family} {lang}: {got}/{total} read right, {floor[family][lang]} measured"

    return test_family_holds_its_measured_count
