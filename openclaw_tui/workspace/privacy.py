"""The privacy rule: MEMORY.md and USER.md of a workspace are never read or shown in a group session.

Whether a file *is* that MEMORY.md is decided on the file, not on the string that named it:
the path is stripped, normalised and resolved, and the file's identity (device, inode) is
compared with the workspace's ``MEMORY.md``/``memory.md``. So ``MEMORY.md/``,
``./MEMORY.md``, an absolute path through ``extraPaths``, a QMD ``qmd/<collection>/MEMORY.md``
key and a case-insensitive file system all land on the same answer. Backends apply it to
every route (get, search results, the read tool, the CLI).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from openclaw_tui.workspace.session_keys import PRIVATE_FILES, PRIVATE_REFUSAL, is_direct_session

__all__ = ["PRIVATE_REFUSAL", "is_private_file", "is_private_key", "private_identities", "hidden_for"]


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


def is_private_file(workspace: Path, path: Path | str, st: os.stat_result | None = None,
                    identities: frozenset[tuple[int, int]] | None = None) -> bool:
    """True when ``path`` (absolute, or ``st`` of an opened file) is the workspace's MEMORY.md."""
    ids = private_identities(workspace) if identities is None else identities
    if st is None:
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            st = None
    if st is not None and (st.st_dev, st.st_ino) in ids:
        return True
    text = os.path.normpath(str(path))
    return os.path.basename(text) in PRIVATE_FILES and _real(os.path.dirname(text)) == _real(workspace)


def is_private_key(workspace: Path, key: Any, identities: frozenset[tuple[int, int]] | None = None) -> bool:
    """True when a result key or a requested path (relative to the workspace or absolute)
    names the workspace's MEMORY.md."""
    raw = str(key or "").strip()
    if not raw or "\x00" in raw:
        return False
    p = Path(os.path.expanduser(raw)) if raw.startswith("~") else Path(raw)
    if not p.is_absolute():
        p = Path(workspace) / p
    return is_private_file(workspace, p, identities=identities)


def hidden_for(session_key: str) -> bool:
    """Whether this session must not see MEMORY.md (a group or channel session)."""
    return not is_direct_session(session_key)


def drop_private(results: list[Any], workspace: Path, path_of: Any = None) -> list[Any]:
    """``results`` without the items whose path is the workspace's MEMORY.md.

    ``path_of(item)`` gives the absolute file of an item (default: its ``path`` key)."""
    ids = private_identities(workspace)
    kept = []
    for item in results:
        where = path_of(item) if path_of is not None else (item.get("path") if isinstance(item, dict) else getattr(item, "path", None))
        if where is not None and is_private_key(workspace, where, ids):
            continue
        kept.append(item)
    return kept
