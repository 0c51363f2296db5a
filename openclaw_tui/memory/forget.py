"""``memory forget``: take a fact out of the workspace's memory files, for good.

1. **Plan** what would go: ``--path P --lines A-B`` names the lines; a QUERY picks the
   entries (list items or paragraphs, as in memory/triggers.py) of the workspace memory
   files (MEMORY.md, USER.md, memory/**/*.md) that match it best: every entry whose score
   (the trigger score of the query against the entry's words) equals the best one and
   reaches 0.72; then every other line of those files that the tombstones of what was picked
   would refuse (the fact in other words, in a disguise, split over two lines: see
   workspace/tombstones.py), at most :data:`MAX_TARGETS` in all; the plan says how many copies
   it left out and where. A group session never plans on MEMORY.md/USER.md.
2. **Apply**: per file, the exact lines shown must still be there (else nothing changes);
   the previous bytes go to the memory history first (tool ``forget``, actor ``user``:
   ``memory restore`` brings them back), then the file is replaced atomically; a tombstone
   per removed line keeps ``append``/``write``/``edit`` (and so a flush) from storing the
   fact again (workspace/tombstones.py); a tombstone also for each removed entry of several
   lines, read as one. Then what still holds the fact is found and told (``ForgetDone``):
   copies left in memory files (``remaining``), the bootstrap files loaded into every system
   prompt (``elsewhere``: not memory files, the user edits them), and the session transcripts
   that ``--continue``/``--resume`` reload are rewritten without it (``transcripts``). The
   caller re-indexes with ``SYNC_FORGET`` (the index file is purged of the text) and a live
   session takes it out of what it holds (``session/forget_live.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openclaw_tui.memory.sources import memory_docs
from openclaw_tui.memory.triggers import THRESHOLD, Entry, file_entries, phrase_score, words
from openclaw_tui.workspace import safe_fs
from openclaw_tui.workspace.guard import PathRefused, is_memory_rel, normalize_rel
from openclaw_tui.records.history import ChangeOrigin, MemoryChange, MemoryHistory
from openclaw_tui.workspace.privacy import PRIVATE_REFUSAL, hidden_for, is_private_key
from openclaw_tui.records.forget_scrub import ScrubbedFile, scrub_transcripts
from openclaw_tui.workspace.bootstrap import BOOTSTRAP_FILES
from openclaw_tui.workspace.tombstones import Tombstone, Tombstones, find_hits, make_tombstone

MAX_TARGETS = 50
LINES_RE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*$")


class ForgetError(ValueError):
    """A forget that cannot be planned or applied; the message says why (nothing changed)."""


@dataclass(frozen=True)
class ForgetTarget:
    path: str
    start: int  # 1-based, inclusive
    end: int
    lines: tuple[str, ...]  # the lines that go, as they are now (without line ends)

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "startLine": self.start, "endLine": self.end, "lines": list(self.lines)}


@dataclass(frozen=True)
class ForgetPlan:
    targets: tuple[ForgetTarget, ...]
    query: str | None = None
    left_out: tuple[str, ...] = ()  # ``path#Ln`` of copies past MAX_TARGETS (not removed)

    def describe(self) -> str:
        """What would go, one block per target (``path#Lstart-Lend``, then each line with its number)."""
        blocks = []
        for t in self.targets:
            body = "\n".join(f"  {n:>4} │ {line}" for n, line in enumerate(t.lines, start=t.start))
            blocks.append(f"{t.path}#L{t.start}-L{t.end}\n{body}")
        if self.left_out:
            blocks.append(f"(and {len(self.left_out)} more cop{'y' if len(self.left_out) == 1 else 'ies'}, "
                          f"not removed by this forget: {', '.join(self.left_out[:10])}{' …' if len(self.left_out) > 10 else ''})")
        return "\n".join(blocks)


@dataclass
class ForgetDone:
    plan: ForgetPlan
    changes: list[MemoryChange] = field(default_factory=list)
    tombstones: int = 0
    stones: list[Tombstone] = field(default_factory=list)  # the tombstones this forget left
    remaining: list[str] = field(default_factory=list)  # ``path#Ln`` of copies still in memory files
    elsewhere: list[str] = field(default_factory=list)  # ``path#Ln`` in bootstrap files (not memory files)
    transcripts: list[ScrubbedFile] = field(default_factory=list)  # transcripts rewritten without it

    def to_dict(self) -> dict[str, Any]:
        return {"forgotten": [t.to_dict() for t in self.plan.targets], "historyIds": [c.entry.id for c in self.changes if c.entry],
                "tombstones": self.tombstones, "remaining": self.remaining, "elsewhere": self.elsewhere,
                "transcriptsScrubbed": [{"path": str(f.path), "lines": f.lines} for f in self.transcripts]}

    def still_held(self) -> list[str]:
        """What still holds the fact and how to drop it, one sentence each ([] when nothing does)."""
        out = []
        if self.remaining:
            n = len(self.remaining)
            out.append(f"{n} cop{'y' if n == 1 else 'ies'} still in memory: {', '.join(self.remaining[:10])}"
                       f"{' …' if n > 10 else ''} — run forget again to remove {'it' if n == 1 else 'them'}")
        if self.elsewhere:
            out.append(f"also in {', '.join(self.elsewhere)}, which is not a memory file (loaded into every system prompt): "
                       "edit it to remove the fact")
        return out


def parse_lines(raw: str) -> tuple[int, int]:
    m = LINES_RE.match(raw or "")
    if not m:
        raise ForgetError(f"--lines {raw!r} is not a line range: give A-B (1-based, inclusive), e.g. 3-4")
    a, b = int(m.group(1)), int(m.group(2) or m.group(1))
    if a < 1 or b < a:
        raise ForgetError(f"--lines {raw!r}: the range must start at 1 or later and not end before it starts")
    return a, b


def _file_lines(workspace: Path, rel: str) -> list[str]:
    try:
        data = safe_fs.current_bytes(workspace, rel)
    except PathRefused as exc:
        raise ForgetError(f"{rel}: {exc.reason}") from None
    if data is None:
        raise ForgetError(f"{rel} does not exist")
    return data.decode("utf-8", errors="replace").splitlines()


def _checked_rel(workspace: Path, session_key: str, raw: str) -> str:
    try:
        rel = normalize_rel(raw)
    except PathRefused as exc:
        raise ForgetError(f"{raw}: {exc.reason}") from None
    if not is_memory_rel(rel):
        raise ForgetError(f"{rel} is not a memory file: forget works on MEMORY.md, USER.md and memory/**/*.md")
    if hidden_for(session_key) and is_private_key(workspace, rel):
        raise ForgetError(PRIVATE_REFUSAL)
    return rel


def plan_lines(workspace: Path, session_key: str, path: str, lines: str) -> ForgetPlan:
    rel = _checked_rel(workspace, session_key, path)
    a, b = parse_lines(lines)
    have = _file_lines(workspace, rel)
    if b > len(have):
        raise ForgetError(f"{rel} has {len(have)} lines; --lines {a}-{b} runs past its end")
    return ForgetPlan((ForgetTarget(rel, a, b, tuple(have[a - 1 : b])),))


def _memory_files(workspace: Path, session_key: str) -> list[str]:
    hide = hidden_for(session_key)
    keys = [d.path for d in memory_docs(workspace) if is_memory_rel(d.path)]
    return [k for k in keys if not (hide and is_private_key(workspace, k))]


def plan_query(workspace: Path, session_key: str, query: str) -> ForgetPlan:
    if not words(query):
        raise ForgetError("give the fact to forget: a few of its words, or --path P --lines A-B")
    scored: list[tuple[float, Entry]] = []
    for rel in _memory_files(workspace, session_key):
        for entry in file_entries(workspace, rel):
            score = phrase_score(query, words(entry.text))
            if score >= THRESHOLD:
                scored.append((score, entry))
    if not scored:
        raise ForgetError(f"nothing in memory matches {query!r}; try other words, or --path P --lines A-B")
    best = max(s for s, _ in scored)
    picked = [e for s, e in scored if s >= best - 1e-9]
    targets = []
    for e in picked:
        have = _file_lines(workspace, e.path)
        targets.append(ForgetTarget(e.path, e.start, e.end, tuple(have[e.start - 1 : e.end])))
    stones = stones_for(targets)
    targets += [t for t in _copies(workspace, session_key, stones) if not _overlaps(t, targets)]
    targets.sort(key=lambda t: (t.path, t.start))
    left_out = tuple(f"{t.path}#L{t.start}" for t in targets[MAX_TARGETS:])
    return ForgetPlan(tuple(targets[:MAX_TARGETS]), query, left_out)


def stones_for(targets: list[ForgetTarget]) -> list[Tombstone]:
    """The tombstones the targets would leave (not stored): one per line, one per entry of several lines."""
    out = []
    for t in targets:
        texts = list(t.lines) + (["\n".join(t.lines)] if len(t.lines) > 1 else [])
        out += [s for s in (make_tombstone(x, t.path, "") for x in texts) if s is not None]
    return out


def _overlaps(t: ForgetTarget, others: list[ForgetTarget]) -> bool:
    return any(o.path == t.path and o.start <= t.end and t.start <= o.end for o in others)


def _copies(workspace: Path, session_key: str, stones: list[Tombstone]) -> list[ForgetTarget]:
    """Lines of the memory files these tombstones would refuse (one target per hit)."""
    out: list[ForgetTarget] = []
    for rel in _memory_files(workspace, session_key):
        try:
            have = _file_lines(workspace, rel)
        except ForgetError:
            continue
        for hit in find_hits(have, stones):
            a, b = hit.lines[0] + 1, hit.lines[-1] + 1
            t = ForgetTarget(rel, a, b, tuple(have[a - 1 : b]))
            if not _overlaps(t, out):
                out.append(t)
    return out


def _holders(workspace: Path, rels: list[str] | tuple[str, ...], stones: list[Tombstone]) -> list[str]:
    out = []
    for rel in rels:
        try:
            have = _file_lines(workspace, rel)
        except ForgetError:
            continue
        out += [f"{rel}#L{hit.lines[0] + 1}" for hit in find_hits(have, stones)]
    return out


def apply_forget(workspace: Path, history: MemoryHistory, plan: ForgetPlan, tombstones: Tombstones,
                 origin: ChangeOrigin | None = None, *, session_key: str = "agent:main:main",
                 sessions_dir: Path | None = None) -> ForgetDone:
    """Remove the planned lines, then find what still holds the fact and scrub the transcripts
    of ``sessions_dir`` (see the module docstring); raises ForgetError when a file no longer
    holds the lines (nothing is changed in that file)."""
    done = ForgetDone(plan)
    by_path: dict[str, list[ForgetTarget]] = {}
    for t in plan.targets:
        by_path.setdefault(t.path, []).append(t)
    for rel, targets in by_path.items():
        before = safe_fs.current_bytes(workspace, rel)
        if before is None:
            raise ForgetError(f"{rel} no longer exists; nothing was forgotten there")
        kept = before.decode("utf-8", errors="replace").splitlines(keepends=True)
        for t in sorted(targets, key=lambda t: t.start, reverse=True):
            now = tuple(line.rstrip("\r\n") for line in kept[t.start - 1 : t.end])
            if now != t.lines:
                raise ForgetError(f"{rel} changed since the lines were shown; run forget again")
            del kept[t.start - 1 : t.end]
        after = "".join(kept).encode("utf-8")
        entry = history.record(rel, before, after, "forget", origin or ChangeOrigin("user"))
        safe_fs.replace_text(workspace, rel, after)
        done.changes.append(MemoryChange(rel, "forget", before, after, entry))
        removed = [line for t in targets for line in t.lines]
        removed += ["\n".join(t.lines) for t in targets if len(t.lines) > 1]
        made = tombstones.add(removed, rel, entry.id)
        done.tombstones += len(made)
        done.stones += made
    if done.stones:
        done.remaining = [f"{t.path}#L{t.start}" for t in _copies(workspace, session_key, done.stones)]
        bootstrap = [r for r in BOOTSTRAP_FILES if not is_memory_rel(r)]
        done.elsewhere = _holders(workspace, bootstrap, done.stones)
        if sessions_dir is not None:
            done.transcripts = scrub_transcripts(sessions_dir, done.stones)
    return done
