"""Table tests for every search-pipeline step (pure functions, no I/O)."""

from __future__ import annotations

import math
from datetime import datetime, timezone

import pytest

from openclaw_tui.memory.builtin import query as qry, ranking, scoring
from openclaw_tui.memory import citations


def C(id, score=0.0, text="", path="memory/x.md", source="memory", v=None, t=None, mtime=None, start=1):
    c = scoring.Candidate(id, path, source, start, start, text, vector_score=v, text_score=t, mtime=mtime)
    c.score = score
    return c


# ----------------------------------------------------------------------------- FTS query


@pytest.mark.parametrize(
    "query, mode, expected",
    [
        ("When did Caroline go to the LGBTQ support group?", "or", '"caroline" OR "go" OR "lgbtq" OR "support" OR "group"'),
        ("When did Caroline go", "and", '"when" AND "did" AND "caroline" AND "go"'),
        ('quote " AND NOT near(', "or", '"quote" OR "near"'),  # operators and punctuation are quoted away
        ("who am I", "or", '"who" OR "am" OR "i"'),  # all stopwords: fall back to every token
        ("Melanie's pottery", "or", '"melanie" OR "pottery"'),
        ("東京 meeting", "or", '"東 京" OR "meeting"'),  # CJK: a phrase of spaced characters
        ("?!...", "or", None),
        ("", "and", None),
        ("deploy deploy DEPLOY", "or", '"deploy"'),
    ],
)
def test_build_fts_query(query, mode, expected):
    assert qry.build_fts_query(query, mode) == expected


# ----------------------------------------------------------------------------- BM25


@pytest.mark.parametrize(
    "rank, expected",
    [
        (-1.0, 0.5),
        (-3.0, 0.75),
        (-9.0, 0.9),
        (0.0, 1.0),
        (1.0, 0.5),
        (3.0, 0.25),
        (float("nan"), 0.0),
        (float("-inf"), 0.0),
    ],
)
def test_bm25_rank_to_score(rank, expected):
    assert scoring.bm25_rank_to_score(rank) == pytest.approx(expected)


def test_bm25_score_monotone_for_negative_ranks():
    ranks = [-20.0, -10.0, -5.0, -1.0, -0.5, -0.01]
    scores = [scoring.bm25_rank_to_score(r) for r in ranks]
    assert scores == sorted(scores, reverse=True)
    assert all(0 < s < 1 for s in scores)


# ----------------------------------------------------------------------------- merge


@pytest.mark.parametrize(
    "vw, tw, vec, txt, expected",
    [
        (0.7, 0.3, {1: 1.0}, {1: 1.0}, {1: 1.0}),
        (0.7, 0.3, {1: 0.8}, {2: 0.5}, {1: 0.56, 2: 0.15}),
        (7, 3, {1: 0.8}, {1: 0.5}, {1: 0.71}),  # weights normalised to sum 1
        (1, 0, {1: 0.4}, {1: 0.9, 2: 0.9}, {1: 0.4, 2: 0.0}),
        (0, 1, {1: 0.4}, {2: 0.6}, {1: 0.0, 2: 0.6}),
    ],
)
def test_merge_hybrid(vw, tw, vec, txt, expected):
    vhits = [C(i, v=s) for i, s in vec.items()]
    thits = [C(i, t=s) for i, s in txt.items()]
    merged = {c.id: c.score for c in scoring.merge_hybrid(vhits, thits, vw, tw)}
    assert merged == pytest.approx(expected)


def test_merge_keeps_both_sides():
    merged = {c.id: c for c in scoring.merge_hybrid([C(1, v=0.9)], [C(1, t=0.2)], 0.7, 0.3)}
    assert merged[1].vector_score == 0.9 and merged[1].text_score == 0.2


# ----------------------------------------------------------------------------- keyword-only boost


@pytest.mark.parametrize(
    "terms, text, expected",
    [
        (["paint", "sunrise"], "I painted a sunrise", 1.0),  # prefix match for 4+ chars
        (["paint", "sunrise"], "a sunset", 0.0),
        (["go", "lake"], "we went to the lake", 0.5),  # short terms need an exact token
        ([], "anything", 0.0),
    ],
)
def test_coverage(terms, text, expected):
    assert scoring.coverage(terms, text) == pytest.approx(expected)


@pytest.mark.parametrize(
    "t, cov, path_hit, expected",
    [
        (0.5, 0.0, 0.0, 0.5),
        (0.5, 1.0, 0.0, 0.65),
        (0.5, 1.0, 1.0, 0.7),
        (0.0, 0.0, 0.0, 0.0),
        # tiny corpus: BM25 IDF clamps to ~0, coverage floor keeps a full match above 0.35
        (0.000001, 1.0, 0.0, 0.65),
        (0.000001, 0.5, 0.0, 0.325),
    ],
)
def test_keyword_only_score(t, cov, path_hit, expected):
    assert scoring.keyword_only_score(t, cov, path_hit) == pytest.approx(expected)


def test_keyword_only_score_is_monotone_and_below_one():
    xs = [0.7, 0.8, 0.9, 0.95, 0.99]
    ys = [scoring.keyword_only_score(x, 1.0, 1.0) for x in xs]
    assert ys == sorted(ys) and len(set(ys)) == len(ys)
    assert all(y < 1.0 for y in ys)


# ----------------------------------------------------------------------------- decay

NOW = datetime(2026, 3, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    "path, source, mtime, expected_age",
    [
        ("memory/2026-02-28.md", "memory", None, 1.0),
        ("memory/2026-01-30.md", "memory", None, 30.0),
        ("memory/work/2026-02-01.md", "memory", None, 28.0),
        ("memory/2026-02-30.md", "memory", None, None),  # invalid date: never decays
        ("memory/notes.md", "memory", 0.0, None),  # undated memory file never decays
        ("MEMORY.md", "memory", 0.0, None),
        ("docs/2026-01-01.md", "memory", NOW.timestamp() - 10 * 86400, 10.0),  # extra path: mtime
        ("docs/memory/2026-02-19.md", "memory", NOW.timestamp(), 10.0),  # a daily note in an extra path: its date
        ("/srv/team/memory/2026-02-19.md", "memory", NOW.timestamp(), 10.0),  # outside the workspace too
        ("docs/notes.md", "memory", NOW.timestamp() - 3 * 86400, 3.0),  # an undated extra-path note: mtime
        ("docs/notes.md", "memory", None, None),
        ("sessions/abc.jsonl", "sessions", NOW.timestamp() - 2 * 86400, None),  # transcripts never decay (upstream)
        ("sessions/2026-01-01.md", "sessions", NOW.timestamp() - 2 * 86400, None),
        ("memory/2027-01-01.md", "memory", None, 0.0),  # future date clamps to 0
    ],
)
def test_age_days(path, source, mtime, expected_age):
    age = scoring.age_days(path, source, mtime, NOW)
    if expected_age is None:
        assert age is None
    else:
        assert age == pytest.approx(expected_age)


@pytest.mark.parametrize(
    "age, half_life, expected",
    [
        (None, 30, 1.0),
        (0, 30, 1.0),
        (30, 30, 0.5),
        (60, 30, 0.25),
        (15, 30, math.sqrt(0.5)),
        (10, 0, 1.0),
    ],
)
def test_decay_factor(age, half_life, expected):
    assert scoring.decay_factor(age, half_life) == pytest.approx(expected)


def test_apply_decay_reorders_old_daily_logs():
    old = C(1, 0.9, path="memory/2025-12-01.md")
    new = C(2, 0.6, path="memory/2026-02-28.md")
    ever = C(3, 0.5, path="MEMORY.md")
    out = ranking.sort_candidates(scoring.apply_decay([old, new, ever], 30, NOW))
    assert [c.id for c in out] == [2, 3, 1]
    assert ever.score == 0.5


# ----------------------------------------------------------------------------- MMR


def test_mmr_prefers_diverse_second_pick():
    a = C(1, 1.0, "deploy the api server to production today")
    b = C(2, 0.98, "deploy the api server to production today please")
    c = C(3, 0.9, "grandma birthday party on sunday with cake")
    d = C(4, 0.5, "unrelated low scoring note")
    # rel (min-max): a 1, b .96, c .8, d 0; b is 7/8 similar to a → c comes second
    assert [x.id for x in ranking.mmr_order([a, b, c, d], 0.7)] == [1, 3, 2, 4]
    # λ = 1 is pure relevance
    assert [x.id for x in ranking.mmr_order([a, b, c, d], 1.0)] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ({"x"}, {"x"}, 1.0),
        ({"x", "y"}, {"y", "z"}, 1 / 3),
        (set(), set(), 0.0),
        ({"x"}, set(), 0.0),
    ],
)
def test_jaccard(a, b, expected):
    assert ranking.jaccard(a, b) == pytest.approx(expected)


def test_mmr_equal_scores_keep_order_and_limit():
    items = [C(i, 0.5, f"topic{i} unique{i}") for i in range(5)]
    assert [c.id for c in ranking.mmr_order(items, 0.7, limit=3)] == [0, 1, 2]
    assert ranking.mmr_order([], 0.7) == []


# ----------------------------------------------------------------------------- min score


@pytest.mark.parametrize(
    "cands, min_score, tw, k, expected_ids, relaxed",
    [
        # normal: drop below the floor, keep top k
        ([C(1, 0.9), C(2, 0.5), C(3, 0.2)], 0.35, 0.3, 6, [1, 2], False),
        ([C(1, 0.9), C(2, 0.5), C(3, 0.4)], 0.35, 0.3, 2, [1, 2], False),
        # nothing passes, keyword hits exist: floor lowered to min(minScore, textWeight)
        ([C(1, 0.27, t=0.9), C(2, 0.12, t=0.4), C(3, 0.2, v=0.28)], 0.35, 0.3, 6, [1, 2], True),
        # nothing passes and no keyword hits: empty
        ([C(1, 0.2, v=0.28)], 0.35, 0.3, 6, [], False),
        # keyword hits too weak even for the relaxed floor
        ([C(1, 0.05, t=0.1)], 0.35, 0.3, 6, [], False),
        # minScore below textWeight: relaxed floor is minScore itself
        ([C(1, 0.1, t=0.15)], 0.2, 0.3, 6, [], False),
    ],
)
def test_apply_min_score(cands, min_score, tw, k, expected_ids, relaxed):
    out, was_relaxed = ranking.apply_min_score(cands, min_score, tw, k)
    assert [c.id for c in out] == expected_ids
    assert was_relaxed is relaxed


def test_sort_candidates_is_deterministic():
    cands = [C(3, 0.5, path="b.md"), C(1, 0.5, path="a.md"), C(2, 0.9, path="z.md")]
    assert [c.id for c in ranking.sort_candidates(cands)] == [2, 1, 3]


# ----------------------------------------------------------------------------- output


@pytest.mark.parametrize(
    "path, start, end, expected",
    [
        ("memory/2026-01-01.md", 3, 9, "memory/2026-01-01.md#L3-L9"),
        ("MEMORY.md", 4, 4, "MEMORY.md#L4"),
    ],
)
def test_citation_for(path, start, end, expected):
    assert citations.citation_for(path, start, end) == expected


@pytest.mark.parametrize(
    "mode, direct, expected",
    [("on", True, True), ("on", False, True), ("off", True, False), ("off", False, False), ("auto", True, True), ("auto", False, False)],
)
def test_citations_enabled(mode, direct, expected):
    assert citations.citations_enabled(mode, direct) is expected


@pytest.mark.parametrize("n", [0, 10, 700, 701, 5000])
def test_snippet_at_most_700_chars(n):
    s = ranking.make_snippet("x" * n)
    assert len(s) <= 700
    assert s == "x" * n if n <= 700 else s.endswith("…")


@pytest.mark.parametrize(
    "token, expected",
    [
        ("東京开会", ["東京", "京开", "开会"]),
        ("東", ["東"]),
        ("tokyo東京", ["tokyo", "東京"]),
        ("plain", ["plain"]),
    ],
)
def test_split_cjk(token, expected):
    assert qry.split_cjk(token) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("plain text", "plain text"),
        ("在東京", " 在 東 京 "),
        ("go 東京 now", "go  東 京  now"),
    ],
)
def test_fts_text_spaces_cjk(text, expected):
    assert qry.fts_text(text) == expected


@pytest.mark.parametrize(
    "query, expected",
    [
        ("What did I do on October 13, 2023?", [(2023, 10, 13)]),
        ("notes from 2026-03-02", [(2026, 3, 2)]),
        ("the 5th of May, 2023", [(2023, 5, 5)]),
        ("13 Oct", [(None, 10, 13)]),
        ("March 3rd and april 4", [(None, 3, 3), (None, 4, 4)]),
        ("may I ask", []),
        ("feb 30", []),
        ("Feb 29", [(None, 2, 29)]),
        ("version 2.13.0", []),
    ],
)
def test_query_dates(query, expected):
    assert qry.query_dates(query) == expected


@pytest.mark.parametrize(
    "dates, path, expected",
    [
        ([(2023, 10, 13)], "memory/2023-10-13.md", True),
        ([(None, 10, 13)], "memory/2021-10-13.md", True),
        ([(2022, 10, 13)], "memory/2023-10-13.md", False),
        ([(2023, 10, 13)], "memory/2023-10-14.md", False),
        ([(2023, 10, 13)], "MEMORY.md", False),
        ([], "memory/2023-10-13.md", False),
    ],
)
def test_date_path_match(dates, path, expected):
    assert scoring.date_path_match(dates, path) is expected


def test_keyword_date_boost():
    assert scoring.keyword_only_score(0.5, 0.0, 0.0, True) == pytest.approx(0.6)
    assert scoring.keyword_only_score(0.5, 0.0, 0.0, False) == pytest.approx(0.5)


# ----------------------------------------------------------------------------- CJK in MMR (OpenClaw parity)


@pytest.mark.parametrize(
    "text, must_hold",
    [
        ("今天讨论", {"今", "天", "讨", "论", "今天", "天讨", "讨论"}),
        ("明日の会議", {"明", "日", "の", "会", "議", "明日", "会議", "の会"}),
        ("회의록 정리", {"회", "의", "록", "회의", "의록", "정리"}),
        ("deploy 東京 API", {"deploy", "東", "京", "東京", "api"}),
    ],
)
def test_similarity_tokens_split_cjk_runs(text, must_hold):
    toks = ranking.similarity_tokens(text)
    assert must_hold <= toks
    # the whole run is not itself a token (that made two similar snippets share nothing)
    assert "今天讨论" not in toks and "明日の会議" not in toks


@pytest.mark.parametrize(
    "near_a, near_b, other",
    [
        # zh: two notes about the same budget decision, one about a dentist visit
        ("我们今天讨论了预算方案，决定削减广告费用", "今天讨论预算方案，决定削减广告费用和差旅", "周五下午三点去看牙医"),
        # ja
        ("今日の会議で予算案を決めて広告費を削減した", "会議で予算案を決めた、広告費を削減する", "金曜日の午後に歯医者の予約"),
        # ko
        ("오늘회의에서예산안을결정하고광고비를줄였다", "회의에서예산안을결정함광고비줄임", "금요일오후치과예약"),
    ],
)
def test_mmr_diversifies_similar_cjk_snippets(near_a, near_b, other):
    a, b, c, d = C(1, 1.0, near_a), C(2, 0.95, near_b), C(3, 0.94, other), C(4, 0.5, "unrelated")
    sim = ranking.jaccard(ranking.similarity_tokens(near_a), ranking.similarity_tokens(near_b))
    assert sim > 0.3  # was 0: each unspaced run was one token
    # rel: a 1, b .9, c .88 → the near-duplicate b must drop behind c
    assert [x.id for x in ranking.mmr_order([a, b, c, d], 0.7)] == [1, 3, 2, 4]


# ----------------------------------------------------------------------------- multilingual stopwords


@pytest.mark.parametrize(
    "query, dropped, kept",
    [
        ("之前讨论的那个方案", {"之前", "那个", "前讨", "的那"}, ["讨论", "方案"]),
        ("我们昨天说过什么预算", {"我们", "昨天", "说过", "什么"}, ["预算"]),
        ("昨日の会議について", {"昨日", "について", "の会"}, ["会議"]),
        ("これはプロジェクトの締め切りですか", {"これ", "です"}, ["プロ", "クト", "締", "切"]),
        ("어제 회의에서 논의한 예산", {"어제", "에서", "의에"}, ["회의", "예산"]),
        ("¿Qué dijimos ayer sobre el presupuesto?", {"qué", "ayer", "sobre", "el"}, ["dijimos", "presupuesto"]),
        ("O que falamos ontem sobre o orçamento da viagem", {"que", "ontem", "sobre", "da"}, ["falamos", "orçamento", "viagem"]),
        ("ماذا قلنا أمس عن الميزانية", {"ماذا", "أمس", "عن"}, ["قلنا", "الميزانية"]),
        # an English noun that is a Spanish function word stays a term
        ("my son's birthday", {"my"}, ["son", "birthday"]),
    ],
)
def test_query_terms_drop_stopwords_in_many_languages(query, dropped, kept):
    terms = qry.query_terms(query)
    assert not dropped & set(terms), terms
    for t in kept:
        assert t in terms, terms


def test_query_terms_all_stopwords_still_search_something():
    assert qry.query_terms("¿qué es?") == ["qué", "es"]
    assert qry.query_terms("之前") == ["之前"]


def _cand(cid: int, path: str, start: int, end: int, score: float) -> scoring.Candidate:
    text = "\n".join(f"{path} line {n}" for n in range(start, end + 1))
    return scoring.Candidate(cid, path, "memory", start, end, text, score=score)


def test_merge_adjacent_widens_a_result_instead_of_taking_a_slot():
    ranked = [
        _cand(1, "a.md", 10, 14, 0.9),
        _cand(2, "b.md", 1, 5, 0.8),
        _cand(3, "a.md", 13, 18, 0.7),  # overlaps a.md 10-14
        _cand(4, "a.md", 19, 22, 0.6),  # touches the widened a.md 10-18
        _cand(5, "c.md", 1, 2, 0.5),
        _cand(6, "a.md", 30, 31, 0.4),  # same file, not adjacent: its own result
        _cand(7, "b.md", 6, 6, 0.3),    # adjacent to b.md: absorbed when the loop gets this far
        _cand(8, "d.md", 1, 1, 0.2),
    ]
    out = ranking.merge_adjacent(ranked, 3)
    assert [(c.path, c.start_line, c.end_line, c.score) for c in out] == [
        ("a.md", 10, 22, 0.9), ("b.md", 1, 5, 0.8), ("c.md", 1, 2, 0.5),
    ]
    assert out[0].text.splitlines() == [f"a.md line {n}" for n in range(10, 23)]  # every line once, in order
    assert (ranked[0].start_line, ranked[0].end_line) == (10, 14)  # the inputs are untouched
    out = ranking.merge_adjacent(ranked, 5)
    assert [(c.path, c.start_line, c.end_line) for c in out] == [
        ("a.md", 10, 22), ("b.md", 1, 6), ("c.md", 1, 2), ("a.md", 30, 31), ("d.md", 1, 1),
    ]


def _hit(cid: int, score: float, v: float | None, t: float | None) -> scoring.Candidate:
    return scoring.Candidate(cid, f"f{cid}.md", "memory", 1, 2, f"chunk {cid}", vector_score=v, text_score=t, score=score)


@pytest.mark.parametrize(
    ("hits", "limit", "expected"),
    [
        # the closest chunk by meaning (no keyword hit, 7th by score) takes the last place
        ([(1, .9, .3, .8), (2, .8, .2, .7), (3, .7, .2, .6), (4, .6, .1, .5), (5, .55, .1, .4), (6, .5, .1, .3),
          (7, .45, .6, None)], 6, [1, 2, 3, 4, 5, 7, 6]),
        # the best keyword hit likewise (vector side stronger everywhere else)
        ([(1, .9, .9, None), (2, .8, .8, None), (3, .7, .7, .1), (4, .3, .1, .9)], 2, [1, 4, 2, 3]),
        # both retrievers' best outside the first places: both kept, order of the rest kept
        ([(1, .9, .5, .5), (2, .8, .4, .4), (3, .7, .3, .3), (4, .6, .9, None), (5, .5, None, .9)], 3,
         [1, 4, 5, 2, 3]),
        # both bests already in place (or the same chunk): unchanged
        ([(1, .9, .9, .9), (2, .8, .1, .1), (3, .7, .2, .2)], 2, [1, 2, 3]),
        # fewer candidates than places: unchanged
        ([(1, .9, .1, .1), (2, .8, .9, None)], 6, [1, 2]),
        # ties: the earlier candidate counts as the best
        ([(1, .9, .1, .5), (2, .8, .1, .5), (3, .7, .6, None), (4, .6, .6, None)], 2, [1, 3, 2, 4]),
        # keyword-only candidates (no vector side): the best keyword hit
        ([(1, .9, None, .2), (2, .8, None, .3), (3, .7, None, .9)], 2, [1, 3, 2]),
    ],
)
def test_keep_each_best(hits, limit, expected):
    cands = [_hit(*h) for h in hits]
    out = ranking.keep_each_best(cands, limit)
    assert [c.id for c in out] == expected
    assert [c.id for c in cands] == [h[0] for h in hits]  # the input list is untouched


@pytest.mark.parametrize(
    ("margin", "expected"),
    [
        (0.0, [1, 2, 9, 3]),  # always nominated: it takes the last place
        (0.05, [1, 2, 9, 3]),  # .62 >= .55 + .05: still nominated
        (0.1, [1, 2, 3, 9]),  # .62 < .55 + .1: a hair of cosine over chunk 1 is no reason for a place
    ],
)
def test_keep_each_best_nominates_the_vector_hit_only_by_a_margin(margin, expected):
    # "What is Caroline's identity?": strong keyword hits, and a chunk outside them whose only
    # claim is a slightly higher cosine (a "What's your best camping memory?" line)
    ranked = [_hit(1, .95, .55, .7), _hit(2, .94, .50, .72), _hit(3, .93, .52, .68), _hit(9, .47, .62, None)]
    assert [c.id for c in ranking.keep_each_best(ranked, 3, vector_margin=margin)] == expected


def test_keep_each_best_margin_keeps_a_vector_hit_already_in_place():
    ranked = [_hit(1, .9, .61, .7), _hit(2, .8, .2, .6), _hit(3, .7, .6, None)]
    assert [c.id for c in ranking.keep_each_best(ranked, 2, vector_margin=0.5)] == [1, 2, 3]


def test_keep_each_best_then_merge_adjacent_shows_the_semantic_hit():
    # six weak keyword hits outscore the one chunk the vector side ranks first
    ranked = [_hit(i, 0.9 - i / 100, 0.2, 0.5) for i in range(1, 7)] + [_hit(7, 0.42, 0.6, None)]
    assert 7 not in [c.id for c in ranking.merge_adjacent(ranked, 6)]
    assert 7 in [c.id for c in ranking.merge_adjacent(ranking.keep_each_best(ranked, 6), 6)]
