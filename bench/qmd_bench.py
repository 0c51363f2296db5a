"""QMD ``search`` (a cold qmd CLI per query, as a session pays it) beside the builtin search.

Both run over the same generated 2,000-file Markdown corpus (``memory/`` of a temp
workspace, seeded, so every run sees the same text). The builtin side is the in-process
``MemoryManager`` (keyword-only, no embedding provider); the QMD side is
``QmdBackend.search`` — one ``qmd search --json`` process per query, output parsed and
mapped back to workspace lines. Indexing time is printed for both, then per-query latency
and the ratio QMD / builtin measured in this run.

    python -m bench.qmd_bench [--files 2000] [--queries 20] [--command QMD]
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

WORDS = (
    "alpha amber anchor apple arrow aspen atlas autumn badge banner basil beacon birch bison bloom bolt "
    "bramble breeze bronze cactus canyon cedar chalk cinder clover cobalt comet coral cotton crane crystal "
    "cypress dahlia delta dune ember falcon fern fjord flint forest fossil garnet glacier granite harbor "
    "hazel heron hollow indigo iris ivory jade jasper juniper kelp kestrel lagoon lantern laurel lemon "
    "lilac linen lotus lunar magnet maple marble meadow mesa mint mirror moss nectar nickel oasis obsidian "
    "ocean olive onyx orchid otter pebble pepper pine plume poppy prairie quartz quill raven reef ridge "
    "river robin saffron sage sequoia shadow sierra silver slate sparrow spruce summit thistle thunder "
    "tide timber topaz tulip tundra valley velvet violet walnut willow wren yarrow zephyr zinc"
).split()
TOPICS = ["deploy", "budget", "meeting", "travel", "recipe", "garden", "release", "hiring", "offsite", "backup"]


def build_corpus(ws: Path, files: int, seed: int = 7) -> list[str]:
    """Write ``files`` daily-log style notes; return queries whose words occur in the corpus."""
    rng = random.Random(seed)
    mem = ws / "memory"
    mem.mkdir(parents=True, exist_ok=True)
    (ws / "MEMORY.md").write_text("# Memory\n\n- Bench corpus for qmd vs builtin.\n", encoding="utf-8")
    queries: list[str] = []
    for i in range(files):
        day = f"2024-{1 + (i // 28) % 12:02d}-{1 + i % 28:02d}"
        lines = [f"# {day} note {i}", ""]
        for _ in range(rng.randint(15, 40)):
            topic = rng.choice(TOPICS)
            lines.append(f"- {topic}: " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14))))
        if i % 100 == 0:  # a few distinctive facts to look up
            code = f"{rng.choice(WORDS)}{i}"
            lines.insert(rng.randint(3, len(lines)), f"- decision: the {code} rollout is owned by {rng.choice(WORDS).title()}")
            queries.append(f"{code} rollout owned")
        elif i % 100 == 50:  # words that share one line (qmd's BM25 search ANDs the terms)
            words = rng.choice(lines[2:]).lstrip("- ").replace(":", "").split()
            queries.append(" ".join(words[:3]))
        (mem / f"{day}-{i:04d}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    rng.shuffle(queries)
    return queries


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


def qmd_parser(prog: str, doc: str) -> argparse.ArgumentParser:
    """The options every bench beside qmd takes: the corpus size and the qmd command."""
    ap = argparse.ArgumentParser(prog=prog, description=doc.splitlines()[0])
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--command", default=None, help="qmd command (default: the make qmd install, then PATH)")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = qmd_parser("python -m bench.qmd_bench", __doc__)
    ap.add_argument("--queries", type=int, default=30)
    args = ap.parse_args(argv)

    saved_state = os.environ.get("OPENCLAW_STATE_DIR")
    try:
        return _bench(args)
    finally:  # the temp state dir is gone: give later benches in this process theirs back
        if saved_state is None:
            os.environ.pop("OPENCLAW_STATE_DIR", None)
        else:
            os.environ["OPENCLAW_STATE_DIR"] = saved_state


def _bench(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="qmd-bench-") as tmp:
        root = Path(tmp)
        os.environ["OPENCLAW_STATE_DIR"] = str(root / "state")
        from openclaw_tui.config import resolve_agent, validate_config
        from openclaw_tui.memory.builtin.manager import MemoryManager
        from openclaw_tui.memory.qmd import QmdBackend

        ws = root / "ws"
        queries = build_corpus(ws, args.files)[: args.queries]
        qmd_cfg: dict = {"update": {"waitForBootSync": True}}
        if args.command:
            qmd_cfg["command"] = args.command
        cfg = validate_config({"memory": {"backend": "qmd", "qmd": qmd_cfg}})
        settings = resolve_agent(cfg, workspace=ws)

        builtin = MemoryManager(settings, provider=None)
        t0 = time.perf_counter()
        builtin.sync(force=True, reason="bench")
        builtin_index_s = time.perf_counter() - t0

        t0 = time.perf_counter()
        qmd = QmdBackend(settings, builtin=builtin)  # boot: collection add + update
        qmd_index_s = time.perf_counter() - t0
        st = qmd.status()
        if not st["available"]:
            print(f"qmd is not available ({st['error']}); run `make qmd`", file=sys.stderr)
            return 1

        b_times, q_times, agree, fallbacks = [], [], 0, 0
        for q in queries:
            t0 = time.perf_counter()
            b = builtin.search(q)
            b_times.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            r = qmd.search(q)
            q_times.append(time.perf_counter() - t0)
            if r.get("fallback"):
                fallbacks += 1
            bt = b["results"][0]["path"] if b.get("results") else None
            qt = r["results"][0]["path"] if r.get("results") else None
            agree += int(bt is not None and bt == qt)
        qmd.close()

    bm, qm = _median_ms(b_times), _median_ms(q_times)
    print(f"corpus: {args.files} files, {len(queries)} queries ({st['version']})")
    print(f"index:  builtin {builtin_index_s:.2f}s   qmd (collection add + update) {qmd_index_s:.2f}s")
    print(f"search: builtin median {bm:.1f} ms (mean {statistics.mean(b_times) * 1000:.1f})   "
          f"qmd cold CLI median {qm:.1f} ms (mean {statistics.mean(q_times) * 1000:.1f})")
    print(f"ratio:  qmd / builtin = {qm / bm:.1f}x per query   (top-1 path agreement {agree}/{len(queries)}, "
          f"qmd fallbacks {fallbacks})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
