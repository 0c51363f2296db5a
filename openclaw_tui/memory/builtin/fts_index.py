"""The keyword side of the index: the FTS5 table ``chunks_fts`` (rowid = chunk id), its search,
document frequencies and tokens.

Two tokenizers, chosen by ``memorySearch.store.fts.tokenizer`` (OpenClaw's key):

* ``unicode61`` (default): unicode61 with porter stems, CJK characters spaced apart so each
  is a token (``query.fts_text``), queries as OR'ed quoted terms, CJK as character bigrams;
* ``trigram``: FTS5's trigram tokenizer over the text as written (substring matching, what
  CJK text without spaces needs); query terms of three or more characters match through the
  index (a longer CJK segment as its three-character windows), and a query with only shorter
  terms (a two-character CJK word) is answered by a ``LIKE`` scan of the table.

The tokenizer of a table is the one it was created with (read back from ``sqlite_master``):
a changed setting changes the index fingerprint (``Indexer.fingerprint``), so the next sync
rebuilds the index with the new tokenizer, and until then queries still match the old table.
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import Any, Iterable, Sequence

import apsw

from openclaw_tui.memory.builtin import bm25_topk
from openclaw_tui.memory.builtin.index_db import IndexDb, count_rows
from openclaw_tui.memory.builtin.query import fts_or_expression, fts_text, trigram_terms, word_tokens

log = logging.getLogger("openclaw_tui.memory.store")

# porter over unicode61: measured +4 points evidence-all-found@6 on LoCoMo (bench/locomo_eval.py)
FTS_TOKENIZER = "porter unicode61 remove_diacritics 2"
#: how text is prepared for FTS (part of the index fingerprint): CJK characters spaced apart;
#: **ours:** each chunk's FTS row is its heading context (the Markdown headings above it)
#: followed by its text, so changing this string rebuilds old indexes once
FTS_CONTENT = "cjk-chars; heading-context"
#: the trigram table: case folded, the text as written (no CJK spacing)
TRIGRAM_TOKENIZER = "trigram"
TRIGRAM_CONTENT = "raw; heading-context"
#: the shortest term the trigram index can match
TRIGRAM_MIN = 3


def tokenizer_spec(kind: str) -> str:
    """The FTS5 ``tokenize`` argument of a ``store.fts.tokenizer`` value."""
    return TRIGRAM_TOKENIZER if kind == "trigram" else FTS_TOKENIZER


def fingerprint_part(kind: str) -> str:
    """What the index fingerprint records of the keyword side (unchanged for unicode61, so an
    index built before the setting existed is not rebuilt)."""
    return f"{TRIGRAM_TOKENIZER}; {TRIGRAM_CONTENT}" if kind == "trigram" else f"{FTS_TOKENIZER}; {FTS_CONTENT}"


def _tokenizer_args() -> tuple[str, list[str]]:
    """``FTS_TOKENIZER`` as (name, arguments) for ``Connection.fts5_tokenizer``."""
    name, *args = FTS_TOKENIZER.split()
    return name, args


class FtsIndex:
    """``chunks_fts`` of one index file; ``fts_available`` is False when FTS5 is missing."""

    def __init__(self, db: IndexDb, tokenizer: str = "unicode61"):
        self.db = db
        #: "unicode61" or "trigram": asked for; ``kind`` is what the table was built with
        self.requested = "trigram" if tokenizer == "trigram" else "unicode61"
        self.kind = self.requested
        self.conn = db.conn
        self.lock = db.lock
        self.fts_available = False
        self.fts_error: str | None = None
        # (vector_generation it is valid for — "" never is one, chunk count, term → doc count)
        self._df_cache: tuple[str | None, int, dict[str, int | None]] = ("", 0, {})
        # (vector_generation it is valid for, the table's row and token totals)
        self._totals_cache: tuple[str | None, bm25_topk.Totals | None] = ("", None)
        self._tokenizer: Any = None  # apsw.FTS5Tokenizer, made on first use

    def ensure(self) -> None:
        try:
            row = self.conn.execute("select sql from sqlite_master where name = 'chunks_fts'").fetchone()
            if row is not None:
                self.kind = "trigram" if "'trigram'" in str(row[0]) else "unicode61"
            self.conn.execute(
                f"create virtual table if not exists chunks_fts using fts5(text, tokenize='{tokenizer_spec(self.kind)}')"
            )
            # per-connection (temp schema): document frequencies of indexed terms
            self.conn.execute("create virtual table if not exists temp.chunks_fts_vocab using fts5vocab(main, chunks_fts, row)")
            self.fts_available = True
        except apsw.Error as exc:
            self.fts_available = False
            self.fts_error = str(exc)
            log.warning("FTS5 unavailable; search is vector-only (%s)", exc)

    @property
    def spec(self) -> str:
        return tokenizer_spec(self.kind)

    def prepare(self, text: str) -> str:
        """A chunk's text as this table stores it."""
        return text if self.kind == "trigram" else fts_text(text)

    def trigram_search(self, query: str, limit: int) -> list[tuple[int, float]]:
        """``[(chunk id, rank)]`` of a trigram table, best first (lower rank is better, as
        bm25): the terms of three or more characters through MATCH; when there are none, the
        shorter ones by a LIKE scan, ranked by how many of them a chunk holds."""
        long_terms, short_terms = trigram_terms(query)
        if long_terms:
            return self.fts_search(" OR ".join('"' + t.replace('"', '""') + '"' for t in long_terms), limit)
        if not short_terms or not self.fts_available:
            return []
        score = " + ".join("(text like ? escape '\\')" for _ in short_terms)
        args = [f"%{_like_escape(t)}%" for t in short_terms]
        with self.lock:
            try:
                rows: list[tuple[Any, ...]] = self.conn.execute(
                    f"select rowid, -({score}) as r from chunks_fts where r < 0 order by r limit ?",
                    (*args, int(limit))).fetchall()
            except apsw.Error as exc:
                log.warning("FTS scan failed (%s): %s", query, exc)
                return []
        return [(int(r[0]), float(r[1])) for r in rows]

    def fts_search(self, match: str | None, limit: int) -> list[tuple[int, float]]:
        """``[(chunk id, bm25 rank)]`` best first; empty on a bad expression."""
        if not self.fts_available or not match:
            return []
        with self.lock:
            try:
                rows: list[tuple[Any, ...]] = self.conn.execute(
                    "select rowid, bm25(chunks_fts) as r from chunks_fts where chunks_fts match ? order by r limit ?",
                    (match, int(limit)),
                ).fetchall()
            except apsw.Error as exc:
                log.warning("FTS query failed (%s): %s", match, exc)
                return []
        return [(int(r[0]), float(r[1])) for r in rows]

    def top_k(self, terms: Sequence[str], limit: int) -> list[tuple[int, float]] | None:
        """``fts_search`` of the OR of ``terms`` (each a quoted phrase, in this order) when the
        best ``limit`` can be proven without scoring the rows that hold only the most frequent
        terms (``bm25_topk``): the same rows, ranks and order; None when not proven (run the
        full query then)."""
        if self.kind == "trigram" or len(terms) < 2 or not self.fts_available:
            return None
        with self.lock:
            tokens = [self._tokens(t, apsw.FTS5_TOKENIZE_QUERY) for t in terms]
        if any(len(t) != 1 for t in tokens):
            return None  # a phrase of several tokens (a CJK term): no single count
        _, dfs = self.doc_frequencies(terms)
        totals = self._totals()
        counts = [dfs[t] for t in terms]
        if totals is None or totals.rows <= 0 or any(c is None for c in counts):
            return None
        hits = [int(c or 0) for c in counts]
        idfs = [bm25_topk.idf(totals.rows, h) for h in hits]
        common = bm25_topk.split_common(hits, idfs, totals.rows)
        if not any(common):
            return None
        rare = fts_or_expression([t for t, c in zip(terms, common) if not c])
        frequent = fts_or_expression([t for t, c in zip(terms, common) if c])
        # rows with a rare term and no common one: a phrase a row lacks adds exactly 0.0, so
        # FTS5's rank here is the full query's
        scored = dict(self.fts_search(f"({rare}) NOT ({frequent})", limit))
        both = self._both_ranks(common, [t[0] for t in tokens], idfs, totals, rare, frequent, limit)
        if both is None:
            return None
        scored.update(both)
        top = bm25_topk.best(scored, limit)
        bound = sum(bm25_topk.part_bound(w) for w, c in zip(idfs, common) if c)
        return top if bm25_topk.proven(top, limit, bound) else None

    def _both_ranks(self, common: list[bool], want: list[str], idfs: list[float], totals: bm25_topk.Totals,
                    rare: str, frequent: str, limit: int) -> dict[int, float] | None:
        """The best ``limit`` full-query ranks of the rows holding a common and a rare term.
        FTS5 ranks them when the AND keeps the query's phrase order (common terms all first
        or all last); else its ranks in the other order (equal but for rounding) pick the
        rows, ranked again here in the query's order; None when rounding could matter."""
        first = common.index(not common[0])
        if all(c != common[0] for c in common[first:]):
            match = f"({frequent}) AND ({rare})" if common[0] else f"({rare}) AND ({frequent})"
            return dict(self.fts_search(match, limit))
        near = self.fts_search(f"({frequent}) AND ({rare})", 4 * limit)
        if len(near) >= 4 * limit and near[-1][1] <= near[limit - 1][1] * (1.0 - 1e-9):
            return None  # the cut is not clear of rounding
        return self._exact_ranks([r for r, _ in near], want, idfs, totals)

    def _exact_ranks(self, rowids: list[int], want: list[str], idfs: list[float],
                     totals: bm25_topk.Totals) -> dict[int, float] | None:
        """bm25 ranks of these rows computed here from their stored text (each phrase's count
        and the row's token count); None when a row has colocated tokens."""
        out: dict[int, float] = {}
        avgdl = totals.avgdl
        wanted = [(w,) for w in want]
        for rowid, text in self._contents(rowids):
            with self.lock:  # each token a 1-tuple, colocated ones a longer tuple
                toks = self._tokenize(text.encode("utf-8"), apsw.FTS5_TOKENIZE_DOCUMENT, None, include_offsets=False)
            if sum(map(len, toks)) != len(toks):
                return None  # colocated tokens: not counted here as FTS5 counts them
            seen = Counter(toks)
            out[rowid] = bm25_topk.rank(idfs, [seen[w] for w in wanted], len(toks), avgdl)
        return out

    def _contents(self, rowids: list[int]) -> list[tuple[int, str]]:
        """The stored FTS text of these rows."""
        if not rowids:
            return []
        marks = ",".join("?" * len(rowids))
        with self.lock:
            rows: list[tuple[Any, ...]] = self.conn.execute(f"select rowid, text from chunks_fts where rowid in ({marks})", rowids).fetchall()
        return [(int(r[0]), str(r[1])) for r in rows]

    def _totals(self) -> bm25_topk.Totals | None:
        """The table's rows and tokens as bm25() reads them (the ``%_data`` averages record:
        varints, rows then each column's tokens), cached until the next write."""
        with self.lock:
            generation = self.db.get_meta("vector_generation")
            cached_gen, totals = self._totals_cache
            if cached_gen == generation and totals is not None:
                return totals
            row = self.conn.execute("select block from chunks_fts_data where id = 1").fetchone()
            totals = _averages(bytes(row[0])) if row and row[0] else None
            self._totals_cache = (generation, totals)
            return totals

    def common_terms(self, terms: Iterable[str]) -> set[str]:
        """The query terms found in more than half of the indexed chunks. FTS5's BM25 clamps
        such a term's IDF to 1e-6, so in an OR query it changes no ranking, yet FTS5 walks its
        whole doclist (at 100k chunks: ~120 ms of a ~145 ms query for four terms). A term the
        tokenizer splits in several tokens (a CJK phrase) is never reported."""
        total, dfs = self.doc_frequencies(terms)
        return {t for t, df in dfs.items() if (df or 0) * 2 > total}

    def doc_frequencies(self, terms: Iterable[str]) -> tuple[int, dict[str, int | None]]:
        """``(chunks, {term: chunks holding it})`` from ``fts5vocab``, cached until the next
        write; None for a term the tokenizer splits (a CJK phrase); ``(0, {})`` without FTS5."""
        terms = list(terms)
        if not self.fts_available or not terms:
            return 0, {}
        if self.kind == "trigram":  # a term is several trigrams: no single document frequency
            with self.lock:
                total = count_rows(self.conn.execute("select count(*) from chunks"))
            return total, {t: None for t in terms}
        with self.lock:
            generation = self.db.get_meta("vector_generation")
            cached_gen, total, dfs = self._df_cache
            if cached_gen != generation:
                total = count_rows(self.conn.execute("select count(*) from chunks"))
                dfs = {}
                self._df_cache = (generation, total, dfs)
            for term in terms:
                if term not in dfs:
                    tokens = self._tokens(term, apsw.FTS5_TOKENIZE_QUERY)
                    row = self.conn.execute("select doc from temp.chunks_fts_vocab where term = ?",
                                            tokens[:1]).fetchone() if len(tokens) == 1 else None
                    dfs[term] = None if len(tokens) != 1 else int(row[0]) if row else 0
            return total, {t: dfs[t] for t in terms}

    def index_tokens(self, text: str) -> list[str]:
        """``text`` as the keyword index sees it (lowercase, porter stems: "camped" → "camp")."""
        if self.kind == "trigram":  # trigrams are no words: the text's words, unstemmed
            return word_tokens(text)
        with self.lock:
            return self._tokens(text, apsw.FTS5_TOKENIZE_DOCUMENT) if self.fts_available and text else []

    def _tokens(self, text: str, flag: int) -> list[str]:
        return [t[2] for t in self._tokenize(fts_text(text).encode("utf-8"), flag, None)]

    @property
    def _tokenize(self) -> Any:
        """The table's tokenizer (``apsw.FTS5Tokenizer``), made on first use."""
        if self._tokenizer is None:
            self._tokenizer = self.conn.fts5_tokenizer(*_tokenizer_args())
        return self._tokenizer


def _like_escape(term: str) -> str:
    return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _averages(block: bytes) -> bm25_topk.Totals:
    """FTS5's averages record: the row count then one token total per column (SQLite varints)."""
    values: list[int] = []
    i = 0
    while i < len(block):
        value = 0
        for n in range(9):
            byte = block[i + n]
            if n == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if byte < 0x80:
                break
        values.append(value)
        i += n + 1
    return bm25_topk.Totals(rows=values[0] if values else 0, tokens=sum(values[1:]))
