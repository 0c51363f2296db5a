"""A long paste is read in time proportional to its length (the ninth and tenth rounds' asking-
clause rules folded the whole text before each word: a 3,500-word paste took minutes and a
session test timed out). Four times the text must cost about four times, not sixteen; each
side is its fastest of four runs, on texts long enough that a scheduler's pause on a busy
machine is small beside them."""

from __future__ import annotations

import time

from openclaw_tui.language import read_message


def _cost(n: int) -> float:
    text = "Here is a long paste: " + "lorem ipsum dolor sit amet, was kann ich tun " * n
    best = float("inf")
    for _ in range(4):
        start = time.perf_counter()
        read_message(text)
        best = min(best, time.perf_counter() - start)
    return best


def test_reading_a_long_paste_is_linear() -> None:
    read_message("warm up.")
    small, big = _cost(60), _cost(240)
    assert big / max(small, 1e-3) < 9, f"4x the text took {big / small:.1f}x as long ({small:.3f} s → {big:.3f} s)"
