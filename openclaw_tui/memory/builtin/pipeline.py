"""The search pipeline as small pure functions (DESIGN §4). No I/O, no SQLite.

Each step is table-tested in ``tests/memory/test_pipeline.py``:
FTS query building, BM25 rank → score, weighted merge, temporal decay, MMR, the minScore
floor with its keyword-only relaxation, the keyword-only coverage boost, snippets and
citations.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timezone
from typing import Collection, Iterable, Sequence

from openclaw_tui.memory import stopwords
from openclaw_tui.workspace.session_keys import ROOT_MEMORY_FILES

SNIPPET_MAX_CHARS = 700

# Word tokens: letters/digits runs (any script) plus apostrophes inside words.
_WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")

#: stopwords of every supported language (en, es, pt, ar, zh, ja, ko): never a search term
STOPWORDS = stopwords.ALL

_HIRAGANA_RE = re.compile(r"[\u3040-\u309f]")
_HANGUL_RUN_RE = re.compile(r"^[\uac00-\ud7af]+$")
#: a CJK run cut into one-script segments: Han, hiragana, katakana (with ー), hangul
_SCRIPT_SEG_RE = re.compile(
    r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[\u3040-\u309f]+|[\u30a0-\u30ff]+|[\uac00-\ud7af]+"
)


def word_tokens(text: str) -> list[str]:
    """Lowercase word tokens (unicode letters/digits); apostrophes kept inside words."""
    return [m.group(0).lower().replace("’", "'") for m in _WORD_RE.finditer(text or "")]


_CJK_RUN_RE = re.compile(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+)")


def cjk_terms(run: str) -> list[str]:
    """A run of CJK characters (no spaces between words) → overlapping bigrams; a single
    character stays itself. "東京开会" → ["東京", "京开", "开会"]."""
    if len(run) <= 1:
        return [run] if run else []
    return [run[i : i + 2] for i in range(len(run) - 1)]


def split_cjk(token: str) -> list[str]:
    """Split a token on CJK boundaries: CJK runs become bigrams, the rest stays whole."""
    if not _CJK_RE.search(token):
        return [token]
    out: list[str] = []
    for part in _CJK_RUN_RE.split(token):
        if not part:
            continue
        if _CJK_RE.match(part):
            out.extend(cjk_terms(part))
        else:
            out.append(part)
    return out


def fts_text(text: str) -> str:
    """Text as stored in FTS5: CJK characters are spaced apart so unicode61 indexes each
    one as a token (it would otherwise index a whole unspaced sentence as one token)."""
    if not _CJK_RE.search(text):
        return text
    return _CJK_RUN_RE.sub(lambda m: " " + " ".join(m.group(0)) + " ", text)


def strip_korean_particle(word: str) -> str:
    """``회의에서`` → ``회의``: drop one trailing particle when at least two syllables remain."""
    for particle in stopwords.KO_PARTICLES:
        if word.endswith(particle) and len(word) - len(particle) >= 2:
            return word[: -len(particle)]
    return word


def cut_stopwords(segment: str) -> list[str]:
    """Cut a one-script CJK segment at every multi-character stopword it holds, leftmost and
    longest first: ``之前讨论的那个方案`` → ``["讨论的", "方案"]``."""
    pieces: list[str] = []
    start = i = 0
    while i < len(segment):
        word = next((w for w in stopwords.CJK_CUTS if segment.startswith(w, i)), None)
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
        if _CJK_RE.search(t):
            for part in _CJK_RUN_RE.split(t):
                terms = cjk_query_terms(part) if _CJK_RE.match(part) else [part] if part else []
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


def _fts_quote(term: str) -> str:
    # a CJK term becomes a phrase of its characters, matching the spaced FTS text
    if _CJK_RE.search(term):
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
    terms = [t for t in terms if t not in skip] or terms
    return " OR ".join(_fts_quote(t) for t in terms)


def bm25_rank_to_score(rank: float) -> float:
    """FTS5 ``bm25()`` rank (negative = better) → score in (0, 1).

    r < 0: ``-r / (1 - r)``; otherwise ``1 / (1 + r)``. Monotone: a better rank never scores lower.
    """
    if not math.isfinite(rank):
        return 0.0
    if rank < 0:
        return -rank / (1.0 - rank)
    return 1.0 / (1.0 + rank)


def normalized_weights(vector_weight: float, text_weight: float) -> tuple[float, float]:
    total = vector_weight + text_weight
    if total <= 0:
        return 0.5, 0.5
    return vector_weight / total, text_weight / total


@dataclass
class Candidate:
    id: int
    path: str
    source: str
    start_line: int
    end_line: int
    text: str
    vector_score: float | None = None
    text_score: float | None = None
    score: float = 0.0
    mtime: float | None = None
    extra: dict = field(default_factory=dict)


def merge_hybrid(
    vector_hits: Iterable[Candidate],
    text_hits: Iterable[Candidate],
    vector_weight: float,
    text_weight: float,
) -> list[Candidate]:
    """Merge by chunk id: ``vw·v + tw·t`` with weights normalised to sum 1; a missing side is 0."""
    vw, tw = normalized_weights(vector_weight, text_weight)
    by_id: dict[int, Candidate] = {}
    for c in vector_hits:
        by_id[c.id] = replace(c, text_score=None)
    for c in text_hits:
        if c.id in by_id:
            by_id[c.id].text_score = c.text_score
        else:
            by_id[c.id] = replace(c, vector_score=None)
    out = []
    for c in by_id.values():
        c.score = vw * (c.vector_score or 0.0) + tw * (c.text_score or 0.0)
        out.append(c)
    return out


def coverage(terms: Sequence[str], text: str) -> float:
    """Fraction of distinct query terms found among the text's word tokens (prefix match
    for terms of 4+ characters, so "paint" covers "painting")."""
    if not terms:
        return 0.0
    toks = set(word_tokens(text))
    low = text.lower()
    return sum(term_in_tokens(term, toks, low) for term in terms) / len(terms)


def term_in_tokens(term: str, toks: Collection[str], low: str) -> bool:
    """Whether a query term occurs in a text given as its word tokens ``toks`` and its
    lowercase form ``low``: a CJK term as a substring, another as a whole token or, for 4+
    letters, as a token's prefix ("paint" in "painting")."""
    if _CJK_RE.search(term):
        return term in low
    return term in toks or (len(term) >= 4 and any(t.startswith(term) for t in toks))


def path_match(terms: Sequence[str], path: str) -> float:
    if not terms:
        return 0.0
    ptoks = set(word_tokens(path.replace("/", " ").replace(".", " ")))
    return sum(1 for t in terms if t in ptoks) / len(terms)


KEYWORD_COVERAGE_BOOST = 0.15
KEYWORD_PATH_BOOST = 0.05
#: BM25 depends on corpus size: in a workspace of two files every term is "common" and
#: FTS5 clamps its IDF to ~0, so a chunk holding every query term still scores ~0. The
#: coverage floor keeps such a hit at ``0.5 · coverage`` before the boosts.
KEYWORD_COVERAGE_FLOOR = 0.5


#: a query naming a day ("on October 13, 2023") and the daily log of that day
KEYWORD_DATE_BOOST = 0.1


def keyword_only_score(text_score: float, cov: float, path_hit: float, date_hit: bool = False) -> float:
    """Keyword-only score: BM25 score (floored by ``0.5 · coverage``) plus small boosts for
    query-term coverage, path matches and a named day matching the daily log's date,
    squashed below 1 so strong hits stay ordered."""
    base = max(text_score, KEYWORD_COVERAGE_FLOOR * cov)
    boosted = base + KEYWORD_COVERAGE_BOOST * cov + KEYWORD_PATH_BOOST * path_hit
    if date_hit:
        boosted += KEYWORD_DATE_BOOST
    # squash into (0, 1): identity below 0.8, compressed above, never reaches 1
    if boosted <= 0.8:
        return max(0.0, boosted)
    return 0.8 + 0.2 * (1.0 - math.exp(-(boosted - 0.8) / 0.2))


#: **ours:** in hybrid mode the text side is the keyword-only score (with its boosts) and
#: the vector side adds ``HYBRID_SEMANTIC_SCALE · vectorWeight · cosine`` to it; a chunk only
#: the vector side found scores ``vectorWeight · cosine`` as in the plain weighted merge.
HYBRID_SEMANTIC_SCALE = 0.5


def squash_score(x: float) -> float:
    """Identity up to 0.8, compressed above, never reaching 1 (keeps strong hits ordered)."""
    if x <= 0.8:
        return max(0.0, x)
    return 0.8 + 0.2 * (1.0 - math.exp(-(x - 0.8) / 0.2))


def hybrid_keyword_score(keyword_score: float | None, vector_score: float | None, vector_weight: float) -> float:
    """Hybrid score of one chunk: ``max(kw + s·vw·v, vw·v)`` (``s`` = HYBRID_SEMANTIC_SCALE,
    ``vw`` the normalised vector weight, ``kw`` the keyword-only score, a missing side 0,
    negative cosines 0), squashed below 1. Keyword evidence is never weakened by the vector
    side, and semantic evidence breaks ties between keyword hits."""
    v = max(0.0, vector_score or 0.0)
    kw = max(0.0, keyword_score or 0.0)
    return squash_score(max(kw + HYBRID_SEMANTIC_SCALE * vector_weight * v, vector_weight * v))


# --------------------------------------------------------------------------- dates in queries

_MONTHS = {
    m: i
    for i, names in enumerate(
        [
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
            ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"),
            ("november", "nov"), ("december", "dec"),
        ],
        start=1,
    )
    for m in names
}
_MONTH_ALT = "|".join(sorted(_MONTHS, key=len, reverse=True))
_ISO_DATE_RE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_MONTH_DAY_RE = re.compile(
    rf"\b({_MONTH_ALT})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(\d{{4}})\b)?", re.IGNORECASE
)
_DAY_MONTH_RE = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_ALT})\b\.?(?:,?\s+(\d{{4}})\b)?", re.IGNORECASE
)


def query_dates(query: str) -> list[tuple[int | None, int, int]]:
    """Calendar days named in a query: ``2023-10-13``, ``October 13, 2023``, ``13 Oct``,
    ``March 3rd``. Returns ``(year or None, month, day)``; impossible days are dropped."""
    out: list[tuple[int | None, int, int]] = []
    for m in _ISO_DATE_RE.finditer(query or ""):
        out.append((int(m.group(1)), int(m.group(2)), int(m.group(3))))
    for m in _MONTH_DAY_RE.finditer(query or ""):
        out.append((int(m.group(3)) if m.group(3) else None, _MONTHS[m.group(1).lower()], int(m.group(2))))
    for m in _DAY_MONTH_RE.finditer(query or ""):
        out.append((int(m.group(3)) if m.group(3) else None, _MONTHS[m.group(2).lower()], int(m.group(1))))
    valid = []
    for y, mo, d in out:
        try:
            date(y or 2000, mo, d)  # 2000 is a leap year: Feb 29 without a year is fine
        except ValueError:
            continue
        if (y, mo, d) not in valid:
            valid.append((y, mo, d))
    return valid


def date_path_match(dates: Sequence[tuple[int | None, int, int]], path: str) -> bool:
    """True when ``path`` is the daily log (``memory/…/YYYY-MM-DD.md``) of a day in ``dates``."""
    if not dates:
        return False
    d = date_from_memory_path(path)
    if d is None:
        return False
    return any(mo == d.month and day == d.day and (y is None or y == d.year) for y, mo, day in dates)


# --------------------------------------------------------------------------- temporal decay

_DATED_RE = re.compile(r"(?:^|/)(\d{4})-(\d{2})-(\d{2})\.md$", re.IGNORECASE)


def date_from_memory_path(path: str) -> date | None:
    """The date of ``memory/…/YYYY-MM-DD.md``; None for undated or invalid dates."""
    if not path.startswith("memory/"):
        return None
    m = _DATED_RE.search(path)
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def is_evergreen(path: str, source: str) -> bool:
    return source == "memory" and (path in ROOT_MEMORY_FILES or path.startswith("memory/"))


def age_days(path: str, source: str, mtime: float | None, now: datetime) -> float | None:
    """Age used for decay; None means the item never decays.

    ``memory/YYYY-MM-DD.md`` → days since that date (UTC midnight); ``MEMORY.md`` and undated
    ``memory/*.md`` never decay; anything else (extra paths, sessions) uses its mtime.
    """
    d = date_from_memory_path(path) if source == "memory" else None
    if d is not None:
        start = datetime(d.year, d.month, d.day, tzinfo=timezone.utc)
        return max(0.0, (now - start).total_seconds() / 86400.0)
    if is_evergreen(path, source):
        return None
    if mtime is None:
        return None
    return max(0.0, (now.timestamp() - mtime) / 86400.0)


def decay_factor(age: float | None, half_life_days: float) -> float:
    """``exp(-ln2 / halfLife · ageDays)``; 1 when age is None."""
    if age is None or half_life_days <= 0:
        return 1.0
    return math.exp(-math.log(2) / half_life_days * age)


def apply_decay(cands: list[Candidate], half_life_days: float, now: datetime) -> list[Candidate]:
    for c in cands:
        c.score *= decay_factor(age_days(c.path, c.source, c.mtime, now), half_life_days)
    return cands


# --------------------------------------------------------------------------- MMR


def similarity_tokens(text: str) -> set[str]:
    """Token set MMR compares: lowercase word tokens, with every CJK run (kanji, kana, hangul)
    as its single characters plus its bigrams, so two Chinese snippets sharing words overlap
    (``今天讨论`` → 今 天 讨 论 今天 天讨 讨论)."""
    out: set[str] = set()
    for tok in word_tokens(text):
        if not _CJK_RE.search(tok):
            out.add(tok)
            continue
        for part in _CJK_RUN_RE.split(tok):
            if not part:
                continue
            if _CJK_RE.match(part):
                out.update(part)
                out.update(cjk_terms(part))
            else:
                out.add(part)
    return out


def jaccard(a: set[str], b: set[str]) -> float:
    if not a and not b:
        return 0.0
    inter = len(a & b)
    union = len(a | b)
    return inter / union if union else 0.0


def mmr_order(cands: Sequence[Candidate], lam: float, limit: int | None = None) -> list[Candidate]:
    """Greedy MMR: pick ``argmax λ·rel − (1−λ)·max Jaccard(selected)`` repeatedly.

    ``rel`` is the score min-max normalised over the candidates; similarity is Jaccard over
    ``similarity_tokens`` sets. Ties keep the incoming order.
    """
    items = list(cands)
    if len(items) <= 1:
        return items
    scores = [c.score for c in items]
    lo, hi = min(scores), max(scores)
    rel = [(s - lo) / (hi - lo) if hi > lo else 1.0 for s in scores]
    toks = [similarity_tokens(c.text) for c in items]
    remaining = list(range(len(items)))
    chosen: list[int] = []
    limit = len(items) if limit is None else min(limit, len(items))
    while remaining and len(chosen) < limit:
        best_i, best_v = remaining[0], -math.inf
        for i in remaining:
            sim = max((jaccard(toks[i], toks[j]) for j in chosen), default=0.0)
            v = lam * rel[i] - (1 - lam) * sim
            if v > best_v + 1e-12:
                best_i, best_v = i, v
        chosen.append(best_i)
        remaining.remove(best_i)
    return [items[i] for i in chosen]


# --------------------------------------------------------------------------- floor + top-k


def apply_min_score(
    cands: Sequence[Candidate], min_score: float, text_weight: float, max_results: int
) -> tuple[list[Candidate], bool]:
    """Drop candidates below ``min_score``; keep the top ``max_results``.

    When that leaves nothing but keyword hits exist, return the keyword hits with the floor
    lowered to ``min(min_score, text_weight)`` (text weight normalised). Returns
    ``(results, relaxed)``.
    """
    kept = [c for c in cands if c.score >= min_score]
    if kept:
        return kept[:max_results], False
    keyword = [c for c in cands if (c.text_score or 0.0) > 0.0]
    if not keyword:
        return [], False
    floor = min(min_score, text_weight)
    relaxed = [c for c in keyword if c.score >= floor or (c.text_score or 0.0) >= floor]
    return relaxed[:max_results], bool(relaxed)


#: **ours, measured and left at 0:** the vector side's nominee of :func:`keep_each_best` could
#: keep its reserved place only when its cosine beats the best cosine among the results
#: already in by this much (a hair of cosine is no reason to give a slot to a chunk the fusion
#: ranked far lower). Margins 0.02 / 0.05 / 0.1 on LoCoMo at k 3–6 and on the end-to-end QA
#: sample were a wash under leave-one-out, so 0 (always nominated) stays (docs/memory.md,
#: "The vector nominee's margin").
VECTOR_NOMINEE_MARGIN = 0.0


def keep_each_best(cands: Sequence[Candidate], limit: int, vector_margin: float | None = None) -> list[Candidate]:
    """**Ours:** ``cands`` (best first) reordered so that the best vector hit and the best
    keyword hit are among the first ``limit``; the other places go to the best of the rest,
    and the first ``limit`` keep their incoming order. In hybrid mode a chunk that only the
    vector side finds scores ``vectorWeight · cosine`` and can lose to every weak keyword
    hit even when it is the closest chunk by meaning ("martial arts" → a line about
    kickboxing); likewise the strongest BM25 hit can lose to semantic near-misses. Each
    retriever's single best hit now keeps a place: LoCoMo hybrid evidence-all-found@6
    321 → 324 of 383, chosen on/off by leave-one-out (docs/memory.md). The vector hit only
    when its cosine beats the first ``limit``'s best by ``vector_margin`` (default
    :data:`VECTOR_NOMINEE_MARGIN`). Ties go to the earlier candidate. Inputs are not
    modified."""
    items = list(cands)
    if len(items) <= limit:
        return items
    margin = VECTOR_NOMINEE_MARGIN if vector_margin is None else vector_margin
    best = [top for top in (_vector_nominee(items, limit, margin), _side_best(items, "text_score")) if top is not None]
    if len(best) == 2 and best[0] is best[1]:
        best.pop()
    others = [c for c in items if all(c is not b for b in best)]
    head = {id(c) for c in others[: max(0, limit - len(best))]} | {id(b) for b in best}
    return [c for c in items if id(c) in head] + [c for c in items if id(c) not in head]


def _side_best(items: Sequence[Candidate], side: str) -> Candidate | None:
    scored = [c for c in items if getattr(c, side) is not None]
    return max(scored, key=lambda c: getattr(c, side)) if scored else None


def _vector_nominee(items: Sequence[Candidate], limit: int, margin: float) -> Candidate | None:
    """The best vector hit, when it is already among the first ``limit`` or its cosine
    beats theirs by ``margin``."""
    top = _side_best(items, "vector_score")
    if top is None or margin <= 0.0 or any(top is c for c in items[:limit]):
        return top
    shown = [c.vector_score for c in items[:limit] if c.vector_score is not None]
    assert top.vector_score is not None  # _side_best only picks a candidate that has one
    return top if not shown or top.vector_score >= max(shown) + margin else None


#: **ours, measured off:** :func:`merge_adjacent` widens a result's line range, but its snippet
#: still shows at most 700 characters, so on LoCoMo the merged-in lines were mostly not
#: shown: evidence shown in the snippets 267/383 without merging vs 247/383 with it
#: (docs/memory.md); results are the best ``maxResults`` chunks, each with its own snippet.
MERGE_ADJACENT = False


def merge_adjacent(cands: Sequence[Candidate], limit: int) -> list[Candidate]:
    """**Ours:** the first ``limit`` results of ``cands`` (best first), where a chunk that
    touches or overlaps a result already taken from the same file widens that result (its
    lines joined in, the better score kept) instead of taking a slot of its own. A question
    whose evidence spans neighbouring chunks then leaves room for evidence elsewhere:
    hybrid LoCoMo evidence-all-found@6 316 → 321 of 383, better on each of the three
    conversations (docs/memory.md). Inputs are not modified."""
    out: list[Candidate] = []
    for c in cands:
        host = next((o for o in out if o.path == c.path and c.start_line <= o.end_line + 1 and c.end_line >= o.start_line - 1), None)
        if host is not None:
            host.text = _joined_lines(host, c)
            host.start_line, host.end_line = min(host.start_line, c.start_line), max(host.end_line, c.end_line)
            continue
        if len(out) == limit:
            break
        out.append(replace(c))
    return out


def _joined_lines(a: Candidate, b: Candidate) -> str:
    """The text of two overlapping or adjacent chunks of one file, each line once, in order
    (``a`` first, then ``b``, when a chunk's text does not map one line per line number)."""
    lines: dict[int, str] = {}
    for c in sorted((a, b), key=lambda x: x.start_line):
        parts = c.text.split("\n")
        if len(parts) != c.end_line - c.start_line + 1:
            return f"{a.text}\n{b.text}"
        for i, line in enumerate(parts):
            lines.setdefault(c.start_line + i, line)
    return "\n".join(lines[n] for n in sorted(lines))


def sort_candidates(cands: Iterable[Candidate]) -> list[Candidate]:
    """Score descending; ties by path then start line so output is deterministic."""
    return sorted(cands, key=lambda c: (-c.score, c.path, c.start_line, c.id))


# --------------------------------------------------------------------------- output


def make_snippet(text: str, limit: int = SNIPPET_MAX_CHARS) -> str:
    text = text.strip("\n")
    if len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"


def citation_for(path: str, start: int, end: int) -> str:
    return f"{path}#L{start}" if start == end else f"{path}#L{start}-L{end}"


def citations_enabled(mode: str, direct: bool) -> bool:
    if mode == "on":
        return True
    if mode == "off":
        return False
    return direct


def contains_cjk(text: str) -> bool:
    return bool(_CJK_RE.search(text or ""))
