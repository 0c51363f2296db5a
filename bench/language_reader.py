"""The shipped message reader on the labelled messages and replies (issue 35, item 1).

Reads ``bench/data/language_messages.<split>.jsonl`` (rows ``{id, lang, text, intent, facts,
must_not_keep, asks, private}``; ``facts`` are substrings the reading's facts must hold,
``must_not_keep`` substrings they must not) and ``bench/data/language_replies.jsonl`` (rows
``{id, lang, text, claims_save, promises_not_to_store, cannot_answer}``) and reports per
language: intent accuracy, fact recall (expected substrings found, case- and
space-insensitive), leaks (must-not-keep substrings found), asks and private accuracy,
reply-reading accuracy (all three flags right) and milliseconds per message. A language
without a table (nl, sv, pl, tr, ja …) is scored on the neutral reading: intent ``unknown``
and nothing kept.

    .venv/bin/python -m bench.language_reader [--split dev|test|holdout|both|all] [--json] [--misses N] [--tables-only]
                                              [--messages PATH] [--replies PATH]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openclaw_tui.language import MessageReading, ReaderSettings, read_message, read_reply
from openclaw_tui.language.examples import shipped

DATA = Path(__file__).resolve().parent / "data"
TABLED = ("en", "es", "de", "fr", "pt", "it")


def _flat(s: str) -> str:
    return " ".join(s.lower().split())


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@dataclass
class Tally:
    n: int = 0
    intent: int = 0
    facts_found: int = 0
    facts_expected: int = 0
    leaks: int = 0
    asks: int = 0
    private: int = 0
    ms: list[float] = field(default_factory=list)
    replies: int = 0
    replies_right: int = 0

    def row(self) -> dict[str, Any]:
        ms = sorted(self.ms)
        return {
            "messages": self.n,
            "intent_accuracy": round(self.intent / self.n, 3) if self.n else None,
            "fact_recall": round(self.facts_found / self.facts_expected, 3) if self.facts_expected else None,
            "facts_expected": self.facts_expected,
            "leaks": self.leaks,
            "asks_accuracy": round(self.asks / self.n, 3) if self.n else None,
            "private_accuracy": round(self.private / self.n, 3) if self.n else None,
            "reply_accuracy": round(self.replies_right / self.replies, 3) if self.replies else None,
            "replies": self.replies,
            "ms_per_message": round(sum(ms) / len(ms), 3) if ms else None,
            "ms_p95": round(ms[int(len(ms) * 0.95)], 3) if ms else None,
        }


def score_message(row: dict[str, Any], reading: MessageReading) -> tuple[bool, int, int, int, list[str]]:
    """(intent right, expected facts found, expected, leaks, what went wrong)."""
    kept = _flat(" | ".join(reading.facts))
    wrong: list[str] = []
    expected_intent = row["intent"]
    ok = reading.intent.value == expected_intent
    if not ok:
        wrong.append(f"intent {reading.intent.value} != {expected_intent}")
    found = 0
    for f in row.get("facts") or []:
        if _flat(f) in kept:
            found += 1
        else:
            wrong.append(f"fact missing {f!r}")
    leaks = [m for m in row.get("must_not_keep") or [] if m.strip() and _flat(m) in kept]
    wrong += [f"leak {m!r}" for m in leaks]
    return ok, found, len(row.get("facts") or []), len(leaks), wrong


SETTINGS: ReaderSettings | None = None  # --tables-only: ReaderSettings(examples=False)


def run_messages(rows: list[dict[str, Any]], tallies: dict[str, Tally], misses: list[str]) -> None:
    for row in rows:
        lang = row["lang"] if row["lang"] in TABLED else "other"
        t = tallies[lang]
        start = time.perf_counter()
        reading = read_message(row["text"], previous=row.get("previous"), settings=SETTINGS)
        t.ms.append((time.perf_counter() - start) * 1000)
        ok, found, expected, leaks, wrong = score_message(row, reading)
        t.n += 1
        t.intent += ok
        t.facts_found += found
        t.facts_expected += expected
        t.leaks += leaks
        t.asks += "asks" not in row or bool(row["asks"]) == reading.asks
        t.private += "private" not in row or bool(row["private"]) == reading.private
        if "asks" in row and bool(row["asks"]) != reading.asks:
            wrong.append(f"asks {reading.asks}")
        if wrong:
            misses.append(f"[{row.get('id')}] {row['lang']} {row['text']!r}: {'; '.join(wrong)} -> facts {list(reading.facts)}")


def run_replies(rows: list[dict[str, Any]], tallies: dict[str, Tally], misses: list[str]) -> None:
    for row in rows:
        lang = row["lang"] if row["lang"] in TABLED else "other"
        t = tallies[lang]
        got = read_reply(row["text"])
        want = (bool(row.get("claims_save")), bool(row.get("promises_not_to_store")), bool(row.get("cannot_answer")))
        have = (got.claims_save, got.promises_not_to_store, got.cannot_answer)
        t.replies += 1
        t.replies_right += want == have
        if want != have:
            misses.append(f"[{row.get('id')}] reply {row['lang']} {row['text']!r}: want {want} got {have}")


def report(split: str, messages: Path, replies: Path | None) -> tuple[dict[str, Any], list[str]]:
    tallies: dict[str, Tally] = defaultdict(Tally)
    misses: list[str] = []
    read_message("warm up the tables")  # the tables load once; not part of a message's time
    if SETTINGS is None or SETTINGS.examples:
        shipped()  # nor does the example classifier's training (once per process, on first need)
    run_messages(load(messages), tallies, misses)
    if replies is not None and replies.exists():
        run_replies(load(replies), tallies, misses)
    total = Tally()
    for t in tallies.values():
        for name in ("n", "intent", "facts_found", "facts_expected", "leaks", "asks", "private", "replies",
                     "replies_right"):
            setattr(total, name, getattr(total, name) + getattr(t, name))
        total.ms += t.ms
    order = [lang for lang in (*TABLED, "other") if lang in tallies]
    out = {"split": split, "languages": {lang: tallies[lang].row() for lang in order}, "all": total.row()}
    return out, misses


def _print(result: dict[str, Any]) -> None:
    print(f"split {result['split']}")
    head = f"{'lang':6} {'n':>4} {'intent':>7} {'recall':>7} {'leaks':>5} {'asks':>6} {'reply':>6} {'ms':>6}"
    print(head)
    rows = dict(result["languages"])
    rows["all"] = result["all"]
    for lang, r in rows.items():
        def pct(v: float | None) -> str:
            return "-" if v is None else f"{100 * v:.1f}"
        print(f"{lang:6} {r['messages']:>4} {pct(r['intent_accuracy']):>7} {pct(r['fact_recall']):>7} {r['leaks']:>5} "
              f"{pct(r['asks_accuracy']):>6} {pct(r['reply_accuracy']):>6} {r['ms_per_message'] or 0:>6.3f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=["dev", "test", "holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6", "holdout7", "holdout8", "holdout9", "holdout10", "holdout11", "holdout12", "holdout13", "holdout14", "holdout15", "holdout16", "holdout17", "holdout18", "holdout19", "holdout20", "holdout21", "holdout22", "wide", "wide2", "both", "all"], default="dev",
                    help="both: dev and test; all: dev, test and the holdout written after the tables were tuned")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--misses", type=int, default=0, help="print up to N misclassified rows")
    ap.add_argument("--messages", type=Path, help="a messages file instead of the split's")
    ap.add_argument("--replies", type=Path, default=DATA / "language_replies.jsonl")
    ap.add_argument("--tables-only", action="store_true",
                    help="the tables alone, without the example classifier on weak decisions")
    args = ap.parse_args(argv)
    global SETTINGS
    SETTINGS = ReaderSettings(examples=False) if args.tables_only else None
    splits = {"both": ["dev", "test"], "all": ["dev", "test", "holdout"]}.get(args.split, [args.split])
    results = []
    for split in splits:
        path = args.messages or DATA / f"language_messages.{split}.jsonl"
        if not path.exists():
            print(f"no labelled messages at {path}", file=sys.stderr)
            return 2
        result, misses = report(split, path, args.replies)
        results.append(result)
        if not args.json:
            _print(result)
            for m in misses[: args.misses]:
                print("  " + m)
    if args.json:
        print(json.dumps(results if len(results) > 1 else results[0], indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
