"""A stdio MCP server's stderr, kept as a log that holds no configured secret and cannot grow without bound.

The server writes into a pipe; a thread reads it line by line, replaces every secret of
the server's configuration (its ``env`` values, header values, secret-looking ``args``)
and every known key (``redaction.redact``) with ``***``, and appends the line to
``<stateDir>/mcp/<name>.stderr.log``. The folder is 0700 and the files 0600 (never opened
through a link). When the log would pass :data:`MAX_LOG_BYTES` it becomes ``….log.1`` (the
older one is dropped) and a new one starts, so a server keeps at most two files; a line
longer than :data:`MAX_LINE_CHARS` is cut. Each start of the server rotates the last log.
"""

from __future__ import annotations

import os
import select
import threading
from pathlib import Path
from typing import Iterable, TextIO

from openclaw_tui.owner_only import FILE_MODE, private_dir, tighten
from openclaw_tui.redaction import redact

MAX_LOG_BYTES = 1_000_000
MAX_LINE_CHARS = 8_000
_READ_CHUNK = 65_536
_HOLD_CHARS = 65_536  # a line without an end is redacted whole up to here, then cut


class StderrLog:
    def __init__(self, path: Path, secrets: Iterable[str] = (), max_bytes: int = MAX_LOG_BYTES):
        self.path = Path(path)
        self.secrets = [s for s in secrets if s]
        self.max_bytes = max_bytes
        self._rfd = -1
        self._writer: TextIO | None = None
        self._thread: threading.Thread | None = None
        self._busy = threading.Lock()
        self._size = 0

    # ------------------------------------------------------------------ lifetime

    def open(self) -> TextIO:
        """The pipe's write end, for the child's stderr; the reading thread is started."""
        private_dir(self.path.parent)
        self._rotate()
        rfd, wfd = os.pipe()
        self._rfd = rfd
        self._writer = os.fdopen(wfd, "w", encoding="utf-8", errors="replace")
        self._thread = threading.Thread(target=self._pump, name=f"mcp-stderr:{self.path.name}", daemon=True)
        self._thread.start()
        return self._writer

    def close(self, wait: float = 5.0) -> None:
        """Close our end of the pipe and let the thread write what is left (the child is gone)."""
        if self._writer is not None:
            try:
                self._writer.close()
            except OSError:
                pass
            self._writer = None
        if self._thread is not None:
            self._thread.join(wait)

    def settle(self, wait: float = 0.5) -> None:
        """Wait (a little) until what the child has written is in the file."""
        deadline = wait
        step = 0.02
        while deadline > 0 and self._thread is not None and self._thread.is_alive():
            with self._busy:
                try:
                    ready, _, _ = select.select([self._rfd], [], [], 0)
                except (OSError, ValueError):
                    return
                if not ready:
                    return
            threading.Event().wait(step)
            deadline -= step

    # ------------------------------------------------------------------ the thread

    def _pump(self) -> None:
        pending = ""
        try:
            while True:
                chunk = os.read(self._rfd, _READ_CHUNK)
                if not chunk:
                    break
                with self._busy:
                    pending += chunk.decode("utf-8", errors="replace")
                    *lines, pending = pending.split("\n")
                    if len(pending) > _HOLD_CHARS:  # a line with no end: keep its start, drop the rest
                        lines.append(pending)
                        pending = ""
                    for line in lines:
                        self._write(line)
            if pending:
                self._write(pending)
        except OSError:
            pass
        finally:
            os.close(self._rfd)

    def _write(self, line: str) -> None:
        text = redact(line, self.secrets)
        if len(text) > MAX_LINE_CHARS:
            text = text[:MAX_LINE_CHARS] + " …[line cut]"
        data = (text + "\n").encode("utf-8", errors="replace")
        if self._size + len(data) > self.max_bytes:
            self._rotate()
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
        except OSError:
            return
        try:
            os.write(fd, data[: self.max_bytes])
            self._size += min(len(data), self.max_bytes)
        finally:
            os.close(fd)

    def _rotate(self) -> None:
        """The current log becomes ``.1`` (replacing the older one); the next line starts a new one."""
        old = self.path.with_name(self.path.name + ".1")
        try:
            if self.path.is_symlink():
                self.path.unlink()
            elif self.path.exists():
                os.replace(self.path, old)
                tighten(old, FILE_MODE)
        except OSError:
            pass
        self._size = 0


def tail_line(path: Path, limit: int = 200) -> str:
    """The last non-empty line of a log (at most ``limit`` characters), "" when there is none."""
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - 16_384))
            data = fh.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
    lines = [ln.strip() for ln in data.splitlines() if ln.strip()]
    return lines[-1][:limit] if lines else ""
