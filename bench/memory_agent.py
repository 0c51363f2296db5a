"""The local models as memory agents, end to end through ``openclaw-tui chat -p --json``.

For each model and each setting of ``agents.defaults.autoRecall`` (the local profile's lookup
before a question), a few LoCoMo conv-26 questions and one "remember" request run in a fresh
copy of the workspace, the way a user runs them. Counted per run: a ``memory_search`` ran
(``searched``), a tool call printed as text was recovered with valid arguments
(``valid calls`` / ``calls``), the answer contains the gold answer (``gold``), it carries a
``Source:`` line, tool-call JSON leaked into the answer (``leaked``), and for the remember
request that the fact landed in ``memory/<today>.md`` and MEMORY.md was left alone.

    python -m bench.memory_agent [--models 1.5b,0.5b] [--recall on,off] [--questions 4]

Needs the installed GGUFs (``openclaw-tui model install``) and the LoCoMo data folder next to
the repository (``--data``). Slow on purpose: every row is a real model run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from bench.locomo_qa import default_data
from openclaw_tui.llm.local.files import models_dir

DEFAULT_DATA = default_data()  # ../shared/data/locomo beside the repository or its worktree folder
# conv-26 questions (categories 1-2) whose gold answer has one word an answer must contain
QUESTIONS = [
    ("What is Caroline's identity?", "trans"),  # "transgender woman", "trans woman"
    ("What did Caroline research?", "adoption"),
    ("When did Melanie paint a sunrise?", "2022"),
    ("Where did Caroline move from 4 years ago?", "Sweden"),
    ("What is Caroline's relationship status?", "single"),
]
REMEMBER = "Remember that my favourite colour is teal-4711."


def _run(model: str, recall: bool, prompt: str, data: Path) -> tuple[dict, Path, float]:
    tmp = Path(tempfile.mkdtemp(prefix="bench-agent-"))
    ws = tmp / "ws"
    shutil.copytree(data / "conv-26", ws, ignore=shutil.ignore_patterns("*.json", "*.jsonl"))
    for p in [ws, *ws.rglob("*")]:
        p.chmod(0o755 if p.is_dir() else 0o644)
    cfg = tmp / "cfg.json"
    cfg.write_text(json.dumps({"agents": {"defaults": {"autoRecall": recall}}}))
    # a fresh state dir per run, but the installed GGUFs stay where they are
    env = {**os.environ, "OPENCLAW_STATE_DIR": str(tmp / "state"), "OPENCLAW_NO_OLLAMA_PROBE": "1", "OPENCLAW_MODELS_DIR": str(models_dir())}
    cmd = [sys.executable, "-m", "openclaw_tui.cli", "--config", str(cfg), "--workspace", str(ws), "--model", f"local/{model}",
           "chat", "-p", prompt, "--json"]  # fmt: skip
    started = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    return json.loads(proc.stdout or "{}"), ws, time.monotonic() - started


def _row(data: dict, ws: Path, gold: str | None) -> dict:
    events = data.get("events", [])
    calls = [e for e in events if e["type"] == "tool_called"]
    results = {e["call_id"]: e for e in events if e["type"] == "tool_result"}
    text = data.get("text") or ""
    daily = ws / "memory" / f"{date.today().isoformat()}.md"
    return {
        "offline": data.get("offline", True),  # the local model failed to start: the row is not a model's
        "searched": any(c["name"] == "memory_search" for c in calls),
        "calls": len([c for c in calls if not c["call_id"].startswith("recall_")]),
        "valid_calls": len([c for c in calls if not c["call_id"].startswith("recall_") and not (results.get(c["call_id"]) or {}).get("error")]),
        "gold": gold is not None and gold.lower() in text.lower(),
        "source": "Source:" in text,
        "leaked": '"arguments"' in text or '"name":' in text,
        "appended": daily.is_file() and "teal-4711" in daily.read_text(),
        "text": text[:160],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default="1.5b,0.5b")
    ap.add_argument("--recall", default="on,off")
    ap.add_argument("--questions", type=int, default=4)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = ap.parse_args()
    rows = []
    for model in args.models.split(","):
        for recall in args.recall.split(","):
            prompts: list[tuple[str, str | None]] = [*QUESTIONS[: args.questions], (REMEMBER, None)]
            for prompt, gold in prompts:
                data, ws, secs = _run(model, recall == "on", prompt, args.data)
                row = {"model": model, "autoRecall": recall, "prompt": prompt, "seconds": round(secs, 1), **_row(data, ws, gold)}
                rows.append(row)
                print(json.dumps(row), flush=True)
                shutil.rmtree(ws.parent, ignore_errors=True)
    print("\nmodel  autoRecall  questions searched  gold  Source  leaked  valid/calls  remember→daily  median s")
    for model in args.models.split(","):
        for recall in args.recall.split(","):
            sel = [r for r in rows if r["model"] == model and r["autoRecall"] == recall]
            qs = [r for r in sel if r["prompt"] != REMEMBER]
            rem = [r for r in sel if r["prompt"] == REMEMBER]
            secs = sorted(r["seconds"] for r in sel)
            print(
                f"{model:6} {recall:11} {sum(r['searched'] for r in qs)}/{len(qs):<17} {sum(r['gold'] for r in qs)}/{len(qs):<4}"
                f" {sum(r['source'] for r in qs)}/{len(qs):<6} {sum(r['leaked'] for r in sel)}/{len(sel):<6}"
                f" {sum(r['valid_calls'] for r in sel)}/{sum(r['calls'] for r in sel):<12} {sum(r['appended'] for r in rem)}/{len(rem):<15}"
                f" {secs[len(secs) // 2] if secs else 0}"
            )


if __name__ == "__main__":
    main()
