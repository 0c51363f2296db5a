"""Memory files: which documents are memory, wherever a backend finds them.

A ``SourceDoc`` is one indexable document. The memory source lists ``MEMORY.md`` (or
``memory.md``), ``memory/**/*.md`` and ``memorySearch.extraPaths``; symlinks (files or
directories) are never followed and ``.git``, ``node_modules``, ``.venv``, ``__pycache__``
are skipped. ``extra_roots`` and ``under_extra_prefix`` say where the extra paths lie. The
builtin index's sync (other sources, reading, the "unchanged" test) is
``memory/builtin/sync_sources.py``.
"""

from __future__ import annotations

import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from openclaw_tui.config.models import extra_path_pattern, extra_path_text
from openclaw_tui.memory.extra_glob import glob_match
from openclaw_tui.workspace.guard import printable_path
from openclaw_tui.workspace.session_keys import ROOT_MEMORY_FILES

log = logging.getLogger("openclaw_tui.memory.sources")

SKIP_DIRS = frozenset({".git", "node_modules", ".venv", "__pycache__", ".hg", ".svn"})

@dataclass
class SourceDoc:
    """One document to index.

    ``path`` is the index key shown in results (workspace-relative for workspace files,
    absolute for extra paths outside the workspace, ``sessions/<file>`` for transcripts).
    Either ``abs_path`` (read by the indexer) or ``text`` is set. ``hash`` may be given by
    the provider to skip reading; otherwise the indexer hashes the content.
    """

    path: str
    source: str = "memory"
    abs_path: Path | None = None
    text: str | None = None
    mtime: float = 0.0
    mtime_ns: int = 0
    size: int = 0
    hash: str | None = None
    #: the folder ``abs_path`` is opened beneath (no link followed from here down)
    root: Path | None = None

def _doc_for(abs_path: Path, key: str, st: os.stat_result, root: Path) -> SourceDoc:
    return SourceDoc(
        path=key,
        source="memory",
        abs_path=abs_path,
        mtime=st.st_mtime,
        mtime_ns=st.st_mtime_ns,
        size=st.st_size,
        root=root,
    )

def _undecodable(path: str, errors: list[str]) -> bool:
    """True (after one warning naming the file, bytes escaped) for a name that is not UTF-8."""
    try:
        path.encode("utf-8")
        return False
    except UnicodeEncodeError:
        msg = f"skipped {printable_path(path)}: the file name is not valid UTF-8"
        errors.append(msg)
        log.warning("%s", msg)
        return True

def _walk_md(root: Path, rel_prefix: str | None, errors: list[str]) -> Iterator[tuple[Path, str, os.stat_result]]:
    """Yield ``(abs path, key, lstat)`` for every regular ``*.md`` under ``root``, no symlinks."""
    stack = [root]
    while stack:
        d = stack.pop()
        try:
            entries = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError as exc:
            errors.append(f"cannot list {d}: {exc.strerror or exc}")
            log.warning("skipping unreadable directory %s: %s", d, exc.strerror or exc)
            continue
        subdirs = []
        for e in entries:
            if _undecodable(e.path, errors):
                continue
            try:
                if e.is_symlink():
                    continue
                if e.is_dir(follow_symlinks=False):
                    if e.name not in SKIP_DIRS:
                        subdirs.append(Path(e.path))
                    continue
                if not e.name.lower().endswith(".md"):
                    continue
                st = e.stat(follow_symlinks=False)
            except OSError as exc:
                errors.append(f"cannot stat {e.path}: {exc.strerror or exc}")
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            p = Path(e.path)
            key = f"{rel_prefix}/{p.relative_to(root).as_posix()}" if rel_prefix is not None else p.as_posix()
            yield p, key, st
        stack.extend(reversed(subdirs))

def _lstat(p: Path) -> os.stat_result | None:
    try:
        return os.lstat(p)
    except OSError:
        return None

def _no_symlink_between(root: Path, target: Path) -> bool:
    """True when no component from ``root`` down to ``target`` (inclusive) is a symlink."""
    try:
        rel = target.relative_to(root)
    except ValueError:
        return False
    cur = root
    for part in rel.parts:
        cur = cur / part
        st = _lstat(cur)
        if st is None or stat.S_ISLNK(st.st_mode):
            return False
    return True

def resolve_extra_path(workspace: Path, raw: str) -> tuple[Path, str | None]:
    """Absolute path of an extraPaths entry and its key prefix (workspace-relative when inside)."""
    p = Path(os.path.expanduser(raw))
    if not p.is_absolute():
        p = workspace / p
    p = Path(os.path.normpath(p))
    try:
        rel = p.relative_to(workspace)
        return p, rel.as_posix() if str(rel) != "." else ""
    except ValueError:
        return p, None

def memory_docs(workspace: Path, extra_paths: Iterable[object] = (), errors: list[str] | None = None) -> list[SourceDoc]:
    """Every memory-source document, sorted by key, de-duplicated. An ``extraPaths`` entry is
    a path or ``{path, pattern}``: then only the files under it whose relative path matches
    the glob (``memory/extra_glob.py``); symlinks are skipped either way, as OpenClaw's
    builtin engine does."""
    errors = errors if errors is not None else []
    docs: dict[str, SourceDoc] = {}
    if not workspace.is_dir():
        return []
    for name in ROOT_MEMORY_FILES:
        p = workspace / name
        st = _lstat(p)
        if st is not None and stat.S_ISREG(st.st_mode):
            # on case-insensitive filesystems both names are the same file
            if any(d.abs_path and os.path.samefile(d.abs_path, p) for d in docs.values()):
                continue
            docs[name] = _doc_for(p, name, st, workspace)
    mem = workspace / "memory"
    st = _lstat(mem)
    if st is not None and stat.S_ISDIR(st.st_mode):
        for p, key, fst in _walk_md(mem, "memory", errors):
            docs.setdefault(key, _doc_for(p, key, fst, workspace))
    for item in extra_paths:
        raw, pattern = extra_path_text(item), extra_path_pattern(item)  # type: ignore[arg-type]
        if not raw or not str(raw).strip():
            continue
        p, prefix = resolve_extra_path(workspace, str(raw))
        st = _lstat(p)
        if st is None:
            log.info("extraPaths entry %s does not exist; skipped", raw)
            continue
        if stat.S_ISLNK(st.st_mode):
            log.info("extraPaths entry %s is a symlink; skipped", raw)
            continue
        if prefix is not None and not _no_symlink_between(workspace, p):
            continue
        if stat.S_ISDIR(st.st_mode):
            for fp, key, fst in _walk_md(p, prefix, errors):
                if pattern is not None and not glob_match(pattern, fp.relative_to(p).as_posix()):
                    continue
                if prefix == "":
                    key = key.lstrip("/")
                docs.setdefault(key, _doc_for(fp, key, fst, p))
        elif stat.S_ISREG(st.st_mode) and p.name.lower().endswith(".md") and (pattern is None or glob_match(pattern, p.name)):
            key = prefix if prefix else p.as_posix()
            docs.setdefault(key, _doc_for(p, key, st, p.parent))
    return [docs[k] for k in sorted(docs)]

ExtraRoot = tuple[Path, str | None]

def extra_roots(workspace: Path, extra_paths: Iterable[object]) -> list[ExtraRoot]:
    """``(absolute path, workspace-relative prefix or None)`` of each configured extra path."""
    texts = (extra_path_text(p) for p in extra_paths)  # type: ignore[arg-type]
    return [resolve_extra_path(workspace, t) for t in texts if t.strip()]

def under_extra_prefix(rel: str, roots: Iterable[ExtraRoot]) -> bool:
    """Whether workspace-relative ``rel`` lies under an extra path inside the workspace."""
    return any(prefix is not None and (prefix == "" or rel == prefix or rel.startswith(prefix + "/"))
               for _, prefix in roots)
