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

from openclaw_tui.workspace.daily import is_daily_rel

SHRINK_TOLERANCE = 0.10  # a write may shorten a curated memory file by at most 10 %
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


def check_edit(rel: str, old_text: str, ledger: ReadLedger) -> str | None:
    """Daily logs: ``edit`` only text this session has read from that log."""
    if is_daily_rel(rel) and not ledger.has_shown(rel, old_text):
        return (
            f"{rel} is a daily log (append-only): edit only lines you have read from it — "
            "read it first, or use append to add a note"
        )
    return None
