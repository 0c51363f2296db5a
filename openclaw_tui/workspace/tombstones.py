"""Tombstones: facts the user made memory forget, so nothing writes them back.

One JSON line per forgotten line, per workspace, under
``<stateDir>/memory-tombstones/<sha256 of the workspace's real path, 16 hex>.jsonl``
(appended under ``flock``, fsynced, mode 0600). A tombstone does not hold the forgotten
text: it holds the sha256 of the line's normalised form and the truncated hashes of its
content words (the memory history keeps the bytes themselves, for ``memory restore``).

A proposed text (an ``append``, the new lines of a ``write`` or ``edit``, a flush) is
refused when one of its lines normalises to a forgotten line, or contains at least
:data:`CONTAINMENT` of a forgotten line's content words (at least :data:`MIN_WORDS` of
them): "The gym locker code is 4417" forgotten also stops "gym locker code: 4417 (new)".
``memory restore`` of a forget lifts that forget's tombstones.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from openclaw_tui.language.words import function_words
from openclaw_tui.state_dir import state_dir as default_state_dir
from openclaw_tui.workspace.atomic import replace_atomically

CONTAINMENT = 0.8
MIN_WORDS = 2
WORD_RE = re.compile(r"[^\W_]+")
ANNOTATION_RE = re.compile(r"<!--.*?-->", re.DOTALL)
MARKER_RE = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?")
#: words that carry no fact, in every language's table (compared words leave them out)
SKIP_WORDS = function_words()


def _h(text: str, n: int = 64) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:n]


def normalise(line: str) -> str:
    """Lowercase words of a line without list marker, annotations and punctuation."""
    text = MARKER_RE.sub("", ANNOTATION_RE.sub(" ", line))
    return " ".join(w.lower() for w in WORD_RE.findall(text))


def content_words(line: str) -> set[str]:
    return {w for w in normalise(line).split() if w not in SKIP_WORDS}


@dataclass(frozen=True)
class Tombstone:
    id: str
    ts: float
    forget_id: str  # the history entry of the forget that left it
    path: str
    line_hash: str
    words: tuple[str, ...]  # 12-hex hashes of the content words

    def matches(self, line: str) -> bool:
        norm = normalise(line)
        if not norm:
            return False
        if _h(norm) == self.line_hash:
            return True
        if len(self.words) < MIN_WORDS:
            return False
        have = {_h(w, 12) for w in content_words(line)}
        return sum(1 for w in self.words if w in have) / len(self.words) >= CONTAINMENT


def tombstone_file(state_dir: Path, workspace: Path) -> Path:
    real = os.path.realpath(workspace)
    return Path(state_dir) / "memory-tombstones" / f"{_h(real, 16)}.jsonl"


class Tombstones:
    def __init__(self, path: Path):
        self.path = Path(path)

    @classmethod
    def for_workspace(cls, workspace: Path, state_dir: Path | None = None) -> "Tombstones":
        if state_dir is None:
            state_dir = default_state_dir()
        return cls(tombstone_file(state_dir, workspace))

    def all(self) -> list[Tombstone]:
        try:
            raw = self.path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return []
        out = []
        for line in raw.splitlines():
            try:
                d = json.loads(line)
                out.append(Tombstone(d["id"], float(d["ts"]), d["forgetId"], d["path"], d["lineHash"], tuple(d["words"])))
            except (ValueError, KeyError, TypeError):
                continue  # a torn last line after a crash
        return out

    def add(self, lines: Iterable[str], path: str, forget_id: str) -> list[Tombstone]:
        """A tombstone for each line with words in it; appended and fsynced."""
        made = []
        for line in lines:
            norm = normalise(line)
            if not norm:
                continue
            made.append(Tombstone(uuid.uuid4().hex[:10], time.time(), forget_id, path, _h(norm),
                                  tuple(sorted(_h(w, 12) for w in content_words(line)))))
        if made:
            data = "".join(json.dumps({"id": t.id, "ts": t.ts, "forgetId": t.forget_id, "path": t.path,
                                       "lineHash": t.line_hash, "words": list(t.words)}) + "\n" for t in made)
            self._append(data.encode("utf-8"))
        return made

    def lift(self, forget_id: str) -> int:
        """Remove the tombstones of one forget (its lines were restored); how many went."""
        stones = self.all()
        keep = [t for t in stones if t.forget_id != forget_id]
        if len(keep) == len(stones):
            return 0
        data = "".join(json.dumps({"id": t.id, "ts": t.ts, "forgetId": t.forget_id, "path": t.path,
                                   "lineHash": t.line_hash, "words": list(t.words)}) + "\n" for t in keep)
        replace_atomically(self.path, data.encode("utf-8"), default_mode=0o600)
        return len(stones) - len(keep)

    def _append(self, data: bytes) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)

    def match(self, text: str) -> Tombstone | None:
        """The tombstone one of ``text``'s lines hits, or None."""
        stones = self.all()
        if not stones:
            return None
        for line in text.splitlines() or [text]:
            for t in stones:
                if t.matches(line):
                    return t
        return None


def is_tombstoned(workspace: Path, text: str, state_dir: Path | None = None) -> bool:
    """Whether ``text`` would write back a fact forgotten in this workspace."""
    return Tombstones.for_workspace(workspace, state_dir).match(text) is not None


def added_lines(before: bytes | None, after_text: str) -> str:
    """The lines of ``after_text`` that ``before`` did not have (what a write/edit adds)."""
    old = set((before or b"").decode("utf-8", errors="replace").splitlines())
    return "\n".join(line for line in after_text.splitlines() if line not in old)
