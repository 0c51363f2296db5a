"""End-to-end LoCoMo QA with the real local model: does memory help it answer?

A fixed, seeded sample of category 1–4 questions from the LoCoMo dev conversations (see
``../shared/data/locomo/README.md``) is asked through the real session engine, one new
session per question, in a copy of the conversation's workspace:

* ``memory``    the local model with the memory tools (the product as shipped, profile
                and all);
* ``no-memory`` the same model with the memory plugin off (``plugins.slots.memory: none``):
                what it knows without the notes;
* ``offline``   the rule-based offline agent with the memory tools (the no-LLM baseline);
* ``memory:N``  as ``memory`` with N automatic-lookup results (``autoRecallResults``), to
                compare result counts question by question in one run;
* ``memory:first`` / ``memory:last`` (also ``memory:N:last``) the results handed to the
                model as text with the best hit first or last (the profile's
                ``best_result_last``, patched in this process for that row's questions);
* ``memory:embed=NAME`` as ``memory`` with ``memorySearch.local.modelPath`` NAME (its own
  index file), e.g. ``memory:embed=nomic-embed-text-v1.5`` against the default MiniLM;
* ``memory:margin=X`` as ``memory`` with ``ranking.VECTOR_NOMINEE_MARGIN`` X for that row
                (the vector nominee of ``keep_each_best`` only when its cosine beats the
                results' best by X; ``margin=0`` always nominates it);
* ``memory:snippets=before`` as ``memory`` with each result's snippet built the way it was
                before issue 29's windows (``bench.locomo_snippets.one_window``: the one best
                run of lines, cited with the chunk's range), patched in this process for that
                row's questions, so ``memory,memory:snippets=before`` is a paired before/after.

Scores per row (on the answer without its ``Source:`` lines, see ``answer_part``): token-F1 against the gold answer (LoCoMo's metric: lower-cased, punctuation
and articles dropped, token overlap; without LoCoMo's Porter stemming), the share of answers
that contain the normalised gold answer, the share of turns that searched memory, the
tool-call validity rate (calls that ran without an argument or unknown-tool error), median
seconds per answer and the median generation speed measured from the stream.

    python -m bench.locomo_qa [--limit 30] [--models 1.5b,0.5b] [--variants memory,no-memory,offline]
                              [--budget-min M] [--json-out FILE]

Each model's variants take turns question by question on one server. With ``--budget-min``
each model stops asking new questions after M minutes; every row is then scored on the
questions all rows answered.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import shutil
import statistics
import string
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bench.locomo_eval import load_questions

REPO = Path(__file__).resolve().parents[1]
CATEGORIES = {1, 2, 3, 4}
SUFFIX = " Answer in a few words."
ANSWER_TIMEOUT_S = 300.0


def default_data() -> Path:
    for base in (REPO.parent, REPO.parent.parent):
        cand = base / "shared" / "data" / "locomo"
        if cand.is_dir():
            return cand
    return REPO.parent / "shared" / "data" / "locomo"


# ---------------------------------------------------------------------- scoring


def normalize(text: str) -> list[str]:
    text = str(text).lower().replace(",", " ")
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the|and)\b", " ", text)
    return text.split()


def token_f1(prediction: str, gold: str) -> float:
    pred, ref = normalize(prediction), normalize(gold)
    common = Counter(pred) & Counter(ref)
    same = sum(common.values())
    if not pred or not ref or same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(ref)
    return 2 * precision * recall / (precision + recall)


def answer_part(text: str) -> str:
    """What is scored: the answer without its citation lines (``Source: …``) and without the
    engine's fixed lead before a quoted note (``tool_loop.QUOTE_LEAD``) — a citation is not an
    answer, and its path would count as wrong words."""
    from openclaw_tui.session.tool_loop import QUOTE_LEAD

    return re.sub(r"\(?\bSource:\s*\S+\)?", " ", str(text).replace(QUOTE_LEAD, "")).strip()


def contains_gold(prediction: str, gold: str) -> bool:
    ref = " ".join(normalize(gold))
    return bool(ref) and f" {ref} " in f" {' '.join(normalize(prediction))} "


# ---------------------------------------------------------------------- sample


def sample(data: Path, limit: int, seed: int) -> list[tuple[Path, dict[str, Any]]]:
    pool = [(conv, q) for conv in sorted(data.glob("conv-*")) for q in load_questions(conv, CATEGORIES)]
    picked = random.Random(seed).sample(pool, min(limit, len(pool)))
    return sorted(picked, key=lambda cq: (cq[0].name, cq[1]["qid"]))


def copy_workspace(conv: Path, into: Path) -> Path:
    ws = into / conv.name
    if not ws.exists():
        ws.mkdir(parents=True)
        shutil.copy2(conv / "MEMORY.md", ws / "MEMORY.md")
        shutil.copytree(conv / "memory", ws / "memory")
    return ws


# ---------------------------------------------------------------------- running


@dataclass
class Row:
    variant: str
    model: str
    answers: list[dict[str, Any]] = field(default_factory=list)
    tok_s: list[float] = field(default_factory=list)
    load_s: float | None = None


def embed_model(variant: str) -> str | None:
    """``memory:embed=NAME``: the row's ``memorySearch.local.modelPath`` (its own index file)."""
    given = [p.split("=", 1)[1] for p in variant.split(":")[1:] if p.startswith("embed=")]
    return given[0] if given else None


def recall_results(variant: str) -> int | None:
    """``memory:5`` → 5 (``agents.defaults.autoRecallResults``); plain ``memory`` → None."""
    counts = [int(p) for p in variant.split(":")[1:] if p.strip().isdigit()]
    return counts[0] if counts else None


@contextlib.contextmanager
def result_order(variant: str) -> Iterator[None]:
    """``…:first`` / ``…:last``: the local profile's ``best_result_last`` for this row only."""
    from openclaw_tui.llm import profiles

    parts = variant.split(":")[1:]
    if "first" not in parts and "last" not in parts:
        yield
        return
    saved = profiles.LOCAL
    profiles.LOCAL = replace(saved, best_result_last="last" in parts)
    profiles.PROFILES["local"] = profiles.LOCAL
    try:
        yield
    finally:
        profiles.LOCAL = profiles.PROFILES["local"] = saved


@contextlib.contextmanager
def nominee_margin(variant: str) -> Iterator[None]:
    """``…:margin=X``: ``ranking.VECTOR_NOMINEE_MARGIN`` X for this row only."""
    from openclaw_tui.memory.builtin import ranking

    given = [p.split("=", 1)[1] for p in variant.split(":")[1:] if p.startswith("margin=")]
    saved = ranking.VECTOR_NOMINEE_MARGIN
    if given:
        ranking.VECTOR_NOMINEE_MARGIN = float(given[0])
    try:
        yield
    finally:
        ranking.VECTOR_NOMINEE_MARGIN = saved


SNIPPET_BUILDERS = ("windows", "before")


def snippet_choice(variant: str) -> str:
    """``…:snippets=before`` → ``before``; without it the shipped ``windows``."""
    given = [p.split("=", 1)[1] for p in variant.split(":")[1:] if p.startswith("snippets=")]
    choice = given[0] if given else "windows"
    if choice not in SNIPPET_BUILDERS:
        raise SystemExit(f"{variant}: snippets= takes {' or '.join(SNIPPET_BUILDERS)}, not {choice!r}")
    return choice


@contextlib.contextmanager
def snippet_builder(variant: str) -> Iterator[None]:
    """``…:snippets=before``: ``snippet_windows.windowed`` is the one-run builder of before
    (``bench.locomo_snippets.one_window``) for this row only."""
    from bench.locomo_snippets import one_window
    from openclaw_tui.memory.builtin import snippet_windows

    if snippet_choice(variant) == "windows":
        yield
        return
    saved = snippet_windows.windowed
    snippet_windows.windowed = one_window  # type: ignore[assignment]
    try:
        yield
    finally:
        snippet_windows.windowed = saved


def _settings(ws: Path, model: str, variant: str) -> Any:
    from openclaw_tui.config import load_config, resolve_agent

    overrides: dict[str, Any] = {} if variant != "no-memory" else {"plugins": {"slots": {"memory": "none"}}}
    defaults: dict[str, Any] = {}
    if recall_results(variant) is not None:
        defaults["autoRecallResults"] = recall_results(variant)
    if embed_model(variant):
        name = embed_model(variant)
        defaults["memorySearch"] = {"local": {"modelPath": name}, "store": {"path": f"{{stateDir}}/memory/{{agentId}}-{name}.sqlite"}}
    if defaults:
        overrides["agents"] = {"defaults": defaults}
    return resolve_agent(load_config(None, overrides=overrides), workspace=str(ws), model=model)


async def _ask(settings: Any, model: Any, memory: Any, question: str) -> dict[str, Any]:
    from openclaw_tui import events
    from openclaw_tui.session.engine import SessionEngine

    seen: list[Any] = []
    engine = SessionEngine(settings, sink=seen.append, memory=memory, model=model, probe_ollama=False)
    t0 = time.perf_counter()
    try:
        result = await asyncio.wait_for(engine.send(question + SUFFIX), ANSWER_TIMEOUT_S)
        text, error = result.text, result.error
    except asyncio.TimeoutError:
        text, error = "", f"no answer in {ANSWER_TIMEOUT_S:.0f} s"
    finally:
        engine.close()
    calls = [e for e in seen if isinstance(e, events.ToolResult)]
    return {
        "text": text, "error": error, "seconds": time.perf_counter() - t0,
        "searched": any(c.name == "memory_search" for c in calls),
        "calls": len(calls), "bad_calls": sum(1 for c in calls if c.error),
    }  # fmt: skip


async def _start_model(model_str: str, settings: Any) -> tuple[Any, float | None]:
    from openclaw_tui.llm.resolve import choice_for_model
    from openclaw_tui.session.engine import make_model

    model = make_model(choice_for_model(model_str, settings, "bench"), settings)
    if hasattr(model, "ensure_started"):
        problem = await model.ensure_started()
        if problem:
            raise SystemExit(problem)
    return model, getattr(model, "load_s", None)


async def run_model(
    model_name: str, variants: list[str], questions: list[tuple[Path, dict[str, Any]]], work: Path, deadline: float | None = None
) -> list[Row]:
    """Every variant of one model (``memory``, ``no-memory``; or ``offline``), question by
    question on one server, so that a time budget leaves the rows paired."""
    from openclaw_tui.llm.local.catalog import spec_named
    from openclaw_tui.memory.open import open_memory

    model_str = "offline" if model_name == "offline" else f"local/{model_name}"
    spec = spec_named(model_name)
    label = "offline agent" if model_name == "offline" else (spec.label if spec is not None else model_name)
    rows = [Row(v, label) for v in variants]
    model, load_s = await _start_model(model_str, _settings(copy_workspace(questions[0][0], work), model_str, "memory"))
    stores: dict[tuple[Path, str | None], Any] = {}
    try:
        for conv, item in questions:
            if deadline is not None and time.monotonic() > deadline:
                print(f"  {label}: time budget spent after {len(rows[0].answers)} questions", flush=True)
                break
            for row in rows:
                memory_on = row.variant != "no-memory"
                settings = _settings(copy_workspace(conv, work), model_str, row.variant)
                key = (conv, embed_model(row.variant))
                if memory_on and key not in stores:
                    stores[key] = await asyncio.to_thread(open_memory, settings)
                    await asyncio.to_thread(stores[key].sync, force=False, reason="bench")
                with result_order(row.variant), nominee_margin(row.variant), snippet_builder(row.variant):
                    got = await _ask(settings, model, stores.get(key) if memory_on else None, item["question"])
                gold = str(item["answer"])
                scored = answer_part(got["text"])
                got.update(qid=item["qid"], gold=gold, f1=token_f1(scored, gold), contains=contains_gold(scored, gold))
                row.answers.append(got)
                row.load_s = load_s
                if getattr(model, "tokens_per_s", None):
                    row.tok_s.append(model.tokens_per_s)
                print(f"  {row.variant:9} {label[:28]:28} {item['qid']:12} f1={got['f1']:.2f} {got['seconds']:5.1f}s  {got['text'][:70]!r}", flush=True)
    finally:
        for store in stores.values():
            store.close()
        close = getattr(model, "close", None)
        if close:
            close()
    return rows


def summarize(row: Row, qids: set[str] | None = None) -> dict[str, Any]:
    a = [x for x in row.answers if qids is None or x["qid"] in qids]
    calls = sum(x["calls"] for x in a)
    bad = sum(x["bad_calls"] for x in a)
    return {
        "variant": row.variant, "model": row.model, "n": len(a),
        "f1": statistics.mean(x["f1"] for x in a) if a else 0.0,
        "contains": sum(x["contains"] for x in a) / len(a) if a else 0.0,
        "searched": sum(x["searched"] for x in a) / len(a) if a else 0.0,
        "tool_calls": calls, "tool_valid": (calls - bad) / calls if calls else None,
        "errors": sum(1 for x in a if x["error"]),
        "median_s": statistics.median(x["seconds"] for x in a) if a else 0.0,
        "tok_s": statistics.median(row.tok_s) if row.tok_s else None, "load_s": row.load_s,
    }  # fmt: skip


def table(summaries: list[dict[str, Any]]) -> str:
    lines = [
        "| variant | model | n | token-F1 | contains gold | searched | tool calls valid | errors | median s/answer | tok/s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in summaries:
        valid = f"{s['tool_valid']:.0%} of {s['tool_calls']}" if s["tool_valid"] is not None else "—"
        tps = f"{s['tok_s']:.1f}" if s["tok_s"] else "—"
        lines.append(
            f"| {s['variant']} | {s['model']} | {s['n']} | {s['f1']:.3f} | {s['contains']:.0%} | {s['searched']:.0%} | "
            f"{valid} | {s['errors']} | {s['median_s']:.1f} | {tps} |"
        )
    return "\n".join(lines)


def paired(first: Row, other: Row, qids: set[str]) -> dict[str, Any]:
    """``other`` against ``first`` on the questions both answered: answers that differ,
    token-F1 higher / lower, contains-gold gained / lost (per question, same model)."""
    mine = {x["qid"]: x for x in first.answers if x["qid"] in qids}
    theirs = {x["qid"]: x for x in other.answers if x["qid"] in mine}
    pairs = [(mine[q], theirs[q]) for q in sorted(theirs)]
    return {
        "rows": f"{other.variant} vs {first.variant}", "n": len(pairs),
        "answersDiffer": sum(a["text"].strip() != b["text"].strip() for a, b in pairs),
        "f1Higher": sum(b["f1"] > a["f1"] + 1e-9 for a, b in pairs),
        "f1Lower": sum(b["f1"] < a["f1"] - 1e-9 for a, b in pairs),
        "containsGained": sum(b["contains"] and not a["contains"] for a, b in pairs),
        "containsLost": sum(a["contains"] and not b["contains"] for a, b in pairs),
    }  # fmt: skip


async def _main(args: argparse.Namespace) -> int:
    from openclaw_tui.llm.local.catalog import spec_named

    questions = sample(args.data, args.limit, args.seed)
    if not questions:
        raise SystemExit(f"no LoCoMo questions under {args.data}")
    print(f"{len(questions)} questions (seed {args.seed}) from {', '.join(sorted({c.name for c, _ in questions}))}", flush=True)
    work = Path(tempfile.mkdtemp(prefix="bench-locomo-qa-"))
    # no-memory first (cheap), then memory until the budget is spent; every row is scored on
    # the questions all of them answered, so the comparison stays paired
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    for v in variants:
        snippet_choice(v)  # an unknown snippets= stops here, before the model loads
    rows: list[Row] = []
    for name in [m.strip() for m in args.models.split(",") if m.strip()]:
        spec = spec_named(name)
        if spec is None:
            raise SystemExit(f"unknown model {name!r}: 1.5b or 0.5b")
        deadline = time.monotonic() + args.budget_min * 60 if args.budget_min else None
        chosen = [v for v in variants if v == "no-memory" or v.split(":")[0] == "memory"]
        if chosen:
            rows += await run_model(spec.name, chosen, questions, work, deadline)
    if "offline" in variants:
        rows += await run_model("offline", ["offline"], questions, work)
    common = set.intersection(*({x["qid"] for x in r.answers} for r in rows)) if rows else set()
    summaries = [summarize(r, common) for r in rows]
    print(f"\n{len(common)} questions answered by every row (sample {len(questions)}, seed {args.seed})")
    print(table(summaries))
    pairs = [paired(rows[0], r, common) for r in rows[1:] if r.model == rows[0].model]
    for pair in pairs:
        print(f"paired, {pair['rows']} on {pair['n']} questions: {pair['answersDiffer']} answers differ; token-F1 "
              f"higher {pair['f1Higher']}, lower {pair['f1Lower']}; contains gold gained {pair['containsGained']}, "
              f"lost {pair['containsLost']}")
    if args.json_out:
        detail = [{"variant": r.variant, "model": r.model, "answers": r.answers} for r in rows]
        args.json_out.write_text(json.dumps({"summaries": summaries, "paired": pairs, "rows": detail},
                                            indent=2, default=str) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    import os

    ap = argparse.ArgumentParser(prog="python -m bench.locomo_qa")
    ap.add_argument("--data", type=Path, default=default_data())
    ap.add_argument("--limit", type=int, default=30, help="questions in the sample (default 30)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--models", default="1.5b,0.5b")
    ap.add_argument("--variants", default="memory,no-memory,offline",
                    help="memory, no-memory, offline; memory:N hands the model N automatic-lookup results; "
                         "memory:first / memory:last orders them best first / best last; "
                         "memory:margin=X sets the vector nominee margin (ranking.VECTOR_NOMINEE_MARGIN); "
                         "memory:snippets=before builds the snippets as before the windows (issue 29)")
    ap.add_argument("--json-out", type=Path)
    ap.add_argument("--budget-min", type=float, default=0, help="per model: stop asking after this many minutes (0: no limit)")
    args = ap.parse_args(argv)
    from openclaw_tui.llm.local.files import models_dir

    os.environ.setdefault("OPENCLAW_MODELS_DIR", str(models_dir()))  # the installed models, not the temp state's
    os.environ.setdefault("OPENCLAW_STATE_DIR", tempfile.mkdtemp(prefix="bench-state-"))
    return asyncio.run(_main(args))


if __name__ == "__main__":
    sys.exit(main())
