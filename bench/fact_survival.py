"""Fact survival across flushes and compactions (issue 24): ``openclaw-tui eval survival`` for
several models and variants in one command, with a table for docs/session.md.

    python -m bench.fact_survival --variants offline,offline-noflush,scripted --conversations 20 --seeds 1,2
    python -m bench.fact_survival --variants local --conversations 4 --facts 4

Variants: ``offline`` (the rule-based agent), ``offline-noflush`` (memory flush and session-end
notes off), ``scripted`` (a hosted-profile model served by a scripted OpenAI-compatible server
on 127.0.0.1: it searches before answering, answers from the best snippet line, and in a flush
appends only the last thing the user said — a model that does part of the work), its
``-model`` form (``memoryFlush.mode: model``: no engine notes), and ``local`` / ``local-model``
(the installed GGUF; ``-model`` is the flush as it was before issue 24).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openclaw_tui.evals.survival import SurvivalOptions  # noqa: E402
from openclaw_tui.evals.survival_run import run_survival  # noqa: E402

WORD_RE = re.compile(r"[a-z0-9][a-z0-9'.-]*")


def _text(msg: dict[str, Any]) -> str:
    c = msg.get("content")
    return c if isinstance(c, str) else ""


def _call(name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"tool_calls": [{"name": name, "arguments": args}]}


def scripted_host(req: dict[str, Any]) -> dict[str, Any]:
    """A hosted-style model: native tool calls, answers from what its search returned."""
    msgs = req.get("messages") or []
    system = _text(msgs[0]) if msgs else ""
    last = msgs[-1] if msgs else {}
    users = [_text(m) for m in msgs if m.get("role") == "user"]
    if "compress a conversation" in system or "summarise a conversation" in system:
        body = users[-1] if users else ""
        lines = [ln[6:] for ln in body.splitlines() if ln.startswith("User: ")]
        return {"text": "## Goal\n- continue the conversation\n## Exact identifiers\n" + "\n".join(f"- {ln}" for ln in lines[-12:])}
    names = {t["function"]["name"] for t in req.get("tools") or []}
    if "NO_REPLY" in (users[-1] if users else "") and last.get("role") == "user":
        said = [u for u in users[:-1] if not u.rstrip().endswith("?")]
        m = re.search(r"memory/\d{4}-\d{2}-\d{2}\.md", users[-1])
        if said and m and "append" in names:
            return _call("append", {"path": m.group(0), "content": f"- {said[-1]}"})
        return {"text": "NO_REPLY"}
    if last.get("role") == "tool":
        return {"text": _best_line(_text(last), users[-1] if users else "") if last.get("name") == "memory_search" else "Done."}
    question = _text(last)
    if question.rstrip().endswith("?") and "memory_search" in names:
        return _call("memory_search", {"query": question})
    return {"text": "Got it."}


def _best_line(result: str, question: str) -> str:
    try:
        hits = json.loads(result).get("results") or []
    except (ValueError, AttributeError):
        hits = []
    asked = set(WORD_RE.findall(question.lower()))
    best, score = "", 0
    for hit in hits:
        for line in str(hit.get("snippet", "")).splitlines():
            shared = len(asked & set(WORD_RE.findall(line.lower())))
            if shared > score and not line.startswith("Source:"):
                best, score = line.strip(" -"), shared
    return best or "I found nothing about that in memory."


VARIANTS: dict[str, dict[str, Any]] = {
    "offline": {"model": "offline"},
    "offline-noflush": {"model": "offline", "flush": False},
    "offline-model": {"model": "offline", "flush_mode": "model"},
    "scripted": {"scripted": True, "context_tokens": 2000},
    "scripted-model": {"scripted": True, "flush_mode": "model", "context_tokens": 2000},
    "local": {"model": None},
    "local-noflush": {"model": None, "flush": False},
    "local-model": {"model": None, "flush_mode": "model"},
}


async def run_variant(name: str, seed: int, args: argparse.Namespace) -> dict[str, Any]:
    spec = dict(VARIANTS[name])
    server = None
    if spec.pop("scripted", False):
        from tests.fakes.chat_server import ChatServer

        server = ChatServer(responder=scripted_host)
        server.start()
        spec.update(model="openai/scripted-host", api_base=server.base_url, api_key="sk-scripted")
    try:
        opts = SurvivalOptions(conversations=args.conversations, seed=seed, facts=args.facts, **spec)
        report = await run_survival(opts)
    finally:
        if server is not None:
            server.stop()
    report["variant"] = name
    return report


COLUMNS = ("variant", "seed", "facts", "storedPct", "answeredSamePct", "answeredNewPct", "junkPct", "echoes",
           "unanswerableStatements", "compactions", "summariesInvented", "sourceLinesUnfound", "saveClaimsUnflagged",
           "appendsOutsideToday", "secondsPerTurn", "secondsPerFlush")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.fact_survival")
    p.add_argument("--variants", default="offline,offline-noflush,scripted,scripted-model")
    p.add_argument("--conversations", type=int, default=20)
    p.add_argument("--facts", type=int, default=6)
    p.add_argument("--seeds", default="1,2")
    p.add_argument("--json", type=Path, help="also write the reports here")
    args = p.parse_args(argv)
    reports = []
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + "---|" * len(COLUMNS))
    for seed in (int(s) for s in args.seeds.split(",")):
        for name in args.variants.split(","):
            report = asyncio.run(run_variant(name, seed, args))
            reports.append(report)
            print("| " + " | ".join(str(report.get(c, "")) for c in COLUMNS) + " |", flush=True)
    if args.json:
        args.json.write_text(json.dumps(reports, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
