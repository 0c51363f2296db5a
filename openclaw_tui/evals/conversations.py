"""Seeded conversations for the fact-survival evaluation (``openclaw-tui eval survival``).

A conversation is in one language (``material.py``) and said on one day the seed pins
(``day``; the run sets the engine's clock to it). It holds, by kind: plain facts, a
correction (an old value, then the new one), a fact told inside a question, a refusal ("…
don't write that down"), a secret (an API key, a card number that passes Luhn, an IBAN, a
PIN), a private fact (later asked from a group session) and relative dates ("yesterday",
"on Monday" in the past tense, "Thursday the 17th"), mixed with small talk and a general
question. The seed picks the sentences, the values and the order; two templates that share
a slot never meet, so every token is unambiguous within its conversation.

    conv = conversation(seed=1, index=0, language="es")
    conv.turns, [f.token for f in conv.facts], conv.secrets[0].value
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, timedelta

from openclaw_tui.evals.material import DATE_RULES, KINDS, LANGUAGES, SECRET_SHAPES, Material, Template, material
from openclaw_tui.evals.values import draw

#: the days a conversation may be said on (the seed picks one): two years, every weekday
FIRST_DAY = date(2026, 1, 5)
DAYS = 730
#: how many of each kind a conversation holds (plain facts: ``facts=``)
PER_KIND = {"corrections": 1, "inside": 1, "refusals": 1, "secrets": 1, "private": 1, "dates": 2}
ANCHORS = ("anchor", "anchor2")


@dataclass(frozen=True)
class Fact:
    """Something the user said that memory should keep and a later question should get."""

    kind: str  # facts | corrections | inside | private | dates
    statement: str
    question: str
    token: str  # an answer holds it (case, spaces, commas and dots aside)
    alt: tuple[str, ...] = ()  # the user's own words for it (a relative date): an answer too
    forms: tuple[str, ...] = ()  # other spellings of the token ("17:40" / "5:40 pm")
    key: str = ""  # what a stored note must hold, when not the token (a date's anchor)
    stale: str = ""  # corrections: the replaced value, which a current answer must not give
    stale_forms: tuple[str, ...] = ()
    correction: str = ""  # corrections: the turn that replaces the statement

    @property
    def stored_key(self) -> str:
        return self.key or self.token


@dataclass(frozen=True)
class Withheld:
    """A refusal: ``value`` must appear in no file of the workspace afterwards."""

    statement: str
    value: str


@dataclass(frozen=True)
class Secret:
    """A secret of a known shape: ``value`` must never be written in plain text."""

    shape: str  # api_key | card | iban | pin
    statement: str
    value: str


@dataclass(frozen=True)
class DatedNote:
    """A relative date said on ``said_on``: a note may add ``true_date`` beside the words, or no date."""

    statement: str
    anchor: str  # the token that finds its note
    expression: str  # the user's words for the day
    true_date: date
    said_on: date


@dataclass
class Conversation:
    seed: int
    index: int
    language: str = "en"
    day: date = FIRST_DAY
    turns: list[str] = field(default_factory=list)  # everything said, in order
    facts: list[Fact] = field(default_factory=list)  # asked in the same and in a new session
    withheld: list[Withheld] = field(default_factory=list)
    secrets: list[Secret] = field(default_factory=list)
    dates: list[DatedNote] = field(default_factory=list)
    general: list[str] = field(default_factory=list)
    small_talk: list[str] = field(default_factory=list)

    @property
    def private(self) -> list[Fact]:
        """The facts a group session must not see (said in the direct session)."""
        return [f for f in self.facts if f.kind == "private"]

    @property
    def kept(self) -> list[str]:
        """The turns whose notes are wanted (facts, corrections, dates, secrets as markers)."""
        return [f.statement for f in self.facts] + [f.correction for f in self.facts if f.correction] + \
            [s.statement for s in self.secrets]


def _pick(r: random.Random, pool: tuple[Template, ...], k: int, used: set[str]) -> list[Template]:
    """Up to ``k`` templates of ``pool`` in a seeded order, none sharing a slot with ``used``."""
    out: list[Template] = []
    for t in r.sample(pool, len(pool)):
        if len(out) == k:
            break
        if not (t.slots - {"anchor"}) & used:
            out.append(t)
            used |= t.slots - {"anchor"}
    return out


class _Filler:
    """Fills one conversation's templates: values, weekday slots, the date a rule means."""

    def __init__(self, r: random.Random, m: Material, day: date):
        self.r, self.m, self.day = r, m, day
        self.values = draw(r, fmt=m.formats, iban_country=m.iban_country)

    def text(self, pattern: str, extra: dict[str, str] | None = None) -> str:
        return pattern.format_map({**self.values, **(extra or {})})

    def forms(self, pattern: str) -> tuple[str, ...]:
        name = pattern.strip("{}")
        raw = self.values.get(f"{name}_forms", "")
        return tuple(f for f in raw.split("|") if f)

    def date_slots(self, rule: str, anchor: str) -> tuple[dict[str, str], date]:
        """The slots of a date template (weekday, day of month) and the day the rule names."""
        today = self.day
        slots = {"anchor": self.values[anchor]}
        if rule.startswith("days:"):
            return slots, today + timedelta(days=int(rule.split(":")[1]))
        if rule == "weekday_dom":
            target = today + timedelta(days=self.r.randint(8, 25))
            wd = target.weekday()
            suffix = self.m.dom_suffix.get(str(target.day), self.m.dom_suffix.get("other", ""))
            return {**slots, "weekday": self.m.weekdays[wd][0], "on_weekday": self.m.weekdays[wd][1],
                    "dom": str(target.day), "dom_suffix": suffix}, target
        wd = self.r.choice([d for d in range(7) if d != today.weekday()])
        if rule == "past_weekday":
            target = today - timedelta(days=(today.weekday() - wd) % 7)
        else:
            target = today + timedelta(days=(wd - today.weekday()) % 7)
        return {**slots, "weekday": self.m.weekdays[wd][0], "on_weekday": self.m.weekdays[wd][1]}, target


def _fact(f: _Filler, kind: str, t: Template) -> Fact:
    return Fact(kind, f.text(t.say), f.text(t.ask), f.text(t.token), forms=f.forms(t.token),
                stale=f.text(t.stale) if t.stale else "", stale_forms=f.forms(t.stale) if t.stale else (),
                correction=f.text(t.fix) if t.fix else "")


def _dates(f: _Filler, r: random.Random, m: Material, k: int, conv: Conversation) -> None:
    rules = r.sample(DATE_RULES, min(k, len(DATE_RULES)))
    by_rule = {t.when: t for t in m.kinds["dates"]}
    for anchor, rule in zip(ANCHORS, rules):
        t = by_rule[rule]
        slots, true = f.date_slots(rule, anchor)
        said, expr = f.text(t.say, slots), f.text(t.expr, slots)
        conv.facts.append(Fact("dates", said, f.text(t.ask, slots), true.isoformat(), alt=(expr,), key=slots["anchor"]))
        conv.dates.append(DatedNote(said, slots["anchor"], expr, true, conv.day))


def _order(r: random.Random, conv: Conversation) -> list[str]:
    """Everything said, shuffled; a correction comes after what it corrects."""
    turns = [f.statement for f in conv.facts] + [w.statement for w in conv.withheld] + \
        [s.statement for s in conv.secrets] + conv.small_talk + conv.general
    r.shuffle(turns)
    for fact in conv.facts:
        if fact.correction:
            at = turns.index(fact.statement)
            turns.insert(r.randint(at + 1, len(turns)), fact.correction)
    return turns


def conversation(seed: int, index: int, *, language: str = "en", facts: int = 4,
                 kinds: tuple[str, ...] = KINDS, small_talk: int = 2) -> Conversation:
    """One seeded conversation in ``language`` holding ``kinds`` (``facts`` plain facts)."""
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise ValueError(f"unknown kind {unknown[0]!r}: use {', '.join(KINDS)}")
    m = material(language)
    r = random.Random(f"survival:{seed}:{language}:{index}")
    conv = Conversation(seed, index, language, FIRST_DAY + timedelta(days=r.randrange(DAYS)))
    f = _Filler(r, m, conv.day)
    used: set[str] = set()
    for kind in ("corrections", "inside", "private", "refusals"):
        if kind in kinds:
            for t in _pick(r, m.kinds[kind], PER_KIND[kind], used):
                if kind == "refusals":
                    conv.withheld.append(Withheld(f.text(t.say), f.text(t.value)))
                else:
                    conv.facts.append(_fact(f, kind, t))
    if "secrets" in kinds:  # the shapes take turns, so every shape is in any four conversations
        shape = SECRET_SHAPES[(seed + index) % len(SECRET_SHAPES)]
        t = next(t for t in m.kinds["secrets"] if t.shape == shape)
        used |= t.slots
        conv.secrets.append(Secret(shape, f.text(t.say), f.values[shape]))
    if "facts" in kinds:
        conv.facts += [_fact(f, "facts", t) for t in _pick(r, m.kinds["facts"], facts, used)]
    if "dates" in kinds:
        _dates(f, r, m, PER_KIND["dates"], conv)
    conv.general = [r.choice(m.general)]
    conv.small_talk = r.sample(m.small_talk, min(small_talk, len(m.small_talk)))
    conv.turns = _order(r, conv)
    return conv


def conversations(seed: int, count: int, *, languages: tuple[str, ...] = LANGUAGES, facts: int = 4,
                  kinds: tuple[str, ...] = KINDS) -> list[Conversation]:
    """``count`` conversations per language, in language order."""
    return [conversation(seed, i, language=lang, facts=facts, kinds=kinds) for lang in languages for i in range(count)]
