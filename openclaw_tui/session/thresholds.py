"""Pure decision functions for flush and compaction (DESIGN §6). Numbers in, numbers out."""

from __future__ import annotations

from typing import Sequence


def flush_threshold(context_window: int, reserve_tokens_floor: int, soft_threshold_tokens: int) -> int:
    """contextWindow − reserveTokensFloor − softThresholdTokens (never below 0)."""
    return max(0, int(context_window) - int(reserve_tokens_floor) - int(soft_threshold_tokens))


def compaction_threshold(context_window: int, reserve_tokens: int | None, reserve_tokens_floor: int) -> int:
    """contextWindow − max(reserveTokens, reserveTokensFloor) (never below 0)."""
    return max(0, int(context_window) - max(int(reserve_tokens or 0), int(reserve_tokens_floor)))


def flushed_this_cycle(compaction_count: int, memory_flush_compaction_count: int | None, memory_flush_at: float | None) -> bool:
    """True when a flush already ran in the current compaction cycle.

    A session that never flushed (``memoryFlushAt`` unset) has not flushed in this cycle,
    even when both counters read 0 — a fresh session must still flush once.
    """
    if memory_flush_compaction_count is None or memory_flush_at is None:
        return False
    return int(memory_flush_compaction_count) == int(compaction_count)


def flush_skip_reason(*, enabled: bool, workspace_access: str, memory_enabled: bool) -> str | None:
    if not memory_enabled:
        return "memory is off"
    if not enabled:
        return "memoryFlush.enabled is false"
    if workspace_access != "rw":
        return f"workspace access is {workspace_access}"
    return None


def should_flush(
    projected_tokens: int,
    threshold: int,
    *,
    enabled: bool = True,
    workspace_access: str = "rw",
    memory_enabled: bool = True,
    compaction_count: int = 0,
    memory_flush_compaction_count: int | None = None,
    memory_flush_at: float | None = None,
) -> bool:
    if flush_skip_reason(enabled=enabled, workspace_access=workspace_access, memory_enabled=memory_enabled):
        return False
    if projected_tokens < threshold:
        return False
    return not flushed_this_cycle(compaction_count, memory_flush_compaction_count, memory_flush_at)


def should_compact(projected_tokens: int, threshold: int) -> bool:
    """Compaction when the prompt exceeds contextWindow − reserve."""
    return projected_tokens > threshold


def compaction_cut(token_counts: Sequence[int], roles: Sequence[str], keep_recent_tokens: int) -> int:
    """Index where the kept tail starts: messages[cut:] are kept verbatim.

    Walk back from the end keeping whole messages while the tail stays within
    ``keep_recent_tokens``; never start the tail on a ``tool`` result (its assistant call
    would be summarised away), so the cut moves back to include the calling assistant
    message (or forward past the results when that would keep everything).
    Returns 0 when nothing can be summarised.
    """
    n = len(token_counts)
    if n != len(roles):
        raise ValueError("token_counts and roles differ in length")
    total = 0
    cut = n
    for i in range(n - 1, -1, -1):
        if total + token_counts[i] > keep_recent_tokens:
            break
        total += token_counts[i]
        cut = i
    if cut >= n or roles[cut] != "tool":
        return cut
    back = cut
    while back > 0 and roles[back] == "tool":
        back -= 1
    if back > 0:
        return back  # tail starts at the assistant message that made the calls
    fwd = cut
    while fwd < n and roles[fwd] == "tool":
        fwd += 1
    return fwd


def compaction_cut_for(reason: str, token_counts: Sequence[int], roles: Sequence[str], keep_recent_tokens: int) -> int:
    """The cut for a compaction run for ``reason`` (threshold | overflow | manual).

    The token rule first (``compaction_cut``); when it finds nothing "old" and the
    compaction was not the threshold's, keep only the latest user turn — and a manual
    compaction of a conversation without an earlier user turn summarises all of it.
    """
    cut = compaction_cut(token_counts, roles, keep_recent_tokens)
    if cut == 0 and reason != "threshold" and roles:
        last_user = max((i for i, r in enumerate(roles) if r == "user"), default=0)
        cut = last_user if last_user > 0 else (len(roles) if reason == "manual" else 0)
    return cut


def preserve_recent_turns(cut: int, roles: Sequence[str], turns: int | None) -> int:
    """OpenClaw's ``recentTurnsPreserve``: the cut moved back so the last ``turns`` user turns
    (each from its user message on) stay verbatim; 0 when there are not that many turns
    before the cut. ``None``/0 leaves the cut alone."""
    if not turns:
        return cut
    users = [i for i, r in enumerate(roles) if r == "user"]
    if len(users) < turns:
        return 0
    return min(cut, users[-turns])
