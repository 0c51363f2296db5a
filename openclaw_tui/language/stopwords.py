"""Words that carry no topic in a memory query, per language (DESIGN §4 keyword extraction).

One file per language, one word per line: ``language/data/stopwords/<lang>.txt`` (``#`` starts
a comment line). Words of the space-separated languages are matched against whole word tokens.
Chinese, Japanese and Korean are written without spaces between words (Korean: without spaces
between a word and its particles, ``data/particles/ko.txt``), so their lists also cut a CJK run
apart before it is split into bigrams (see ``memory/builtin/query.query_terms``).

A stopword is dropped from every query, whatever its language, so a word that is also an
ordinary English word (Spanish "son", German "die", French "pour", Italian "come") stays out of
the other languages' files.

    "heute" in ALL  # True
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

DATA_PACKAGE = "openclaw_tui.language.data"
#: the languages with a stopword file
LANGUAGES = ("en", "es", "pt", "de", "fr", "it", "ar", "zh", "ja", "ko")
#: the languages written without spaces between words
UNSPACED = ("zh", "ja", "ko")


def word_file(folder: str, name: str) -> tuple[str, ...]:
    """The words of ``language/data/<folder>/<name>.txt``, one a line, in file order."""
    text = resources.files(DATA_PACKAGE).joinpath(folder).joinpath(f"{name}.txt").read_text(encoding="utf-8")
    out: dict[str, None] = {}
    for line in text.splitlines():
        word = line.strip()
        if word and not word.startswith("#"):
            out.setdefault(word, None)
    return tuple(out)


@lru_cache(maxsize=None)
def stopwords(lang: str) -> frozenset[str]:
    """The stopwords of ``lang``; ``KeyError`` for a language without a file."""
    if lang not in LANGUAGES:
        raise KeyError(f"no stopword list for language {lang!r}")
    return frozenset(word_file("stopwords", lang))


#: every language's stopwords; a token in here is never a search term
ALL: frozenset[str] = frozenset().union(*(stopwords(lang) for lang in LANGUAGES))

#: Korean particles that follow a noun without a space, longest first
KO_PARTICLES: tuple[str, ...] = tuple(sorted(word_file("particles", "ko"), key=len, reverse=True))

#: multi-character stopwords of the unspaced scripts, longest first: they cut a CJK run
#: apart ("之前讨论" → "讨论"). Single characters are too often part of a word to cut on.
CJK_CUTS: tuple[str, ...] = tuple(
    sorted((w for lang in UNSPACED for w in stopwords(lang) if len(w) >= 2), key=len, reverse=True)
)
