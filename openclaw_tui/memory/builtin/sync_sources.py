"""The sources of one builtin-index sync: pluggable providers, reading a document, and the
one test for "this file is indexed as it is".

Other sources than the memory files (session transcripts) plug in as callables that are
given the sync's ``SyncContext`` and return SourceDocs with ``text`` set instead of
``abs_path``. ``collect_docs`` gathers one sync's documents, ``read_doc`` reads one safely and
``unchanged`` is the one test for "this file is indexed as it is".
"""

from __future__ import annotations

import hashlib
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from openclaw_tui.memory.builtin.chunk_files import FileRow
from openclaw_tui.memory.builtin.store import Store
from openclaw_tui.memory.sources import SourceDoc, memory_docs
from openclaw_tui.workspace import safe_fs

log = logging.getLogger("openclaw_tui.memory.sources")


@dataclass(frozen=True)
class SyncContext:
    """What a sync tells its sources: the live index (during a rebuild, the one being
    replaced, so a source sees what is indexed now) and whether the sync is forced
    (``memory index --force``: sources backfill then)."""

    store: Store
    force: bool = False


#: an extra source: given the sync's context, the documents it produces. Give it a
#: ``source`` attribute naming the source it produces.
SourceProvider = Callable[[SyncContext], Iterable[SourceDoc]]


def unchanged(row: FileRow | None, doc: SourceDoc) -> bool:
    """``doc`` is indexed as it is now: same source, mtime, size (and hash when the source
    knows it). A row without a hash was indexed without vectors while the provider was down."""
    return (
        row is not None
        and bool(row.hash)
        and row.source == doc.source
        and row.mtime_ns == doc.mtime_ns
        and row.size == doc.size
        and (doc.hash is None or doc.hash == row.hash)
    )


def _source_name(provider: SourceProvider) -> str:
    return str(getattr(provider, "source", provider))


def collect_docs(workspace: Path, extra_paths: Iterable[object], memory_on: bool, providers: Iterable[SourceProvider],
                 ctx: SyncContext, errors: list[str]) -> tuple[list[SourceDoc], set[str]]:
    """All documents of one sync (first one per key) plus the sources whose listing
    succeeded (their vanished files may be pruned). One failing extra source keeps every
    source but memory from being pruned."""
    docs: list[SourceDoc] = []
    ok: set[str] = set()
    if memory_on:
        if workspace.is_dir():
            docs.extend(memory_docs(workspace, extra_paths, errors))
            ok.add("memory")
        else:
            errors.append(f"workspace {workspace} does not exist")
    failed = False
    for provider in list(providers):
        try:
            got = list(provider(ctx))
        except Exception as exc:
            failed = True
            errors.append(f"source {_source_name(provider)} failed: {exc}")
            log.warning("memory source %s failed: %s", _source_name(provider), exc)
            continue
        docs.extend(got)
        name = getattr(provider, "source", None)
        if name:
            ok.add(str(name))
        ok.update(d.source for d in got)
    if failed:
        ok = {s for s in ok if s == "memory"}
    seen: set[str] = set()
    uniq = []
    for d in docs:
        if d.path not in seen:
            seen.add(d.path)
            uniq.append(d)
    return uniq, ok


def read_doc(doc: SourceDoc) -> tuple[str, str, bool]:
    """(text, sha256 of the raw content, had invalid UTF-8). Raises OSError or PathRefused."""
    if doc.text is not None:
        raw = doc.text.encode("utf-8", "surrogatepass")
        return doc.text, doc.hash or hashlib.sha256(raw).hexdigest(), False
    assert doc.abs_path is not None
    # opened once beneath the source root without following any link and checked through the
    # open descriptor: a symlink or a special file swapped in after the listing is refused
    # (PathRefused); a file with other hard links is a plain file (a cp -al snapshot)
    root = doc.root if doc.root is not None else doc.abs_path.parent
    rel = doc.abs_path.relative_to(root).as_posix()
    fd, st = safe_fs.open_file(root, rel)
    try:
        raw = safe_fs.read_bytes(fd, st, doc.path)
    finally:
        os.close(fd)
    digest = hashlib.sha256(raw).hexdigest()
    try:
        return raw.decode("utf-8"), digest, False
    except UnicodeDecodeError:
        return raw.decode("utf-8", errors="replace"), digest, True
