"""``python -m bench`` (``make bench``): every benchmark and evaluation, one after another.

    python -m bench            all of them
    python -m bench --quick    smaller sizes (1k/10k chunks, 500 files) for a fast look
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
import time


def _run(title: str, module: str, argv: list[str]) -> int:
    print(f"\n=== {title} ({module} {' '.join(argv)}) ===", flush=True)
    t0 = time.perf_counter()
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        print(f"skipped: {exc}")
        return 0
    try:
        rc = int(mod.main(argv) or 0)
    except SystemExit as exc:  # a bench may exit with a message
        rc = exc.code if isinstance(exc.code, int) else 1
        if not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
    print(f"--- {title}: {'ok' if rc == 0 else f'exit {rc}'} in {time.perf_counter() - t0:.1f} s", flush=True)
    return rc


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    quick = "--quick" in argv
    os.environ.setdefault("OPENCLAW_STATE_DIR", tempfile.mkdtemp(prefix="bench-state-"))
    runs = [
        ("LoCoMo evidence-all-found@6, keyword-only, OR vs AND", "bench.locomo_eval", ["--fts-mode", "both"]),
        ("LoCoMo evidence-all-found@6, hybrid (local MiniLM) vs keyword-only", "bench.locomo_hybrid", []),
        ("LoCoMo fusion side by side, per category and evidence line, leave-one-out", "bench.locomo_fusion", []),
        (
            "memory search latency and indexing",
            "bench.search_bench",
            ["--sizes", "1000,10000", "--files", "500"] if quick else [],
        ),
        ("local embedding throughput: batched vs one window per call", "bench.embed_throughput", []),
        ("session turn overhead vs a full re-count", "bench.turn_overhead", []),
        ("the local prompt, section by section (no model)", "bench.prompt_sections", []),
        ("QMD vs builtin", "bench.qmd_bench", []),
        ("full index: builtin vs qmd collection add, interleaved", "bench.index_bench",
         ["--files", "500", "--rounds", "1"] if quick else []),
        ("TUI first frame", "bench.first_frame", []),
        ("tui-first-search: first /memory search, default vs keyword-only", "bench.tui_first_search", ["--runs", "1" if quick else "3"]),
        ("local LLMs: load, RAM, speed, tool calls (1.5B vs 0.5B)", "bench.local_llm", ["--runs", "1" if quick else "3"]),
    ]
    failed = 0
    for title, module, args in runs:
        failed += _run(title, module, args) != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
