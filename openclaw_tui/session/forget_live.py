"""A forget reaches the live session: what it holds loses the forgotten fact.

After ``memory forget`` removed the lines from the files (``memory/forget.py``; the transcripts
on disk were rewritten there), the running session still holds the fact in four places:
the system prompt built from the workspace (MEMORY.md, USER.md and the bootstrap files), the
startup notes (today's and yesterday's logs, captured once), the compaction summary and the
history (the user's words, tool results, the replies). ``scrub_session`` rebuilds the prompt
and replaces, in the other three, every line (or pair of adjacent lines) that brings a forgotten
fact back (``records/forget_scrub.py``) with ``[forgotten]``; ``without_forgotten`` does the same
to a new compaction summary, so a fact that is forgotten is never summarised back in.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from openclaw_tui.records.forget_scrub import scrub_text, scrub_value
from openclaw_tui.session.context import SessionContext
from openclaw_tui.workspace.tombstones import Tombstone, Tombstones


Stones = Sequence[Tombstone]


@dataclass(frozen=True)
class LiveScrub:
    """Lines replaced in each place the session held the fact."""

    prompt: int = 0  # still in the rebuilt system prompt: a bootstrap file that is not a memory file
    notes: int = 0
    summary: int = 0
    messages: int = 0

    @property
    def total(self) -> int:
        return self.prompt + self.notes + self.summary + self.messages


def scrub_session(ctx: SessionContext, stones: Stones, rebuilt_prompt: str,
                  count: Callable[[dict[str, Any]], int], recount: Callable[[], None]) -> LiveScrub:
    """Take the fact out of what ``ctx`` holds (in place); the history's messages are counted
    again with ``count``, then ``recount`` (the meter) runs."""
    ctx.prompt, prompt = scrub_text(rebuilt_prompt, stones)
    ctx.notes, notes = scrub_text(ctx.notes, stones)
    ctx.summary, summary = scrub_text(ctx.summary, stones)
    messages = 0
    for msg in ctx.history.messages:
        new, n = scrub_value(msg, stones)
        if n:
            msg.clear()
            msg.update(new)
            messages += n
    ctx.history.recount(count)
    recount()
    return LiveScrub(prompt, notes, summary, messages)


def without_forgotten(text: str, workspace: Path) -> str:
    """``text`` (a new compaction summary) without the lines of facts forgotten in ``workspace``."""
    stones = Tombstones.for_workspace(workspace).all()
    return scrub_text(text, stones)[0] if stones else text
