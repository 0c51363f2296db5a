"""Candidate readers of a message, measured on the labelled messages (issue 35, item 1).

Three ways to read one message, each scored on ``bench/data/language_messages.<split>.jsonl``
(the labels: intent, facts that must be kept, words that must not be):

* ``lexicon``  the shipped reader (``openclaw_tui.language.read_message``): per-language
               tables, no model;
* ``model``    the local model as the reader: one request whose output is constrained by
               llama.cpp to the JSON schema ``{intent, facts}`` (``response_format``
               ``json_schema``), a short instruction and six labelled examples in three
               languages;
* ``hybrid``   the lexicon first; the model only where the lexicon has no table for the
               language (``known`` False) or reads ``unknown``.

Per way and language: intent accuracy, fact recall (the expected fact substrings found in the
facts, case- and space-insensitive), leaks (a must-not-keep substring in a fact), valid
outputs and milliseconds per message (median).

    python -m bench.language_model_reader [--split dev|test] [--per-lang N] [--model 1.5b]
                                          [--api-base http://127.0.0.1:PORT/v1] [--json]

``--per-lang`` takes the first N rows of each language (the model needs seconds a message on
2 cores); the lexicon is also scored on the same rows so the figures pair.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import urllib.request
from collections import defaultdict
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
INTENTS = ["statement", "question", "remember", "file_change", "do_not_keep", "correction", "small_talk", "unknown"]
SCHEMA = {
    "type": "object",
    "properties": {
        "intent": {"type": "string", "enum": INTENTS},
        "facts": {"type": "array", "items": {"type": "string"}, "maxItems": 4},
    },
    "required": ["intent", "facts"],
    "additionalProperties": False,
}
INSTRUCTION = (
    "Classify the user's message for a note-taking assistant. intent: statement (tells something), question "
    "(asks), remember (asks you to remember something), file_change (asks to write or edit a file), do_not_keep "
    "(asks you NOT to write it down / off the record), correction (corrects something said before), small_talk "
    "(greeting, thanks). facts: the sentences worth keeping, copied in the user's own words and language, without "
    "'remember that'; none for questions without facts, small talk, do_not_keep and file_change."
)
EXAMPLES = [
    ("My dentist is Dr. Moreau, on Rue Cler 12.", {"intent": "statement", "facts": ["My dentist is Dr. Moreau, on Rue Cler 12."]}),
    ("¿Puedes recordar que prefiero el té?", {"intent": "remember", "facts": ["prefiero el té"]}),
    ("Wann ist mein Zahnarzttermin?", {"intent": "question", "facts": []}),
    ("Mi PIN es 4411, no lo apuntes.", {"intent": "do_not_keep", "facts": []}),
    ("Correction: the offsite moved to Friday.", {"intent": "correction", "facts": ["the offsite moved to Friday"]}),
    ("Danke, super!", {"intent": "small_talk", "facts": []}),
]


def load_rows(split: str, per_lang: int) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in (DATA / f"language_messages.{split}.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    if per_lang <= 0:
        return rows
    taken: dict[str, int] = defaultdict(int)
    out = []
    for r in rows:
        if taken[r["lang"]] < per_lang:
            taken[r["lang"]] += 1
            out.append(r)
    return out


API_KEY = ""  # the managed server's per-run key (set in main)


def _post(api_base: str, body: dict[str, Any]) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {API_KEY}"} if API_KEY else {})
    req = urllib.request.Request(api_base + "/chat/completions", data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(req, timeout=900) as resp:  # noqa: S310 - loopback
        return dict(json.loads(resp.read())["choices"][0]["message"])


def model_read(api_base: str, text: str) -> tuple[str, list[str], bool]:
    """(intent, facts, valid) from the model, its output held to ``SCHEMA`` by llama.cpp."""
    messages: list[dict[str, str]] = [{"role": "system", "content": INSTRUCTION}]
    for said, label in EXAMPLES:
        messages += [{"role": "user", "content": said}, {"role": "assistant", "content": json.dumps(label, ensure_ascii=False)}]
    messages.append({"role": "user", "content": text})
    body = {"messages": messages, "temperature": 0, "max_tokens": 200,
            "response_format": {"type": "json_schema", "json_schema": {"name": "reading", "schema": SCHEMA}}}
    try:
        out = json.loads(_post(api_base, body).get("content") or "")
    except ValueError:
        return "unknown", [], False
    if not isinstance(out, dict) or out.get("intent") not in INTENTS or not isinstance(out.get("facts"), list):
        return "unknown", [], False
    return str(out["intent"]), [str(f) for f in out["facts"]], True


def lexicon_read(text: str) -> tuple[str, list[str], bool, bool]:
    """(intent, facts, valid, known) from the shipped reader."""
    from openclaw_tui.language import read_message

    r = read_message(text)
    return r.intent.value, list(r.facts), True, r.known


def _flat(s: str) -> str:
    return " ".join(s.lower().split())


def score(row: dict[str, Any], intent: str, facts: list[str]) -> tuple[bool, int, int, int]:
    """(intent right, expected facts found, expected facts, leaks)."""
    kept = _flat(" | ".join(facts))
    found = sum(_flat(f) in kept for f in row.get("facts", []))
    leaks = sum(_flat(m) in kept for m in row.get("must_not_keep", []) if m.strip())
    return intent == row["intent"], found, len(row.get("facts", [])), leaks


def run(way: str, rows: list[dict[str, Any]], api_base: str) -> dict[str, dict[str, float]]:
    per: dict[str, dict[str, Any]] = defaultdict(lambda: {"n": 0, "right": 0, "found": 0, "expected": 0, "leaks": 0, "valid": 0, "ms": []})
    for row in rows:
        t0 = time.perf_counter()
        if way == "model":
            intent, facts, valid = model_read(api_base, row["text"])
        else:
            intent, facts, valid, known = lexicon_read(row["text"])
            if way == "hybrid" and (not known or intent == "unknown"):
                intent, facts, valid = model_read(api_base, row["text"])
        ms = (time.perf_counter() - t0) * 1000
        right, found, expected, leaks = score(row, intent, facts)
        for key in (row["lang"], "all"):
            p = per[key]
            p["n"] += 1
            p["right"] += right
            p["found"] += found
            p["expected"] += expected
            p["leaks"] += leaks
            p["valid"] += valid
            p["ms"].append(ms)
        print(f"  {way:7} {row['lang']} {'ok ' if right else 'BAD'} {intent:11} (want {row['intent']}) {row['text'][:60]!r}", file=sys.stderr, flush=True)
    return {lang: {"n": p["n"], "intent_acc": p["right"] / p["n"], "fact_recall": p["found"] / p["expected"] if p["expected"] else 1.0,
                   "leaks": p["leaks"], "valid": p["valid"] / p["n"], "ms_median": statistics.median(p["ms"])}
            for lang, p in per.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.language_model_reader")
    ap.add_argument("--split", default="dev", choices=["dev", "test"])
    ap.add_argument("--per-lang", type=int, default=10, help="rows per language (0: all)")
    ap.add_argument("--model", default="1.5b", help="catalog model to start when --api-base is not given")
    ap.add_argument("--api-base", default="", help="use a running OpenAI-compatible llama.cpp server")
    ap.add_argument("--ways", default="lexicon,model,hybrid")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = load_rows(args.split, args.per_lang)
    ways = [w.strip() for w in args.ways.split(",") if w.strip()]
    server = None
    api_base = args.api_base.rstrip("/")
    if not api_base and any(w != "lexicon" for w in ways):
        from openclaw_tui.llm.local.catalog import spec_named
        from openclaw_tui.llm.local.install import install
        from openclaw_tui.llm.local.server import LocalServer, ServerConfig

        spec = spec_named(args.model)
        if spec is None:
            raise SystemExit(f"unknown model {args.model!r}")
        log = Path(tempfile.mkdtemp(prefix="bench-reader-")) / "server.log"
        server = LocalServer(ServerConfig(install(spec).path, spec.name, n_ctx=4096, log_path=log))
        api_base = server.start() + "/v1"
        global API_KEY
        API_KEY = server.api_key
    try:
        results = {way: run(way, rows, api_base) for way in ways}
    finally:
        if server is not None:
            server.stop()
    if args.json:
        print(json.dumps({"split": args.split, "rows": len(rows), "results": results}, indent=1))
        return 0
    print(f"split {args.split}, {len(rows)} messages")
    print("| way | language | n | intent accuracy | fact recall | leaks | valid | ms/message (median) |")
    print("|---|---|---|---|---|---|---|---|")
    for way, per in results.items():
        for lang in sorted(per, key=lambda k: (k == "all", k)):
            p = per[lang]
            print(f"| {way} | {lang} | {p['n']:.0f} | {p['intent_acc']:.1%} | {p['fact_recall']:.1%} | {p['leaks']:.0f} | {p['valid']:.0%} | {p['ms_median']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
