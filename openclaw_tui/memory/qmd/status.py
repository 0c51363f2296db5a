"""What ``memory status`` reports for QMD: is qmd usable, its version, files per collection."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from openclaw_tui.memory.qmd.collections import CollectionSpec
from openclaw_tui.memory.qmd.home import QmdHome
from openclaw_tui.memory.qmd.parse import strip_ansi
from openclaw_tui.memory.qmd.runner import QmdError, first_line

_COLLECTION_RE = re.compile(r"^(\S+) \(qmd://")
_FILES_RE = re.compile(r"^\s+Files:\s+(\d+)")


@dataclass(frozen=True)
class QmdProbe:
    """``qmd collection list`` and ``qmd --version``, as far as they answered."""

    available: bool = True
    error: str | None = None
    version: str | None = None
    files: dict[str, int] = field(default_factory=dict)  # collection name → files qmd indexed

    def collection_rows(self, collections: list[CollectionSpec]) -> list[dict[str, Any]]:
        """Each planned collection with its file count and whether qmd knows it."""
        return [{**spec.to_dict(), "files": self.files.get(spec.name), "registered": spec.name in self.files}
                for spec in collections]


def parse_collection_files(listing: str) -> dict[str, int]:
    """``{collection: files}`` from ``qmd collection list`` output."""
    files: dict[str, int] = {}
    current = None
    for line in strip_ansi(listing).splitlines():
        m = _COLLECTION_RE.match(line)
        if m:
            current = m.group(1)
        m = _FILES_RE.match(line)
        if m and current:
            files[current] = int(m.group(1))
    return files


def probe(home: QmdHome, timeout_ms: int) -> QmdProbe:
    """Ask qmd for its collections and version; never raises."""
    try:
        listing = home.run(["collection", "list"], timeout_ms)
    except QmdError as exc:
        return QmdProbe(available=False, error=exc.reason)
    error = None
    if listing.returncode != 0:
        error = first_line(strip_ansi(listing.stderr)) or f"exit status {listing.returncode}"
    files = parse_collection_files(listing.stdout)
    try:
        version = first_line(home.run(["--version"], timeout_ms).stdout) or None
    except QmdError as exc:
        return QmdProbe(available=False, error=exc.reason, files=files)
    return QmdProbe(available=error is None, error=error, version=version, files=files)
