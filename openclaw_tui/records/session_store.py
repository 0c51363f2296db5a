"""``sessions.json``: one entry per session id, written atomically under a file lock."""

from __future__ import annotations

import fcntl
import json
import logging
import time
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator

from openclaw_tui.records.forgotten_sessions import is_forgotten
from openclaw_tui.records.transcript import TranscriptWriter, read_transcript
from openclaw_tui.workspace.atomic import replace_atomically
from openclaw_tui.workspace.session_keys import is_direct_session

log = logging.getLogger(__name__)


class SessionStore:
    def __init__(self, sessions_dir: Path):
        self.dir = Path(sessions_dir)
        self.path = self.dir / "sessions.json"
        self.lock_path = self.dir / ".sessions.lock"
        self.recovered_to: Path | None = None  # set when a damaged sessions.json was rebuilt

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.dir.mkdir(parents=True, exist_ok=True)
        with open(self.lock_path, "a+b") as lf:
            fcntl.flock(lf.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lf.fileno(), fcntl.LOCK_UN)

    def load(self) -> dict[str, dict[str, Any]]:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        try:
            data = json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            data = None
        if isinstance(data, dict):
            return data
        return self._recover(raw)

    def _recover(self, raw: bytes) -> dict[str, dict[str, Any]]:
        """sessions.json is damaged: keep the damaged bytes aside, rebuild it from the transcripts.

        The counters that matter (``compactionCount``, ``memoryFlushCompactionCount``,
        ``memoryFlushAt``) are all recorded in the transcripts too, so nothing is lost; the
        rebuilt entries carry ``"recovered": true``. No lock is taken here (``update`` already
        holds it); the aside copy and the rewrite are each atomic.
        """
        aside = self.dir / f"sessions.json.corrupt-{int(time.time() * 1000)}"
        try:
            aside.write_bytes(raw)
        except OSError as exc:
            log.warning("sessions.json is damaged and could not be copied aside (%s)", exc)
            return {}
        data = rebuild_from_transcripts(self.dir)
        try:
            self._write(data)
        except OSError as exc:
            log.warning("sessions.json is damaged; rebuilt in memory only (%s)", exc)
        self.recovered_to = aside
        log.warning("sessions.json was damaged: kept it as %s and rebuilt %d entries from the transcripts", aside.name, len(data))
        return data

    def _write(self, data: dict[str, Any]) -> None:
        replace_atomically(self.path, json.dumps(data, indent=2, ensure_ascii=False), default_mode=0o600)

    def get(self, session_id: str) -> dict[str, Any] | None:
        entry = self.load().get(session_id)
        return entry if isinstance(entry, dict) else None  # a hand-edited non-object entry counts as absent

    def update(self, session_id: str, **fields: Any) -> dict[str, Any]:
        with self._locked():
            data = self.load()
            now = int(time.time() * 1000)
            entry = data.get(session_id) if isinstance(data.get(session_id), dict) else None
            entry = entry or {
                "sessionId": session_id,
                "createdAt": now,
                "compactionCount": 0,
                "memoryFlushCompactionCount": None,
                "memoryFlushAt": None,
            }
            entry.update(fields)
            entry["updatedAt"] = now
            data[session_id] = entry
            self._write(data)
            return dict(entry)

    def remove(self, session_ids: list[str]) -> int:
        """Drop these sessions' entries (``memory forget --session``); how many went."""
        if not session_ids:
            return 0
        with self._locked():
            data = self.load()
            gone = [sid for sid in session_ids if sid in data]
            if gone:
                for sid in gone:
                    del data[sid]
                self._write(data)
            return len(gone)

    def persist(self, session_id: str, transcript: TranscriptWriter, notes: str, **header: Any) -> None:
        """A session's first turn puts it on disk: the transcript's header line (``header``:
        agentId, sessionKey, model…), its startup ``notes`` once, and its sessions.json entry."""
        transcript.write_header(session_id, **header)
        if notes:
            transcript.append({"type": "context", "notes": notes})
        keep = ("sessionKey", "agentId", "model", "workspace")
        self.update(session_id, **{k: header[k] for k in keep if k in header}, transcript=transcript.path.name)

    def take_recovery_notice(self) -> str | None:
        """Once, after a damaged sessions.json was rebuilt: the line telling the user."""
        aside, self.recovered_to = self.recovered_to, None
        if aside is None:
            return None
        return f"sessions.json was damaged: rebuilt from the transcripts (the damaged file is kept as {aside.name})"

    def resumable(self, session_id: str, session_key: str, *, has_transcript: bool) -> None:
        """ValueError unless ``session_key`` may resume ``session_id``: it must exist, and a
        group or channel key never resumes another key's session (its history may quote
        MEMORY.md from a direct chat, or another group's messages)."""
        if is_forgotten(self.dir, session_id):
            raise ValueError(f"session {session_id!r} was forgotten (`memory forget --session`); it cannot be resumed")
        stored = self.get(session_id)
        if not has_transcript and stored is None:
            raise ValueError(f"no session {session_id!r} in {self.dir}")
        owner = stored.get("sessionKey") if stored else None
        if owner and owner != session_key and not is_direct_session(session_key):
            raise ValueError(
                f"session {session_id!r} belongs to {owner}; a group or channel session key cannot resume it "
                "(start a new session id)"
            )
        if owner and owner != session_key and not is_direct_session(owner):
            # continued under a direct key it would load MEMORY.md into a group's conversation
            raise ValueError(
                f"session {session_id[:8]}… belongs to the group key {owner}; resumed from {session_key} it would "
                f"load MEMORY.md: restart with --session-key {owner} to continue it"
            )

    def counters(self, session_id: str) -> dict[str, Any]:
        """The flush and compaction counters of a session (compactionCount, memoryFlush*)."""
        entry = self.get(session_id) or {}
        return {
            "compactionCount": int(entry.get("compactionCount") or 0),
            "memoryFlushCompactionCount": entry.get("memoryFlushCompactionCount"),
            "memoryFlushAt": entry.get("memoryFlushAt"),
        }

    def recent(self, current: str | None = None) -> list[dict[str, Any]]:
        """Every session, most recently active first, each with its ``transcript`` path,
        ``lastActivity`` (transcript mtime or ``updatedAt``, ms) and whether it is ``current``."""
        out = []
        for entry in self.list():
            sid = str(entry.get("sessionId", ""))
            path = self.dir / f"{sid}.jsonl"
            updated = int(entry.get("updatedAt") or 0)
            try:
                last = int(path.stat().st_mtime * 1000)
            except OSError:
                last = updated
            out.append({**entry, "transcript": str(path), "current": sid == current, "lastActivity": max(last, updated)})
        out.sort(key=lambda e: e["lastActivity"], reverse=True)
        return out

    def list(self) -> list[dict[str, Any]]:
        entries = [dict(v) for v in self.load().values() if isinstance(v, dict)]
        entries.sort(key=lambda e: e.get("updatedAt") or 0, reverse=True)
        return entries


def session_title(text: str) -> str:
    """A session's title: its first prompt on one line, at most 80 characters."""
    return " ".join(text.split())[:80]


def _ms(stamp: object) -> int | None:
    if not isinstance(stamp, str):
        return None
    try:
        return int(datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() * 1000)
    except ValueError:
        return None


def rebuild_from_transcripts(sessions_dir: Path) -> dict[str, dict[str, Any]]:
    """sessions.json entries recomputed from ``<sessionId>.jsonl`` files (header, compaction
    and flush entries), for when sessions.json itself is damaged."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(Path(sessions_dir).glob("*.jsonl")):
        entries = read_transcript(path)
        if not entries or entries[0].get("type") != "session":
            continue
        head = entries[0]
        sid = str(head.get("id") or path.stem)
        created = _ms(head.get("timestamp"))
        entry: dict[str, Any] = {
            "sessionId": sid,
            "createdAt": created,
            "compactionCount": 0,
            "memoryFlushCompactionCount": None,
            "memoryFlushAt": None,
            "transcript": path.name,
            "recovered": True,
        }
        for key in ("sessionKey", "agentId", "model"):
            if head.get(key) is not None:
                entry[key] = head[key]
        updated = created
        for e in entries[1:]:
            kind = e.get("type")
            stamp = _ms(e.get("timestamp"))
            updated = stamp or updated
            if kind == "compaction":
                entry["compactionCount"] = int(e.get("compactionCount") or entry["compactionCount"] + 1)
            elif kind == "flush" and not e.get("error"):
                entry["memoryFlushCompactionCount"] = entry["compactionCount"]
                entry["memoryFlushAt"] = stamp
            elif kind == "model" and e.get("model"):
                entry["model"] = e["model"]
            elif kind == "message" and "title" not in entry:
                msg = e.get("message") or {}
                if msg.get("role") == "user" and isinstance(msg.get("content"), str):
                    entry["title"] = session_title(msg["content"])
        entry["updatedAt"] = updated
        out[sid] = entry
    return out
