"""``openclaw-tui eval survival [--conversations N] [--seed S] [--no-flush] [--flush-mode M] [--json]``:
how many facts stated in conversation survive flushes and compactions (docs/session.md#fact-survival).
The global ``--model`` picks the model (``offline``, ``local/…``, any litellm string)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from openclaw_tui.commands.common import print_json

ROWS = (
    ("facts", "facts stated"), ("storedPct", "stored on disk %"), ("answeredSamePct", "answered, same session %"),
    ("answeredNewPct", "answered, new session %"), ("linesWritten", "lines written"), ("junkPct", "junk lines %"),
    ("statements", "statements"), ("echoes", "replies echoing the prompt"), ("unanswerableStatements", "statements 'could not answer'"),
    ("compactions", "compactions"), ("summariesInvented", "summaries with invented lines"), ("flushes", "flushes"),
    ("secondsPerFlush", "s per flush"), ("secondsPerTurn", "s per turn"), ("sourceLinesUnfound", "Source: lines naming nothing"),
    ("saveClaimsUnflagged", "save claims without a write"), ("appendsOutsideToday", "appends outside today's log"),
)


def add_parser(sub: Any) -> None:
    ev = sub.add_parser("eval", help="evaluations run through the real engine")
    esub = ev.add_subparsers(dest="eval_command", metavar="ACTION", required=True)
    sv = esub.add_parser("survival", help="facts stated in conversation: stored, and answered after compactions")
    sv.add_argument("--conversations", type=int, default=20)
    sv.add_argument("--seed", type=int, default=1)
    sv.add_argument("--facts", type=int, default=6, help="facts per conversation")
    sv.add_argument("--no-flush", action="store_true", help="memory flush off (the comparison row)")
    sv.add_argument("--flush-mode", choices=("auto", "model", "engine", "hybrid"), default="auto")
    sv.add_argument("--context-tokens", type=int, default=3200)
    sv.add_argument("--json", action="store_true")
    sv.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    qs = esub.add_parser("questions", help="30 general questions: citations found, no unflagged save claims, no stray writes")
    qs.add_argument("--limit", type=int, default=30, help="ask only the first N questions")
    qs.add_argument("--json", action="store_true")
    qs.add_argument("--quiet", action="store_true", help="no progress bar on stderr")


def _bar(done: int, total: int, label: str) -> None:
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label[:40]:<40}")
    sys.stderr.flush()
    if done >= total:
        sys.stderr.write("\n")


QUESTION_ROWS = (
    ("questions", "questions asked"), ("sources", "Source: lines"), ("sources_unfound", "Source: lines naming nothing"), ("sources_not_from_turn", "Source: files not found this turn"),
    ("save_claims_unflagged", "save claims without a write"), ("appends_elsewhere", "appends outside today's log"),
    ("writes_on_questions", "questions that wrote memory"), ("empty_replies", "empty replies"),
    ("secondsPerQuestion", "s per question"),
)


def run(args: argparse.Namespace) -> int:
    if args.eval_command == "questions":
        return _run_questions(args)
    return _run_survival(args)


def _run_questions(args: argparse.Namespace) -> int:
    from openclaw_tui.evals.questions import QuestionOptions, run_questions

    opts = QuestionOptions(model=args.model, api_base=args.api_base, api_key=args.api_key, limit=args.limit)
    report = asyncio.run(run_questions(opts, progress=None if args.quiet else _bar))
    if args.json:
        print_json(report)
        return 0
    print(f"general questions · model {report['model']}")
    for key, label in QUESTION_ROWS:
        print(f"  {label:<34} {report[key]}")
    return 0


def _run_survival(args: argparse.Namespace) -> int:
    from openclaw_tui.evals.survival import SurvivalOptions
    from openclaw_tui.evals.survival_run import run_survival

    opts = SurvivalOptions(
        model=args.model, conversations=args.conversations, seed=args.seed, facts=args.facts, flush=not args.no_flush,
        flush_mode=args.flush_mode, context_tokens=args.context_tokens, api_base=args.api_base, api_key=args.api_key,
    )
    def partial(totals: dict[str, Any]) -> None:
        if not args.quiet:
            sys.stderr.write("\npartial " + json.dumps(totals) + "\n")

    report = asyncio.run(run_survival(opts, progress=None if args.quiet else _bar, partial=partial))
    if args.json:
        print_json(report)
        return 0
    print(f"fact survival · model {report['model']} · seed {report['seed']} · {report['conversations']} conversations · "
          f"flush {'on (' + report['flushMode'] + ')' if report['flush'] else 'off'} · window {report['contextTokens']}")
    for key, label in ROWS:
        print(f"  {label:<34} {report[key]}")
    return 0
