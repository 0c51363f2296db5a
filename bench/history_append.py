"""Memory history cost of one-line appends to a big daily log (issue 30): bytes stored and
time per append, with appends kept as deltas vs. the whole log stored again (the old way,
simulated with DELTA_MIN above the log size). Ratios, not timed assertions.

    PYTHONPATH=. python -m bench.history_append [--mb 4] [--appends 40]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from openclaw_tui.tools.files import FileTools
from openclaw_tui.records import history as hist
from openclaw_tui.records.history import ChangeOrigin, MemoryHistory


def run(mb: float, appends: int, delta_min: int) -> tuple[int, float]:
    saved = hist.DELTA_MIN
    hist.DELTA_MIN = delta_min
    try:
        root = Path(tempfile.mkdtemp(prefix="histbench-"))
        ws = root / "ws"
        (ws / "memory").mkdir(parents=True)
        line = "- a line of a long daily log with some words in it\n"
        (ws / "memory" / "2026-01-05.md").write_text(line * int(mb * 1024 * 1024 / len(line)))
        tools = FileTools(ws, history=MemoryHistory(root / "h", max_bytes=1 << 40), origin=lambda: ChangeOrigin("model", "b", 1))
        t0 = time.perf_counter()
        for i in range(appends):
            assert tools.append({"path": "memory/2026-01-05.md", "content": f"- note {i}"})["ok"]
        per = (time.perf_counter() - t0) / appends
        stored = sum(p.stat().st_size for p in (root / "h" / "objects").iterdir())
        return stored, per
    finally:
        hist.DELTA_MIN = saved


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=4.0)
    ap.add_argument("--appends", type=int, default=40)
    a = ap.parse_args()
    new_bytes, new_s = run(a.mb, a.appends, hist.DELTA_MIN)
    old_bytes, old_s = run(a.mb, a.appends, 1 << 62)
    print(f"{a.appends} appends to a {a.mb:g} MB log")
    print(f"  deltas:      {new_bytes / 2**20:8.2f} MB stored, {new_s * 1000:7.1f} ms per append")
    print(f"  whole files: {old_bytes / 2**20:8.2f} MB stored, {old_s * 1000:7.1f} ms per append")
    print(f"  ratio: {old_bytes / new_bytes:.1f}x less stored, {old_s / new_s:.1f}x faster per append")


if __name__ == "__main__":
    main()
