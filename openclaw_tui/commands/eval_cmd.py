"""``openclaw-tui eval survival [--languages L] [--conversations N] [--seed S] [--kinds K] [--json]``:
what memory keeps of conversations in six languages, scored per language: stored, answered,
junk, refusals honoured, secrets on disk, private notes a group sees, wrong dates
(docs/session.md#fact-survival-openclaw-tui-eval-survival); ``eval questions``: general questions.
The global ``--model`` picks the model (``offline``, ``local/…``, any litellm string)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable

from openclaw_tui.commands.common import print_json
from openclaw_tui.evals.material import KINDS, LANGUAGES

#: the per-language table: (report key, column header); a percentage column ends in %
COLUMNS = (
    ("conversations", "conv"), ("facts", "facts"), ("storedPct", "stored %"), ("answeredSamePct", "same %"),
    ("answeredNewPct", "new %"), ("junkPct", "junk %"), ("refusals", "refusals"), ("refusalsHonoured", "honoured"),
    ("secrets", "secrets"), ("secretsOnDisk", "on disk"), ("privateFacts", "private"),
    ("privateVisibleToGroup", "to group"), ("datedFacts", "dated"), ("wrongDates", "wrong dates"),
    ("staleAnswers", "stale"),
)
#: the rest, for the whole run
ROWS = (
    ("statements", "statements"), ("echoes", "replies echoing the prompt"), ("unanswerableStatements", "statements 'could not answer'"),
    ("compactions", "compactions"), ("summariesInvented", "summaries with invented lines"), ("flushes", "flushes"),
    ("secondsPerFlush", "s per flush"), ("secondsPerTurn", "s per turn"), ("sourceLinesUnfound", "Source: lines naming nothing"),
    ("saveClaimsUnflagged", "save claims without a write"), ("appendsOutsideToday", "appends outside today's log"),
)


def _csv(allowed: tuple[str, ...], what: str) -> Callable[[str], tuple[str, ...]]:
    def parse(raw: str) -> tuple[str, ...]:
        items = tuple(dict.fromkeys(x.strip().lower() for x in raw.split(",") if x.strip()))
        bad = [x for x in items if x not in allowed]
        if bad or not items:
            raise argparse.ArgumentTypeError(f"unknown {what} {', '.join(bad) or '(none)'}: use {','.join(allowed)}")
        return items
    return parse


def add_parser(sub: Any) -> None:
    ev = sub.add_parser("eval", help="evaluations run through the real engine")
    esub = ev.add_subparsers(dest="eval_command", metavar="ACTION", required=True)
    sv = esub.add_parser("survival", help="what memory keeps of conversations in six languages, scored per language")
    sv.add_argument("--languages", type=_csv(LANGUAGES, "language"), default=LANGUAGES, metavar="LIST",
                    help=f"comma-separated languages to run (default: {','.join(LANGUAGES)})")
    sv.add_argument("--conversations", type=int, default=20, metavar="N", help="conversations per language (default: 20)")
    sv.add_argument("--seed", type=int, default=1, help="picks the sentences, values, order and day of every conversation (default: 1)")
    sv.add_argument("--kinds", type=_csv(KINDS, "kind"), default=KINDS, metavar="LIST",
                    help=f"comma-separated kinds each conversation holds (default: all: {','.join(KINDS)})")
    sv.add_argument("--facts", type=int, default=4, help="plain facts per conversation (default: 4)")
    sv.add_argument("--no-flush", action="store_true", help="memory flush off (the comparison row)")
    sv.add_argument("--new-session-only", action="store_true",
                    help="ask each fact only in a new session, not also in the one that stated it (fewer turns)")
    sv.add_argument("--flush-mode", choices=("auto", "model", "engine", "hybrid"), default="auto",
                    help="who writes the flush's notes: the engine, the model, both (hybrid) or auto (default: auto)")
    sv.add_argument("--context-tokens", type=int, default=3200, help="the session's window (default: 3200, small enough to compact)")
    sv.add_argument("--json", action="store_true", help="the whole report as JSON on stdout")
    sv.add_argument("--quiet", action="store_true", help="no progress on stderr")
    sv.add_argument("--partial", type=Path, metavar="FILE",
                    help="after each conversation, write the totals so far (per language) to FILE as JSON, so a long run cut off early still reports")
    sv.add_argument("--resume", type=Path, metavar="FILE",
                    help="continue the run whose --partial FILE this is (same options; --conversations may grow): "
                         "its conversations are not run again, and FILE keeps the totals unless --partial names another")
    qs = esub.add_parser("questions", help="30 general questions: citations found, no unflagged save claims, no stray writes")
    qs.add_argument("--limit", type=int, default=30, help="ask only the first N questions")
    qs.add_argument("--json", action="store_true", help="the whole report as JSON on stdout")
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


def _cell(value: Any) -> str:
    return "—" if value is None else str(value)  # None: not asked (--new-session-only)


def survival_table(report: dict[str, Any]) -> list[str]:
    """The per-language table (one row per language and one for all), then the run's other counts."""
    head = f"{'':<6}" + "".join(f"{h:>{max(len(h), 6) + 2}}" for _, h in COLUMNS)
    lines = [head]
    rows = [*report["languages"].items(), ("all", report)]
    for lang, summary in rows:
        lines.append(f"{lang:<6}" + "".join(f"{_cell(summary.get(k, '')):>{max(len(h), 6) + 2}}" for k, h in COLUMNS))
    lines.append("")
    lines += [f"  {label:<34} {report[key]}" for key, label in ROWS]
    return lines


def _partial_writer(path: Path) -> Callable[[dict[str, Any]], None]:
    """Replace ``path`` with the running totals after each conversation (written whole, then renamed)."""

    def write(totals: dict[str, Any]) -> None:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(totals, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, path)

    return write


def _resume_from(path: Path) -> dict[str, Any] | None:
    """The partial file to continue from, or None after saying on stderr why it cannot be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"openclaw-tui: cannot resume from {path}: {exc}", file=sys.stderr)
        return None
    if not isinstance(data, dict):
        print(f"openclaw-tui: cannot resume from {path}: not a partial file", file=sys.stderr)
        return None
    return data


def _run_survival(args: argparse.Namespace) -> int:
    from openclaw_tui.evals.resume import ResumeError
    from openclaw_tui.evals.survival import SurvivalOptions
    from openclaw_tui.evals.survival_run import run_survival

    opts = SurvivalOptions(
        model=args.model, conversations=args.conversations, seed=args.seed, facts=args.facts, languages=args.languages,
        kinds=args.kinds, flush=not args.no_flush, flush_mode=args.flush_mode, context_tokens=args.context_tokens,
        same_session=not args.new_session_only, api_base=args.api_base, api_key=args.api_key,
    )
    resume = _resume_from(args.resume) if args.resume is not None else None
    if resume is None and args.resume is not None:
        return 2
    target = args.partial if args.partial is not None else args.resume
    partial = _partial_writer(target) if target is not None else None
    try:
        report = asyncio.run(run_survival(opts, progress=None if args.quiet else _bar, partial=partial, resume=resume))
    except ResumeError as exc:
        print(f"openclaw-tui: cannot resume from {args.resume}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print_json(report)
        return 0
    print(f"fact survival · model {report['model']} · seed {report['seed']} · {report['conversationsPerLanguage']} "
          f"conversations per language · flush {'on (' + report['flushMode'] + ')' if report['flush'] else 'off'} · "
          f"window {report['contextTokens']} · kinds {','.join(report['kinds'])}")
    for line in survival_table(report):
        print(line)
    return 0
