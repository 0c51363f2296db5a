"""Pure decision functions, as tables of cases."""

from __future__ import annotations

import pytest

from openclaw_tui.config.models import CompactionConfig
from openclaw_tui.records.no_reply import is_no_reply
from openclaw_tui.session.thresholds import (
    compaction_cut,
    compaction_threshold,
    flush_skip_reason,
    flush_threshold,
    flushed_this_cycle,
    should_compact,
    should_flush,
)


@pytest.mark.parametrize(
    ("window", "floor", "soft", "expected"),
    [
        (200_000, 20_000, 4_000, 176_000),
        (128_000, 20_000, 4_000, 104_000),
        (30_000, 20_000, 4_000, 6_000),
        (10_000, 2_000, 1_000, 7_000),
        (20_000, 20_000, 4_000, 0),  # never negative
    ],
)
def test_flush_threshold(window: int, floor: int, soft: int, expected: int) -> None:
    assert flush_threshold(window, floor, soft) == expected


@pytest.mark.parametrize(
    ("window", "reserve", "floor", "expected"),
    [
        (200_000, None, 20_000, 180_000),
        (200_000, 16_384, 20_000, 180_000),  # the floor wins
        (200_000, 50_000, 20_000, 150_000),  # a larger reserve wins
        (10_000, 0, 2_000, 8_000),
        (1_000, 5_000, 2_000, 0),
    ],
)
def test_compaction_threshold(window: int, reserve: int | None, floor: int, expected: int) -> None:
    assert compaction_threshold(window, reserve, floor) == expected
    cfg = CompactionConfig(reserve_tokens=reserve, reserve_tokens_floor=floor)
    assert window - cfg.effective_reserve == expected or expected == 0


@pytest.mark.parametrize(
    ("compactions", "flush_count", "flush_at", "expected"),
    [
        (0, None, None, False),  # new session: never flushed
        (0, 0, None, False),  # counters 0/0 but no flush timestamp: a fresh session must still flush
        (0, 0, 1_700_000_000_000, True),  # flushed in cycle 0
        (1, 0, 1_700_000_000_000, False),  # compacted since: new cycle
        (3, 3, 1_700_000_000_000, True),
        (3, 2, 1_700_000_000_000, False),
    ],
)
def test_flushed_this_cycle(compactions: int, flush_count: int | None, flush_at: float | None, expected: bool) -> None:
    assert flushed_this_cycle(compactions, flush_count, flush_at) is expected


@pytest.mark.parametrize(
    ("projected", "threshold", "kw", "expected"),
    [
        (6_999, 7_000, {}, False),
        (7_000, 7_000, {}, True),  # exactly at the threshold
        (7_001, 7_000, {}, True),
        (7_000, 7_000, {"compaction_count": 0, "memory_flush_compaction_count": 0, "memory_flush_at": None}, True),
        (9_000, 7_000, {"compaction_count": 0, "memory_flush_compaction_count": 0, "memory_flush_at": 5}, False),
        (9_000, 7_000, {"compaction_count": 1, "memory_flush_compaction_count": 0, "memory_flush_at": 5}, True),
        (9_000, 7_000, {"enabled": False}, False),
        (9_000, 7_000, {"workspace_access": "ro"}, False),
        (9_000, 7_000, {"workspace_access": "none"}, False),
        (9_000, 7_000, {"memory_enabled": False}, False),
    ],
)
def test_should_flush(projected: int, threshold: int, kw: dict, expected: bool) -> None:
    assert should_flush(projected, threshold, **kw) is expected


def test_flush_skip_reasons_name_the_cause() -> None:
    assert flush_skip_reason(enabled=True, workspace_access="rw", memory_enabled=True) is None
    assert "false" in flush_skip_reason(enabled=False, workspace_access="rw", memory_enabled=True)
    assert "ro" in flush_skip_reason(enabled=True, workspace_access="ro", memory_enabled=True)


@pytest.mark.parametrize(("projected", "threshold", "expected"), [(8_000, 8_000, False), (8_001, 8_000, True), (10, 8_000, False)])
def test_should_compact(projected: int, threshold: int, expected: bool) -> None:
    assert should_compact(projected, threshold) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("NO_REPLY", True),
        ("  no_reply \n", True),
        ("No_Reply", True),
        ("NO_REPLY.", True),  # what small local models write (issue 11)
        ("**NO_REPLY**", True),
        ("`NO_REPLY`", True),
        ('"NO_REPLY"', True),
        ("No reply.", True),
        ("NO-REPLY!", True),
        ("ok NO_REPLY", False),
        ("NO_REPLY, but I saved the date.", False),
        ("No reply from Bob yet.", False),
        ("", False),
        (None, False),
    ],
)
def test_no_reply(text: str | None, expected: bool) -> None:
    assert is_no_reply(text) is expected


U, A, T = "user", "assistant", "tool"


@pytest.mark.parametrize(
    ("counts", "roles", "keep", "expected"),
    [
        ([10, 10, 10, 10], [U, A, U, A], 20, 2),  # keep the last 20 tokens
        ([10, 10, 10, 10], [U, A, U, A], 100, 0),  # everything fits: nothing to summarise
        ([10, 10, 10, 10], [U, A, U, A], 5, 4),  # the last message alone is too big: keep nothing
        # the cut would land on a tool result: move back to the assistant call
        ([10, 10, 10, 10, 10], [U, A, T, A, U], 30, 1),
        # several results in a row for one call
        ([10, 10, 10, 10, 10, 10], [U, A, T, T, A, U], 35, 1),
        # the call is at index 0: move forward past the results instead
        ([10, 10, 10, 10], [A, T, U, A], 30, 2),
        ([], [], 10, 0),
    ],
)
def test_compaction_cut_never_splits_tool_pairs(counts: list[int], roles: list[str], keep: int, expected: int) -> None:
    cut = compaction_cut(counts, roles, keep)
    assert cut == expected
    if cut < len(roles):
        assert roles[cut] != "tool"


def test_compaction_cut_rejects_mismatched_lengths() -> None:
    with pytest.raises(ValueError):
        compaction_cut([1, 2], ["user"], 10)
