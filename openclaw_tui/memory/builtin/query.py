"""A search query as terms (pure functions, no I/O): word tokens in any script, CJK runs as
bigrams with their particles and stopwords cut, the FTS5 MATCH expression, the text FTS5
stores, and the calendar days a query names.

Table-tested in ``tests/memory/test_pipeline.py``.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Collection

from openclaw_tui.language.lexicon import fold
from openclaw_tui.language.stopwords import ALL, CJK_CUTS, KO_PARTICLES
from openclaw_tui.language.words import cue_words, day_suffixes, month_numbers

# Word tokens: letters/digits runs (any script) plus apostrophes inside words.
_WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")

#: stopwords of every supported language (language/data/stopwords/): never a search term
STOPWORDS = ALL
_HIRAGANA_RE = re.compile(r"[\u3040-\u309f]")
_HANGUL_RUN_RE = re.compile(r"^[\uac00-\ud7af]+$")

#: a CJK run cut into one-script segments: Han, hiragana, katakana (with ー), hangul
_SCRIPT_SEG_RE = re.compile(
    r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[\u3040-\u309f]+|[\u30a0-\u30ff]+|[\uac00-\ud7af]+"
)


def word_tokens(text: str) -> list[str]:
    """Lowercase word tokens (unicode letters/digits); apostrophes kept inside words. (Every
    keyword candidate of a search is tokenised: ``findall`` and no per-match ``replace``
    unless the text holds a ’ cost 0.6× the per-match form.)"""
    text = text or ""
    words = _WORD_RE.findall(text)
    if "’" in text:
        return [w.lower().replace("’", "'") for w in words]
    return [w.lower() for w in words]


CJK_RUN_RE = re.compile(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+)")


def cjk_terms(run: str) -> list[str]:
    """A run of CJK characters (no spaces between words) → overlapping bigrams; a single
    character stays itself. "東京开会" → ["東京", "京开", "开会"]."""
    if len(run) <= 1:
        return [run] if run else []
    return [run[i : i + 2] for i in range(len(run) - 1)]


def split_cjk(token: str) -> list[str]:
    """Split a token on CJK boundaries: CJK runs become bigrams, the rest stays whole."""
    if not CJK_RE.search(token):
        return [token]
    out: list[str] = []
    for part in CJK_RUN_RE.split(token):
        if not part:
            continue
        if CJK_RE.match(part):
            out.extend(cjk_terms(part))
        else:
            out.append(part)
    return out


def fts_text(text: str) -> str:
    """Text as stored in FTS5: CJK characters are spaced apart so unicode61 indexes each
    one as a token (it would otherwise index a whole unspaced sentence as one token)."""
    if not CJK_RE.search(text):
        return text
    return CJK_RUN_RE.sub(lambda m: " " + " ".join(m.group(0)) + " ", text)


def strip_korean_particle(word: str) -> str:
    """``회의에서`` → ``회의``: drop one trailing particle when at least two syllables remain."""
    for particle in KO_PARTICLES:
        if word.endswith(particle) and len(word) - len(particle) >= 2:
            return word[: -len(particle)]
    return word


def cut_stopwords(segment: str) -> list[str]:
    """Cut a one-script CJK segment at every multi-character stopword it holds, leftmost and
    longest first: ``之前讨论的那个方案`` → ``["讨论的", "方案"]``."""
    pieces: list[str] = []
    start = i = 0
    while i < len(segment):
        word = next((w for w in CJK_CUTS if segment.startswith(w, i)), None)
        if word is None:
            i += 1
            continue
        pieces.append(segment[start:i])
        i += len(word)
        start = i
    pieces.append(segment[start:])
    return [p for p in pieces if p]


def cjk_query_terms(run: str) -> list[str]:
    """Search terms of one CJK run: Korean words lose their trailing particle; Japanese runs
    mixing kanji/katakana with hiragana keep only the kanji and katakana segments (the
    hiragana between them is particles and inflection); every segment is cut at stopwords,
    then split into bigrams (a lone character stays itself)."""
    if _HANGUL_RUN_RE.match(run):
        run = strip_korean_particle(run)
    segments = [run]
    if _HIRAGANA_RE.search(run):
        segments = _SCRIPT_SEG_RE.findall(run)
        content = [seg for seg in segments if not _HIRAGANA_RE.match(seg)]
        segments = content or segments
    out: list[str] = []
    for seg in segments:
        for piece in cut_stopwords(seg):
            out.extend(t for t in cjk_terms(piece) if t not in STOPWORDS)
    return out


def query_terms(query: str) -> list[str]:
    """Distinct non-stopword tokens of a query, in order (CJK runs via ``cjk_query_terms``).
    Falls back to all tokens when every token is a stopword (so "who am I" still searches
    something)."""
    toks = word_tokens(query)
    seen: dict[str, None] = {}
    for t in toks:
        if CJK_RE.search(t):
            for part in CJK_RUN_RE.split(t):
                terms = cjk_query_terms(part) if CJK_RE.match(part) else [part] if part else []
                for term in terms:
                    if term not in STOPWORDS:
                        seen.setdefault(term, None)
            continue
        base = t.split("'")[0] if t.endswith(("'s", "'re", "'ve", "'ll", "'d")) else t
        if base and base not in STOPWORDS and t not in STOPWORDS:
            seen.setdefault(base, None)
    if not seen:
        for t in toks:
            for p in split_cjk(t):
                seen.setdefault(p, None)
    return list(seen)


def _cjk_segments(run: str) -> list[str]:
    """The content segments of one CJK run (as ``cjk_query_terms``, before bigrams)."""
    if _HANGUL_RUN_RE.match(run):
        run = strip_korean_particle(run)
    segments = [run]
    if _HIRAGANA_RE.search(run):
        segments = [seg for seg in _SCRIPT_SEG_RE.findall(run) if not _HIRAGANA_RE.match(seg)] or _SCRIPT_SEG_RE.findall(run)
    return [piece for seg in segments for piece in cut_stopwords(seg) if piece not in STOPWORDS]


def trigram_terms(query: str, n: int = 3) -> tuple[list[str], list[str]]:
    """A query's terms for a trigram index: ``(long, short)``. Long terms (``n`` characters
    or more) match through the index: a word as itself, a CJK segment as its ``n``-character
    windows ("四川火锅" → "四川火", "川火锅"). Short ones (a two-character CJK word, "ok")
    only by a scan. Stopwords are left out unless nothing else is left."""
    long_terms: dict[str, None] = {}
    short_terms: dict[str, None] = {}
    toks = word_tokens(query)
    for t in toks:
        parts = [p for p in CJK_RUN_RE.split(t) if p] if CJK_RE.search(t) else [t]
        for part in parts:
            if CJK_RE.match(part):
                for seg in _cjk_segments(part):
                    if len(seg) >= n:
                        long_terms.update((seg[i : i + n], None) for i in range(len(seg) - n + 1))
                    else:
                        short_terms.setdefault(seg, None)
            elif part not in STOPWORDS:
                (long_terms if len(part) >= n else short_terms).setdefault(part, None)
    if not long_terms and not short_terms:
        for t in toks:
            (long_terms if len(t) >= n else short_terms).setdefault(t, None)
    return list(long_terms), list(short_terms)


def _fts_quote(term: str) -> str:
    # a CJK term becomes a phrase of its characters, matching the spaced FTS text
    if CJK_RE.search(term):
        term = fts_text(term).strip()
        term = " ".join(term.split())
    return '"' + term.replace('"', '""') + '"'


def build_fts_query(query: str, mode: str = "or", skip: Collection[str] = ()) -> str | None:
    """FTS5 MATCH expression for a natural-language query.

    Every token is quoted, so punctuation and FTS operators in the query never break MATCH.
    ``mode="or"`` joins the non-stopword tokens with OR (BM25 ranks chunks holding more of
    them first), leaving out the ``skip`` terms (those in more than half the chunks, which
    BM25 weighs ~0: ``Store.common_terms``) unless no other term is left;
    ``mode="and"`` joins every token with AND (OpenClaw's behaviour).
    Returns None when the query has no word token.
    """
    if mode == "and":
        toks = list(dict.fromkeys(p for t in word_tokens(query) for p in split_cjk(t)))
        return " AND ".join(_fts_quote(t) for t in toks) if toks else None
    terms = query_terms(query)
    if not terms:
        return None
    return fts_or_expression(fts_or_terms(terms, skip))


def fts_or_terms(terms: list[str], skip: Collection[str] = ()) -> list[str]:
    """The phrases of an OR query, in order: ``terms`` without the ``skip`` ones, unless that
    leaves none."""
    return [t for t in terms if t not in skip] or terms


def fts_or_expression(terms: Collection[str]) -> str:
    """``"a" OR "b"``: each term a quoted phrase."""
    return " OR ".join(_fts_quote(t) for t in terms)


def term_in_tokens(term: str, toks: Collection[str], low: str) -> bool:
    """Whether a query term occurs in a text given as its word tokens ``toks`` and its
    lowercase form ``low``: a CJK term as a substring, another as a whole token or, for 4+
    letters, as a token's prefix ("paint" in "painting")."""
    if CJK_RE.search(term):
        return term in low
    return term in toks or (len(term) >= 4 and any(t.startswith(term) for t in toks))


# --------------------------------------------------------------------------- dates in queries

#: month names and abbreviations of every date table (folded: "marz" for "März"), longest first
_MONTHS = month_numbers()
_MONTH_ALT = "|".join(re.escape(m) for m in sorted(_MONTHS, key=len, reverse=True))
_DAY_SUFFIX = "|".join(re.escape(s) for s in day_suffixes())
_JOINERS = "|".join(re.escape(j) for j in sorted(cue_words("day_month_joiners"), key=len, reverse=True))
_ISO_DATE_RE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
# matched on folded text (same length as the query): "October 13, 2023", "März 3"
_MONTH_DAY_RE = re.compile(rf"\b({_MONTH_ALT})\.?\s+(\d{{1,2}})(?:{_DAY_SUFFIX})?(?!\w)(?:,?\s+(\d{{4}})\b)?")
# "13 Oct", "3rd of March", "13 de marzo", "3. März", "1er mai"
_DAY_MONTH_RE = re.compile(
    rf"\b(\d{{1,2}})(?:{_DAY_SUFFIX})?\s+(?:(?:{_JOINERS})\s+)?({_MONTH_ALT})\b\.?(?:,?\s+(\d{{4}})\b)?"
)


def query_dates(query: str) -> list[tuple[int | None, int, int]]:
    """Calendar days named in a query, in any date table's month names: ``2023-10-13``,
    ``October 13, 2023``, ``13 Oct``, ``March 3rd``, ``13 de marzo``, ``3. März``, ``1er mai``.
    Returns ``(year or None, month, day)``; impossible days are dropped."""
    out: list[tuple[int | None, int, int]] = []
    for m in _ISO_DATE_RE.finditer(query or ""):
        out.append((int(m.group(1)), int(m.group(2)), int(m.group(3))))
    folded = fold(query or "")
    for m in _MONTH_DAY_RE.finditer(folded):
        out.append((int(m.group(3)) if m.group(3) else None, _MONTHS[m.group(1)], int(m.group(2))))
    for m in _DAY_MONTH_RE.finditer(folded):
        out.append((int(m.group(3)) if m.group(3) else None, _MONTHS[m.group(2)], int(m.group(1))))
    valid = []
    for y, mo, d in out:
        try:
            date(y or 2000, mo, d)  # 2000 is a leap year: Feb 29 without a year is fine
        except ValueError:
            continue
        if (y, mo, d) not in valid:
            valid.append((y, mo, d))
    return valid


def contains_cjk(text: str) -> bool:
    return bool(CJK_RE.search(text or ""))
