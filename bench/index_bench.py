"""Full index of the same 2,000 Markdown files: builtin vs ``qmd collection add``, interleaved.

Both sides index keyword-only (neither embeds): the builtin with ``provider: none`` (read,
chunk to ~400 tokens with 80 overlap, FTS5, file table), qmd's ``collection add`` (its own
read, hash, FTS5; vectors come later with ``qmd embed``, which is not run). The corpus is
``bench.qmd_bench.build_corpus`` (seeded). Each round runs, one after the other and in
alternating order so load on a shared machine hits both alike:

* builtin — ``openclaw-tui --config C --workspace W memory index --json`` as a fresh process
  into a fresh state dir (a first index: written into the live file), then ``--force`` in a
  second process (a rebuild: a temp file swapped in): the process wall time (interpreter
  start and imports included, as qmd's Node start is) and the sync's own ``durationMs``
  (tokenizer load, store open, read, chunk, write);
* qmd — ``qmd collection add W/memory --name memory --mask **/*.md`` in a fresh qmd home
  (``QmdHome``: private XDG dirs, models pinned to local files): the process wall time.

Prints each round and the medians, and the ratios builtin / qmd of this run.

    python -m bench.index_bench [--files 2000] [--rounds 3] [--command QMD]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KEYWORD_ONLY = {"agents": {"defaults": {"memorySearch": {"provider": "none"}}}}


def builtin_once(ws: Path, state: Path, config: Path, force: bool) -> tuple[float, float, int]:
    """(process wall s, sync s, chunks) of one ``memory index`` process."""
    cmd = [sys.executable, "-c", "import sys; from openclaw_tui.cli import main; sys.exit(main())", "--config",
           str(config), "--workspace", str(ws), "memory", "index", "--json", *(["--force"] if force else [])]
    env = {**os.environ, "OPENCLAW_STATE_DIR": str(state)}
    t0 = time.perf_counter()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    try:
        rep = json.loads(out.stdout)
    except ValueError:
        raise SystemExit(f"builtin index failed: {out.stderr.strip()[-500:]}") from None
    if not rep.get("ok") or rep["filesIndexed"] == 0:
        raise SystemExit(f"builtin index failed: {rep.get('errors')}")
    return wall, rep["durationMs"] / 1000.0, rep["chunks"]


def qmd_once(ws: Path, home_dir: Path, command: list[str]) -> float:
    """Process wall s of one ``qmd collection add`` into a fresh qmd home."""
    from openclaw_tui.memory.qmd.home import QmdHome  # noqa: PLC0415

    home = QmdHome(home_dir, command)
    home.prepare()
    t0 = time.perf_counter()
    home.run_ok(["collection", "add", str(ws / "memory"), "--name", "memory", "--mask", "**/*.md"], 600_000)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    from bench.qmd_bench import build_corpus, qmd_parser  # noqa: PLC0415

    ap = qmd_parser("python -m bench.index_bench", __doc__)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)

    from openclaw_tui.memory.qmd.runner import resolve_command  # noqa: PLC0415

    command = resolve_command(args.command)
    with tempfile.TemporaryDirectory(prefix="index-bench-") as tmp:
        root = Path(tmp)
        ws = root / "ws"
        build_corpus(ws, args.files)
        config = root / "keyword-only.json"
        config.write_text(json.dumps(KEYWORD_ONLY), encoding="utf-8")
        try:
            qmd_once(ws, root / "qmd-warm", command)  # a first run pages node and qmd in; untimed
        except Exception as exc:  # noqa: BLE001 - qmd missing or failing: say so, no ratio
            print(f"qmd is not available ({exc}); run `make qmd`", file=sys.stderr)
            return 1
        runs: dict[str, list[tuple[float, float]]] = {"first": [], "force": [], "qmd": []}
        chunks = 0
        for r in range(args.rounds):
            for side in (["builtin", "qmd"] if r % 2 == 0 else ["qmd", "builtin"]):
                if side == "qmd":
                    runs["qmd"].append((qmd_once(ws, root / f"qmd-{r}", command), 0.0))
                    continue
                for kind in ("first", "force"):  # a fresh state dir, then a rebuild of it
                    wall, sync_s, chunks = builtin_once(ws, root / f"state-{r}", config, kind == "force")
                    runs[kind].append((wall, sync_s))
            print(f"round {r + 1}: builtin first index {runs['first'][-1][0]:.2f} s (sync {runs['first'][-1][1]:.2f} s), "
                  f"--force {runs['force'][-1][0]:.2f} s (sync {runs['force'][-1][1]:.2f} s)   "
                  f"qmd collection add {runs['qmd'][-1][0]:.2f} s", flush=True)
    q = statistics.median(w for w, _ in runs["qmd"])
    print(f"{args.files} files, {chunks} builtin chunks, keyword-only both, {args.rounds} interleaved rounds, "
          f"median; qmd collection add {q:.2f} s")
    for kind, label in (("first", "first index (empty state)"), ("force", "memory index --force (rebuild)")):
        w = statistics.median(x for x, _ in runs[kind])
        s = statistics.median(y for _, y in runs[kind])
        print(f"  builtin {label:<31} process {w:5.2f} s ({w / q:.2f}x qmd), its sync {s:5.2f} s ({s / q:.2f}x qmd)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
