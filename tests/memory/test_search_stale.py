"""``memory search`` says which hits come from a file that changed since it was indexed
(OpenClaw's ``stale``): per hit in the API and ``--json``, and in the CLI's text."""

from __future__ import annotations

import os

from openclaw_tui.memory.builtin.staleness import is_stale

from .conftest import write


def test_a_changed_file_makes_its_hits_stale_until_the_next_sync(workspace, keyword_manager):
    note = write(workspace / "memory/2026-02-01.md", "# 2026-02-01\n\n- The boiler service is booked for March.\n")
    write(workspace / "MEMORY.md", "# Memory\n\n- The boiler is a Vaillant ecoTEC.\n")
    m = keyword_manager(sync={"onSearch": False, "watch": False})  # the index stays as it was
    assert m.sync()["ok"]
    first = m.search("boiler")["results"]
    assert first and not any(r.get("stale") for r in first)
    note.write_text("# 2026-02-01\n\n- Moved up: the boiler service is now in February.\n- Also the chimney.\n")
    res = m.search("boiler")["results"]
    by_path = {r["path"]: r for r in res}
    assert by_path["memory/2026-02-01.md"].get("stale") is True
    assert "stale" not in by_path["MEMORY.md"]
    m.sync()
    assert not any(r.get("stale") for r in m.search("boiler")["results"])


def test_a_touch_that_changed_nothing_is_not_stale(workspace, keyword_manager):
    note = write(workspace / "memory/2026-02-02.md", "# 2026-02-02\n\n- The heat pump quote came in.\n")
    m = keyword_manager()
    assert m.sync()["ok"]
    row = m.index.store().files()["memory/2026-02-02.md"]
    os.utime(note, ns=(row.mtime_ns + 5_000_000_000, row.mtime_ns + 5_000_000_000))
    assert not is_stale(workspace, "memory/2026-02-02.md", row)
    note.unlink()
    assert is_stale(workspace, "memory/2026-02-02.md", row)
