"""The sentences of ``eval survival`` in one language, read from ``evals/data/<lang>.json``:
facts with their question and the token an answer must hold, facts told inside questions,
corrections, refusals, secrets, private facts, relative dates, small talk and general
questions, plus the month and weekday names the scoring reads dates with. Each language's
sentences are written in that language (not templates translated from English); the values
(``values.py``) fill the ``{slots}``.

    m = material("de")
    m.facts[0].say, m.weekdays[0]  # "Unser VPN-Server heißt jetzt {host}.", ("Montag", "am Montag")
"""

from __future__ import annotations

import json
import string
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, cast

from openclaw_tui.evals.values import Formats

LANGUAGES = ("en", "es", "de", "fr", "pt", "it")
#: what a conversation can hold; ``facts`` are plain statements, the rest one kind each
KINDS = ("facts", "corrections", "inside", "refusals", "secrets", "private", "dates")
SECRET_SHAPES = ("api_key", "card", "iban", "pin")
#: the rules a relative date follows (``days:N`` = N days from the day it is said)
DATE_RULES = ("days:-1", "days:-2", "days:1", "days:3", "past_weekday", "future_weekday", "weekday_dom")


@dataclass(frozen=True)
class Template:
    """One sentence pattern: what is said, what is asked later and what the answer holds."""

    say: str
    ask: str = ""
    token: str = ""  # "{slot}": an answer (and a stored note) must contain it
    fix: str = ""  # corrections: the turn that replaces ``say``
    stale: str = ""  # corrections: the old value a current answer must not give
    value: str = ""  # refusals: what must never be written
    shape: str = ""  # secrets: api_key | card | iban | pin
    when: str = ""  # dates: a rule of DATE_RULES
    expr: str = ""  # dates: the user's words for the day

    @property
    def slots(self) -> frozenset[str]:
        """The ``{slots}`` its texts use (two templates sharing one never meet in a conversation)."""
        names = set()
        for text in (self.say, self.ask, self.token, self.fix, self.stale, self.value, self.expr):
            names |= {f for _, f, _, _ in string.Formatter().parse(text) if f}
        return frozenset(names)


@dataclass(frozen=True)
class Material:
    language: str
    formats: Formats
    iban_country: str
    months: tuple[tuple[str, ...], ...]  # twelve, January first; each a few spellings, lowercase
    weekdays: tuple[tuple[str, str], ...]  # seven, Monday first: (name, "on <name>" as the language says it)
    dom_suffix: dict[str, str]  # "1" → "st" (English ordinals), "other" for the rest; empty elsewhere
    small_talk: tuple[str, ...]
    general: tuple[str, ...]
    kinds: dict[str, tuple[Template, ...]]  # kind → templates (every kind of KINDS)


def _templates(raw: object) -> tuple[Template, ...]:
    return tuple(Template(**cast(dict[str, str], t)) for t in cast(list[object], raw))


def _build(data: dict[str, Any]) -> Material:
    missing = [k for k in KINDS if not data.get(k)]
    if missing:
        raise ValueError(f"evals/data/{data.get('language')}.json has no {', '.join(missing)}")
    return Material(
        language=str(data["language"]),
        formats=Formats(thousands=str(data["thousands"]), clock=str(data["clock"])),
        iban_country=str(data["iban_country"]),
        months=tuple(tuple(str(m).lower() for m in forms) for forms in data["months"]),
        weekdays=tuple((str(w[0]), str(w[1])) for w in data["weekdays"]),
        dom_suffix={str(k): str(v) for k, v in cast(dict[str, str], data.get("dom_suffix", {})).items()},
        small_talk=tuple(str(s) for s in data["small_talk"]),
        general=tuple(str(s) for s in data["general"]),
        kinds={k: _templates(data[k]) for k in KINDS},
    )


@lru_cache(maxsize=None)
def material(lang: str) -> Material:
    """The material of ``lang`` (one of LANGUAGES); ValueError for a language without one."""
    source = resources.files("openclaw_tui.evals").joinpath("data", f"{lang}.json")
    if lang not in LANGUAGES or not source.is_file():
        raise ValueError(f"no eval survival material for {lang!r}: use {', '.join(LANGUAGES)}")
    return _build(json.loads(source.read_text(encoding="utf-8")))


def all_month_names() -> tuple[tuple[str, ...], ...]:
    """Twelve tuples: every spelling of each month in every language (an answer may switch language)."""
    out: list[set[str]] = [set() for _ in range(12)]
    for lang in LANGUAGES:
        for i, forms in enumerate(material(lang).months):
            out[i] |= set(forms)
    return tuple(tuple(sorted(s, key=len, reverse=True)) for s in out)
