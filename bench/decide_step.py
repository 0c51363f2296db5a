"""Does a constrained "decide" step help the local profile choose when to search memory?

Twenty labelled messages (ten about the past, which need ``memory_search``; ten that do
not: greetings, coding, general knowledge, a request to remember) go three ways to the
local model on the managed llama.cpp server:

* ``rules``   the local profile as shipped: the message's reading (``read_message(...).query``,
              openclaw_tui/language) decides without the model;
* ``decide``  one request whose output is constrained to the JSON schema
              ``{tool: memory_search|none, query, reply}`` (llama.cpp ``response_format``
              ``json_schema``): the model decides;
* ``free``    the model with ``memory_search`` offered and nothing else: did it call it
              (natively or printed as text, recovered by llm/toolcall_text.py)?

Per way: decisions right, searches missed, needless searches, valid outputs (parsable and
in the schema / a valid call), median seconds per message.

    python -m bench.decide_step [--models 1.5b,0.5b] [--api-base http://127.0.0.1:PORT/v1]

With ``--api-base`` the running server is used (one model) instead of starting one.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from openclaw_tui.llm.toolcall_text import recover_tool_calls
from openclaw_tui.language import read_message

PAST = [
    "What is Caroline's identity?",
    "What did Caroline research?",
    "When did Melanie paint a sunrise?",
    "Where did Caroline move from 4 years ago?",
    "What is Caroline's relationship status?",
    "Which database did we choose for billing?",
    "What did I say my sister's name was?",
    "When is the next deploy planned?",
    "Did we settle on a colour for the logo?",
    "Remind me what Melanie's kids like to do.",
]
OTHER = [
    "Hi! How are you today?",
    "Write a Python function that adds two numbers.",
    "What is the capital of France?",
    "Explain what a hash map is in one sentence.",
    "Thanks, that helps!",
    "Translate 'good morning' into Spanish.",
    "Remember that my favourite colour is teal-4711.",
    "How do I reverse a list in Python?",
    "What is 17 times 3?",
    "Tell me a short joke.",
]
SYSTEM = (
    "You are a helpful assistant in a terminal. You have a memory of earlier conversations with the user "
    "(people, events, dates, decisions, preferences), searchable with memory_search."
)
DECIDE = (
    'Decide how to handle my message. If it asks about something from our past conversations or my notes, answer '
    '{"tool": "memory_search", "query": <what to look for>, "reply": ""}; otherwise {"tool": "none", "query": "", '
    '"reply": <your answer>}.\n\nMy message: '
)
SCHEMA = {
    "type": "object",
    "properties": {
        "tool": {"type": "string", "enum": ["memory_search", "none"]},
        "query": {"type": "string"},
        "reply": {"type": "string"},
    },
    "required": ["tool", "query", "reply"],
    "additionalProperties": False,
}
TOOL = {
    "type": "function",
    "function": {
        "name": "memory_search",
        "description": "Search the user's memory (earlier conversations and notes). Call it before answering about prior work, decisions, dates, people or preferences.",
        "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"], "additionalProperties": False},
    },
}


def _post(api_base: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(api_base + "/chat/completions", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=900) as resp:  # noqa: S310 - loopback
        return json.loads(resp.read())["choices"][0]["message"]


def decide(api_base: str, message: str) -> tuple[bool | None, bool]:
    """(searches?, valid): None when the output is not the schema's object."""
    body = {
        "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": DECIDE + message}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "decision", "schema": SCHEMA}},
        "max_tokens": 160,
    }
    try:
        out = json.loads(_post(api_base, body).get("content") or "")
    except ValueError:
        return None, False
    ok = isinstance(out, dict) and out.get("tool") in ("memory_search", "none") and set(out) == {"tool", "query", "reply"}
    if not ok:
        return None, False
    searches = out["tool"] == "memory_search"
    return searches, (bool(str(out["query"]).strip()) if searches else bool(str(out["reply"]).strip()))


def free(api_base: str, message: str) -> tuple[bool | None, bool]:
    body = {"messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": message}], "tools": [TOOL], "max_tokens": 160}
    msg = _post(api_base, body)
    native = [c for c in msg.get("tool_calls") or [] if (c.get("function") or {}).get("name") == "memory_search"]
    if native:
        return True, True
    calls = recover_tool_calls(msg.get("content") or "", [TOOL]).calls
    return bool(calls), all(c.error is None for c in calls)


def run_way(way: str, api_base: str) -> dict[str, Any]:
    right = missed = needless = valid = 0
    seconds: list[float] = []
    for message, needs in [(m, True) for m in PAST] + [(m, False) for m in OTHER]:
        t0 = time.perf_counter()
        if way == "rules":
            searched, ok = bool(read_message(message).query), True
        else:
            searched, ok = (decide if way == "decide" else free)(api_base, message)
        seconds.append(time.perf_counter() - t0)
        valid += ok
        right += searched == needs
        missed += needs and not searched
        needless += bool(searched) and not needs
        print(f"  {way:6} {'search' if searched else ('invalid' if searched is None else 'none'):7} {'ok ' if searched == needs else 'BAD'} {message}", flush=True)
    n = len(PAST) + len(OTHER)
    return {"way": way, "n": n, "right": right, "missed": missed, "needless": needless, "valid": valid, "median_s": statistics.median(seconds)}


def _models(args: argparse.Namespace) -> list[tuple[str, str, Any]]:
    """(label, api_base, server or None) per model to measure."""
    if args.api_base:
        return [(args.api_base, args.api_base.rstrip("/"), None)]
    from openclaw_tui.llm.local.catalog import spec_named
    from openclaw_tui.llm.local.install import install
    from openclaw_tui.llm.local.server import LocalServer, ServerConfig

    out = []
    for name in [m.strip() for m in args.models.split(",") if m.strip()]:
        spec = spec_named(name)
        if spec is None:
            raise SystemExit(f"unknown model {name!r}")
        log = Path(tempfile.mkdtemp(prefix="bench-decide-")) / "server.log"
        out.append((spec.label, "", LocalServer(ServerConfig(install(spec).path, spec.name, n_ctx=8192, log_path=log))))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.decide_step")
    ap.add_argument("--models", default="1.5b,0.5b")
    ap.add_argument("--api-base", default="")
    args = ap.parse_args(argv)
    rows = []
    for label, api_base, server in _models(args):
        try:
            if server is not None:
                api_base = server.start() + "/v1"
            for way in ("rules", "decide", "free"):
                rows.append({"model": label, **run_way(way, api_base)})
        finally:
            if server is not None:
                server.stop()
    print("| model | way | right | searches missed | needless searches | valid output | median s/message |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['model']} | {r['way']} | {r['right']}/{r['n']} | {r['missed']} | {r['needless']} | {r['valid']}/{r['n']} | {r['median_s']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
