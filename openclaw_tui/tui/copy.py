"""Copying text out of the app: the terminal clipboard (OSC 52) and a file beside it.

OSC 52 reaches the system clipboard only when the terminal (and tmux, with
``set-clipboard on``) passes it on, and nothing tells the app whether it did; so every
copy is also written to ``clipboard.txt`` in the state folder and the notice says where.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from openclaw_tui.owner_only import private_dir

if TYPE_CHECKING:
    from textual.app import App

CLIPBOARD_FILE = "clipboard.txt"


def clipboard_file(state_dir: Path | None) -> Path | None:
    return None if state_dir is None else Path(state_dir) / CLIPBOARD_FILE


def save_copy(text: str, path: Path | None) -> Path | None:
    """Write ``text`` to ``path`` (owner-only, replacing the last copy, never through a link); None when it failed."""
    if path is None:
        return None
    tmp = ""
    try:
        private_dir(path.parent)
        # a fresh name each time, created exclusively 0600: a planted link or a leftover is never written through
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)  # the new file keeps its own 0600, whatever mode the old copy had
    except OSError:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return None
    return path


def copy_text(app: "App", text: str, state_dir: Path | None, what: str = "text") -> str:
    """Copy ``text`` (OSC 52 + the file); the one-line notice to show."""
    app.copy_to_clipboard(text)
    saved = save_copy(text, clipboard_file(state_dir))
    size = f"{len(text):,} character{'s' if len(text) != 1 else ''}"
    where = f" · also in {saved}" if saved is not None else ""
    return f"copied {what} ({size}) to the clipboard{where}"
