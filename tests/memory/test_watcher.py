"""The watchfiles watcher and the background sync triggered by search."""

from __future__ import annotations

import time

from openclaw_tui.events import IndexSynced
from openclaw_tui.memory.builtin.manager import MemoryManager

from .conftest import write


def wait_for(pred, timeout: float = 15.0, step: float = 0.1) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(step)
    return pred()


def test_watcher_picks_up_new_edited_and_deleted_files(workspace, make_settings, managers):
    write(workspace / "MEMORY.md", "- seed\n")
    events: list = []
    m = MemoryManager(
        make_settings(memorySearch={"provider": "none", "sync": {"watchDebounceMs": 300, "onSearch": False}}), sink=events.append
    )
    managers.append(m)
    m.sync()
    m.start_watcher()
    time.sleep(0.3)
    note = write(workspace / "memory/2026-04-01.md", "- Watched entry about gooseberries.\n")
    write(workspace / "notes/unrelated.md", "gooseberries outside memory\n")  # not a memory path
    assert wait_for(lambda: [r["path"] for r in m.search("gooseberries")["results"]] == ["memory/2026-04-01.md"])
    # the rows are searchable once committed; the sync's event follows a moment later
    assert wait_for(lambda: any(isinstance(e, IndexSynced) and e.reason == "watch" for e in events), timeout=5)
    note.write_text("- Watched entry about elderberries.\n", encoding="utf-8")
    assert wait_for(lambda: bool(m.search("elderberries")["results"]))
    note.unlink()
    assert wait_for(lambda: not m.search("elderberries")["results"])
    m.stop_watcher()
    assert m.watcher.watch_thread is None


def test_watcher_debounces_bursts(workspace, make_settings, managers):
    events: list = []
    m = MemoryManager(
        make_settings(memorySearch={"provider": "none", "sync": {"watchDebounceMs": 800, "onSearch": False}}), sink=events.append
    )
    managers.append(m)
    (workspace / "memory").mkdir()
    m.sync()
    m.start_watcher()
    time.sleep(0.3)
    for i in range(10):
        write(workspace / f"memory/burst-{i}.md", f"- burst {i}\n")
        time.sleep(0.02)
    assert wait_for(lambda: m.status()["files"] == 10)
    time.sleep(1.0)
    watch_syncs = [e for e in events if isinstance(e, IndexSynced) and e.reason == "watch"]
    assert 1 <= len(watch_syncs) <= 2  # one burst → one (at most two) syncs, not ten
    m.stop_watcher()


def test_watch_disabled_starts_no_thread(workspace, make_settings, managers):
    m = MemoryManager(make_settings(memorySearch={"provider": "none", "sync": {"watch": False}}))
    managers.append(m)
    m.start_watcher()
    assert m.watcher.watch_thread is None
    m.stop_watcher()


def test_search_triggers_background_sync_when_dirty(workspace, make_settings, managers):
    write(workspace / "MEMORY.md", "- seed\n")
    m = MemoryManager(make_settings(memorySearch={"provider": "none"}))
    managers.append(m)
    m.search("seed")  # first search syncs
    write(workspace / "memory/2026-05-01.md", "- background quinoa\n")
    first = m.search("quinoa")  # answers at once (possibly stale); sync runs behind it
    assert first["backend"] == "builtin" and "disabled" not in first
    m.wait_background_sync(timeout=30)
    assert [r["path"] for r in m.search("quinoa")["results"]] == ["memory/2026-05-01.md"]


def test_interval_sync(workspace, make_settings, managers):
    write(workspace / "MEMORY.md", "- seed\n")
    m = MemoryManager(make_settings(memorySearch={"provider": "none", "sync": {"watch": False, "intervalMinutes": 0.005}}))
    managers.append(m)
    m.sync()
    m.start_watcher()
    write(workspace / "memory/2026-05-02.md", "- interval persimmon\n")
    assert wait_for(lambda: m.status()["files"] == 2, timeout=10)
    m.stop_watcher()
