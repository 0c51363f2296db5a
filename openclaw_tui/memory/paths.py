"""Which files the builtin ``memory_get`` may read, and the checks on its arguments."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from openclaw_tui.memory.sources import ExtraRoot, under_extra_prefix
from openclaw_tui.workspace.guard import PathRefused, is_memory_rel, normalize_rel, safe_join


def range_error(from_line: Any, lines: Any) -> str | None:
    """Why ``from``/``lines`` are not valid (each None or an integer >= 1), else None."""
    for name, value in (("from", from_line), ("lines", lines)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            return f"{name} must be an integer >= 1"
    return None


def _absolute(raw: str, roots: Iterable[ExtraRoot]) -> tuple[Path, str]:
    """An absolute key: only valid for extraPaths outside the workspace."""
    if "\x00" in raw or any(ord(ch) < 32 for ch in raw):
        raise PathRefused(raw, "path contains control or NUL characters")
    for root, prefix in roots:
        if prefix is not None:
            continue
        if raw == root.as_posix() and raw.lower().endswith(".md"):
            rel = normalize_rel(root.name)
            safe_join(root.parent, rel, allow_missing=True)
            return root.parent, rel
        if raw.startswith(root.as_posix().rstrip("/") + "/"):
            rel = normalize_rel(raw[len(root.as_posix().rstrip("/")) + 1 :])
            if not rel.lower().endswith(".md"):
                raise PathRefused(raw, "only .md files can be read")
            safe_join(root, rel, allow_missing=True)
            return root, rel
    raise PathRefused(raw, "absolute paths are refused unless they lie under memorySearch.extraPaths")


def resolve_get_path(workspace: Path, roots: list[ExtraRoot], raw: Any) -> tuple[Path, str]:
    """Map a memory_get path to ``(root, rel)`` of a checked file, or raise PathRefused."""
    if isinstance(raw, str) and raw.startswith("/"):
        return _absolute(raw, roots)
    rel = normalize_rel(raw)
    if rel.startswith("qmd/"):
        raise PathRefused(rel, "qmd/ paths are served by the QMD backend, which is not active")
    if not rel.lower().endswith(".md"):
        raise PathRefused(rel, "only .md files can be read")
    if not (is_memory_rel(rel) or under_extra_prefix(rel, roots)):
        raise PathRefused(rel, "only MEMORY.md, USER.md, memory/**/*.md and memorySearch.extraPaths can be read")
    safe_join(workspace, rel, allow_missing=True)
    return workspace, rel
