"""The keyword side of the index: the FTS5 table ``chunks_fts`` (unicode61 with porter stems,
rowid = chunk id), its search, document frequencies and tokens."""

from __future__ import annotations

import logging
from typing import Any, Iterable

import apsw

from openclaw_tui.memory.builtin.index_db import IndexDb, count_rows
from openclaw_tui.memory.builtin.query import fts_text

log = logging.getLogger("openclaw_tui.memory.store")

# porter over unicode61: measured +4 points evidence-all-found@6 on LoCoMo (bench/locomo_eval.py)
FTS_TOKENIZER = "porter unicode61 remove_diacritics 2"
#: how text is prepared for FTS (part of the index fingerprint): CJK characters spaced apart;
#: **ours:** each chunk's FTS row is its heading context (the Markdown headings above it)
#: followed by its text, so changing this string rebuilds old indexes once
FTS_CONTENT = "cjk-chars; heading-context"


def _tokenizer_args() -> tuple[str, list[str]]:
    """``FTS_TOKENIZER`` as (name, arguments) for ``Connection.fts5_tokenizer``."""
    name, *args = FTS_TOKENIZER.split()
    return name, args


class FtsIndex:
    """``chunks_fts`` of one index file; ``fts_available`` is False when FTS5 is missing."""

    def __init__(self, db: IndexDb):
        self.db = db
        self.conn = db.conn
        self.lock = db.lock
        self.fts_available = False
        self.fts_error: str | None = None
        # (vector_generation it is valid for — "" never is one, chunk count, term → doc count)
        self._df_cache: tuple[str | None, int, dict[str, int | None]] = ("", 0, {})
        self._tokenize: Any = None  # apsw.FTS5Tokenizer, made on first use

    def ensure(self) -> None:
        try:
            self.conn.execute(
                f"create virtual table if not exists chunks_fts using fts5(text, tokenize='{FTS_TOKENIZER}')"
            )
            # per-connection (temp schema): document frequencies of indexed terms
            self.conn.execute("create virtual table if not exists temp.chunks_fts_vocab using fts5vocab(main, chunks_fts, row)")
            self.fts_available = True
        except apsw.Error as exc:
            self.fts_available = False
            self.fts_error = str(exc)
            log.warning("FTS5 unavailable; search is vector-only (%s)", exc)

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
        with self.lock:
            return self._tokens(text, apsw.FTS5_TOKENIZE_DOCUMENT) if self.fts_available and text else []

    def _tokens(self, text: str, flag: int) -> list[str]:
        if self._tokenize is None:
            self._tokenize = self.conn.fts5_tokenizer(*_tokenizer_args())
        return [t[2] for t in self._tokenize(fts_text(text).encode("utf-8"), flag, None)]
