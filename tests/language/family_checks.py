"""The checks the reader-round test files share, so that each round file holds only its data
(the sentences of a family, its controls, its floor) and names the check that judges it.

A check is called on a case and says whether the reader read it right. A case is a text, or a
tuple whose first item is the text and whose other items are clauses of it (the clause to keep,
the clause to leave out). Checks join with ``&``: the message is read once and every part judges
that one reading::

    reads_as(Intent.QUESTION, asks=True) & keeps(1) & drops(tail(3))

The control tests are made by :func:`control_test`, :func:`intent_table_test` and
:func:`fact_table_test`, as :func:`tests.language.family_floor.floor_test` makes the floor test:
the round file binds the test to a ``test_…`` name, and pytest collects it under that name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Literal, Mapping, Sequence

import pytest

from openclaw_tui.language import read_message
from openclaw_tui.language.reading import Intent, MessageReading, ReaderSettings

#: a family's case: a text, or (text, clause, …)
Case = Any
#: how a clause stands in a fact: inside it, at its start, the whole fact; or inside the facts
#: joined by " " ("joined"), or by " | " with white space folded ("flat")
How = Literal["in", "starts", "is", "joined", "flat"]
#: which clause of the case a check looks for: an index into the case tuple, or a function of it
Clause = int | Callable[[Case], str]


def text_of(case: Case) -> str:
    """The message of a case."""
    return case if isinstance(case, str) else case[0]


def kept(facts: Sequence[str], clause: str, *, how: How = "in", strip: str = "", fold: bool = True) -> bool:
    """Whether a fact holds the clause: inside it, as its start, or as all of it (after the
    fact's end is stripped of ``strip``; both folded to lower case unless ``fold`` is off); or,
    ``how="joined"``, inside the facts joined by " "; ``how="flat"``, inside the facts joined by
    " | ", white space folded."""
    want = clause.lower() if fold else clause
    if how == "joined":
        joined = " ".join(facts)
        return want in (joined.lower() if fold else joined)
    if how == "flat":
        joined = " | ".join(facts)
        return " ".join(want.split()) in " ".join((joined.lower() if fold else joined).split())
    for fact in facts:
        have = fact.rstrip(strip) if strip else fact
        have = have.lower() if fold else have
        if (how == "in" and want in have) or (how == "starts" and have.startswith(want)) or (how == "is" and have == want):
            return True
    return False


# ---- which clause of a case -------------------------------------------------------------------


def whole(case: Case) -> str:
    """The whole message as the clause."""
    return text_of(case)


def tail(words: int) -> Callable[[Case], str]:
    """The message's last ``words`` words (the asking clause after a joining word)."""

    def last_words(case: Case) -> str:
        return " ".join(text_of(case).split()[-words:])

    last_words.__name__ = f"tail({words})"
    return last_words


def lead(sep: str) -> Callable[[Case], str]:
    """The message up to its first ``sep`` (the fact before a comma)."""

    def before(case: Case) -> str:
        return text_of(case).split(sep)[0]

    before.__name__ = f"lead({sep!r})"
    return before


def before(which: int = 1, strip: str = " ,:¿?") -> Callable[[Case], str]:
    """The message before the case's clause ``which`` (the request before the clause to keep)."""

    def up_to(case: Case) -> str:
        text = text_of(case)
        return text[: text.index(case[which])].strip(strip)

    up_to.__name__ = f"before({which})"
    return up_to


def _clause(case: Case, which: Clause) -> str:
    return which(case) if callable(which) else case[which]


# ---- checks ----------------------------------------------------------------------------------


class Check:
    """A judgement of one reading of a case; ``a & b`` holds where both hold."""

    def judge(self, case: Case, r: MessageReading) -> bool:
        raise NotImplementedError

    def __call__(self, case: Case) -> bool:
        return self.judge(case, read_message(text_of(case)))

    def __and__(self, other: Check) -> Check:
        return _All((self, other))

    def read_with(self, settings: ReaderSettings) -> Check:
        """The same check of the reading under other reader settings (the tables alone)."""
        return _Under(self, settings)


@dataclass(frozen=True)
class _Under(Check):
    check: Check
    settings: ReaderSettings

    def judge(self, case: Case, r: MessageReading) -> bool:
        return self.check.judge(case, r)

    def __call__(self, case: Case) -> bool:
        return self.judge(case, read_message(text_of(case), settings=self.settings))


@dataclass(frozen=True)
class _All(Check):
    parts: tuple[Check, ...]

    def judge(self, case: Case, r: MessageReading) -> bool:
        return all(p.judge(case, r) for p in self.parts)

    def __and__(self, other: Check) -> Check:
        return _All((*self.parts, other))


@dataclass(frozen=True)
class _Reads(Check):
    intent: Intent | tuple[Intent, ...] | None
    other_than: Intent | None = None
    facts: bool | None = None
    asks: bool | None = None
    private: bool | None = None
    language: str | None = None

    def judge(self, case: Case, r: MessageReading) -> bool:
        return ((self.intent is None or r.intent is self.intent
                 or (isinstance(self.intent, tuple) and r.intent in self.intent))
                and (self.other_than is None or r.intent is not self.other_than)
                and (self.facts is None or bool(r.facts) is self.facts)
                and (self.asks is None or bool(r.asks) is self.asks)
                and (self.private is None or bool(r.private) is self.private)
                and (self.language is None or r.language == self.language))


def reads_as(intent: Intent | tuple[Intent, ...] | None = None, *, facts: bool | None = None,
             asks: bool | None = None, private: bool | None = None, language: str | None = None) -> Check:
    """Read as ``intent`` (one of them, for a tuple; any intent when None); with facts (True),
    with none (False); asking (True), not asking (False); marked private or not; by the table
    of ``language``; None leaves that open."""
    return _Reads(intent, None, facts, asks, private, language)


def reads_other_than(intent: Intent, *, facts: bool | None = None) -> Check:
    """Read as any intent but ``intent`` (with facts, with none, or either)."""
    return _Reads(None, intent, facts)


def small_talk(*, facts: bool | None = None, asks: bool | None = None) -> Check:
    """Reads as small talk (``facts=False``: nothing kept; ``asks=False``: asking nothing)."""
    return _Reads(Intent.SMALL_TALK, None, facts, asks)


#: nothing kept, whatever the intent
keeps_nothing: Check = _Reads(None, facts=False)
#: something kept, whatever the intent
keeps_something: Check = _Reads(None, facts=True)


@dataclass(frozen=True)
class _Keeps(Check):
    which: Clause
    how: How
    strip: str
    fold: bool
    present: bool

    def judge(self, case: Case, r: MessageReading) -> bool:
        return kept(r.facts, _clause(case, self.which), how=self.how, strip=self.strip, fold=self.fold) is self.present


def keeps(which: Clause = 1, *, how: How = "in", strip: str = "", fold: bool = True) -> Check:
    """A fact holds the case's clause ``which`` (see :func:`kept`)."""
    return _Keeps(which, how, strip, fold, True)


def drops(which: Clause = 1, *, how: How = "in", strip: str = "", fold: bool = True) -> Check:
    """No fact holds the case's clause ``which``: the asking clause, the secret, left out."""
    return _Keeps(which, how, strip, fold, False)


def keeps_clause(intent: Intent | None = None, *, how: How = "in", strip: str = "", fold: bool = True,
                 asks: bool | None = None) -> Check:
    """(text, clause): read as ``intent`` and the clause kept (the most common family check)."""
    return reads_as(intent, asks=asks) & keeps(1, how=how, strip=strip, fold=fold)


def withholds(intent: Intent = Intent.DO_NOT_KEEP, *, fold: bool = True) -> Check:
    """(text, secret): read as a refusal (or ``intent``) and the secret in no fact."""
    return reads_as(intent) & drops(1, fold=fold)


# ---- tests made from the checks ---------------------------------------------------------------


def describe(text: str) -> str:
    """How the reader read a text, for an assertion's message."""
    r = read_message(text)
    return f"{text!r} read as {r.intent.name}, asks={r.asks}, facts={list(r.facts)}"


def expect(case: Case, check: Check) -> None:
    """Assert that the check holds of the case, saying how the text was read if not."""
    assert check(case), describe(text_of(case))


def control_test(texts: Sequence[str], check: Check) -> Callable[..., None]:
    """A test, parametrized over the texts (in the order given), that each is read as ``check``
    says: the controls, sentences that must keep their reading."""

    @pytest.mark.parametrize("text", list(texts))
    def test_control_keeps_its_reading(text: str) -> None:
        expect(text, check)

    return test_control_keeps_its_reading


def intent_table_test(table: Mapping[str, Intent]) -> Callable[..., None]:
    """A test, parametrized over a table's texts (sorted), that each is read as its intent."""

    @pytest.mark.parametrize("text", sorted(table))
    def test_text_reads_as_its_intent(text: str) -> None:
        expect(text, reads_as(table[text]))

    return test_text_reads_as_its_intent


def fact_table_test(table: Mapping[str, str], *, other_than: Intent | None = None) -> Callable[..., None]:
    """A test, parametrized over a table's texts (sorted), that a fact holds the text's clause
    (as written, case kept), the reading being any intent but ``other_than``."""

    @pytest.mark.parametrize("text", sorted(table))
    def test_text_keeps_its_clause(text: str) -> None:
        check = keeps(lambda t: table[t], fold=False)
        expect(text, check if other_than is None else reads_other_than(other_than) & check)

    return test_text_keeps_its_clause
