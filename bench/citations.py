"""Citations that point at the fact (issue 37): one conversation states 32 facts, one per
message, then a new session asks for each; every ``path#L…`` reference a reply makes is read
against the file's lines, and each cited line is matched to the fact it holds.

    python -m bench.citations                       # the offline agent (rule-based)
    python -m bench.citations --model scripted      # a scripted hosted model that cites sloppily
    OMP_WAIT_POLICY=PASSIVE python -m bench.citations --model default   # the installed local model

Figures: ``citations`` (references in the final replies), ``otherFact`` (a reference naming a
line that holds another fact and not the one asked: the figure that must be 0), ``ownLine``
(naming the asked fact's line and no other fact's), ``unfound`` (naming no line of the file),
``answered`` (the fact's token in the reply), ``citedWrong`` (a reply without the token that
still cites); the same for the model's text as streamed (``raw*``, before the engine's check).
The ``scripted`` model answers from the best line of its search and cites the line after it,
or the whole hit, as the 1.5B did in the issue's walk.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._env import restored_env  # noqa: E402
from openclaw_tui import events  # noqa: E402
from openclaw_tui.session.reply_check import LINE_REF_RE, MORE_RE  # noqa: E402

DATA = Path(__file__).with_name("data") / "citation_facts.json"
TEMPLATE = Path(__file__).resolve().parents[1] / "workspace_template"
WORD_RE = re.compile(r"[a-z0-9][a-z0-9'.-]*")


def facts() -> list[dict[str, str]]:
    return list(json.loads(DATA.read_text(encoding="utf-8"))["facts"])


def refs(text: str) -> list[tuple[str, list[tuple[int, int]]]]:
    """(path, ranges) of every ``path#L…`` reference in ``text``."""
    out = []
    for m in LINE_REF_RE.finditer(text):
        a = int(m.group("a"))
        ranges = [(a, int(m.group("b") or a))]
        ranges += [(int(x.group(1)), int(x.group(2) or x.group(1))) for x in MORE_RE.finditer(m.group("more") or "")]
        out.append((m.group("path").strip("./"), ranges))
    return out


def fact_of_line(line: str, table: list[dict[str, str]]) -> int | None:
    low = line.lower()
    for i, f in enumerate(table):
        if f["token"].lower() in low:
            return i
    return None


def judge(text: str, asked: int, table: list[dict[str, str]], ws: Path) -> dict[str, int]:
    """The tally of one reply's references (module doc)."""
    out = {"citations": 0, "otherFact": 0, "ownLine": 0, "unfound": 0}
    for path, ranges in refs(text):
        out["citations"] += 1
        f = ws / path
        lines = f.read_text(encoding="utf-8").split("\n") if f.is_file() else []
        named = {fact_of_line(lines[n - 1], table) for a, b in ranges for n in range(a, b + 1) if 0 < n <= len(lines)}
        if not lines or all(not (0 < a <= len(lines)) for a, _b in ranges):
            out["unfound"] += 1
        elif named - {asked, None}:
            out["otherFact"] += 1
        elif asked in named:
            out["ownLine"] += 1
    return out


def _text(msg: dict[str, Any]) -> str:
    c = msg.get("content")
    return c if isinstance(c, str) else ""


def sloppy_host(req: dict[str, Any]) -> dict[str, Any]:
    """A hosted-style model that searches, answers with the best line and cites it wrongly:
    the line after it, or (every third answer) the hit's whole range."""
    msgs = req.get("messages") or []
    last = msgs[-1] if msgs else {}
    users = [_text(m) for m in msgs if m.get("role") == "user"]
    names = {t["function"]["name"] for t in req.get("tools") or []}
    if last.get("role") == "tool" and last.get("name") == "memory_search":
        try:
            hits = json.loads(_text(last)).get("results") or []
        except (ValueError, AttributeError):
            hits = []
        asked = set(WORD_RE.findall(users[-1].lower())) if users else set()
        best: tuple[int, str, dict[str, Any], int] | None = None
        for hit in hits:
            body = str(hit.get("snippet", "")).split("\n\nSource:")[0]
            for k, line in enumerate(body.splitlines()):
                shared = len(asked & set(WORD_RE.findall(line.lower())))
                if line.strip() and (best is None or shared > best[0]):
                    best = (shared, line.strip(" -"), hit, k)
        if best is None:
            return {"text": "I found nothing about that."}
        _s, line, hit, _k = best
        start, end = int(hit.get("startLine") or 1), int(hit.get("endLine") or 1)
        wrong = f"#L{start}-L{end + 3}" if len(users) % 3 == 0 else f"#L{start + 1}"
        return {"text": f"{line.replace('User: ', '')}\n\nSource: {hit.get('path')}{wrong}"}
    if last.get("role") == "tool":
        return {"text": "Done."}
    question = _text(last)
    if question.rstrip().endswith("?") and "memory_search" in names:
        return {"tool_calls": [{"name": "memory_search", "arguments": {"query": question}}]}
    return {"text": "Got it."}


class Watch:
    def __init__(self) -> None:
        self.raw: list[str] = []

    def __call__(self, ev: events.Event) -> None:
        if isinstance(ev, events.TurnStarted):
            self.raw.append("")
        elif isinstance(ev, events.TextDelta) and self.raw:
            self.raw[-1] += ev.text


async def run(model: str, api_base: str | None, api_key: str | None, limit: int, same: bool) -> dict[str, Any]:
    from openclaw_tui.config import load_config, resolve_agent
    from openclaw_tui.session.engine import SessionEngine

    table = facts()[:limit]
    with tempfile.TemporaryDirectory(prefix="openclaw-citations-") as tmp:
        ws = Path(tmp) / "ws"
        shutil.copytree(TEMPLATE, ws)
        with restored_env("OPENCLAW_STATE_DIR"):
            os.environ["OPENCLAW_STATE_DIR"] = str(Path(tmp) / "state")
            settings = resolve_agent(load_config(None), workspace=ws, model=None if model == "default" else model,
                                     api_base=api_base, api_key=api_key)
            watch = Watch()
            engine = SessionEngine(settings, sink=watch, probe_ollama=False)
            for f in table:
                await engine.send(f["say"])
            if not same:
                engine.close()
                watch = Watch()
                engine = SessionEngine(settings, sink=watch, probe_ollama=False)
            total: dict[str, Any] = {"model": engine.model_label, "facts": len(table), "questions": len(table),
                                     "answered": 0, "citedWrong": 0, "examples": []}
            for i, f in enumerate(table):
                reply = (await engine.send(f["ask"])).text or ""
                raw = watch.raw[-1] if watch.raw else reply
                got = judge(reply, i, table, ws)
                for key, value in got.items():
                    total[key] = total.get(key, 0) + value
                for key, value in judge(raw, i, table, ws).items():
                    raw_key = "raw" + key[0].upper() + key[1:]
                    total[raw_key] = total.get(raw_key, 0) + value
                ok = f["token"].lower() in reply.lower()
                total["answered"] += ok
                total["citedWrong"] += bool(not ok and got["citations"])
                if got["otherFact"] or (not ok and got["citations"]):
                    total["examples"].append({"asked": f["ask"], "reply": reply[-240:]})
            engine.close()
    return total


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.citations", description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default="offline",
                   help="offline (the rule-based agent), scripted (a sloppy citer on a scripted server), "
                        "default (the configured or installed local model), or any model string")
    p.add_argument("--api-base", help="the model's API base URL (with a model string)")
    p.add_argument("--api-key", help="the model's API key (with a model string)")
    p.add_argument("--facts", type=int, default=32, help="how many of the 32 facts to state and ask (default 32)")
    p.add_argument("--same-session", action="store_true", help="ask in the session the facts were told in")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    args = p.parse_args(argv)
    server = None
    model, base, key = args.model, args.api_base, args.api_key
    if model == "scripted":
        from tests.fakes.chat_server import ChatServer

        server = ChatServer(responder=sloppy_host)
        server.start()
        model, base, key = "openai/scripted-sloppy", server.base_url, "sk-scripted"
    try:
        report = asyncio.run(run(model, base, key, args.facts, args.same_session))
    finally:
        if server is not None:
            server.stop()
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    keys = ("facts", "answered", "citations", "otherFact", "ownLine", "unfound", "citedWrong",
            "rawCitations", "rawOtherFact", "rawOwnLine")
    print(f"model: {report['model']}")
    print("  ".join(f"{k} {report.get(k, 0)}" for k in keys))
    for e in report["examples"][:5]:
        print(f"  - {e['asked']} -> {e['reply']!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
