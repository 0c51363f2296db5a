"""The server's state after the fixed start of the prompt, kept on disk between runs (issue 38).

Every request of a workspace starts with the same bytes: the system prompt and the tool
schemas (``session/context.py`` puts what varies after them). llama.cpp keeps what it read of
the last prompt in its slot; a new run (``chat -p``, a scenario, a new TUI session) starts a
new server whose slot is empty and reads all of it again (880–1,720 tokens, 25–76 s on
2 cores). llama.cpp can write a slot to a file and read it back (``--slot-save-path``,
``POST /slots/0?action=save|restore``): the first request of a run restores the file kept
for its start, and the server then reads only what follows the part they share.

A file is named by the model and the hash of that start (``key``): another workspace, model or
tool list gets another file, never a wrong one (and llama.cpp reuses only the tokens a new
prompt shares with the restored ones). Files live in ``~/.openclaw/cache/llm-slots`` (a
folder only the user may open; the server writes them with umask 077), at most
``MAX_FILES`` and ``MAX_BYTES`` in all: the least recently used go first.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

MAX_FILES = 6
MAX_BYTES = 768 * 1024 * 1024
SUFFIX = ".slot"


def prefix_key(model: Path, messages: list[Any], tools: list[dict[str, Any]] | None) -> str:
    """The file name for a request's fixed start: the model file (name, size) and the bytes
    that come before anything a session varies (the first system message and the tools)."""
    try:
        size = model.stat().st_size
    except OSError:
        size = 0
    first = messages[0] if messages and messages[0].get("role") == "system" else {}
    h = hashlib.sha256()
    h.update(f"{model.name}\0{size}\0".encode())
    h.update(str(first.get("content") or "").encode("utf-8", "surrogatepass"))
    h.update(b"\0" + json.dumps(tools or [], sort_keys=True, ensure_ascii=False).encode())
    return f"{model.stem[:40]}-{h.hexdigest()[:20]}{SUFFIX}"


DIR_ENV = "OPENCLAW_LOCAL_SLOT_DIR"


def slot_dir() -> Path:
    """``OPENCLAW_LOCAL_SLOT_DIR``, else ``~/.openclaw/cache/llm-slots`` (``make_private``
    creates it): the user's, like the models (``files.models_dir``), not a state dir's, so a
    scenario or an eval in a fresh temp state dir starts from the prefix the last one saved."""
    env = os.environ.get(DIR_ENV, "").strip()
    return Path(env).expanduser() if env else Path.home() / ".openclaw" / "cache" / "llm-slots"


def make_private(directory: Path) -> None:
    """Create ``directory`` readable by its owner only (and make it so if it was not)."""
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(directory, 0o700)


def prune(directory: Path, *, keep: str | None = None, max_files: int = MAX_FILES, max_bytes: int = MAX_BYTES) -> list[Path]:
    """Remove the least recently used slot files past the bounds (never ``keep``); the removed."""
    files = []
    for p in directory.glob("*" + SUFFIX):
        try:
            st = p.stat()
        except OSError:
            continue
        files.append((st.st_mtime, st.st_size, p))
    files.sort(reverse=True)  # newest first
    removed: list[Path] = []
    total = 0
    for n, (_mtime, size, p) in enumerate(files):
        total += size
        if p.name != keep and (n >= max_files or total > max_bytes):
            try:
                p.unlink()
                removed.append(p)
                total -= size
            except OSError:
                pass
    return removed


def touch(path: Path) -> None:
    """Mark a slot file used now (the pruning keeps the recently used)."""
    try:
        os.utime(path)
    except OSError:
        pass
