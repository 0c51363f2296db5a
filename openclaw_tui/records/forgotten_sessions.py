"""Sessions a ``memory forget --session …`` purged, so nothing ingests them again.

One JSON line per session in ``<sessions dir>/forgotten-sessions.jsonl`` (appended, fsynced,
mode 0600): its id, key, when, and the sha256 of the transcript's bytes. The session source of
the index (``memory/builtin/session_source.py``) skips a transcript whose session id, or whose
bytes, are on this list — a transcript restored from a backup is not indexed again — and a
session id on it is not resumed. The record holds no text of the session.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

FILE_NAME = "forgotten-sessions.jsonl"


@dataclass(frozen=True)
class ForgottenSession:
    session_id: str
    session_key: str
    forgotten_at: float
    transcript_sha256: str | None

    def to_json(self) -> str:
        return json.dumps({"sessionId": self.session_id, "sessionKey": self.session_key,
                           "forgottenAt": self.forgotten_at, "transcriptSha256": self.transcript_sha256})


def record_path(sessions_dir: Path) -> Path:
    return Path(sessions_dir) / FILE_NAME


def read_forgotten(sessions_dir: Path) -> list[ForgottenSession]:
    try:
        raw = record_path(sessions_dir).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    out = []
    for line in raw.splitlines():
        try:
            d = json.loads(line)
            out.append(ForgottenSession(str(d["sessionId"]), str(d.get("sessionKey") or ""),
                                        float(d.get("forgottenAt") or 0), d.get("transcriptSha256")))
        except (ValueError, KeyError, TypeError):
            continue  # a torn last line after a crash
    return out


def is_forgotten(sessions_dir: Path, session_id: str, digest: str | None = None) -> bool:
    """Whether a session (by id, or a transcript by its bytes' sha256) was forgotten."""
    return any(f.session_id == session_id or (digest is not None and f.transcript_sha256 == digest)
               for f in read_forgotten(sessions_dir))


def add_forgotten(sessions_dir: Path, sessions: list[ForgottenSession]) -> None:
    if not sessions:
        return
    path = record_path(sessions_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        os.write(fd, "".join(s.to_json() + "\n" for s in sessions).encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)


def now() -> float:
    return time.time()
