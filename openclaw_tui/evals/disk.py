"""What a conversation left on disk, read from outside the engine: every file of the
workspace, the memory index (``*.sqlite`` and its journal files in the state dir), and the
note lines of the memory files. A value counts as written when a file holds it now and did
not before the conversation (``Snapshot``); a secret counts in plain text also with its
spaces or dashes dropped ("4462551114921377" for "4462 5511 1492 1377").

    before = Snapshot.take(ws, state)
    ... the conversation ...
    after = Snapshot.take(ws, state)
    after.holding("4462 5511 1492 1377", since=before, compact=True)  # ["memory/2026-12-06.md", …]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from openclaw_tui.evals.answers import contains

INDEX_SUFFIXES = (".sqlite", ".sqlite-wal", ".sqlite-journal", ".sqlite-shm", ".db", ".db-wal")
MAX_BYTES = 64 * 1024 * 1024
_SEPARATORS = re.compile(r"[\s\-\u00a0\u202f]+")


def _read(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_BYTES:
            return ""
        return path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return ""


@dataclass
class Snapshot:
    """The text of every workspace file and index file, by a label ("ws:<rel>", "index:<name>")."""

    texts: dict[str, str] = field(default_factory=dict)

    @classmethod
    def take(cls, workspace: Path, state_dir: Path | None = None) -> "Snapshot":
        texts = {}
        for path in sorted(workspace.rglob("*")):
            if path.is_file() and not path.is_symlink():
                texts[f"ws:{path.relative_to(workspace).as_posix()}"] = _read(path)
        if state_dir is not None and state_dir.is_dir():
            for path in sorted(state_dir.rglob("*")):
                if path.is_file() and path.name.endswith(INDEX_SUFFIXES):
                    texts[f"index:{path.relative_to(state_dir).as_posix()}"] = _read(path)
        return cls(texts)

    def holding(self, value: str, *, since: "Snapshot | None" = None, compact: bool = False,
                whole: bool = False) -> list[str]:
        """The files that hold ``value`` now and did not in ``since``: as typed, or (``compact``)
        with separators dropped on both sides; ``whole`` asks for a value of its own (a PIN
        inside a longer number does not count)."""
        def has(text: str) -> bool:
            if whole:
                return contains(text, value)
            if value.lower() in text.lower():
                return True
            return compact and _SEPARATORS.sub("", value).lower() in _SEPARATORS.sub("", text).lower()

        before = since.texts if since is not None else {}
        return [label for label, text in self.texts.items() if has(text) and not has(before.get(label, ""))]


def memory_lines(workspace: Path) -> list[str]:
    """The note lines of the memory files (MEMORY.md, USER.md, every ``memory/**/*.md``),
    headings and blank lines aside."""
    files = [workspace / name for name in ("MEMORY.md", "USER.md")] + sorted((workspace / "memory").rglob("*.md"))
    out: list[str] = []
    for path in files:
        if path.is_file():
            out += [ln.strip() for ln in _read(path).splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    return out


_WORD = re.compile(r"[^\W\d_]{4,}")


def about(line: str, said: str) -> bool:
    """Whether a note ``line`` is about the sentence ``said``: most of its words come from it."""
    words = set(_WORD.findall(line.lower()))
    return bool(words) and len(words & set(_WORD.findall(said.lower()))) >= max(2, len(words) // 2)
