"""Update/embed scheduling with a fake qmd that logs its calls: boot sync (background or
waited), embed only when due, interval timer, debounce with one deferred sync."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from openclaw_tui.events import IndexSynced
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.memory.qmd import QmdBackend

from .helpers import fake_calls, make_fake_qmd, make_settings, write


def subcommands(d: Path) -> list[str]:
    out = []
    for call in fake_calls(d):
        args = call[2:] if call[:1] == ["--index"] else call
        out.append(" ".join(args[:2]) if args and args[0] == "collection" else (args[0] if args else ""))
    return out


def wait_for(pred, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.05)
    return pred()


@pytest.fixture
def make(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    fake_dir = tmp_path / "fake"
    script = make_fake_qmd(fake_dir, "ok")
    monkeypatch.setenv("FAKE_QMD_DIR", str(fake_dir))
    ws = tmp_path / "ws"
    write(ws / "MEMORY.md", "# Memory\n")
    write(ws / "memory" / "notes.md", "# notes\n")
    built: list[QmdBackend] = []

    def factory(**qmd: object) -> tuple[QmdBackend, list]:
        s = make_settings(tmp_path / "state", ws, {"qmd": {"command": str(script), **qmd}})
        events: list = []
        b = QmdBackend(s, sink=events.append, builtin=MemoryManager(s))
        built.append(b)
        return b, events

    factory.dir = fake_dir  # type: ignore[attr-defined]
    yield factory
    for b in built:
        b.close()


def test_wait_for_boot_sync_runs_collections_and_update_before_returning(make):
    b, events = make(update={"waitForBootSync": True})
    assert subcommands(make.dir) == ["collection add", "collection add", "update"]
    assert any(isinstance(e, IndexSynced) and e.reason == "qmd boot" for e in events)


def test_background_boot_sync_and_close_joins_it(make):
    b, _ = make()
    assert wait_for(lambda: "update" in subcommands(make.dir))
    b.close()
    assert b.schedule.boot_thread is not None and not b.schedule.boot_thread.is_alive()


def test_no_boot_when_on_boot_is_off(make):
    make(update={"onBoot": False})
    time.sleep(0.2)
    assert subcommands(make.dir) == []


def test_embed_skipped_in_search_mode_but_run_when_scheduled(make):
    make(update={"waitForBootSync": True})
    assert "embed" not in subcommands(make.dir)
    make(update={"waitForBootSync": True, "embedInterval": "1h"})
    assert subcommands(make.dir).count("embed") == 1


def test_embed_runs_at_boot_for_vector_modes(make):
    make(searchMode="vsearch", update={"waitForBootSync": True})
    assert subcommands(make.dir)[-2:] == ["update", "embed"]


def test_interval_timer_runs_updates_until_stopped(make):
    b, _ = make(update={"onBoot": False, "interval": "100ms", "debounceMs": 0})
    b.start_watcher()
    assert wait_for(lambda: subcommands(make.dir).count("update") >= 2)
    b.stop_watcher()
    n = subcommands(make.dir).count("update")
    time.sleep(0.4)
    assert subcommands(make.dir).count("update") <= n + 1  # at most one in flight when stopped


def test_debounced_sync_is_deferred_not_dropped(make):
    b, _ = make(update={"waitForBootSync": True, "debounceMs": 500})
    assert subcommands(make.dir).count("update") == 1
    out = b.sync(reason="write")
    assert out["skipped"] == "debounced"
    assert b.sync(reason="write again")["skipped"] == "debounced"
    assert wait_for(lambda: subcommands(make.dir).count("update") == 2)
    time.sleep(0.7)
    assert subcommands(make.dir).count("update") == 2  # the two debounced calls coalesced into one


def test_forced_sync_reports_counts(make):
    b, _ = make(update={"onBoot": False})
    out = b.sync(force=True, reason="cli")
    assert out["ok"] is True and out["updated"] is True and out["filesIndexed"] == 0
    assert "durationMs" in out


def test_search_during_slow_boot_falls_back_instead_of_blocking(make, monkeypatch):
    monkeypatch.setenv("FAKE_QMD_SLOW_ADD", "3")
    b, events = make(limits={"timeoutMs": 300})
    res = b.search("anything at all")
    assert res["fallback"]["reason"].startswith("start:") and "boot sync" in res["fallback"]["reason"]
    assert res["backend"] == "builtin"
    monkeypatch.delenv("FAKE_QMD_SLOW_ADD")
    b.schedule.boot_thread.join(30)
    res = b.search("anything at all")
    assert res["fallback"] is None and res["backend"] == "qmd"


def test_invalid_interval_warns_and_uses_default(make):
    b, events = make(update={"onBoot": False, "interval": "every so often"})
    assert b.update_interval_s == 300.0
    assert any("memory.qmd.update.interval" in getattr(e, "message", "") for e in events)
