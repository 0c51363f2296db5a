"""Why a session cannot keep or read its memory in a workspace, said once, plainly.

``workspace_problem(ws)``: the workspace is missing or not a folder, or its MEMORY.md (or
memory.md) exists but cannot be opened as a plain file beneath it (a symlink, which may lead out
of the workspace; a device, FIFO or folder): then memory is off for that file (not in the prompt,
search, ``memory_get`` or appends) and the engine tells the user once, as a warning notice the
UI shows, what to do. A file with other hard links outside the workspace (a ``cp -al``
snapshot) is a plain file and works (``guard.check_file``).
"""

from __future__ import annotations

import os
from pathlib import Path

from openclaw_tui.workspace import safe_fs
from openclaw_tui.workspace.guard import PathRefused

CURATED_NAMES = ("MEMORY.md", "memory.md")


def workspace_problem(ws: Path) -> str | None:
    """Why notes cannot be kept in workspace ``ws``, else None."""
    if not ws.is_dir():
        if ws.exists():
            return f"workspace {ws} is a file, not a folder: memory files cannot be read or saved; pass --workspace DIR"
        return (
            f"new workspace {ws}: the first saved note creates it (`openclaw-tui init --workspace {ws}` "
            "sets it up now with the template files)"
        )
    for name in CURATED_NAMES:
        if not os.path.lexists(ws / name):
            continue
        try:
            fd, _st = safe_fs.open_file(ws, name)
        except PathRefused as exc:
            return (f"memory is off for {name}: {exc.reason}; it is not loaded, searched or written. "
                    f"Make {ws / name} a plain file inside the workspace to turn it back on")
        except OSError as exc:
            return f"memory is off for {name}: it cannot be opened ({exc.strerror or exc})"
        os.close(fd)
        return None
    return None
