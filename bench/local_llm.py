"""The local chat models side by side: load time, memory, prompt and generation speed, and
whether they call a tool when one is offered.

For each installed catalog model (``openclaw-tui model install [0.5b]``) the managed server
is started as the app starts it (child process, 2 threads, ``OMP_WAIT_POLICY=PASSIVE``) and
measured through real HTTP:

* load: spawn → healthy, seconds; RSS of the server process after load and after the runs;
* prompt tok/s and generation tok/s: llama.cpp's own ``timings`` over ``--runs`` requests
  (a ~600-token prompt, 64 new tokens), median;
* tool calls: five memory questions with ``memory_search`` offered. ``native`` counts
  ``tool_calls`` in the response; ``in text`` counts replies in which the app's text tool-call
  recovery (llm/toolcall_text.py) finds a ``memory_search`` call with valid arguments.

    python -m bench.local_llm [--models 1.5b,0.5b] [--runs 3] [--n-ctx 32768]

Both models share the 2 CPU cores with whatever else runs: compare them within one run.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from openclaw_tui.llm.local.catalog import spec_named
from openclaw_tui.llm.local.install import install, parts_installed, target_path
from openclaw_tui.llm.local.server import LocalServer, ServerConfig
from openclaw_tui.llm.toolcall_text import recover_tool_calls

TOOL = {
    "type": "function",
    "function": {
        "name": "memory_search",
        "description": "Search the user's memory notes. Call it before answering about prior work, decisions, dates, people or preferences.",
        "parameters": {
            "type": "object",
            "properties": {"query": {"type": "string", "description": "what to look for"}},
            "required": ["query"],
        },
    },
}
QUESTIONS = [
    "Search your memory: which database did we choose for billing?",
    "What did I say my sister's name was?",
    "When is the next deploy planned?",
    "Search your memory for what Caroline's identity is.",
    "Who owns the billing migration?",
]
FILLER = " ".join(f"Note {i}: the team discussed item {i} and agreed to revisit it next week." for i in range(40))


def _post(address: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        address + "/v1/chat/completions", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=600) as resp:  # noqa: S310 - loopback
        return json.loads(resp.read())


def _rss_mb(pid: int | None) -> float:
    if pid is None:
        return float("nan")
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def text_tool_call(text: str) -> bool:
    """A memory_search call with valid arguments that the app's text tool-call recovery finds
    in ``text`` (llm/toolcall_text.py: tags, fences, bare JSON and the common variants)."""
    return any(c.name == "memory_search" and c.error is None for c in recover_tool_calls(text, [TOOL]).calls)


def _speed(address: str, runs: int) -> tuple[float, float]:
    prompt_tps, gen_tps = [], []
    for i in range(runs):
        body = {
            "messages": [{"role": "user", "content": f"[{i}] {FILLER}\n\nSummarise these notes in one paragraph."}],
            "max_tokens": 64,
            "cache_prompt": False,
        }
        t = _post(address, body).get("timings", {})
        prompt_tps.append(float(t.get("prompt_per_second", 0)))
        gen_tps.append(float(t.get("predicted_per_second", 0)))
    return statistics.median(prompt_tps), statistics.median(gen_tps)


def _tools(address: str) -> tuple[int, int]:
    native = in_text = 0
    system = "You are a helpful assistant with a memory_search tool over the user's notes."
    for q in QUESTIONS:
        body = {"messages": [{"role": "system", "content": system}, {"role": "user", "content": q}], "tools": [TOOL], "max_tokens": 96}
        msg = _post(address, body)["choices"][0]["message"]
        if msg.get("tool_calls"):
            native += 1
        elif text_tool_call(msg.get("content") or ""):
            in_text += 1
    return native, in_text


def measure(name: str, runs: int, n_ctx: int, log: Path) -> dict[str, Any]:
    spec = spec_named(name)
    if spec is None:
        raise SystemExit(f"unknown model {name!r}")
    path = install(spec).path
    server = LocalServer(ServerConfig(path, spec.name, n_ctx=n_ctx, log_path=log))
    t0 = time.perf_counter()
    address = server.start()
    load_s = time.perf_counter() - t0
    rss_loaded = _rss_mb(server.pid)
    try:
        prompt_tps, gen_tps = _speed(address, runs)
        native, in_text = _tools(address)
        rss_after = _rss_mb(server.pid)
    finally:
        server.stop()
    return {
        "model": spec.label, "file_gb": spec.size_bytes / 1e9, "load_s": load_s, "rss_loaded_mb": rss_loaded,
        "rss_after_mb": rss_after, "prompt_tps": prompt_tps, "gen_tps": gen_tps,
        "tool_native": native, "tool_in_text": in_text, "questions": len(QUESTIONS), "n_ctx": n_ctx,
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.local_llm")
    ap.add_argument("--models", default="1.5b,0.5b")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--n-ctx", type=int, default=32768)
    args = ap.parse_args(argv)
    log = Path(tempfile.mkdtemp(prefix="bench-llm-")) / "server.log"
    if importlib.util.find_spec("xllamacpp") is None:
        print("skipped: the llama.cpp runtime is not installed (pip install -e '.[llm]')")
        return 0
    names = [m.strip() for m in args.models.split(",") if m.strip()]
    present = [n for n in names if (spec := spec_named(n)) is not None and (target_path(spec).is_file() or parts_installed(spec))]
    for n in sorted(set(names) - set(present)):
        print(f"skipped {n}: not installed (openclaw-tui model install {n})")
    rows = [measure(n, args.runs, args.n_ctx, log) for n in present]
    print(f"n_ctx={args.n_ctx}, 2 threads, {args.runs} speed runs; server log {log}")
    print("| model | GGUF | load s | RSS loaded | RSS after | prompt tok/s | gen tok/s | tool_calls native | tool call as text |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['model']} | {r['file_gb']:.2f} GB | {r['load_s']:.1f} | {r['rss_loaded_mb']:.0f} MB | {r['rss_after_mb']:.0f} MB | "
            f"{r['prompt_tps']:.0f} | {r['gen_tps']:.1f} | {r['tool_native']}/{r['questions']} | {r['tool_in_text']}/{r['questions']} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
