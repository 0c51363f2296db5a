"""``memory_get``'s read, shared by the builtin and QMD backends.

The file is opened beneath its root through ``workspace.safe_fs`` (no symlink anywhere, a
regular single-link file), the privacy rule is checked on the opened file's identity, and
the text is read incrementally: a line range never loads more than it returns, a whole-file
read is refused above the size cap and cut at ``MAX_GET_CHARS``.
"""

from __future__ import annotations

import os
from pathlib import Path

from openclaw_tui.memory.api import ReadResult
from openclaw_tui.workspace import safe_fs
from openclaw_tui.workspace.guard import PathRefused
from openclaw_tui.workspace.privacy import PRIVATE_REFUSAL, hidden_for, is_private_file
from openclaw_tui.workspace.supersede import hidden_lines

#: memory_get returns at most this many characters
MAX_GET_CHARS = 200_000


def refused(shown: str, reason: str) -> ReadResult:
    """A ``memory_get`` refusal (``disabled``, ``refused: <reason>``)."""
    return ReadResult(path=shown, disabled=True, error=f"refused: {reason}")


def read_memory_file(workspace: Path, root: Path, rel: str, shown: str, from_line: int | None,
                     lines: int | None, *, session_key: str) -> ReadResult:
    """The text of ``root/rel`` (``rel`` normalised), or why not; never raises OSError."""
    private_hidden = hidden_for(session_key)
    if private_hidden and is_private_file(workspace, Path(root) / rel):
        return ReadResult(path=shown, disabled=True, error=PRIVATE_REFUSAL)
    try:
        fd, st = safe_fs.open_file(Path(root), rel)
    except FileNotFoundError:
        return ReadResult(path=shown)
    except PathRefused as exc:
        return refused(shown, exc.reason)
    except OSError as exc:
        return ReadResult(path=shown, error=f"cannot read {shown}: {exc.strerror or exc}")
    try:
        if private_hidden and is_private_file(workspace, Path(root) / rel, st):
            return ReadResult(path=shown, disabled=True, error=PRIVATE_REFUSAL)
        whole = from_line is None and lines is None
        if whole and st.st_size > safe_fs.MAX_FILE_BYTES:
            reason = safe_fs.FileTooLarge(shown, st.st_size, safe_fs.MAX_FILE_BYTES).reason
            return ReadResult(path=shown, error=f"{reason}; read a range with from/lines")
        got = safe_fs.read_lines(fd, from_line or 1, lines, MAX_GET_CHARS)
    finally:
        os.close(fd)
    return ReadResult(
        path=shown, text="\n".join(got.lines),
        superseded=tuple(sorted(got.start + i for i in hidden_lines(got.lines))),
        from_line=None if whole else got.start, lines=None if whole else len(got.lines),
        truncated=got.truncated,
        note=f"text cut at {MAX_GET_CHARS} characters; read a range with from/lines" if got.truncated else None,
    )
