"""Extra sources are given the sync's context; the dirty check and the sync agree on "unchanged"."""

from __future__ import annotations

import hashlib
from typing import Any

from openclaw_tui.memory.builtin.sync_sources import SyncContext, unchanged
from openclaw_tui.memory.sources import SourceDoc
from openclaw_tui.memory.builtin.chunk_files import FileRow

from .conftest import write


class Recording:
    """An extra source that remembers the contexts it was given."""

    source = "extra"

    def __init__(self, text: str = "kiwi orchard notes\n", source: str = "extra") -> None:
        self.text = text
        self.doc_source = source
        self.seen: list[SyncContext] = []
        self.indexed: list[set[str]] = []  # what the given store held when the source ran

    def __call__(self, ctx: SyncContext) -> list[SourceDoc]:
        self.seen.append(ctx)
        self.indexed.append(set(ctx.store.files()))
        raw = self.text.encode()
        return [SourceDoc(path="extra/notes.md", source=self.doc_source, text=self.text, mtime=1.0, mtime_ns=1,
                          size=len(raw), hash=hashlib.sha256(raw).hexdigest())]


def test_sources_get_the_live_store_and_whether_the_sync_is_forced(workspace: Any, keyword_manager: Any) -> None:
    write(workspace / "memory/a.md", "apple\n")
    m = keyword_manager()
    src = Recording()
    m.extra_sources.append(src)
    assert m.sync()["ok"] and m.sync(force=True)["ok"]
    assert [ctx.force for ctx in src.seen] == [False, True]
    # during the forced rebuild the source still sees the live index (what is indexed now)
    assert src.indexed[:2] == [set(), {"memory/a.md", "extra/notes.md"}]
    assert m.is_dirty() is False
    assert src.seen[-1].force is False


def test_a_file_moved_to_another_source_is_dirty(workspace: Any, keyword_manager: Any) -> None:
    """``is_dirty`` lacked the source test the sync has: a document that changed source with
    the same bytes was re-indexed by the next sync, yet reported clean."""
    m = keyword_manager()
    src = Recording()
    m.extra_sources.append(src)
    assert m.sync()["filesIndexed"] == 1 and m.is_dirty() is False
    src.doc_source = "other"
    assert m.is_dirty() is True
    rep = m.sync()
    assert rep["filesIndexed"] == 1 and m.is_dirty() is False
    assert m._get_store().files()["extra/notes.md"].source == "other"


def row(**over: Any) -> FileRow:
    base = dict(path="m.md", source="memory", hash="h", mtime=1.0, mtime_ns=5, size=3)
    return FileRow(**{**base, **over})


def doc(**over: Any) -> SourceDoc:
    base: dict[str, Any] = dict(path="m.md", source="memory", mtime_ns=5, size=3, hash=None)
    return SourceDoc(**{**base, **over})


def test_unchanged_table() -> None:
    cases = [
        (row(), doc(), True),
        (None, doc(), False),
        (row(hash=""), doc(), False),  # indexed without vectors while the provider was down
        (row(source="sessions"), doc(), False),
        (row(mtime_ns=6), doc(), False),
        (row(size=4), doc(), False),
        (row(), doc(hash="h"), True),
        (row(), doc(hash="other"), False),
    ]
    assert [unchanged(r, d) for r, d, _ in cases] == [want for _, _, want in cases]
