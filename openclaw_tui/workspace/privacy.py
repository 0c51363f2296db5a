"""The privacy rule: a group or channel session never reads or is shown the private tier.

The private tier is the workspace's MEMORY.md and USER.md and every file under ``memory/``
except the shared tier ``memory/shared/`` (``workspace/tiers.py``): what direct sessions
wrote. Whether a file *is* private is decided on the file, not on the string that named it:
the path is stripped, normalised and resolved, and the file's identity (device, inode) is
compared with the workspace's ``MEMORY.md``/``USER.md``, and its folders' identities with
``memory/`` and ``memory/shared/``. So ``MEMORY.md/``, ``./memory/../memory/x.md``, an
absolute path through ``extraPaths``, a QMD ``qmd/<collection>/memory/x.md`` key, a link
and a case-insensitive file system all land on the same answer. Backends apply it to every
route (get, search results, the read tool, the CLI, ``mcp serve``).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from openclaw_tui.workspace.session_keys import PRIVATE_FILES, PRIVATE_REFUSAL, is_direct_session
from openclaw_tui.workspace.tiers import MEMORY_DIR, SHARED_DIR

__all__ = ["PRIVATE_REFUSAL", "is_private_file", "is_private_key", "private_identities", "hidden_for", "in_private_tier"]


def private_identities(workspace: Path) -> frozenset[tuple[int, int]]:
    """``(st_dev, st_ino)`` of the workspace's MEMORY.md / memory.md that exist."""
    out = set()
    for name in PRIVATE_FILES:
        try:
            st = os.stat(Path(workspace) / name, follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            out.add((st.st_dev, st.st_ino))
    return frozenset(out)


def _real(p: Path | str) -> str:
    try:
        return os.path.realpath(p)
    except (OSError, ValueError):
        return os.path.normpath(str(p))


def _dir_id(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISDIR(st.st_mode) else None


def in_private_tier(workspace: Path, path: Path | str) -> bool:
    """True when ``path`` (absolute) lies under the workspace's ``memory/`` but not under
    ``memory/shared/``: by the identity of its resolved folders, else (folders missing) by name."""
    ws = Path(workspace)
    memory, shared = _dir_id(ws / MEMORY_DIR), _dir_id(ws / SHARED_DIR)
    real = _real(path)
    if memory is not None:
        folder, below = os.path.dirname(real), None  # ``below``: the folder walked up from
        while True:
            here = _dir_id(Path(folder))
            if here is not None and here == shared:
                return False
            if here is not None and here == memory:
                # a shared/ not created yet: nothing beneath a missing folder can be a link
                return not (below is not None and os.path.basename(below) == "shared" and _dir_id(Path(below)) is None)
            up = os.path.dirname(folder)
            if up == folder:
                break
            folder, below = up, folder
    base = os.path.normcase(_real(ws))
    rel = os.path.relpath(os.path.normcase(real), base) if os.path.isabs(real) else real
    rel = rel.replace(os.sep, "/")
    return rel.startswith(MEMORY_DIR + "/") and not rel.startswith(SHARED_DIR + "/")


def is_private_file(workspace: Path, path: Path | str, st: os.stat_result | None = None,
                    identities: frozenset[tuple[int, int]] | None = None) -> bool:
    """True when ``path`` (absolute, or ``st`` of an opened file) is the workspace's MEMORY.md
    or USER.md, or lies in the private tier of ``memory/``."""
    ids = private_identities(workspace) if identities is None else identities
    if st is None:
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            st = None
    if st is not None and (st.st_dev, st.st_ino) in ids:
        return True
    text = os.path.normpath(str(path))
    if os.path.basename(text) in PRIVATE_FILES and _real(os.path.dirname(text)) == _real(workspace):
        return True
    return in_private_tier(workspace, text)


def is_private_key(workspace: Path, key: Any, identities: frozenset[tuple[int, int]] | None = None) -> bool:
    """True when a result key or a requested path (relative to the workspace or absolute)
    names a private file (``is_private_file``)."""
    raw = str(key or "").strip()
    if not raw or "\x00" in raw:
        return False
    p = Path(os.path.expanduser(raw)) if raw.startswith("~") else Path(raw)
    if not p.is_absolute():
        p = Path(workspace) / p
    return is_private_file(workspace, p, identities=identities)


def hidden_for(session_key: str) -> bool:
    """Whether this session must not see the private tier (a group or channel session)."""
    return not is_direct_session(session_key)


def drop_private(results: list[Any], workspace: Path, path_of: Any = None) -> list[Any]:
    """``results`` without the items whose path is a private file (``is_private_key``).

    ``path_of(item)`` gives the absolute file of an item (default: its ``path`` key)."""
    ids = private_identities(workspace)
    kept = []
    for item in results:
        where = path_of(item) if path_of is not None else (item.get("path") if isinstance(item, dict) else getattr(item, "path", None))
        if where is not None and is_private_key(workspace, where, ids):
            continue
        kept.append(item)
    return kept
