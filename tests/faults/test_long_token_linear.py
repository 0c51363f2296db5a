"""A 400 KB dotted token in a conversation made compaction's extractive summary run for more
than 90 s (issue 36): the identifier pattern, the language detector's "not a word" pattern
and the summary check each backtracked from every character of the token to its end. Each is
linear now: 16 times the text takes about 16 times as long (a quadratic pass takes 256
times, and at 100 KB runs for minutes). Measured in a child process, so the code
before the fix fails by the child's time limit instead of hanging the suite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SMALL, BIG = 6_250, 100_000  # characters: 16 times apart

CHILD = r"""
import json, sys, time
from openclaw_tui.session.compaction import extractive_summary
from openclaw_tui.session.summary_check import check_summary
from openclaw_tui.language.detect import detect

small, big, units = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]

def text(unit, n):
    return "User: keep the build id " + unit * (n // len(unit)) + " for later.\nAssistant: Noted the id."

def run(unit, n):
    t = text(unit, n)
    start = time.perf_counter()
    summary = extractive_summary(t)
    check_summary(summary, t)
    detect(t)
    return time.perf_counter() - start

run("a.", 200)  # the language tables load once
for unit in units:
    print(json.dumps({"unit": unit, "small": min(run(unit, small) for _ in range(3)), "big": min(run(unit, big) for _ in range(2))}), flush=True)
"""


UNITS = ["a.", "ab.c-d:e/f,"]


def test_a_long_dotted_token_costs_time_in_proportion_to_its_length() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, str(SMALL), str(BIG), *UNITS], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{BIG:,}-character tokens kept the summary busy for more than 120 s: {exc.stdout!r}")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["unit"] for r in rows] == UNITS
    for r in rows:
        ratio = r["big"] / max(r["small"], 1e-3)
        # linear: about 16; quadratic: about 256. 64 leaves room for a busy machine; each side is its
        # fastest of several runs, so one descheduled run does not decide it
        assert ratio < 64, f"{BIG:,} characters of {r['unit']!r} took {r['big']:.2f} s, {ratio:.0f} times {SMALL:,} ({r['small']:.3f} s)"
