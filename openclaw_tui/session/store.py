"""``sessions.json``: one entry per session id, written atomically under a file lock."""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator


class SessionStore:
    def __init__(self, sessions_dir: Path):
        self.dir = Path(sessions_dir)
        self.path = self.dir / "sessions.json"
        self.lock_path = self.dir / ".sessions.lock"

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
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError, UnicodeDecodeError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, data: dict[str, Any]) -> None:
        fd, tmp = tempfile.mkstemp(prefix=".sessions.", suffix=".tmp", dir=self.dir)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, indent=2, ensure_ascii=False)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise

    def get(self, session_id: str) -> dict[str, Any] | None:
        return self.load().get(session_id)

    def update(self, session_id: str, **fields: Any) -> dict[str, Any]:
        with self._locked():
            data = self.load()
            now = int(time.time() * 1000)
            entry = data.get(session_id) or {
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

    def list(self) -> list[dict[str, Any]]:
        entries = [dict(v) for v in self.load().values() if isinstance(v, dict)]
        entries.sort(key=lambda e: e.get("updatedAt") or 0, reverse=True)
        return entries
