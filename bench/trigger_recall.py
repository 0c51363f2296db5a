"""Cost of trigger recall per turn (memory/triggers.py) beside a keyword-only memory_search
of the same workspace, at N annotated MEMORY.md entries.

Trigger recall runs on every private turn, before the model answers; it must stay a small
fraction of what a lookup costs. Reported: the median time of ``triggered_for`` (warm: the
parsed entries are cached on the file's stamp), of a cold parse, and of ``search`` (index
synced beforehand), and the ratio trigger / search.

    python -m bench.trigger_recall [--sizes 100,1000,5000] [--reps 30]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

WORDS = ("deploy budget venue hotel offsite locker gym taxes invoice garden kettle piano harbour pilot "
         "ticket passport dentist recipe birthday cousin lease printer router backup").split()


def _median(fn, reps: int) -> float:
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _workspace(root: Path, n: int, rng: random.Random) -> Path:
    ws = root / f"ws{n}"
    ws.mkdir()
    lines = ["# Memory", ""]
    for i in range(n):
        a, b, c = rng.sample(WORDS, 3)
        lines.append(f"- fact {i}: the {a} and the {b} of {c} <!-- trigger: {a} {b}, {c} {i} --> <!-- importance: {1 + i % 10} -->")
    (ws / "MEMORY.md").write_text("\n".join(lines) + "\n")
    return ws


def run(sizes: list[int], reps: int) -> None:
    from openclaw_tui.config import resolve_agent, validate_config
    from openclaw_tui.memory import triggers
    from openclaw_tui.memory.builtin.manager import MemoryManager

    rng = random.Random(7)
    message = " ".join(rng.choice(WORDS + ["the", "what", "was", "my"]) for _ in range(60)) + " gym locker?"
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["OPENCLAW_STATE_DIR"] = str(Path(tmp) / "state")
        print(f"{'entries':>8} {'trigger warm':>13} {'parse cold':>11} {'search':>9} {'trigger/search':>15}")
        for n in sizes:
            ws = _workspace(Path(tmp), n, rng)
            cfg = validate_config({"agents": {"defaults": {"memorySearch": {"provider": "none"}}}})
            settings = resolve_agent(cfg, workspace=str(ws))
            manager = MemoryManager(settings)
            manager.sync()
            warm = _median(lambda: triggers.triggered_for(ws, "agent:main:main", message), reps)
            cold = _median(lambda: (triggers._CACHE.clear(), triggers.memory_entries(ws)), max(3, reps // 5))
            search = _median(lambda: manager.search(message[:300]), reps)
            manager.close()
            print(f"{n:>8} {warm * 1000:>10.2f} ms {cold * 1000:>8.2f} ms {search * 1000:>6.2f} ms {warm / search:>15.2f}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="100,1000,5000")
    p.add_argument("--reps", type=int, default=30)
    a = p.parse_args(argv)
    run([int(s) for s in a.sizes.split(",")], a.reps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
