"""Capture what a real model prints when offered the session's tools (test data for text tool-call recovery).

    python scripts/capture_toolcalls.py --api-base http://127.0.0.1:PORT/v1 --label qwen2.5-coder-1.5b \
        --workspace W --out tests/data/toolcall_text/qwen2.5-coder-1.5b.json [--runs 2]

Each prompt is sent once per run with the same system prompt and tool schemas a session sends
(no streaming, the server's default sampling); the raw ``content`` and any native ``tool_calls``
are stored. The table test (tests/session/test_toolcall_text.py) states what each output must
parse to.
"""

from __future__ import annotations

import argparse
import json
import time
import urllib.request
from pathlib import Path

from openclaw_tui.tools.files import FILE_SCHEMAS
from openclaw_tui.tools.memory_tools import MEMORY_TOOL_SCHEMAS
from openclaw_tui.workspace.bootstrap import build_system_prompt

PROMPTS = [
    "Search your memory: what is Caroline's identity?",
    "What did Caroline say about the LGBTQ support group?",
    "When did Melanie paint a sunrise?",
    "Remember that my favourite colour is teal-4711.",
    "Read USER.md and tell me what it says.",
    "Hi! How are you today?",
    "Write a Python function that adds two numbers.",
    'Give me an example JSON object with the keys "name" and "age".',
]


def ask(api_base: str, system: str, prompt: str, tools: list) -> dict:
    body = {"model": "local", "messages": [{"role": "system", "content": system}, {"role": "user", "content": prompt}], "tools": tools}
    req = urllib.request.Request(api_base.rstrip("/") + "/chat/completions", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    started = time.monotonic()
    with urllib.request.urlopen(req, timeout=600) as resp:  # noqa: S310 - a local server given on the command line
        data = json.loads(resp.read())
    msg = data["choices"][0]["message"]
    return {"prompt": prompt, "content": msg.get("content") or "", "tool_calls": msg.get("tool_calls") or [], "seconds": round(time.monotonic() - started, 1)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--api-base", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--workspace", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    system = build_system_prompt(Path(args.workspace), session_key="agent:main:main").text
    tools = MEMORY_TOOL_SCHEMAS + FILE_SCHEMAS
    out = Path(args.out)
    found = json.loads(out.read_text()) if out.exists() else {"model": args.label, "captures": []}
    for _ in range(args.runs):
        for prompt in PROMPTS:
            rec = ask(args.api_base, system, prompt, tools)
            found["captures"].append(rec)
            print(json.dumps(rec)[:300], flush=True)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
