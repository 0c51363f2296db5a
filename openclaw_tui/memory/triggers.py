"""Trigger recall and importance: annotated entries of MEMORY.md and USER.md.

An *entry* is a Markdown list item (with its indented continuation lines) or a paragraph.
Two HTML comments annotate it, anywhere on its lines or on a line of their own directly
below it (or, when nothing is above, directly above the entry they precede)::

    - Quarterly taxes go through Ada's accountant <!-- trigger: taxes, tax return -->
      <!-- importance: 8 -->

**Trigger score.** A message word and a trigger word are *near* when they are equal (1.0)
or start with the same letter and their difflib ratio ``2·M/T`` (M matching characters, T
both lengths) is at least :data:`THRESHOLD` ("deploy"/"deploying" 0.8, "tax"/"taxes"
0.75); otherwise they count 0. A trigger phrase scores the mean, over its own words (function
words dropped unless the phrase has nothing else), of each word's best near-match among the
message's words; an entry scores its best phrase. An entry whose score reaches
:data:`THRESHOLD` (0.72) is *triggered*: every word of a phrase must be (nearly) in the
message. At most :data:`MAX_TRIGGERED` (3) per turn, best ``score × importance boost`` first.
With an embedding provider a phrase may also pass by meaning: its score is then the better of
the keyword score and the message's cosine to the phrase (``memory/trigger_vectors.py``).

**Importance.** ``<!-- importance: N -->`` with N from 1 to 10 (clamped; 5 is neutral,
an entry without one counts as 5) multiplies by ``1 + 0.04·(N − 5)``, 0.84 to 1.20. It
orders triggered entries (it never lets an entry pass the threshold) and, in
``memory_search``, multiplies the score of a MEMORY.md/USER.md chunk that overlaps the entry
(the highest boost of the entries it overlaps; the score stays at most 1). OpenClaw's
documentation that we could find does not define the scale; see docs/openclaw-compat.md.

Both files are private: nothing here is read for a group or channel session.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

from openclaw_tui.language.words import function_words
from openclaw_tui.memory.trigger_vectors import PhraseSimilarity
from openclaw_tui.workspace import safe_fs
from openclaw_tui.workspace.guard import PathRefused
from openclaw_tui.workspace.privacy import hidden_for
from openclaw_tui.workspace.session_keys import ROOT_MEMORY_FILES
from openclaw_tui.workspace.supersede import is_superseded

THRESHOLD = 0.72
MAX_TRIGGERED = 3
NEUTRAL_IMPORTANCE = 5.0
IMPORTANCE_STEP = 0.04
MESSAGE_WORDS_CAP = 400  # distinct words of a message compared (a pasted log costs no more)

#: trigger phrases are separated by commas and semicolons, as upstream splits them
PHRASE_SEP_RE = re.compile(r"[,;]")
TRIGGER_RE = re.compile(r"<!--\s*trigger\s*:\s*(.*?)\s*-->", re.IGNORECASE | re.DOTALL)
IMPORTANCE_RE = re.compile(r"<!--\s*importance\s*:\s*([-+]?\d+(?:\.\d+)?)\s*-->", re.IGNORECASE)
ANNOTATION_RE = re.compile(r"<!--\s*(?:trigger|importance)\s*:.*?-->", re.IGNORECASE | re.DOTALL)
NOTE_LINE_RE = re.compile(r"^\s*(?:<!--.*?-->\s*)+$")
ITEM_RE = re.compile(r"^\s{0,3}(?:[-*+]|\d{1,9}[.)])\s+\S")
HEADING_RE = re.compile(r"^\s{0,3}#{1,6}(?:\s|$)")
FENCE_RE = re.compile(r"^\s{0,3}(```|~~~)")
WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
#: words a trigger phrase leaves out unless it has nothing else (every language's table)
FUNCTION_WORDS = function_words()


@dataclass(frozen=True)
class Entry:
    """One entry of a memory file (lines 1-based, inclusive)."""

    path: str
    start: int
    end: int
    text: str
    triggers: tuple[str, ...] = ()
    importance: float | None = None

    @property
    def boost(self) -> float:
        return importance_boost(self.importance)

    @property
    def annotated(self) -> bool:
        return bool(self.triggers) or self.importance is not None


@dataclass(frozen=True)
class Triggered:
    entry: Entry
    trigger: str  # the phrase that matched best
    score: float

    @property
    def rank(self) -> float:
        return self.score * self.entry.boost

    def to_dict(self) -> dict[str, Any]:
        e = self.entry
        return {"path": e.path, "startLine": e.start, "endLine": e.end, "text": e.text, "trigger": self.trigger,
                "score": round(self.score, 4), "importance": e.importance}


def importance_boost(importance: float | None) -> float:
    n = NEUTRAL_IMPORTANCE if importance is None else min(10.0, max(1.0, importance))
    return 1.0 + IMPORTANCE_STEP * (n - NEUTRAL_IMPORTANCE)


# --------------------------------------------------------------------------- parsing


def _kind(line: str, fenced: bool) -> str:
    if fenced or FENCE_RE.match(line):
        return "code"
    if not line.strip():
        return "blank"
    if NOTE_LINE_RE.match(line):
        return "note"
    if HEADING_RE.match(line):
        return "heading"
    if ITEM_RE.match(line):
        return "item"
    return "cont" if line[:1] in (" ", "\t") else "para"


def _blocks(lines: list[str]) -> list[tuple[int, int, list[int]]]:
    """Entries as ``(first, last, note lines)`` (0-based indexes)."""
    out: list[tuple[int, int, list[int]]] = []
    cur: Any = None  # [first, last, kind, notes], or None between entries
    pending: list[int] = []
    fenced = False
    for i, line in enumerate(lines):
        kind = _kind(line, fenced)
        if FENCE_RE.match(line):
            fenced = not fenced
        joins = cur is not None and cur[1] == i - 1
        if kind == "note":
            if joins:
                cur[1] = i
                cur[3].append(i)
            else:
                pending.append(i)
            continue
        if kind in ("cont", "para") and joins and (kind == "cont" or cur[2] == "para"):
            cur[1] = i
            continue
        if cur is not None:
            out.append((cur[0], cur[1], cur[3]))
            cur = None
        if kind in ("item", "para", "cont"):
            first = pending[0] if pending and pending[-1] == i - 1 else i
            cur = [first, i, "para" if kind == "cont" else kind, list(pending)]
            pending = []
        elif kind in ("heading", "code"):
            pending = []
    if cur is not None:
        out.append((cur[0], cur[1], cur[3]))
    return out


def parse_entries(text: str, path: str) -> list[Entry]:
    """Every entry of ``text`` with its annotations (unannotated entries included)."""
    lines = text.splitlines()
    entries = []
    for first, last, notes in _blocks(lines):
        span = lines[first : last + 1] + [lines[n] for n in notes if n < first or n > last]
        body = "\n".join(span)
        triggers = tuple(t.strip() for m in TRIGGER_RE.finditer(body) for t in PHRASE_SEP_RE.split(m.group(1)) if t.strip())
        found = IMPORTANCE_RE.findall(body)
        importance = float(found[-1]) if found else None
        shown = "\n".join(ANNOTATION_RE.sub("", line).rstrip() for line in lines[first : last + 1])
        entries.append(Entry(path, first + 1, last + 1, shown.strip(), triggers, importance))
    return entries


# --------------------------------------------------------------------------- scoring


def words(text: str) -> list[str]:
    return [w.lower() for w in WORD_RE.findall(text)]


@lru_cache(maxsize=65536)
def word_similarity(a: str, b: str) -> float:
    """1 for equal words; the difflib ratio when it is at least THRESHOLD and both words
    start with the same letter; else 0."""
    if a == b:
        return 1.0
    if not a or not b or a[0] != b[0] or 2 * min(len(a), len(b)) / (len(a) + len(b)) < THRESHOLD:
        return 0.0
    ratio = difflib.SequenceMatcher(None, a, b).ratio()
    return ratio if ratio >= THRESHOLD else 0.0


@lru_cache(maxsize=16384)
def phrase_words(phrase: str) -> tuple[str, ...]:
    all_words = words(phrase)
    own = [w for w in all_words if w not in FUNCTION_WORDS]
    return tuple(own or all_words)


class _Nearness:
    """Each word's best near-match in one message, computed once per word (a message is
    compared with every trigger word of the workspace)."""

    def __init__(self, message_words: Iterable[str]):
        self.pool = set(message_words)
        self.best: dict[str, float] = {}
        self.by_initial: dict[str, list[str]] = {}  # only words with the same first letter can be near
        for m in self.pool:
            self.by_initial.setdefault(m[:1], []).append(m)

    def __call__(self, word: str) -> float:
        got = self.best.get(word)
        if got is None:
            same = self.by_initial.get(word[:1], ())
            got = 1.0 if word in self.pool else max((word_similarity(word, m) for m in same), default=0.0)
            self.best[word] = got
        return got

    def phrase(self, phrase: str) -> float:
        wanted = phrase_words(phrase)
        return sum(self(w) for w in wanted) / len(wanted) if wanted and self.pool else 0.0


def phrase_score(phrase: str, message_words: Iterable[str]) -> float:
    return _Nearness(message_words).phrase(phrase)


def score_entry(entry: Entry, message_words: Iterable[str] | _Nearness,
                vector: Mapping[str, float] | None = None) -> tuple[float, str]:
    """An entry's best phrase: its keyword score, or its cosine to the message in ``vector``
    (``memory/trigger_vectors.py``) when that is higher."""
    near = message_words if isinstance(message_words, _Nearness) else _Nearness(message_words)
    vec = vector or {}
    return max(((max(near.phrase(t), vec.get(t, 0.0)), t) for t in entry.triggers), default=(0.0, ""))


def match_triggers(entries: Iterable[Entry], message: str, limit: int = MAX_TRIGGERED,
                   similarity: PhraseSimilarity | None = None) -> list[Triggered]:
    """The entries ``message`` triggers, best ``score × boost`` first, at most ``limit``.
    With ``similarity`` (an embedding provider) a phrase passes by keyword OR by vector."""
    near = _Nearness(list(dict.fromkeys(words(message)))[:MESSAGE_WORDS_CAP])
    live = [e for e in entries if e.triggers and not is_superseded(e.text)]  # superseded: never recalled
    vector = similarity.scores(message, (t for e in live for t in e.triggers)) if similarity else {}
    found = []
    for entry in live:
        score, phrase = score_entry(entry, near, vector)
        if score >= THRESHOLD:
            found.append(Triggered(entry, phrase, score))
    found.sort(key=lambda t: (-t.rank, t.entry.path, t.entry.start))
    return found[:limit]


# --------------------------------------------------------------------------- files


_CACHE: dict[tuple[str, str], tuple[tuple[int, int, int], list[Entry]]] = {}


def file_entries(workspace: Path, rel: str) -> list[Entry]:
    """Entries of one workspace memory file (read beneath the workspace, never via a link);
    [] when it is missing or refused. Cached on the file's (inode, size, mtime)."""
    key = (str(workspace), rel)
    try:
        st = os.stat(Path(workspace) / rel, follow_symlinks=False)
    except OSError:
        _CACHE.pop(key, None)
        return []
    stamp = (st.st_ino, st.st_size, st.st_mtime_ns)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    try:
        data = safe_fs.current_bytes(Path(workspace), rel)
    except (PathRefused, OSError):
        return []
    entries = parse_entries(data.decode("utf-8", errors="replace"), rel) if data else []
    _CACHE[key] = (stamp, entries)
    return entries


def memory_entries(workspace: Path) -> list[Entry]:
    """Entries of the workspace's MEMORY.md and USER.md (one of each, whichever case exists;
    on a case-insensitive file system the two spellings are the same file and read once)."""
    out: list[Entry] = []
    seen: set[tuple[int, int]] = set()
    for rel in ROOT_MEMORY_FILES:
        try:
            st = os.stat(Path(workspace) / rel, follow_symlinks=False)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) in seen:
            continue
        seen.add((st.st_dev, st.st_ino))
        out.extend(file_entries(workspace, rel))
    return out


def triggered_for(workspace: Path, session_key: str, message: str, limit: int = MAX_TRIGGERED,
                  similarity: PhraseSimilarity | None = None) -> list[Triggered]:
    """What ``message`` triggers in this workspace; always [] for a group or channel session."""
    if hidden_for(session_key) or not message or not message.strip():
        return []
    return match_triggers(memory_entries(workspace), message, limit, similarity)


def importance_boosts(workspace: Path) -> dict[str, list[tuple[int, int, float]]]:
    """Per memory file, the ``(start, end, boost)`` of its entries with an importance."""
    out: dict[str, list[tuple[int, int, float]]] = {}
    for e in memory_entries(workspace):
        if e.importance is not None:
            out.setdefault(e.path, []).append((e.start, e.end, e.boost))
    return out


def apply_importance(cands: list[Any], workspace: Path) -> list[Any]:
    """Multiply a MEMORY.md/USER.md candidate's score by the highest importance boost of the
    entries its lines overlap (capped at 1); other candidates are untouched."""
    boosts = importance_boosts(workspace) if any(getattr(c, "path", "") in ROOT_MEMORY_FILES for c in cands) else {}
    for c in cands:
        spans = boosts.get(c.path) if getattr(c, "source", "memory") == "memory" else None
        if not spans:
            continue
        factor = max((b for s, e, b in spans if s <= c.end_line and e >= c.start_line), default=1.0)
        if factor != 1.0:
            c.score = min(1.0, c.score * factor)
    return cands
