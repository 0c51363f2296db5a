"""Read-before-overwrite rules of the file tools and the memory history they keep."""

from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui.tools.files import FileTools
from openclaw_tui.records.history import ChangeOrigin, HistoryError, MemoryHistory
from openclaw_tui.records.restore import restore_before, undo_last

CURATED = "# Memory\n\n- likes tea\n- lives in Oslo\n- cat named Pixel\n"


@pytest.fixture
def history(tmp_path: Path) -> MemoryHistory:
    return MemoryHistory(tmp_path / "history")


@pytest.fixture
def tools(workspace: Path, history: MemoryHistory) -> FileTools:
    (workspace / "MEMORY.md").write_text(CURATED)
    return FileTools(workspace, history=history, origin=lambda: ChangeOrigin("model", "s1", 3))


def test_write_over_unread_file_is_refused_and_names_read_and_edit(tools: FileTools, workspace: Path) -> None:
    res = tools.write({"path": "MEMORY.md", "content": "## Favourite Color\n teal-4711"})
    assert res["refused"] and "read MEMORY.md" in res["error"] and "edit" in res["error"] and "append" in res["error"]
    assert (workspace / "MEMORY.md").read_text() == CURATED
    assert tools.changes == []


def test_a_partial_read_or_a_changed_file_needs_a_full_reread(tools: FileTools, workspace: Path) -> None:
    grown = CURATED + "- favourite colour teal\n"
    tools.read({"path": "MEMORY.md", "lines": 2})
    assert tools.write({"path": "MEMORY.md", "content": grown})["refused"]
    tools.read({"path": "MEMORY.md"})
    (workspace / "MEMORY.md").write_text(CURATED + "- edited by the user meanwhile\n")
    res = tools.write({"path": "MEMORY.md", "content": grown})
    assert res["refused"] and "changed since this session read it" in res["error"]
    tools.read({"path": "MEMORY.md"})
    assert tools.write({"path": "MEMORY.md", "content": grown + "- more\n"})["ok"]


def test_shrinking_write_is_refused_even_after_reading(tools: FileTools, workspace: Path) -> None:
    tools.read({"path": "MEMORY.md"})
    res = tools.write({"path": "MEMORY.md", "content": "## Favourite Color\n teal-4711"})
    assert res["refused"] and "shrink MEMORY.md" in res["error"] and "edit" in res["error"] and "append" in res["error"]
    assert (workspace / "MEMORY.md").read_text() == CURATED
    # a small rewrite (within the tolerance) of a file it has read is fine
    assert tools.write({"path": "MEMORY.md", "content": CURATED.replace("tea", "coffee")})["ok"]


def test_new_files_and_own_writes_need_no_read(tools: FileTools, workspace: Path) -> None:
    assert tools.write({"path": "notes/a.md", "content": "one\n"})["ok"]
    assert tools.write({"path": "notes/a.md", "content": "one\ntwo\n"})["ok"]  # it wrote all of it itself
    assert (workspace / "notes/a.md").read_text() == "one\ntwo\n"


def test_daily_logs_are_append_only_except_edits_of_lines_this_session_appended(tools: FileTools, workspace: Path) -> None:
    day = "memory/2026-01-05.md"
    tools.today_rel = lambda: day  # appends go to today's log only (issue 24): this test's today
    (workspace / day).write_text("- met Dana\n- cutover in March\n")
    tools.read({"path": day})
    res = tools.write({"path": day, "content": "- met Dana\n- cutover in March\n- more\n"})
    assert res["refused"] and "append-only" in res["error"] and "append" in res["error"]
    # read is not enough: a line the session did not append stays as it is
    res = tools.edit({"path": day, "old_text": "cutover in March", "new_text": "cutover in April"})
    assert res["refused"] and "this session appended" in res["error"]
    assert tools.append({"path": day, "content": "- another fact"})["ok"]
    (workspace / day).write_text((workspace / day).read_text() + "- added by the user\n")
    res = tools.edit({"path": day, "old_text": "added by the user", "new_text": "rewritten"})
    assert res["refused"] and "this session appended" in res["error"]
    # old_text running from its own line into an older one is refused too
    res = tools.edit({"path": day, "old_text": "March\n- another fact", "new_text": "x"})
    assert res["refused"]
    assert tools.edit({"path": day, "old_text": "another fact", "new_text": "another fact, corrected"})["ok"]
    assert tools.edit({"path": day, "old_text": "fact, corrected", "new_text": "fact (fixed)"})["ok"]  # its own edited line
    assert (workspace / day).read_text() == "- met Dana\n- cutover in March\n- another fact (fixed)\n- added by the user\n"


def test_every_memory_change_keeps_the_previous_bytes(tools: FileTools, workspace: Path, history: MemoryHistory) -> None:
    tools.read({"path": "MEMORY.md"})
    assert tools.append({"path": "MEMORY.md", "content": "- favourite colour teal-4711"})["ok"]
    assert tools.edit({"path": "MEMORY.md", "old_text": "likes tea", "new_text": "likes coffee"})["ok"]
    assert tools.write({"path": "notes.md", "content": "not memory"})["ok"]
    entries = history.entries()
    assert [(e.path, e.tool, e.actor, e.session_id, e.turn) for e in entries] == [
        ("MEMORY.md", "append", "model", "s1", 3),
        ("MEMORY.md", "edit", "model", "s1", 3),
        ("notes.md", "write", "model", "s1", 3),  # every file the tools change is kept, not only memory
    ]
    assert history.content(entries[0].before) == CURATED.encode()
    assert (entries[1].added, entries[1].removed) == (1, 1)
    assert [c.entry for c in tools.changes] == entries
    entries = entries[:2]
    change = restore_before(workspace, history, entries[0], ChangeOrigin("user"))
    assert (workspace / "MEMORY.md").read_bytes() == CURATED.encode()
    assert change.entry is not None and change.entry.undoes == entries[0].id and history.entries()[-1] == change.entry


def test_undo_reverts_this_sessions_changes_newest_first(tools: FileTools, workspace: Path, history: MemoryHistory) -> None:
    tools.read({"path": "MEMORY.md"})
    tools.append({"path": "MEMORY.md", "content": "- one"})
    after_one = (workspace / "MEMORY.md").read_bytes()
    tools.append({"path": "MEMORY.md", "content": "- two"})
    user = ChangeOrigin("user", "s1")
    undo_last(workspace, history, "s1", user)
    assert (workspace / "MEMORY.md").read_bytes() == after_one
    undo_last(workspace, history, "s1", user)
    assert (workspace / "MEMORY.md").read_bytes() == CURATED.encode()
    with pytest.raises(HistoryError, match="nothing to undo"):
        undo_last(workspace, history, "s1", user)
    with pytest.raises(HistoryError, match="nothing to undo"):
        undo_last(workspace, history, "another-session", user)


def test_undo_refuses_when_the_file_changed_since(tools: FileTools, workspace: Path, history: MemoryHistory) -> None:
    tools.read({"path": "MEMORY.md"})
    tools.append({"path": "MEMORY.md", "content": "- one"})
    (workspace / "MEMORY.md").write_text("edited by hand\n")
    with pytest.raises(HistoryError, match="has changed since"):
        undo_last(workspace, history, "s1", ChangeOrigin("user", "s1"))
    assert (workspace / "MEMORY.md").read_text() == "edited by hand\n"


def test_history_is_bounded_by_age_and_size(tmp_path: Path) -> None:
    history = MemoryHistory(tmp_path / "h", max_bytes=2_500, max_age_days=1)
    origin = ChangeOrigin()
    first = history.record("notes/a.md", b"a" * 600, b"b" * 600, "write", origin)
    for i in range(4):
        history.record("notes/a.md", bytes([65 + i]) * 600, bytes([70 + i]) * 600, "write", origin)
    dropped = history.prune()
    kept = history.entries()
    assert dropped == 3 and len(kept) == 2 and first not in kept
    assert sum(p.stat().st_size for p in history.objects.iterdir()) <= 2_500
    dropped = history.prune(now=kept[-1].ts + 2 * 86400)
    assert dropped == 1 and len(history.entries()) == 1  # the newest entry is always kept
    with pytest.raises(HistoryError, match="no history entry"):
        history.find(first.id)


def test_a_torn_journal_line_is_skipped(tmp_path: Path) -> None:
    history = MemoryHistory(tmp_path / "h")
    a = history.record("MEMORY.md", None, b"x\n", "write", ChangeOrigin())
    with open(history.journal, "ab") as fh:
        fh.write(b'{"id": "torn", "ts": 1')  # a crash mid-append
    b = history.record("MEMORY.md", b"x\n", b"y\n", "write", ChangeOrigin())
    assert history.entries() == [a, b]


def test_no_change_when_the_history_cannot_be_kept(workspace: Path, tmp_path: Path) -> None:
    (workspace / "MEMORY.md").write_text(CURATED)
    blocked = tmp_path / "not-a-dir"
    blocked.write_text("a file where the history folder should be")
    tools = FileTools(workspace, history=MemoryHistory(blocked))
    res = tools.append({"path": "MEMORY.md", "content": "- one"})
    assert "could not be kept in the memory history" in res["error"] and "nothing was changed" in res["error"]
    assert (workspace / "MEMORY.md").read_text() == CURATED and tools.changes == []
    res = tools.append({"path": "notes.md", "content": "- any file the tools change is kept too"})
    assert "nothing was changed" in res["error"] and not (workspace / "notes.md").exists()


def test_restore_never_writes_through_a_planted_symlink(tools: FileTools, workspace: Path, history: MemoryHistory, tmp_path: Path) -> None:
    from openclaw_tui.workspace.guard import PathRefused

    tools.read({"path": "MEMORY.md"})
    tools.append({"path": "MEMORY.md", "content": "- one"})
    outside = tmp_path / "outside.md"
    outside.write_text("not yours\n")
    (workspace / "MEMORY.md").unlink()
    (workspace / "MEMORY.md").symlink_to(outside)
    with pytest.raises(PathRefused, match="symlink|link"):
        restore_before(workspace, history, history.entries()[-1], ChangeOrigin("user"))
    with pytest.raises(HistoryError, match="cannot undo MEMORY.md"):
        undo_last(workspace, history, "s1", ChangeOrigin("user", "s1"))
    assert outside.read_text() == "not yours\n" and (workspace / "MEMORY.md").is_symlink()


def test_undoing_the_change_that_created_a_file_removes_it(tools: FileTools, workspace: Path, history: MemoryHistory) -> None:
    day = "memory/2026-02-01.md"
    tools.today_rel = lambda: day
    assert tools.append({"path": day, "content": "- first note of the day"})["ok"]
    assert history.entries()[-1].before is None
    change = undo_last(workspace, history, "s1", ChangeOrigin("user", "s1"))
    assert not (workspace / day).exists() and change.after is None
    assert history.entries()[-1].after is None  # the removal is recorded: restoring it brings the note back
    restore_before(workspace, history, history.entries()[-1], ChangeOrigin("user"))
    assert (workspace / day).read_text() == "- first note of the day\n"


@pytest.mark.parametrize(
    ("content", "kept"),
    [
        # Qwen2.5-Coder-1.5B's note for "Remember that my favourite colour is teal-4711."
        ("My favourite colour is teal-4711.\nSource: memory/2026-12-03.md#L1-1", "My favourite colour is teal-4711."),
        ("- Dana owns billing.\n\n**Source:** MEMORY.md#L4-L8\n", "- Dana owns billing.\n"),
        ("- a\n(Sources: memory/2026-01-05.md#L3)\n- b", "- a\n- b"),
        ("> Source: memory/x.md#L2-L9.", ""),
        # a citation inside a sentence, or a source that is not a memory citation, stays
        ("- The Source: memory/x.md#L1 line was wrong, said Dana.", "- The Source: memory/x.md#L1 line was wrong, said Dana."),
        ("- Source: the Q3 report", "- Source: the Q3 report"),
        ("", ""),
    ],
)
def test_a_note_keeps_its_facts_not_citation_lines(content: str, kept: str) -> None:
    from openclaw_tui.tools.note_text import drop_citation_lines

    assert drop_citation_lines(content) == kept


def test_append_to_a_memory_file_drops_a_copied_citation_line(tools: FileTools, workspace: Path) -> None:
    note = "My favourite colour is teal-4711.\nSource: memory/2026-12-03.md#L1-1"
    tools.today_rel = lambda: "memory/2026-12-03.md"
    assert tools.append({"path": "memory/2026-12-03.md", "content": note}) == {"path": "memory/2026-12-03.md", "ok": True, "linesAppended": 1}
    assert (workspace / "memory/2026-12-03.md").read_text() == "My favourite colour is teal-4711.\n"
    only = tools.append({"path": "memory/2026-12-03.md", "content": "Source: memory/2026-12-03.md#L1-L1"})
    assert "only a Source: line" in only["error"]
    assert tools.append({"path": "notes/log.md", "content": note})["ok"]  # not a memory file: as sent
    assert (workspace / "notes/log.md").read_text() == note + "\n"
