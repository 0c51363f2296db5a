"""The memory guards hold across calls, tools and sessions (issue 30, point 2), and the history
keeps what it promised (point 3): real files, a real history store."""

from __future__ import annotations

import logging
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from openclaw_tui.tools.files import FileTools
from openclaw_tui.tools.write_policy import SHRINK_TOLERANCE
from openclaw_tui.records.history import KEEP_VERSIONS, ChangeOrigin, MemoryHistory
from openclaw_tui.records.restore import latest_for, restore_before

LINES = [f"- fact number {i:03d}: the user likes item {i}" for i in range(60)]
CURATED = "# Memory\n\n" + "\n".join(LINES) + "\n"


def _tools(workspace: Path, history: MemoryHistory, session: str = "s1") -> FileTools:
    return FileTools(workspace, history=history, origin=lambda: ChangeOrigin("model", session, 1))


def _floor(n: int) -> float:
    return n * (1 - SHRINK_TOLERANCE)


def test_one_edit_of_the_whole_file_cannot_empty_memory(workspace: Path, tmp_path: Path) -> None:
    (workspace / "MEMORY.md").write_text(CURATED)
    tools = _tools(workspace, MemoryHistory(tmp_path / "h"))
    res = tools.edit({"path": "MEMORY.md", "old_text": CURATED, "new_text": "x\n"})
    assert res["refused"] and "shrink" in res["error"]
    assert (workspace / "MEMORY.md").read_text() == CURATED


def test_ten_small_writes_do_not_add_up_past_the_tolerance(workspace: Path, tmp_path: Path) -> None:
    (workspace / "MEMORY.md").write_text(CURATED)
    tools = _tools(workspace, MemoryHistory(tmp_path / "h"))
    size = len(CURATED)
    refused = 0
    for _ in range(10):
        text = (workspace / "MEMORY.md").read_text()
        tools.read({"path": "MEMORY.md"})
        res = tools.write({"path": "MEMORY.md", "content": text[: int(len(text) * 0.91)]})
        refused += bool(res.get("refused"))
    assert refused >= 8 and len((workspace / "MEMORY.md").read_bytes()) >= _floor(size)


def test_the_window_holds_across_sessions(workspace: Path, tmp_path: Path) -> None:
    (workspace / "MEMORY.md").write_text(CURATED)
    history = MemoryHistory(tmp_path / "h")
    size = len(CURATED)
    for n in range(6):  # six sessions, each removing ~5 %
        tools = _tools(workspace, history, f"s{n}")
        text = (workspace / "MEMORY.md").read_text()
        cut = "".join(text.splitlines(keepends=True)[-4:])
        tools.edit({"path": "MEMORY.md", "old_text": cut, "new_text": ""})
    assert len((workspace / "MEMORY.md").read_bytes()) >= _floor(size)
    assert len((workspace / "MEMORY.md").read_bytes()) < size  # the first steps within the share did go through


_OPS = st.lists(st.tuples(st.sampled_from(["write", "edit"]), st.integers(1, 30), st.integers(0, 59)), min_size=1, max_size=12)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ops=_OPS)
def test_no_mix_of_writes_and_edits_shrinks_memory_past_the_share(ops, tmp_path_factory) -> None:
    root = tmp_path_factory.mktemp("mix")
    ws = root / "ws"
    ws.mkdir()
    (ws / "MEMORY.md").write_text(CURATED)
    tools = _tools(ws, MemoryHistory(root / "h"))
    for op, pct, line in ops:
        text = (ws / "MEMORY.md").read_text()
        if op == "write":
            tools.read({"path": "MEMORY.md"})
            tools.write({"path": "MEMORY.md", "content": text[: len(text) * (100 - pct) // 100]})
        else:
            rows = text.splitlines(keepends=True)
            chunk = "".join(rows[min(line, len(rows) - 1) : min(line, len(rows) - 1) + max(1, pct // 3)])
            if chunk and text.count(chunk) == 1:
                tools.edit({"path": "MEMORY.md", "old_text": chunk, "new_text": ""})
    assert len((ws / "MEMORY.md").read_bytes()) >= _floor(len(CURATED))


def test_a_junk_flood_never_prunes_memory_versions(workspace: Path, tmp_path: Path) -> None:
    (workspace / "MEMORY.md").write_text(CURATED)
    history = MemoryHistory(tmp_path / "h", max_bytes=200_000)
    tools = _tools(workspace, history)
    assert tools.edit({"path": "MEMORY.md", "old_text": LINES[0], "new_text": "- fact zero, corrected"})["ok"]
    for i in range(40):  # a flood of other files, far past the bound
        assert tools.write({"path": f"junk/{i}.md", "content": f"{i}" + "x" * 20_000})["ok"]
    history.prune()
    entry = latest_for(history, "MEMORY.md")
    assert history.content(entry.before).decode() == CURATED
    assert len([e for e in history.entries() if e.path.startswith("junk/")]) < 40  # the bound did apply
    restore_before(workspace, history, entry, ChangeOrigin("user"))
    assert (workspace / "MEMORY.md").read_text() == CURATED


def test_protected_files_keep_their_latest_versions(tmp_path: Path) -> None:
    history = MemoryHistory(tmp_path / "h", max_bytes=1)
    for i in range(KEEP_VERSIONS + 5):
        history.record("AGENTS.md", f"v{i}".encode(), f"v{i + 1}".encode(), "edit", ChangeOrigin())
        history.record("notes.md", None, f"n{i}".encode(), "write", ChangeOrigin())
    history.prune()
    kept = history.entries()
    assert len([e for e in kept if e.path == "AGENTS.md"]) == KEEP_VERSIONS
    assert len([e for e in kept if e.path == "notes.md"]) <= 1


def test_appends_to_a_big_log_store_only_what_they_add(workspace: Path, tmp_path: Path) -> None:
    day = "memory/2026-01-05.md"
    big = "".join(f"- line {i} of a long log with some words in it\n" for i in range(80_000))  # ~4 MB
    (workspace / day).write_text(big)
    (workspace / "MEMORY.md").write_text(CURATED)
    history = MemoryHistory(tmp_path / "h", max_bytes=16 * 1024 * 1024)
    tools = _tools(workspace, history)
    tools.today_rel = lambda: day  # appends go to today's log only (issue 24): this test's today
    assert tools.edit({"path": "MEMORY.md", "old_text": LINES[1], "new_text": "- fact one, corrected"})["ok"]
    for i in range(40):
        assert tools.append({"path": day, "content": f"- note {i}"})["ok"]
    history.prune()
    stored = sum(p.stat().st_size for p in history.objects.iterdir())
    assert stored < 2 * len(big)  # one full copy of the log, then deltas
    entries = [e for e in history.entries() if e.path == day]
    assert len(entries) == 40
    assert history.content(entries[-1].after) == (workspace / day).read_bytes()
    assert history.content(entries[0].before) == big.encode()
    assert history.content(latest_for(history, "MEMORY.md").before).decode() == CURATED


def test_a_journal_line_that_is_not_an_object_is_skipped_with_a_warning(workspace: Path, tmp_path: Path, caplog) -> None:
    (workspace / "MEMORY.md").write_text(CURATED)
    history = MemoryHistory(tmp_path / "h")
    tools = _tools(workspace, history)
    assert tools.append({"path": "MEMORY.md", "content": "- one"})["ok"]
    with open(history.journal, "ab") as fh:
        fh.write(b'[1, 2]\n"text"\n42\n{"id": 5, "path": null}\n{"unknown": true}\n')
    assert tools.append({"path": "MEMORY.md", "content": "- two"})["ok"]
    with caplog.at_level(logging.WARNING):
        entries = history.entries()
    assert [e.tool for e in entries] == ["append", "append"] and history.skipped == 5
    assert "skipped 5 unreadable journal line" in caplog.text
    restore_before(workspace, history, entries[0], ChangeOrigin("user"))
    assert (workspace / "MEMORY.md").read_text() == CURATED
