"""Which language a message is written in, from the tables' own words.

Each word of the message that a table lists (function words, question words) votes for that
table, weighted by how few tables share it ("que" counts less than "dass"); each letter a
table marks as its own ("ñ", "ß", "ã") adds a vote. Languages without a table vote too, with
the function words ``common.json`` lists for them, so a Dutch message is recognised as not
ours rather than read as the nearest table.

A pinned language (``ReaderSettings.language``) wins. A message too short or too even to
tell ("ok", "LH 402?") takes the language of the message before it, then the first of the
settings' languages.

    detect("¿Dónde está mi pasaporte?")  # "es"
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

from openclaw_tui.language.lexicon import TABLES, common, fold, laughs, lexicon, tokens

#: the votes a language needs, and its lead over the next, to be taken as the message's
MIN_SCORE = 1.0
MIN_LEAD = 0.5
LETTER_VOTE = 0.75
#: a word no table lists votes for the tables whose greeting stem of this many letters or more
#: starts it ("obrigadinha": Portuguese; "dankjewel" starts with no such stem)
STEM_VOTE = 5
_NON_LATIN = re.compile(r"[^\W\d_A-Za-zÀ-ɏḀ-ỿ]")
UNDETERMINED = "und"
_WORD = re.compile(r"[^\W\d_]+")
#: a run of Latin letters and digits with a digit in it: a key, token or code, no word
_KEY_LIKE = re.compile(r"[A-Za-z0-9_-]*\d[A-Za-z0-9_-]*")


@dataclass(frozen=True)
class Guess:
    language: str  # a code, "und" for a script no table is written in, "" when undecided
    score: float = 0.0
    lead: float = 0.0


@lru_cache(maxsize=8)
def _weights(langs: tuple[str, ...]) -> dict[str, dict[str, float]]:
    """word → {language: weight}, a word shared by n languages weighing 1/n."""
    vocab = {lang: lexicon(lang).detection_words for lang in langs if lang in TABLES}
    vocab.update({lang: words for lang, words in common().others.items() if lang not in vocab})
    owners: dict[str, list[str]] = defaultdict(list)
    for lang, words in vocab.items():
        for w in words:
            owners[w].append(lang)
    return {w: {lang: 1.0 / len(langs_) for lang in langs_} for w, langs_ in owners.items()}


@lru_cache(maxsize=8)
def _letters(langs: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """letter → the languages that mark it as theirs (tables, then ``common.json``)."""
    owners: dict[str, list[str]] = defaultdict(list)
    for lang in langs:
        if lang in TABLES:
            for letter in dict.fromkeys(lexicon(lang).letters):
                owners[letter].append(lang)
    for letter, others in common().other_letters.items():
        owners[letter].extend(lang for lang in others if lang not in langs)
    return {letter: tuple(v) for letter, v in owners.items()}


@lru_cache(maxsize=1)
def _titles() -> re.Pattern[str]:
    """Every table's forms of address ("Frau", "Mrs", "Sig.ra") where a capitalised word
    follows: part of a name, they do not vote ("My neighbour is Frau Berger." is English)."""
    forms = sorted({t for lang in TABLES for t in lexicon(lang).titles}, key=len, reverse=True)
    alts = "|".join(re.escape(t) for t in forms) or "(?!)"
    return re.compile(rf"(?<![\w.])(?:{alts})\.?(?=\s+[^\W\d_a-zß-ÿ])")


@lru_cache(maxsize=8)
def _stems(langs: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(greeting stem of 4 letters or more, the tables listing it)."""
    owners: dict[str, list[str]] = defaultdict(list)
    for lang in langs:
        if lang in TABLES:
            for stem in lexicon(lang).small_talk_stems:
                if len(stem) >= 4:
                    owners[stem].append(lang)
    return tuple((stem, tuple(v)) for stem, v in owners.items())


def _scores(text: str, langs: tuple[str, ...]) -> dict[str, float]:
    """The votes of each language for ``text`` (file names, addresses and the forms of address
    before a name do not vote). A word written with a letter only languages without a table
    write votes for them alone ("står" is no English "star")."""
    scores: dict[str, float] = defaultdict(float)
    weights = _weights(langs)
    words = _titles().sub(" ", common().without_not_words(text))
    theirs = common().other_letters
    for raw in _WORD.findall(words):
        word = fold(raw)
        foreign = any(ch in theirs for ch in raw.lower())
        for lang, w in weights.get(word, {}).items():
            if not (foreign and lang in langs):
                scores[lang] += w
        if word not in weights and not foreign:  # "obrigadinha", "grazissime": one table's greeting stem
            greeted = {lang for stem, langs_ in _stems(langs) if len(stem) >= STEM_VOTE for lang in langs_
                       if word.startswith(stem)}
            for lang in greeted:
                scores[lang] += 1.0 / len(greeted)
    for letter, owners in _letters(langs).items():
        if letter in words or letter.upper() in words:
            for lang in owners:
                scores[lang] += LETTER_VOTE / len(owners)
            for lang in common().shared_letters.get(letter, ()):
                if lang not in langs:  # "ä" is Swedish too: the vote German has, not a share of it
                    scores[lang] += LETTER_VOTE / len(owners)
    return scores


def _ranked(scores: dict[str, float], langs: tuple[str, ...]) -> Guess:
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], _order(kv[0], langs)))
    if not ranked:
        return Guess("")
    best, score = ranked[0]
    lead = score - (ranked[1][1] if len(ranked) > 1 else 0.0)
    return Guess(best, score, lead)


def guess(text: str, langs: tuple[str, ...] = TABLES) -> Guess:
    """The best-scoring language of ``text`` among ``langs`` and the languages without a table."""
    # the script is told by the words: a key or token with digits in it ("ghp_9xK…") is none
    letters = [ch for ch in _KEY_LIKE.sub(" ", text) if ch.isalpha()]
    if letters and sum(1 for ch in letters if _NON_LATIN.match(ch)) * 2 > len(letters):
        return Guess(UNDETERMINED, 1.0, 1.0)
    scores = _scores(text, langs)
    found = _ranked(scores, langs)
    if found.score >= MIN_SCORE and found.lead < MIN_LEAD and not _close(scores, found.score, langs):
        return found  # "Mitt flyg …": Swedish or Norwegian, no table either way: read neutrally
    if found.score < MIN_SCORE or found.lead < MIN_LEAD:
        return Guess("", found.score, found.lead)
    return found  # a language without a table gets its own code: read neutrally


def _close(scores: dict[str, float], top: float, langs: tuple[str, ...]) -> list[str]:
    """The tables scoring within ``MIN_LEAD`` of ``top``, best first."""
    near = [lang for lang, v in scores.items() if lang in langs and top - v < MIN_LEAD]
    return sorted(near, key=lambda lang: (-scores[lang], _order(lang, langs)))


def _among_tables(text: str, langs: tuple[str, ...]) -> str:
    """The one table a short message leans to when only the languages without a table made it
    undecided ("Hallo!" is German or Dutch; of ours, German)."""
    scores = {lang: v for lang, v in _scores(text, langs).items() if lang in langs}
    found = _ranked(scores, langs)
    return found.language if found.score >= MIN_LEAD and found.lead >= MIN_LEAD else ""


def _unknown_words(text: str, langs: tuple[str, ...]) -> bool:
    """Whether an undecided ``text`` is too little to guess a table from: it has words and no
    table votes for it ("Eyvallah, kolay gelsin"), or it writes a letter only languages without
    a table write ("Toppen, då säger vi så", "Günaydın!"), or, in three words or more, a
    language without a table scores as high as the best table ("Dank je wel, tot morgen!",
    "Dopisz do pliku zakupy.md mleko i chleb"). A table's own small talk ("lol fair enough")
    and a message of content words a table leans to ("The garage door is painted RAL 5024.")
    stay with the tables."""
    bare = _titles().sub(" ", common().without_not_words(text))
    found = _WORD.findall(bare)
    # a code in capitals ("LH 402") and a name after the first word ("Mérida") are no word of
    # any language
    words = [w for i, w in enumerate(found) if not (len(w) > 1 and w.isupper()) and not (i and w[:1].isupper())]
    if not words:
        return False
    folded = fold(text)
    if any((hello := lexicon(lang).small_talk) is not None and hello.match(folded) for lang in langs if lang in TABLES):
        return False  # "lol fair enough": a table's own small talk
    scores = _scores(text, langs)
    tabled = max((v for lang, v in scores.items() if lang in langs), default=0.0)
    untabled = max((v for lang, v in scores.items() if lang not in langs), default=0.0)
    theirs = common().other_letters
    if tabled == 0 or any(ch in theirs for w in words for ch in w.lower()):
        return True
    return len(words) > 2 and untabled >= tabled


def _order(lang: str, langs: tuple[str, ...]) -> int:
    return langs.index(lang) if lang in langs else len(langs)


def _laughing_in(text: str, langs: tuple[str, ...]) -> str:
    """The first of ``langs`` whose table reads the message's first word as laughter, or ""."""
    words = tokens(fold(text))
    return next((lang for lang in langs if lang in TABLES and words and laughs(words[0], lexicon(lang))), "")


def detect(text: str, *, previous: str | None = None, pinned: str = "",
           langs: tuple[str, ...] = TABLES) -> str:
    """The language to read ``text`` in: ``pinned`` if set; the detected one; for a message
    too short to tell, the one table its words lean to ("Salut !"), else the language of
    ``previous``, else the first of ``langs``."""
    if pinned:
        return pinned
    found = guess(text, langs).language
    if found:
        return found
    before = guess(previous, langs).language if previous and previous.strip() else ""
    if not before and _unknown_words(text, langs):
        # no table's words and nothing before to follow: read neutrally, unless it opens on laughter
        # a table knows ("lmaooo", "mdrrr", "huehue")
        return _laughing_in(text, langs) or UNDETERMINED
    leaning = _among_tables(text, langs)
    if leaning:
        return leaning
    scores = _scores(text, langs)
    top = max((v for lang, v in scores.items() if lang in langs), default=0.0)
    near = _close(scores, top, langs) if top >= MIN_LEAD else []
    if near and before not in near:
        return near[0]  # "No como carne de cerdo.": Spanish or Portuguese, not the previous English
    if before:
        return before
    return langs[0] if langs else UNDETERMINED
