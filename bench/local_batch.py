"""Prompt-reading speed of the default local model by llama.cpp batch size (issue 38).

For each ``n_batch`` value (``ServerConfig.prompt_batch``; ``serve.py`` sets ``n_ubatch`` to
``min(default, n_batch)``; 0 is llama.cpp's own default, n_batch 2,048 / n_ubatch 512) the
managed server (``llm/local/server.py``, the app's own child process) is started, a short
warm-up request is sent, then one fixed prompt is read with ``cache_prompt`` off: the local
profile's real first request of a session (``bench.prompt_sections``: system prompt, bootstrap
files, tool schemas, a statement; ~1,300 model tokens), streamed with ``return_progress`` so
the progress reports are counted too. Values take turns (64, 128, …, default, 64, …), one
server at a time, in one process; the server's own timings give the prompt tok/s.

    OMP_WAIT_POLICY=PASSIVE python -m bench.local_batch [--values 64,128,256,512,0] [--reps 2] [--json-out F]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

DEFAULT_VALUES = (64, 128, 256, 512, 0)


@dataclass(frozen=True)
class Reading:
    batch: int  # 0: llama.cpp's default
    rep: int
    prompt_tokens: int
    prompt_ms: float
    progress_reports: int  # prompt_progress chunks before the first token
    load_s: float
    load_avg: float

    @property
    def tps(self) -> float:
        return 1000.0 * self.prompt_tokens / self.prompt_ms if self.prompt_ms else 0.0


def fixed_request(root: Path) -> dict[str, Any]:
    """The local profile's first request of a session (statement, fresh workspace), as sent."""
    import asyncio

    from bench.prompt_sections import STATEMENT, first_request
    from openclaw_tui.workspace.template import init_workspace

    ws = root / "workspace"
    init_workspace(ws)
    _parts, messages, tools = asyncio.run(first_request(ws, root / "state", STATEMENT))
    return {"messages": messages, "tools": tools}


def read_once(address: str, key: str, request: dict[str, Any]) -> tuple[int, float, int]:
    """(prompt tokens, prompt ms, progress reports) of one streamed request, nothing cached."""
    body = {**request, "max_tokens": 1, "temperature": 0, "stream": True, "return_progress": True, "cache_prompt": False}
    req = urllib.request.Request(address + "/v1/chat/completions", data=json.dumps(body).encode(),
                                 headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    reports, timings = 0, {}
    with urllib.request.urlopen(req, timeout=1800) as resp:  # noqa: S310 - loopback
        for raw in resp:
            line = raw.decode("utf-8", "replace").strip()
            if not line.startswith("data:") or line == "data: [DONE]":
                continue
            chunk = json.loads(line[5:])
            if isinstance(chunk.get("prompt_progress"), dict):
                reports += 1
            if isinstance(chunk.get("timings"), dict):
                timings = chunk["timings"]
    return int(timings.get("prompt_n", 0)), float(timings.get("prompt_ms", 0.0)), reports


def warm(address: str, key: str) -> None:
    read_once(address, key, {"messages": [{"role": "user", "content": "Say hi."}]})


def measure(model_path: Path, batch: int, rep: int, request: dict[str, Any], threads: int, n_ctx: int, log: Path) -> Reading:
    from openclaw_tui.llm.local.server import LocalServer, ServerConfig

    server = LocalServer(ServerConfig(model_path, "bench", n_ctx=n_ctx, threads=threads, log_path=log, prompt_batch=batch))
    t0 = time.monotonic()
    try:
        address = server.start()
        load_s = time.monotonic() - t0
        warm(address, server.api_key)
        n, ms, reports = read_once(address, server.api_key, request)
    finally:
        server.stop()
    return Reading(batch, rep, n, ms, reports, round(load_s, 1), round(os.getloadavg()[0], 1))


def report(readings: list[Reading]) -> str:
    lines = ["| n_batch (n_ubatch) | prompt tokens | prompt tok/s, each run | mean | vs 256 | progress reports |", "|---|---|---|---|---|---|"]
    by: dict[int, list[Reading]] = {}
    for r in readings:
        by.setdefault(r.batch, []).append(r)
    base = statistics.mean(r.tps for r in by[256]) if 256 in by else None
    for batch, rs in by.items():
        mean = statistics.mean(r.tps for r in rs)
        name = f"{batch} ({min(batch, 512)})" if batch else "default 2048 (512)"
        rel = f"{100 * (mean / base - 1):+.0f} %" if base else "—"
        lines.append(f"| {name} | {rs[0].prompt_tokens} | {' / '.join(f'{r.tps:.1f}' for r in rs)} | {mean:.1f} | {rel} | "
                     f"{' / '.join(str(r.progress_reports) for r in rs)} |")
    loads = [r.load_avg for r in readings]
    lines += ["", f"load average {min(loads)}–{max(loads)} during the run"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench.local_batch", description=__doc__.split("\n\n")[0])
    p.add_argument("--values", default=",".join(map(str, DEFAULT_VALUES)), help="n_batch values, 0 for llama.cpp's default")
    p.add_argument("--reps", type=int, default=2)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--n-ctx", type=int, default=8192)
    p.add_argument("--json-out")
    args = p.parse_args(argv)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from openclaw_tui.llm.local.catalog import DEFAULT_MODEL
    from openclaw_tui.llm.local.files import models_dir

    model_path = models_dir() / DEFAULT_MODEL.filename
    if not model_path.exists():
        raise SystemExit(f"{model_path} is missing: openclaw-tui model install")
    values = [int(v) for v in args.values.split(",")]
    readings: list[Reading] = []
    with tempfile.TemporaryDirectory(prefix="local-batch-") as tmp:
        os.environ["OPENCLAW_STATE_DIR"] = str(Path(tmp) / "state")
        os.environ.setdefault("OPENCLAW_BUNDLED_EMBEDDINGS", "off")
        request = fixed_request(Path(tmp))
        for rep in range(1, args.reps + 1):
            for batch in values:
                r = measure(model_path, batch, rep, request, args.threads, args.n_ctx, Path(tmp) / "server.log")
                readings.append(r)
                print(f"  n_batch {batch or 'default'} rep {rep}: {r.prompt_tokens} tokens in {r.prompt_ms / 1000:.1f} s = "
                      f"{r.tps:.1f} tok/s, {r.progress_reports} progress reports, load {r.load_avg}", flush=True)
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, threads {args.threads}, n_ctx {args.n_ctx}")
    print(report(readings))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps([{**asdict(r), "tps": r.tps} for r in readings], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
