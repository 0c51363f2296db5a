"""Tombstones: facts the user made memory forget, so nothing writes them back.

They travel with the workspace: one JSON line per forgotten line in
``<workspace>/.openclaw/forgotten.jsonl`` (appended under ``flock``, fsynced, mode 0600,
reached beneath the workspace without following a link; the file tools never read or write
``.openclaw/``). A copied or renamed workspace keeps them. The file of an older version,
``<stateDir>/memory-tombstones/<sha256 of the workspace's real path, 16 hex>.jsonl``, is still
read. A tombstone does not hold the forgotten text: it holds the sha256 of the line's
normalised form, the truncated hashes of its content words, of its identifying words (those
with a digit, and names: a capital after the line's first word) and of the digit runs of those
words (the memory history keeps the bytes themselves, for ``memory restore``).

Text is compared in one form (``language.fact_fold``: NFKC, format characters and fillers
removed, case and accents folded, look-alike letters of other scripts folded to Latin, digits of
any script as ASCII). A proposed line (an ``append``, the new lines of a ``write`` or ``edit``,
a flush), or two adjacent lines read as one, brings a forgotten fact back when

- it normalises to the forgotten line; or
- it holds all but one of the forgotten line's content words (of four or more; all of them
  for fewer, at least :data:`MIN_WORDS`; at least :data:`CONTAINMENT` of them); or
- it holds every identifying word of the forgotten line (a digit run also when written with
  separators: "44-17") and at least :data:`MIN_WORDS` of its content words (the subject).

"The gym locker code is 4417" forgotten also stops "gym locker code: 4417 (new)", "locker:
４４１７" and "locker code\\n4417". ``memory restore`` of a forget lifts that forget's tombstones.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import math
import os
import re
import time
import uuid
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

from openclaw_tui.language.fact_fold import fold_fact
from openclaw_tui.language.words import function_words
from openclaw_tui.state_dir import state_dir as default_state_dir
from openclaw_tui.workspace import safe_fs
from openclaw_tui.workspace.atomic import replace_atomically

CONTAINMENT = 0.8
MIN_WORDS = 2
MIN_DIGITS = 3  # a digit run this long is identifying also across separators
#: where a workspace keeps its tombstones (a folder the file tools refuse)
WORKSPACE_REL = ".openclaw/forgotten.jsonl"
RESERVED_DIR = ".openclaw"
WORD_RE = re.compile(r"[^\W_]+")
ANNOTATION_RE = re.compile(r"<!--.*?-->", re.DOTALL)
MARKER_RE = re.compile(r"^\s*(?:[-*+>]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?")
DIGITS_RE = re.compile(r"\d+")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


@lru_cache(maxsize=1)
def skip_words() -> frozenset[str]:
    """Words that carry no fact, in every language's table, in the compared form."""
    return frozenset(fold_fact(w) for w in function_words())


def _h(text: str, n: int = 64) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:n]


def _strip(line: str) -> str:
    return MARKER_RE.sub("", ANNOTATION_RE.sub(" ", line))


def normalise(line: str) -> str:
    """The compared words of a line (``fold_fact``), without list marker, annotations and punctuation."""
    return " ".join(WORD_RE.findall(fold_fact(_strip(line))))


def content_words(line: str) -> set[str]:
    skip = skip_words()
    return {w for w in normalise(line).split() if w not in skip}


def identifying_words(line: str) -> set[str]:
    """The words that name the fact: those with a digit, and names (a capital letter after the
    line's first word), in the compared form."""
    raw = WORD_RE.findall(_strip(line))
    out = set()
    for i, w in enumerate(raw):
        folded = normalise(w)
        if not folded or folded in skip_words():
            continue
        if any(c.isdigit() for c in folded) or (i > 0 and w[:1].isupper()):
            out.update(folded.split())
    return out


@dataclass(frozen=True)
class LineKey:
    """What a proposed line (or pair of lines) is compared by, computed once."""

    norm: str
    words: frozenset[str]  # 12-hex hashes of the content words
    digits: str  # every digit of the line, in order

    @classmethod
    def of(cls, text: str) -> "LineKey":
        norm = normalise(text)
        skip = skip_words()
        return cls(norm, frozenset(_h(w, 12) for w in norm.split() if w not in skip), "".join(DIGITS_RE.findall(norm)))

    def holds_digits(self, key: tuple[str, int]) -> bool:
        h, n = key
        d = self.digits
        return any(_h(d[i:i + n], 12) == h for i in range(len(d) - n + 1))


@dataclass(frozen=True)
class Tombstone:
    id: str
    ts: float
    forget_id: str  # the history entry of the forget that left it
    path: str
    line_hash: str
    words: tuple[str, ...]  # 12-hex hashes of the content words
    keys: tuple[str, ...] = ()  # 12-hex hashes of the identifying words
    digit_keys: tuple[tuple[str, int], ...] = ()  # (12-hex hash, length) of the identifying words' digit runs

    def matches(self, line: str) -> bool:
        return self.matches_key(LineKey.of(line))

    def matches_key(self, k: LineKey) -> bool:
        if not k.norm:
            return False
        if _h(k.norm) == self.line_hash:
            return True
        if len(self.words) < MIN_WORDS:
            return False
        have = sum(1 for w in self.words if w in k.words)
        n = len(self.words)
        need = n if n < 4 else min(n - 1, math.ceil(CONTAINMENT * n))
        if have >= max(need, MIN_WORDS):
            return True
        if not (self.keys or self.digit_keys):
            return False
        if not all(key in k.words for key in self.keys) or not all(k.holds_digits(d) for d in self.digit_keys):
            return False
        # the subject: identifying words and at least one more word of the fact (a digit run
        # written with separators counts as its word)
        split_runs = sum(1 for h, _n in self.digit_keys if h not in k.words)
        return have + split_runs >= MIN_WORDS

    def to_json(self) -> str:
        return json.dumps({"id": self.id, "ts": self.ts, "forgetId": self.forget_id, "path": self.path,
                           "lineHash": self.line_hash, "words": list(self.words), "keys": list(self.keys),
                           "digits": [list(d) for d in self.digit_keys]})

    @classmethod
    def from_json(cls, raw: str) -> "Tombstone":
        d = json.loads(raw)
        return cls(d["id"], float(d["ts"]), d["forgetId"], d["path"], d["lineHash"], tuple(d["words"]),
                   tuple(d.get("keys") or ()), tuple((str(h), int(n)) for h, n in d.get("digits") or ()))


def make_tombstone(line: str, path: str, forget_id: str) -> Tombstone | None:
    """The tombstone of one forgotten line (None for a line without words)."""
    norm = normalise(line)
    if not norm:
        return None
    keys = identifying_words(line)
    runs = {run for w in keys for run in DIGITS_RE.findall(w) if len(run) >= MIN_DIGITS}
    # a word that is only a digit run is matched by its digits (also written "44-17")
    word_keys = {w for w in keys if not (w.isdigit() and len(w) >= MIN_DIGITS)}
    return Tombstone(uuid.uuid4().hex[:10], time.time(), forget_id, path, _h(norm),
                     tuple(sorted(_h(w, 12) for w in content_words(line))),
                     tuple(sorted(_h(w, 12) for w in word_keys)),
                     tuple(sorted((_h(r, 12), len(r)) for r in runs)))


def legacy_file(state_dir: Path, workspace: Path) -> Path:
    """Where an older version kept a workspace's tombstones (keyed by its path)."""
    real = os.path.realpath(workspace)
    return Path(state_dir) / "memory-tombstones" / f"{_h(real, 16)}.jsonl"


def tombstone_file(state_dir: Path, workspace: Path) -> Path:  # kept for callers of the old name
    return legacy_file(state_dir, workspace)


def is_reserved_rel(rel: str) -> bool:
    """A workspace path the file tools leave alone (the tombstones' folder)."""
    return rel == RESERVED_DIR or rel.startswith(RESERVED_DIR + "/")


@dataclass(frozen=True)
class Hit:
    """Lines of a text that bring a forgotten fact back (0-based indexes) and the tombstone."""

    lines: tuple[int, ...]
    stone: Tombstone


@dataclass
class Tombstones:
    workspace: Path
    legacy: Path | None = None

    @classmethod
    def for_workspace(cls, workspace: Path, state_dir: Path | None = None) -> "Tombstones":
        if state_dir is None:
            state_dir = default_state_dir()
        return cls(Path(workspace), legacy_file(state_dir, workspace))

    @property
    def path(self) -> Path:
        return self.workspace / WORKSPACE_REL

    # ------------------------------------------------------------------ reading

    def _read_workspace(self) -> bytes:
        try:
            return safe_fs.current_bytes(self.workspace, WORKSPACE_REL) or b""
        except (OSError, safe_fs.PathRefused):
            return b""

    def _read_legacy(self) -> bytes:
        if self.legacy is None:
            return b""
        try:
            return self.legacy.read_bytes()
        except OSError:
            return b""

    def all(self) -> list[Tombstone]:
        out, seen = [], set()
        for raw in (self._read_workspace(), self._read_legacy()):
            for line in raw.decode("utf-8", errors="replace").splitlines():
                try:
                    t = Tombstone.from_json(line)
                except (ValueError, KeyError, TypeError):
                    continue  # a torn last line after a crash
                if t.id not in seen:
                    seen.add(t.id)
                    out.append(t)
        return out

    # ------------------------------------------------------------------ writing

    def add(self, lines: Iterable[str], path: str, forget_id: str) -> list[Tombstone]:
        """A tombstone for each line with words in it; appended and fsynced."""
        made = [t for t in (make_tombstone(line, path, forget_id) for line in lines) if t is not None]
        if made:
            self._append("".join(t.to_json() + "\n" for t in made).encode("utf-8"))
        return made

    def lift(self, forget_id: str) -> int:
        """Remove the tombstones of one forget (its lines were restored); how many went."""
        gone = 0
        ws_stones = [t for t in self._parse(self._read_workspace())]
        keep = [t for t in ws_stones if t.forget_id != forget_id]
        if len(keep) != len(ws_stones):
            gone += len(ws_stones) - len(keep)
            safe_fs.replace_text(self.workspace, WORKSPACE_REL, "".join(t.to_json() + "\n" for t in keep).encode("utf-8"),
                                 default_mode=0o600)
        old = self._parse(self._read_legacy())
        keep = [t for t in old if t.forget_id != forget_id]
        if self.legacy is not None and len(keep) != len(old):
            gone += len(old) - len(keep)
            replace_atomically(self.legacy, "".join(t.to_json() + "\n" for t in keep).encode("utf-8"), default_mode=0o600)
        return gone

    @staticmethod
    def _parse(raw: bytes) -> list[Tombstone]:
        out = []
        for line in raw.decode("utf-8", errors="replace").splitlines():
            try:
                out.append(Tombstone.from_json(line))
            except (ValueError, KeyError, TypeError):
                continue
        return out

    def _append(self, data: bytes) -> None:
        with safe_fs.parent_dir(self.workspace, WORKSPACE_REL, create=True) as (dfd, name):
            try:
                os.fchmod(dfd, 0o700)
            except OSError:
                pass
            try:
                fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_APPEND | _NOFOLLOW, 0o600, dir_fd=dfd)
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    raise safe_fs.PathRefused(WORKSPACE_REL, "symlinks are refused") from None
                raise
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)

    # ------------------------------------------------------------------ matching

    def hits(self, lines: Sequence[str], stones: list[Tombstone] | None = None) -> list[Hit]:
        """Every line of ``lines`` (alone, or with the next one) that brings a forgotten fact back."""
        stones = self.all() if stones is None else stones
        return find_hits(lines, stones)

    def match(self, text: str) -> Tombstone | None:
        """The tombstone one of ``text``'s lines (or two adjacent ones) hits, or None."""
        stones = self.all()
        if not stones:
            return None
        found = find_hits(text.splitlines() or [text], stones, first=True)
        return found[0].stone if found else None


def find_hits(lines: Sequence[str], stones: Sequence[Tombstone], *, first: bool = False) -> list[Hit]:
    """The lines (0-based) that bring one of ``stones`` back: a line alone, else with its next."""
    if not stones:
        return []
    keys = [LineKey.of(line) for line in lines]
    out: list[Hit] = []
    alone: set[int] = set()
    for i, k in enumerate(keys):
        for t in stones:
            if t.matches_key(k):
                out.append(Hit((i,), t))
                alone.add(i)
                if first:
                    return out
                break
    for i in range(len(lines) - 1):
        if i in alone or i + 1 in alone or not (keys[i].norm and keys[i + 1].norm):
            continue
        pair = LineKey.of(lines[i] + "\n" + lines[i + 1])
        for t in stones:
            if t.matches_key(pair):
                out.append(Hit((i, i + 1), t))
                if first:
                    return out
                break
    return out


def is_tombstoned(workspace: Path, text: str, state_dir: Path | None = None) -> bool:
    """Whether ``text`` would write back a fact forgotten in this workspace."""
    return Tombstones.for_workspace(workspace, state_dir).match(text) is not None


def added_lines(before: bytes | None, after_text: str) -> str:
    """The lines of ``after_text`` that ``before`` did not have (what a write/edit adds)."""
    old = set((before or b"").decode("utf-8", errors="replace").splitlines())
    return "\n".join(line for line in after_text.splitlines() if line not in old)
