"""Word tables for the consumers outside the reader, one file per language, loaded once.

- ``data/cues.<lang>.json``: cue phrases per purpose (compaction's extractive fallback:
  ``preference``, ``decision``, ``todo``; the own-calls check: ``example_lead``,
  ``asks_for_format``, ``about_calls``) in the reader's template form (see ``lexicon.py``),
  and word sets (``summary_words``, ``frame_words``, ``day_month_joiners``);
- ``data/function_words/<lang>.txt``: words that carry no fact (trigger phrases, tombstones);
- ``data/<lang>.dates.json`` (the date tables): month names and abbreviations.

A consumer asks for the languages it needs (all tables by default: a conversation may mix them)::

    cues("decision").search("Hemos decidido usar Postgres.")  # True
    "der" in function_words()  # True
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from openclaw_tui.language.lexicon import DATA_PACKAGE, TABLES, compile_phrases, fold, lower
from openclaw_tui.language.stopwords import stopwords, word_file

#: the purposes a cues file holds phrases for
PHRASE_PURPOSES = ("preference", "decision", "todo", "example_lead", "asks_for_format", "about_calls")
#: the purposes a cues file holds single words for
WORD_PURPOSES = ("summary_words", "frame_words", "day_month_joiners")


def _json(name: str) -> dict[str, Any]:
    raw = json.loads(resources.files(DATA_PACKAGE).joinpath(name).read_text(encoding="utf-8"))
    if not isinstance(raw, dict):
        raise ValueError(f"{name}: a JSON object expected")
    return raw


@lru_cache(maxsize=None)
def _cue_table(lang: str) -> dict[str, tuple[str, ...]]:
    raw = _json(f"cues.{lang}.json")
    out: dict[str, tuple[str, ...]] = {}
    for key in PHRASE_PURPOSES + WORD_PURPOSES:
        items = raw.get(key) or []
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            raise ValueError(f"cues.{lang}.json: {key} must be a list of strings")
        out[key] = tuple(items)
    return out


def cue_phrases(purpose: str, lang: str) -> tuple[str, ...]:
    """The phrases (or words) of one purpose in one language's cues file."""
    if purpose not in PHRASE_PURPOSES + WORD_PURPOSES:
        raise KeyError(f"no cue purpose {purpose!r}")
    return _cue_table(lang)[purpose]


@dataclass(frozen=True)
class Cues:
    """One purpose's phrases over some languages, as one pattern on folded text."""

    purpose: str
    languages: tuple[str, ...]
    pattern: re.Pattern[str] | None

    def search(self, text: str) -> bool:
        """Whether ``text`` holds one of the phrases (whole words, any case, accents optional)."""
        return bool(self.pattern and self.pattern.search(fold(text)))


@lru_cache(maxsize=64)
def cues(purpose: str, langs: tuple[str, ...] = TABLES) -> Cues:
    """The cue phrases of ``purpose`` in ``langs`` (every table by default)."""
    if purpose not in PHRASE_PURPOSES:
        raise KeyError(f"no cue phrases for {purpose!r}")
    phrases = tuple(dict.fromkeys(p for lang in langs for p in cue_phrases(purpose, lang)))
    return Cues(purpose, langs, compile_phrases(phrases))


@lru_cache(maxsize=64)
def cue_words(purpose: str, langs: tuple[str, ...] = TABLES) -> frozenset[str]:
    """The single words of ``purpose`` in ``langs``, lowercase (accents kept, as typed)."""
    if purpose not in WORD_PURPOSES:
        raise KeyError(f"no cue words for {purpose!r}")
    return frozenset(lower(w) for lang in langs for w in cue_phrases(purpose, lang))


@lru_cache(maxsize=16)
def function_words(langs: tuple[str, ...] = TABLES) -> frozenset[str]:
    """Words that carry no fact (articles, prepositions, pronouns, auxiliaries), lowercase.
    The lists are joined, so a word that is mostly an English content word ("man", "hat",
    "car") stays out of the other languages' files; an article such as "die" stays in (a trigger
    phrase or a forgotten line loses little without it)."""
    return frozenset(w for lang in langs for w in word_file("function_words", lang))


@lru_cache(maxsize=16)
def month_numbers(langs: tuple[str, ...] = TABLES) -> dict[str, int]:
    """Folded month name or abbreviation → month (1-12), from the date tables of ``langs``.
    An abbreviation that is an English stopword ("out", Portuguese October) is left out: a
    stopword is read in every language."""
    english = stopwords("en")
    out: dict[str, int] = {}
    for lang in langs:
        raw = _json(f"{lang}.dates.json")
        for i, names in enumerate(raw.get("months") or [], start=1):
            for name in names:
                out.setdefault(fold(str(name)), i)
        for i, names in enumerate(raw.get("month_abbreviations") or [], start=1):
            for name in names:
                folded = fold(str(name))
                if folded not in english:
                    out.setdefault(folded, i)
    return out


@lru_cache(maxsize=16)
def day_suffixes(langs: tuple[str, ...] = TABLES) -> tuple[str, ...]:
    """Ordinal endings written after a day of month ("3rd", "1er", "1º"), longest first,
    and "." where a table writes the day with a dot ("3. März")."""
    out: set[str] = set()
    for lang in langs:
        dom = _json(f"{lang}.dates.json").get("day_of_month") or {}
        out.update(fold(str(s)) for s in dom.get("suffixes") or [])
        if dom.get("dot"):
            out.add(".")
    return tuple(sorted(out, key=len, reverse=True))
