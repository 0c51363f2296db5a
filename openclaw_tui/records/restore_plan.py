"""What a restore would do, before it does it: ``memory restore --dry-run``, the
confirmation a restore needs when it would delete a file or cut it by more than half
(``--yes``), and the TUI's ``/memory restore``.

``--to ID`` means "the content from *before* change ID": a restore to a file's first
change removes the file, which is what a user did not expect when a daily log vanished.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from openclaw_tui.records.history import HistoryEntry, MemoryHistory, digest
from openclaw_tui.records.history_scope import refuse_private
from openclaw_tui.records.restore import current, latest_for


@dataclass(frozen=True)
class RestorePlan:
    path: str
    entry: HistoryEntry
    now: bytes | None  # the file's bytes today (None: it does not exist)
    target: bytes | None  # what the restore writes (None: it removes the file)

    @property
    def noop(self) -> bool:
        return (None if self.now is None else digest(self.now)) == self.entry.before

    @property
    def deletes(self) -> bool:
        return self.target is None and self.now is not None

    @property
    def shrinks(self) -> bool:
        """Cuts the file to less than half of its bytes."""
        return self.now is not None and self.target is not None and len(self.target) * 2 < len(self.now)

    @property
    def needs_confirmation(self) -> bool:
        return not self.noop and (self.deletes or self.shrinks)

    def describe(self) -> str:
        """One line: what the restore would do to the file."""
        lines = lambda data: data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)  # noqa: E731
        if self.noop:
            return f"{self.path} already holds the version before {self.entry.id}: nothing would change"
        if self.deletes:
            assert self.now is not None
            return (f"would DELETE {self.path} ({len(self.now):,} bytes, {lines(self.now)} lines now): "
                    f"it did not exist before change {self.entry.id}")
        if self.now is None:
            assert self.target is not None
            return f"would create {self.path} again ({len(self.target):,} bytes) as it was before {self.entry.id}"
        assert self.target is not None
        verb = "would SHRINK" if self.shrinks else "would set"
        return (f"{verb} {self.path} from {len(self.now):,} bytes ({lines(self.now)} lines) to "
                f"{len(self.target):,} bytes ({lines(self.target)} lines), the version before {self.entry.id}")


def plan_restore(workspace: Path, history: MemoryHistory, raw_path: str, to: str | None = None, *,
                 session_key: str) -> RestorePlan:
    """The plan for ``memory restore PATH [--to ID]`` (HistoryError / PathRefused as the restore);
    a group ``session_key`` may not restore a private file (``history_scope``)."""
    rel, now = current(workspace, raw_path)
    refuse_private(workspace, session_key, rel)
    entry = history.find(to, rel) if to else latest_for(history, rel)
    return RestorePlan(rel, entry, now, history.content(entry.before))
