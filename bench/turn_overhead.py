"""Per-turn harness overhead of the session engine, model excluded, at 1k / 50k / 150k
tokens of history — beside a full re-count of the same history in the same run.

The engine runs its real turn path (threshold checks, message building, tool schemas,
transcript append + fsync, sessions.json, events) against an instant in-process model;
time spent inside the model call is measured and subtracted. The baseline is what a
harness without per-message caching pays every turn: re-encoding the whole history with
the same tokenizer.

    python -m bench.turn_overhead [--turns N] [--sizes 1000,50000,150000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

WORDS = (
    "memory session token flush compaction workspace daily note decision budget deploy review "
    "queue retry backoff context window summary tool result agent user assistant search index "
    "chunk vector keyword score snippet source line file path offsite venue hotel plan"
).split()


class InstantModel:
    """Answers at once, no tools, no usage (so the engine uses its own cached counts)."""

    model = "openai/gpt-4o-mini"
    provider = "openai"
    label = "bench instant model"
    is_offline = False

    def __init__(self) -> None:
        self.time_inside = 0.0

    async def complete(self, messages: list[dict[str, Any]], tools: Any, *, on_delta: Any, purpose: str = "turn") -> Any:
        from openclaw_tui.llm.client import Completion

        t0 = time.perf_counter()
        on_delta("ok")
        out = Completion(text="ok", finish_reason="stop")
        self.time_inside += time.perf_counter() - t0
        return out


def _text(rng: random.Random, n_words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n_words))


def _write_history(path: Path, session_id: str, target_tokens: int, counter: Any) -> int:
    rng = random.Random(7)
    total = 0
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"type": "session", "version": 1, "id": session_id}) + "\n")
        while total < target_tokens:
            role = "user" if n % 2 == 0 else "assistant"
            msg = {"role": role, "content": _text(rng, 70)}
            total += counter.count_message(msg)
            fh.write(json.dumps({"type": "message", "message": msg}) + "\n")
            n += 1
    return n


async def _measure(size: int, turns: int, root: Path) -> dict[str, Any]:
    from openclaw_tui.config import load_config, resolve_agent
    from openclaw_tui.session.engine import SessionEngine
    from openclaw_tui.session.tokens import TokenCounter
    from openclaw_tui.workspace.template import init_workspace

    ws = root / f"ws-{size}"
    init_workspace(ws)
    cfg = load_config(None, overrides={"agents": {"defaults": {"contextTokens": 2_000_000}}, "plugins": {"slots": {"memory": "none"}}})
    settings = resolve_agent(cfg, workspace=ws)
    settings.state_dir = root / f"state-{size}"
    settings.sessions_dir.mkdir(parents=True, exist_ok=True)
    counter = TokenCounter(InstantModel.model)
    sid = f"bench-{size}"
    n_msgs = _write_history(settings.sessions_dir / f"{sid}.jsonl", sid, size, counter)

    model = InstantModel()
    t0 = time.perf_counter()
    engine = SessionEngine(settings, sink=lambda _e: None, model=model, session_id=sid)
    resume_s = time.perf_counter() - t0
    await engine.send("warm up")  # one-time work (first header write, tool schema count)
    samples = []
    cpu = []
    for i in range(turns):
        model.time_inside = 0.0
        c0 = time.process_time()
        t0 = time.perf_counter()
        await engine.send(f"turn {i}: " + _text(random.Random(i), 30))
        samples.append(time.perf_counter() - t0 - model.time_inside)
        cpu.append(time.process_time() - c0)
    used = engine.used_tokens()
    history = engine.history
    engine.close()

    recounts = []
    recount_cpu = []
    fresh = TokenCounter(InstantModel.model)
    for _ in range(max(3, turns // 4)):
        c0 = time.process_time()
        t0 = time.perf_counter()
        fresh.count_messages(history)
        recounts.append(time.perf_counter() - t0)
        recount_cpu.append(time.process_time() - c0)
    overhead = statistics.median(samples)
    recount = statistics.median(recounts)
    overhead_cpu = statistics.median(cpu)
    rc_cpu = statistics.median(recount_cpu)
    return {
        "history_tokens": size,
        "messages": n_msgs,
        "used_tokens": used,
        "turn_overhead_ms": round(overhead * 1000, 2),
        "full_recount_ms": round(recount * 1000, 2),
        "recount_over_overhead": round(recount / overhead, 1) if overhead > 0 else None,
        "turn_cpu_ms": round(overhead_cpu * 1000, 2),
        "recount_cpu_ms": round(rc_cpu * 1000, 2),
        "recount_over_overhead_cpu": round(rc_cpu / overhead_cpu, 1) if overhead_cpu > 0 else None,
        "resume_once_ms": round(resume_s * 1000, 1),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.turn_overhead", description=__doc__.splitlines()[0])
    p.add_argument("--turns", type=int, default=20)
    p.add_argument("--sizes", default="1000,50000,150000")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    with tempfile.TemporaryDirectory(prefix="bench-turn-") as tmp:
        os.environ.setdefault("OPENCLAW_STATE_DIR", str(Path(tmp) / "state"))
        rows = [asyncio.run(_measure(size, args.turns, Path(tmp))) for size in sizes]
    if args.json:
        print(json.dumps(rows))
        return 0
    print(f"session turn overhead (model excluded), median of {args.turns} turns; baseline = full re-count of the same history")
    print("wall time includes the transcript fsyncs (disk-bound, noisy on a shared machine); CPU time is the harness work")
    print(
        f"{'history':>9} {'msgs':>6} {'turn wall ms':>13} {'turn cpu ms':>12} {'recount ms':>11} {'recount cpu':>12} "
        f"{'recount/turn (cpu)':>19} {'resume ms':>10}"
    )
    for r in rows:
        print(
            f"{r['history_tokens']:>9} {r['messages']:>6} {r['turn_overhead_ms']:>13.2f} {r['turn_cpu_ms']:>12.2f} "
            f"{r['full_recount_ms']:>11.2f} {r['recount_cpu_ms']:>12.2f} {str(r['recount_over_overhead_cpu']) + '×':>19} {r['resume_once_ms']:>10.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
