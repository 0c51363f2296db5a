"""The pruned BM25 top-k (``bm25_topk`` + ``FtsIndex.top_k``) gives FTS5's own answer: the
same rows, the same ranks to the bit and the same order, on a fixed seeded corpus; and a
search through ``MemoryManager`` returns the same hits with and without it."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from openclaw_tui.memory.builtin import bm25_topk
from openclaw_tui.memory.builtin import query as qry
from openclaw_tui.memory.builtin.fts_index import FtsIndex
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.memory.builtin.store import Store

LIMIT = 24  # maxResults 6 × candidateMultiplier 4


def vocabulary(n: int = 900, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    words: set[str] = set()
    while len(words) < n:
        words.add("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 8))))
    return sorted(words)


def fill(store: Store, chunks: int = 3000, seed: int = 3) -> list[str]:
    """Zipf-distributed words, chunks of 20–80 words, some under a heading context (longer
    FTS rows); returns a few chunk texts to draw queries from."""
    vocab = vocabulary()
    weights = [1.0 / (r + 1) for r in range(len(vocab))]
    rng = random.Random(seed)
    samples: list[str] = []
    per_file = 50
    with store.lock, store.conn:
        for f in range(0, chunks, per_file):
            rows: list = []
            for i in range(per_file):
                text = " ".join(rng.choices(vocab, weights=weights, k=rng.randint(20, 80)))
                if i % 5 == 0:
                    rows.append((i * 3 + 1, i * 3 + 3, f"h{f}-{i}", text, "# " + " ".join(rng.choices(vocab, k=3))))
                else:
                    rows.append((i * 3 + 1, i * 3 + 3, f"h{f}-{i}", text))
                if i < 2:
                    samples.append(text)
            store.replace_file(f"memory/f{f // per_file:03d}.md", "memory", f"fh{f}", 0.0, 0, 0, rows, None)
    return samples


def queries(samples: list[str], n: int = 120, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.sample(samples[rng.randrange(len(samples))].split(), 4)) for _ in range(n)]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory):
    store = Store(tmp_path_factory.mktemp("topk") / "index.sqlite", vector_enabled=False)
    samples = fill(store)
    yield store, queries(samples)
    store.close()


def test_top_k_is_the_full_query_whenever_it_answers(corpus):
    store, qs = corpus
    proven = 0
    for q in qs:
        terms = qry.query_terms(q)
        phrases = qry.fts_or_terms(terms, store.common_terms(terms))
        full = store.fts_search(qry.fts_or_expression(phrases), LIMIT)
        got = store.fts.top_k(phrases, LIMIT)
        if got is not None:
            proven += 1
            assert got == full, q  # rows, ranks (bit for bit) and order
    assert proven >= len(qs) // 4  # the pruned path is the one mostly taken here


def test_a_common_term_between_rare_ones_is_ranked_in_the_query_order(corpus):
    """The AND of common and rare terms cannot keep the phrase order: its rows are ranked
    again from their text, and give FTS5's doubles."""
    store, _ = corpus
    total, dfs = store.doc_frequencies(vocabulary())
    by_df = sorted((df or 0, t) for t, df in dfs.items())
    common = next(t for df, t in by_df if df * 5 > total and df * 2 < total)
    rare = [t for df, t in by_df if 20 <= df <= 60][:2]
    phrases = [rare[0], common, rare[1]]
    full = store.fts_search(qry.fts_or_expression(phrases), LIMIT)
    got = store.fts.top_k(phrases, LIMIT)
    assert got is not None and got == full


def test_exact_ranks_are_fts5_bm25_to_the_bit(corpus):
    store, qs = corpus
    fts: FtsIndex = store.fts
    totals = fts._totals()
    assert totals is not None and totals.rows == 3000
    for q in qs[:20]:
        terms = qry.query_terms(q)
        full = store.fts_search(qry.fts_or_expression(terms), 50)
        _, dfs = store.doc_frequencies(terms)
        idfs = [bm25_topk.idf(totals.rows, dfs[t] or 0) for t in terms]
        want = [fts._tokens(t, 1)[0] for t in terms]  # FTS5_TOKENIZE_QUERY
        mine = fts._exact_ranks([r for r, _ in full], want, idfs, totals)
        assert mine == dict(full)


@pytest.mark.parametrize(("top", "bound", "ok"), [
    ([(1, -5.0), (2, -4.0)], 3.9, True),
    ([(1, -5.0), (2, -4.0)], 4.0, False),  # a row outside could tie the last one
    ([(1, -5.0)], 0.0, False),  # fewer rows than wanted
])
def test_proven_needs_the_last_row_above_the_bound(top, bound, ok):
    assert bm25_topk.proven(top, 2, bound) is ok


def test_idf_is_clamped_like_fts5():
    assert bm25_topk.idf(100, 80) == 1e-6
    assert bm25_topk.idf(100, 1) == pytest.approx(math.log(99.5 / 1.5))


def test_split_leaves_out_only_frequent_terms_within_reach_of_the_rarest():
    rows = 100_000
    dfs = [11_643, 127, 1_815]
    idfs = [bm25_topk.idf(rows, d) for d in dfs]
    assert bm25_topk.split_common(dfs, idfs, rows) == [True, False, False]
    assert bm25_topk.split_common([500, 400], [bm25_topk.idf(rows, 500), bm25_topk.idf(rows, 400)], rows) == [False, False]
    assert bm25_topk.split_common([30_000], [bm25_topk.idf(rows, 30_000)], rows) == [False]


def test_search_hits_are_the_same_with_and_without_pruning(tmp_path: Path, make_settings, monkeypatch):
    """The whole keyword pipeline (scores, order, snippets, citations) on the fixed corpus."""
    settings = make_settings(memorySearch={"provider": "none", "store": {"path": str(tmp_path / "m.sqlite")},
                                           "sync": {"onSearch": False, "watch": False}})
    m = MemoryManager(settings, provider=None)
    try:
        store = m._get_store()
        samples = fill(store, chunks=2000)
        store.set_meta_json("fingerprint", m.fingerprint(store))
        m._searched_once = True
        qs = queries(samples, n=40)
        answered: list[bool] = []
        top_k = FtsIndex.top_k

        def counting(self, terms, limit):
            got = top_k(self, terms, limit)
            answered.append(got is not None)
            return got

        monkeypatch.setattr(FtsIndex, "top_k", counting)
        pruned = [m.search(q, min_score=0.0).results for q in qs]
        monkeypatch.setattr(FtsIndex, "top_k", lambda self, terms, limit: None)
        full = [m.search(q, min_score=0.0).results for q in qs]
        assert sum(answered) >= 10
        assert pruned == full
        assert all(len(r) == 6 for r in full)
    finally:
        m.close()


def test_rows_holding_only_common_terms_are_not_lost(tmp_path: Path):
    """Ten rows hold the rare term; the other fourteen of the best 24 hold only the common
    one: the bound is not met, and the full query answers."""
    store = Store(tmp_path / "i.sqlite", vector_enabled=False)
    rows = []
    for i in range(200):
        words = ["filler"] * (30 if i < 10 else 8)
        if i < 10:
            words[0] = "zircon"
        if i % 2 == 0:
            words[1:1 + (i % 5) + 1] = ["harbor"] * ((i % 5) + 1)
        rows.append((i + 1, i + 1, f"h{i}", " ".join(words) + f" w{i}"))
    store.replace_file("a.md", "memory", "a", 0, 0, 0, rows, None)
    full = store.fts_search(qry.fts_or_expression(["zircon", "harbor"]), LIMIT)
    assert len(full) == LIMIT and any(rowid > 10 for rowid, _ in full)
    assert store.fts.top_k(["zircon", "harbor"], LIMIT) in (None, full)
    assert text_hits_rows(store, "zircon harbor") == [r for r, _ in full]
    store.close()


def text_hits_rows(store: Store, query: str) -> list[int]:
    from openclaw_tui.memory.builtin.search import text_hits  # noqa: PLC0415

    return list(text_hits(store, query, qry.query_terms(query), "or", LIMIT))
