"""Read-before-overwrite: what a session may replace, and what it has read.

A model that ``write``s over a file it never read replaces content it has not seen (a
small model asked to "remember" something replaced a whole curated MEMORY.md with one
line). The rules, checked before any byte is written:

- ``write`` over an existing file needs this session to have read that file's current
  content in full (a file changed since the read needs a re-read);
- ``write`` may not shrink ``MEMORY.md``/``USER.md`` (or a daily log) by more than
  :data:`SHRINK_TOLERANCE` of its size;
- daily logs ``memory/YYYY-MM-DD.md`` are append-only for the model: no ``write`` over a
  non-empty one, and ``edit`` only of text the session has read from it.

Each check returns ``None`` (allowed) or the one-line reason the model gets back.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from openclaw_tui.workspace.bootstrap import BOOTSTRAP_FILES
from openclaw_tui.workspace.daily import is_daily_rel
from openclaw_tui.records.history import MemoryHistory

SHRINK_TOLERANCE = 0.10  # a write may shorten a curated memory file by at most 10 %
SHRINK_WINDOW_S = 24 * 3600  # and all changes within this window (any session) together too
CURATED = ("MEMORY.md", "memory.md", "USER.md", "user.md")
MAX_SEEN_CHARS = 2_000_000  # per path: text shown to the model kept for the daily-log edit rule


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class _Seen:
    digest: str | None = None  # sha256 of the whole file when the session last knew all of it
    shown: list[str] = field(default_factory=list)  # text the model has been shown


@dataclass
class ReadLedger:
    """Per session: which file content the model has seen."""

    seen: dict[str, _Seen] = field(default_factory=dict)
    first_size: dict[str, int] = field(default_factory=dict)  # size of a file when this session first met it
    appended: dict[str, list[str]] = field(default_factory=dict)  # daily logs: the blocks this session appended

    def met(self, rel: str, size: int) -> None:
        """The size a file had when this session first read or changed it (the shrink baseline)."""
        self.first_size.setdefault(rel, size)

    def appended_block(self, rel: str, text: str) -> None:
        self.appended.setdefault(rel, []).append(text)

    def edited_block(self, rel: str, old: str, new: str) -> None:
        blocks = self.appended.get(rel, [])
        for i, block in enumerate(blocks):
            if old in block:
                blocks[i] = block.replace(old, new, 1)
                return

    def own_span(self, rel: str, text: str, start: int, end: int) -> bool:
        """Whether ``text[start:end]`` lies inside a block this session appended to ``rel``."""
        for block in self.appended.get(rel, []):
            i = text.find(block)
            while i >= 0:
                if i <= start and end <= i + len(block):
                    return True
                i = text.find(block, i + 1)
        return False

    def _entry(self, rel: str) -> _Seen:
        return self.seen.setdefault(rel, _Seen())

    def read(self, rel: str, current: bytes, shown: str, *, whole: bool) -> None:
        entry = self._entry(rel)
        if whole:
            entry.digest = _digest(current)
        self._remember(entry, shown)

    def wrote(self, rel: str, new: bytes, *, knew_before: bool, shown: str) -> None:
        """After the model's own change: it knows the whole result if it knew the whole file."""
        entry = self._entry(rel)
        entry.digest = _digest(new) if knew_before else None
        self._remember(entry, shown)

    def knows(self, rel: str, current: bytes) -> bool:
        entry = self.seen.get(rel)
        return entry is not None and entry.digest == _digest(current)

    def has_shown(self, rel: str, fragment: str) -> bool:
        entry = self.seen.get(rel)
        return entry is not None and any(fragment in text for text in entry.shown)

    @staticmethod
    def _remember(entry: _Seen, text: str) -> None:
        if not text:
            return
        entry.shown.append(text)
        while len(entry.shown) > 1 and sum(len(t) for t in entry.shown) > MAX_SEEN_CHARS:
            entry.shown.pop(0)


def check_write(rel: str, current: bytes | None, new: str, ledger: ReadLedger) -> str | None:
    """Why ``write`` of ``new`` over ``rel`` (``current`` bytes, None if absent) is refused."""
    if current is None:
        return None
    if is_daily_rel(rel) and current.strip():
        return (
            f"{rel} is a daily log and daily logs are append-only: use append to add notes "
            "(or read it, then edit lines you have read); write would replace the whole log"
        )
    if not ledger.knows(rel, current):
        stale = rel in ledger.seen and ledger.seen[rel].digest is not None
        why = "has changed since this session read it" if stale else "exists and this session has not read all of its current content"
        return (
            f"{rel} {why}; write would replace it. First read {rel} (the whole file), "
            "then use edit to change lines or append to add to it"
        )
    new_len, old_len = len(new.encode("utf-8")), len(current)
    if (rel in CURATED or is_daily_rel(rel)) and new_len < old_len * (1 - SHRINK_TOLERANCE):
        return (
            f"write would shrink {rel} from {old_len} to {new_len} bytes (more than {SHRINK_TOLERANCE:.0%}); "
            "memory is kept, not replaced: use edit to change lines or append to add"
        )
    return None


def is_protected_rel(rel: str) -> bool:
    """MEMORY.md and the bootstrap files (the next session's system prompt)."""
    return rel in CURATED or rel in BOOTSTRAP_FILES


def check_recovered(rel: str, current: bytes | None, old_text: str | None, ledger: ReadLedger) -> str | None:
    """A call printed as text (not sent as a call) that changes a protected file: allowed only
    when this session has read the file in full, or (edit) has been shown the edited text."""
    if current is None:
        return None
    if ledger.knows(rel, current) or (old_text and ledger.has_shown(rel, old_text)):
        return None
    return (
        f"{rel} is changed only after this session has read it: read {rel} first "
        "(a call written as text in an answer runs on read content only)"
    )


def check_edit(rel: str, old_text: str, ledger: ReadLedger, text: str | None = None) -> str | None:
    """Daily logs are append-only: ``edit`` only text this session appended to that log (the
    one occurrence of ``old_text`` in the log's ``text`` must lie inside it)."""
    if not is_daily_rel(rel):
        return None
    at = text.find(old_text) if text is not None else -1
    if at < 0 or not ledger.own_span(rel, text or "", at, at + len(old_text)):
        return (
            f"{rel} is a daily log (append-only): edit only lines this session appended to it; "
            "use append to add a note or a correction"
        )
    return None


def check_shrink(rel: str, old_len: int, new_len: int, baselines: list[int | None]) -> str | None:
    """Cumulative: MEMORY.md may not end up more than SHRINK_TOLERANCE smaller than its size
    when this session first met it, nor than its size at the start of the shrink window
    (``baselines``), whatever mix of write and edit got it there."""
    if rel not in CURATED or new_len >= old_len:
        return None
    known = [b for b in baselines if b]
    if not known:
        return None
    floor = max(known) * (1 - SHRINK_TOLERANCE)
    if new_len >= floor:
        return None
    return (
        f"this change would leave {rel} at {new_len} bytes, more than {SHRINK_TOLERANCE:.0%} below the "
        f"{max(known)} bytes it had (shrinking is counted across the session's and recent sessions' changes); "
        "memory is kept, not replaced: change lines with edit, add with append, or ask the user to prune it"
    )


def window_baseline(history: MemoryHistory | None, rel: str, now: float, window_s: float = SHRINK_WINDOW_S) -> int | None:
    """The size ``rel`` had before the model's first change in the last ``window_s`` seconds
    (after the user's latest restore/undo in that window, if any): the cross-session floor."""
    if history is None or rel not in CURATED:
        return None
    base: int | None = None
    for entry in history.entries(rel):
        if now - entry.ts > window_s:
            continue
        if entry.actor == "user":
            base = history.size_of(entry, "after")
        elif base is None:
            base = history.size_of(entry, "before")
    return base
