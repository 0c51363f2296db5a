"""LoCoMo retrieval with the question expanded by the local LLM (issue 16; measured, not taken).

The misses left in the hybrid search are semantic: the evidence shares no word and little
meaning with the question for MiniLM ("identity" → "transgender", "European countries" →
"Spain"). QMD answers the same problem with a small LLM that expands the query. This bench
asks the local chat model (the installed default GGUF, temperature 0) for each dev question
once, caches the answers in ``--state``, and searches the same index four ways:

- ``shipped``: the question as typed;
- ``expansion: keyword + vector``: the question followed by the model's words (one query);
- ``expansion: vector only``: the keyword side searches the question, the query vector is
  the expanded text's;
- ``expansion: keyword only``: the OR query holds the expansion's terms too, the vector is
  the question's.

Two prompts (``--prompt``): ``keywords`` (words a note answering it would hold) and
``answer`` (one line as the notes might hold the answer, HyDE-style). Reported like
``bench.locomo_fusion``: evidence-all-found@k credited on the range and on the snippet,
per conversation and category, and the on/off choice by leave-one-out.

    python -m bench.locomo_expansion [--data DIR] [--k 6] [--state DIR] [--prompt keywords|answer] [--json]
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from bench.locomo_eval import copy_workspace, embedding_bench_args, embedding_conversations, load_questions, workspace_lines
from bench.locomo_fusion import DEFAULT_MODEL, _evaluate, _total
from bench.locomo_hybrid import CATEGORIES, _settings

PROMPTS = {
    "keywords": ("You help search a person's notes. For the question, list 8 to 12 single words or short phrases "
                 "that the note answering it would likely contain: likely answer words, synonyms, related specific "
                 "terms. Do not repeat the question's words. Answer with one comma-separated line only."),
    "answer": ("You help search a person's chat notes. Write one short line, as one of the two people might have "
               "said it in the chat, that would answer the question. Make up plausible details. One line only."),
}
VARIANTS = ["shipped", "expansion: keyword + vector", "expansion: vector only", "expansion: keyword only"]
#: words of the model's answer kept (a runaway answer must not swamp the question)
MAX_WORDS = 16
MAX_TOKENS = 48


def clean(text: str) -> str:
    """The model's answer as plain query words: list punctuation dropped, at most ``MAX_WORDS``."""
    return " ".join(re.sub(r"[\n,;:.()\"*`]+", " ", text).split()[:MAX_WORDS])


def expanded(question: str, expansions: dict[str, str]) -> str:
    extra = clean(expansions.get(question, ""))
    return f"{question} {extra}" if extra else question


def generate(questions: list[str], cache: Path, prompt: str) -> dict[str, str]:
    """``{question: the model's answer}``, asking the installed default GGUF for the questions
    not in ``cache`` yet (the cache is rewritten after each answer)."""
    from openclaw_tui.llm.local.catalog import DEFAULT_MODEL as LLM  # noqa: PLC0415
    from openclaw_tui.llm.local.files import models_dir  # noqa: PLC0415
    from openclaw_tui.llm.local.server import LocalServer, ServerConfig  # noqa: PLC0415

    got: dict[str, str] = json.loads(cache.read_text()) if cache.is_file() else {}
    todo = [q for q in dict.fromkeys(questions) if q not in got]
    if not todo:
        return got
    model = models_dir() / LLM.filename
    if not model.is_file():
        raise SystemExit(f"the local chat model is not installed at {model}: run `make model`")
    server = LocalServer(ServerConfig(model_path=model, alias="expand", n_ctx=2048))
    base = server.start().rstrip("/")
    started = time.perf_counter()
    try:
        for q in todo:
            body = {"model": "expand", "temperature": 0, "max_tokens": MAX_TOKENS, "messages": [
                {"role": "system", "content": PROMPTS[prompt]}, {"role": "user", "content": f"Question: {q}"}]}
            req = urllib.request.Request(f"{base}/v1/chat/completions", json.dumps(body).encode(),
                                         {"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=120) as resp:  # noqa: S310 - our own 127.0.0.1 server
                got[q] = json.loads(resp.read())["choices"][0]["message"]["content"] or ""
            cache.write_text(json.dumps(got, indent=0, ensure_ascii=False))
    finally:
        server.stop()
    print(f"expansions: {len(todo)} questions in {time.perf_counter() - started:.0f} s "
          f"({(time.perf_counter() - started) / len(todo):.2f} s each)", file=sys.stderr)
    return got


@contextmanager
def expansion(variant: str, expansions: dict[str, str]) -> Iterator[None]:
    """Patch the searcher so the query vector or the keyword query (or both) use the expansion."""
    from openclaw_tui.memory.builtin import query as qry  # noqa: PLC0415
    from openclaw_tui.memory.builtin import search as search_mod  # noqa: PLC0415
    from openclaw_tui.memory.builtin.search import Searcher  # noqa: PLC0415

    embed, text_hits = Searcher._embed_query, search_mod.text_hits
    if variant in ("expansion: vector only", "expansion: keyword + vector"):
        Searcher._embed_query = lambda self, q, got, t0: embed(self, expanded(q, expansions), got, t0)
    if variant in ("expansion: keyword only", "expansion: keyword + vector"):
        def hits(store, q, terms, mode, limit):
            qq = expanded(q, expansions)
            return text_hits(store, qq, qry.query_terms(qq), mode, limit)
        search_mod.text_hits = hits
    try:
        yield
    finally:
        Searcher._embed_query, search_mod.text_hits = embed, text_hits


def run_conv(conv: Path, k: int, tmp: Path, expansions: dict[str, str]) -> dict[str, Counter]:
    from openclaw_tui.memory.builtin.manager import MemoryManager  # noqa: PLC0415

    questions = load_questions(conv, CATEGORIES)
    ws = tmp / conv.name / "workspace"
    if not ws.is_dir():
        copy_workspace(conv, tmp / conv.name)
    lines = workspace_lines(ws)
    os.environ["OPENCLAW_STATE_DIR"] = str(tmp / conv.name / "state")
    out: dict[str, Counter] = {}
    with MemoryManager(_settings(ws, {"provider": "local", "local": {"modelPath": DEFAULT_MODEL}}, {})) as m:
        rep = m.sync(reason="bench")
        if not rep.get("ok"):
            raise SystemExit(f"{conv.name}: indexing with the local model failed: {rep.get('errors')}")
        for name in VARIANTS:
            with expansion(name, expansions):
                out[name] = _evaluate(m, questions, k, lines)
    return out


def leave_one_out(grid: dict[str, dict[str, Counter]], option: str, metric: str) -> tuple[int, list[str]]:
    """Held-out total of the on/off choice ``shipped`` vs ``option`` (ties to shipped) and the picks."""
    total, picks = 0, []
    for held in sorted(grid):
        train = [c for c in grid if c != held]
        on = sum(_total(grid[c][option], metric) for c in train) > sum(_total(grid[c]["shipped"], metric) for c in train)
        pick = option if on else "shipped"
        picks.append(f"{held}: {'on' if on else 'off'}")
        total += _total(grid[held][pick], metric)
    return total, picks


def _print(grid: dict[str, dict[str, Counter]], k: int, prompt: str) -> None:
    convs = sorted(grid)
    print(f"LoCoMo evidence-all-found@{k}, hybrid (local MiniLM), question expanded by the local LLM ({prompt} prompt)")
    print(f"{'variant':<30} {'range':>6} {'cat 1/2/3/4':>16} {'per conv':>14} {'shown':>6} {'cat 1/2/3/4':>16}")
    for name in VARIANTS:
        tot: Counter = sum((grid[c][name] for c in convs), Counter())
        cats = {m: "/".join(str(tot[(m, cat)]) for cat in sorted(CATEGORIES)) for m in ("found", "shown")}
        per = "/".join(str(_total(grid[c][name], "found")) for c in convs)
        print(f"{name:<30} {_total(tot, 'found'):>6} {cats['found']:>16} {per:>14} {_total(tot, 'shown'):>6} {cats['shown']:>16}")
    for name in VARIANTS[1:]:
        for metric in ("found", "shown"):
            held, picks = leave_one_out(grid, name, metric)
            print(f"  leave-one-out {name} ({metric}): held out {held} [{'; '.join(picks)}]")


def main(argv: list[str] | None = None) -> int:
    args = embedding_bench_args(
        "python -m bench.locomo_expansion", __doc__.split("\n")[0], argv, state=True,
        extra=lambda ap: ap.add_argument("--prompt", choices=sorted(PROMPTS), default="keywords"))
    convs, rc = embedding_conversations(args.data, "bench.locomo_expansion")
    if rc is not None:
        return rc
    tmp = args.state or Path(tempfile.mkdtemp(prefix="locomo-expansion-"))
    tmp.mkdir(parents=True, exist_ok=True)
    questions = [" ".join(q["question"].split()) for c in convs for q in load_questions(c, CATEGORIES)]
    expansions = generate(questions, tmp / f"expansions-{args.prompt}.json", args.prompt)
    grid = {c.name: run_conv(c, args.k, tmp, expansions) for c in convs}
    if args.json:
        print(json.dumps({c: {v: {f"{m}:{cat}": n for (m, cat), n in cnt.items()} for v, cnt in g.items()}
                          for c, g in grid.items()}, indent=1))
    else:
        _print(grid, args.k, args.prompt)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
