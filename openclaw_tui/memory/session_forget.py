"""``memory forget --session/--participant/--hook-source/--since``: purge sessions' lineage.

OpenClaw's selectors, beside ours (a QUERY, or ``--path --lines``: memory/forget.py):

* ``--session ID`` (repeatable): a session id or session key, exact and case-sensitive (an
  abbreviation selects nothing, as upstream);
* ``--participant P`` (repeatable): sessions whose key names that peer (``…:dm:P``, ``…:group:P``);
* ``--hook-source S`` (repeatable): sessions whose key's channel is ``S``
  (``agent:<id>:S:…``, e.g. ``cron``, ``webhook``) or whose entry records ``hookSource: S``;
* ``--since WHEN``: only sessions active since then (ISO date or time); alone, every one.

What a selected session's lineage is, and what the purge does with it:

1. **its writes**: the memory history's entries made in it (``write``/``edit``/``append``,
   the flush included) give the lines it added; every line of a memory file that is still
   such a line is removed through ``apply_forget`` (history first, atomic replace, a
   tombstone per line so no write or flush brings it back, other transcripts scrubbed). A line
   another session or the user also added is removed too and listed as mixed lineage; a write
   whose lines are no longer there as written is listed as untargetable;
2. **its transcript** (``<sessions dir>/<id>.jsonl``) is deleted and its ``sessions.json``
   entry dropped;
3. **a record** (``records/forgotten_sessions.py``) keeps it from being indexed or resumed again;
4. the caller re-indexes with ``SYNC_FORGET``: the transcript's index rows go, and the file's
   bytes are purged.

The report has upstream's shape: ``sessionResolutions``, ``entryKeys``,
``mixedLineageEntryKeys``, ``curatedWrites`` (lines of MEMORY.md/USER.md, to review),
``untargetableEntryKeys``, ``artifacts``; ``dryRun`` says nothing was changed.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from openclaw_tui.memory.forget import ForgetDone, ForgetError, ForgetPlan, ForgetTarget, apply_forget
from openclaw_tui.records.forgotten_sessions import ForgottenSession, add_forgotten, now
from openclaw_tui.records.history import ChangeOrigin, HistoryEntry, MemoryHistory
from openclaw_tui.records.session_store import SessionStore
from openclaw_tui.records.transcript import read_transcript
from openclaw_tui.workspace import safe_fs
from openclaw_tui.workspace.guard import PathRefused, is_memory_rel
from openclaw_tui.workspace.tombstones import Tombstones

WRITE_TOOLS = ("write", "edit", "append")
CURATED = ("MEMORY.md", "USER.md", "memory.md", "user.md")
_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}(?:\s|$)")


@dataclass(frozen=True)
class Selectors:
    sessions: tuple[str, ...] = ()
    participants: tuple[str, ...] = ()
    hook_sources: tuple[str, ...] = ()
    since: str | None = None

    @property
    def given(self) -> bool:
        return bool(self.sessions or self.participants or self.hook_sources or self.since)


@dataclass(frozen=True)
class SessionRef:
    session_id: str
    session_key: str
    transcript: Path | None
    last_activity_ms: int


@dataclass
class LineagePlan:
    resolutions: list[dict[str, Any]]
    sessions: list[SessionRef]
    targets: list[ForgetTarget] = field(default_factory=list)
    mixed: list[str] = field(default_factory=list)
    untargetable: list[str] = field(default_factory=list)

    def entry_keys(self) -> list[str]:
        return [f"{t.path}#L{t.start}" for t in self.targets]

    def artifacts(self, index_rows: dict[str, int] | None = None) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for s in self.sessions:
            if s.transcript is not None:
                out.append({"kind": "transcript", "sessionId": s.session_id, "path": str(s.transcript),
                            "bytes": _size(s.transcript)})
            out.append({"kind": "sessionEntry", "sessionId": s.session_id, "sessionKey": s.session_key})
            key = f"sessions/{s.transcript.name}" if s.transcript is not None else None
            if key and index_rows is not None and index_rows.get(key):
                out.append({"kind": "indexRows", "sessionId": s.session_id, "path": key, "chunks": index_rows[key]})
        by_path: dict[str, int] = {}
        for t in self.targets:
            by_path[t.path] = by_path.get(t.path, 0) + (t.end - t.start + 1)
        out += [{"kind": "memoryFile", "path": p, "lines": n} for p, n in sorted(by_path.items())]
        return out

    def report(self, *, dry_run: bool, index_rows: dict[str, int] | None = None) -> dict[str, Any]:
        return {
            "dryRun": dry_run,
            "sessionResolutions": self.resolutions,
            "entryKeys": self.entry_keys(),
            "mixedLineageEntryKeys": self.mixed,
            "curatedWrites": [{"path": t.path, "line": t.start, "text": t.lines[0]} for t in self.targets if t.path in CURATED],
            "untargetableEntryKeys": self.untargetable,
            "artifacts": self.artifacts(index_rows),
        }


def _size(p: Path) -> int:
    try:
        return p.stat().st_size
    except OSError:
        return 0


def parse_since(raw: str) -> int:
    """``--since`` as epoch milliseconds (a date is its midnight, UTC when no zone is given)."""
    try:
        when = datetime.fromisoformat(raw.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ForgetError(f"--since {raw!r} is not a date or time: give e.g. 2026-11-30 or 2026-11-30T18:00") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return int(when.timestamp() * 1000)


def _known_sessions(sessions_dir: Path) -> list[SessionRef]:
    store = SessionStore(sessions_dir)
    found: dict[str, SessionRef] = {}
    for e in store.recent():
        sid = str(e.get("sessionId") or "")
        path = Path(e["transcript"])
        found[sid] = SessionRef(sid, str(e.get("sessionKey") or ""), path if path.is_file() else None,
                                int(e.get("lastActivity") or 0))
    for path in sorted(Path(sessions_dir).glob("*.jsonl")) if Path(sessions_dir).is_dir() else []:
        if path.stem in found or path.is_symlink() or not path.is_file():
            continue
        head = (read_transcript(path) or [{}])[0]
        if head.get("type") != "session":
            continue
        found[path.stem] = SessionRef(path.stem, str(head.get("sessionKey") or ""), path, int(path.stat().st_mtime * 1000))
    return list(found.values())


def _entry_extra(sessions_dir: Path) -> dict[str, dict[str, Any]]:
    return {str(k): v for k, v in SessionStore(sessions_dir).load().items() if isinstance(v, dict)}


def _key_parts(key: str) -> list[str]:
    return key.split(":")


def resolve(sessions_dir: Path, sel: Selectors) -> tuple[list[dict[str, Any]], list[SessionRef]]:
    """The sessions the selectors pick, and per selector value the ids it resolved to."""
    known = _known_sessions(sessions_dir)
    extra = _entry_extra(sessions_dir)
    since = parse_since(sel.since) if sel.since else None
    resolutions: list[dict[str, Any]] = []
    picked: dict[str, SessionRef] = {}

    def take(kind: str, value: str, refs: list[SessionRef]) -> None:
        refs = [r for r in refs if since is None or r.last_activity_ms >= since]
        resolutions.append({"selector": kind, "value": value, "sessionIds": [r.session_id for r in refs]})
        picked.update((r.session_id, r) for r in refs)

    for v in sel.sessions:
        take("session", v, [r for r in known if v in (r.session_id, r.session_key)])
    for v in sel.participants:
        take("participant", v, [r for r in known if len(_key_parts(r.session_key)) >= 4 and _key_parts(r.session_key)[-1] == v])
    for v in sel.hook_sources:
        take("hookSource", v, [r for r in known if (_key_parts(r.session_key)[2:3] == [v])
                               or extra.get(r.session_id, {}).get("hookSource") == v])
    if not (sel.sessions or sel.participants or sel.hook_sources) and since is not None:
        take("since", sel.since or "", known)
    return resolutions, sorted(picked.values(), key=lambda r: r.session_id)


def _added_lines(history: MemoryHistory, e: HistoryEntry) -> list[str]:
    before = (history.content(e.before) or b"").decode("utf-8", errors="replace").splitlines()
    after = (history.content(e.after) or b"").decode("utf-8", errors="replace").splitlines()
    out = []
    for op, _, _, j1, j2 in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if op in ("insert", "replace"):
            out += [line for line in after[j1:j2] if line.strip() and not _HEADING_RE.match(line)]
    return out


def plan_lineage(workspace: Path, sessions_dir: Path, history: MemoryHistory, sel: Selectors) -> LineagePlan:
    resolutions, sessions = resolve(sessions_dir, sel)
    plan = LineagePlan(resolutions, sessions)
    ids = {s.session_id for s in sessions}
    if not ids:
        return plan
    mine: dict[str, set[str]] = {}
    theirs: dict[str, set[str]] = {}
    writes: list[tuple[HistoryEntry, list[str]]] = []
    for e in history.entries():
        if e.tool not in WRITE_TOOLS or not is_memory_rel(e.path):
            continue
        added = _added_lines(history, e)
        if e.session_id in ids and e.actor == "model":
            mine.setdefault(e.path, set()).update(added)
            writes.append((e, added))
        else:
            theirs.setdefault(e.path, set()).update(added)
    present: dict[str, set[str]] = {}
    for rel, texts in sorted(mine.items()):
        try:
            data = safe_fs.current_bytes(workspace, rel)
        except PathRefused:
            data = None
        if data is None:
            continue
        lines = data.decode("utf-8", errors="replace").splitlines()
        for n, line in enumerate(lines, start=1):
            if line in texts:
                plan.targets.append(ForgetTarget(rel, n, n, (line,)))
                present.setdefault(rel, set()).add(line)
                if line in theirs.get(rel, set()):
                    plan.mixed.append(f"{rel}#L{n}")
    for e, added in writes:
        if added and not any(line in present.get(e.path, set()) for line in added):
            plan.untargetable.append(f"{e.path}@{e.id}")
    return plan


def index_rows(memory: Any, sessions: list[SessionRef]) -> dict[str, int]:
    """Chunks of these sessions' transcripts in the builtin index ({} when there is none)."""
    index = getattr(memory, "index", None) or getattr(getattr(memory, "builtin", None), "index", None)
    if index is None:
        return {}
    try:
        store = index.store()
        keys = [f"sessions/{s.transcript.name}" for s in sessions if s.transcript is not None]
        with store.lock:
            return {k: int(store.conn.execute("select count(*) from chunks where path = ?", (k,)).fetchone()[0]) for k in keys}
    except Exception:  # noqa: BLE001 - the report only lacks the count
        return {}


@dataclass
class LineageDone:
    forget: ForgetDone | None
    removed_transcripts: list[str]


def apply_lineage(workspace: Path, sessions_dir: Path, history: MemoryHistory, plan: LineagePlan,
                  tombstones: Tombstones, *, session_key: str) -> LineageDone:
    """Remove the lines, the transcripts and entries; record the sessions as forgotten."""
    done = None
    if plan.targets:
        done = apply_forget(workspace, history, ForgetPlan(tuple(plan.targets)), tombstones, ChangeOrigin("user"),
                            session_key=session_key, sessions_dir=sessions_dir)
    records = []
    for s in plan.sessions:
        digest = None
        if s.transcript is not None:
            try:
                digest = hashlib.sha256(s.transcript.read_bytes()).hexdigest()
            except OSError:
                digest = None
        records.append(ForgottenSession(s.session_id, s.session_key, now(), digest))
    add_forgotten(sessions_dir, records)  # first: a crash below leaves them fenced, not ingestable
    removed = []
    for s in plan.sessions:
        if s.transcript is not None:
            try:
                s.transcript.unlink()
                removed.append(str(s.transcript))
            except FileNotFoundError:
                pass
    SessionStore(sessions_dir).remove([s.session_id for s in plan.sessions])
    return LineageDone(done, removed)
