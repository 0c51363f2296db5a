"""The builtin index on real SQLite files in temp dirs (keyword-only: no provider)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from openclaw_tui.events import IndexSynced
from openclaw_tui.memory.builtin.manager import MemoryManager

from .conftest import write


def paths_of(result: dict) -> list[str]:
    return [r["path"] for r in result["results"]]


def test_initial_sync_and_search(workspace, keyword_manager):
    write(workspace / "MEMORY.md", "# Memory\n\n- Preferred editor: helix\n")
    write(workspace / "memory/2026-01-05.md", "# 2026-01-05\n\n- Deployed the billing service to staging.\n")
    write(workspace / "memory/projects/atlas.md", "# Atlas\n\nAtlas uses PostgreSQL 16 and Redis.\n")
    write(workspace / "AGENTS.md", "helix billing atlas\n")  # not a memory file
    write(workspace / "memory/notes.txt", "helix\n")  # not markdown
    m = keyword_manager()
    rep = m.sync()
    assert rep["ok"] and rep["filesIndexed"] == 3 and rep["files"] == 3
    res = m.search("which editor do I prefer? helix")
    assert res["results"][0]["path"] == "MEMORY.md"
    r = res["results"][0]
    assert set(r) >= {"path", "startLine", "endLine", "score", "snippet", "source"}
    assert r["source"] == "memory" and r["startLine"] == 1 and r["endLine"] == 3
    assert res["backend"] == "builtin" and res["provider"] == "none" and res["fallback"] is None
    assert isinstance(res["searchMs"], float)
    assert paths_of(m.search("PostgreSQL"))[0] == "memory/projects/atlas.md"


def test_first_search_on_empty_index_syncs(workspace, keyword_manager):
    write(workspace / "memory/2026-02-01.md", "- Booked flights to Lisbon for March.\n")
    events = []
    m = keyword_manager()
    m.sink = events.append
    res = m.search("Lisbon flights")
    assert paths_of(res) == ["memory/2026-02-01.md"]
    assert any(isinstance(e, IndexSynced) and e.reason == "first-search" for e in events)


def test_incremental_sync_edit_delete_rename(workspace, keyword_manager):
    a = write(workspace / "memory/a.md", "alpha apples\n")
    b = write(workspace / "memory/b.md", "bravo bananas\n")
    m = keyword_manager()
    assert m.sync()["filesIndexed"] == 2
    # unchanged
    rep = m.sync()
    assert rep["filesIndexed"] == 0 and rep["filesUnchanged"] == 2 and not m.is_dirty()
    # edit
    a.write_text("alpha apricots\n", encoding="utf-8")
    os.utime(a, ns=(a.stat().st_atime_ns, a.stat().st_mtime_ns + 10_000_000))
    assert m.is_dirty()
    rep = m.sync()
    assert rep["filesIndexed"] == 1 and rep["filesUnchanged"] == 1
    assert paths_of(m.search("apricots")) == ["memory/a.md"]
    assert m.search("apples")["results"] == []
    m.wait_background_sync()
    # touch without a content change: hash says unchanged, nothing re-indexed
    os.utime(b, ns=(b.stat().st_atime_ns, b.stat().st_mtime_ns + 20_000_000))
    rep = m.sync()
    assert rep["filesIndexed"] == 0 and rep["filesUnchanged"] == 2
    assert not m.is_dirty()
    # delete
    b.unlink()
    rep = m.sync()
    assert rep["filesRemoved"] == 1 and rep["files"] == 1
    assert m.search("bananas")["results"] == []
    # rename (after the search's background dirty check has finished: under load it could
    # otherwise run after the rename and sync it before the explicit sync below)
    m.wait_background_sync()
    a.rename(workspace / "memory/renamed.md")
    rep = m.sync()
    assert rep["filesRemoved"] == 1 and rep["filesIndexed"] == 1
    assert paths_of(m.search("apricots")) == ["memory/renamed.md"]
    assert m.status()["files"] == 1


def test_extra_paths_symlinks_and_skipped_dirs(workspace, tmp_path, make_settings, managers):
    outside = tmp_path / "outside"
    write(outside / "team/handbook.md", "Zebra protocol for on-call handovers.\n")
    write(outside / "team/handbook.txt", "zebra txt\n")
    write(outside / "single.md", "Quokka facts.\n")
    write(workspace / "docs/guide.md", "Narwhal guide inside the workspace.\n")
    secret = write(tmp_path / "secret.md", "Platypus secret outside.\n")
    os.symlink(secret, workspace / "memory-link.md")
    (workspace / "memory").mkdir()
    os.symlink(secret, workspace / "memory/link.md")
    os.symlink(outside / "team", workspace / "memory/teamlink")
    write(workspace / "memory/.git/objects.md", "Platypus in git\n")
    write(workspace / "memory/node_modules/pkg/readme.md", "Platypus in node_modules\n")
    settings = make_settings(
        memorySearch={"provider": "none", "extraPaths": [str(outside / "team"), str(outside / "single.md"), "docs"]}
    )
    m = MemoryManager(settings)
    managers.append(m)
    m.sync()
    assert paths_of(m.search("zebra protocol")) == [(outside / "team/handbook.md").as_posix()]
    assert paths_of(m.search("quokka")) == [(outside / "single.md").as_posix()]
    assert paths_of(m.search("narwhal")) == ["docs/guide.md"]
    assert m.search("platypus")["results"] == []  # symlinks and skipped dirs never indexed
    assert m.status()["files"] == 3


def test_extra_path_that_is_a_symlink_is_ignored(workspace, tmp_path, make_settings, managers):
    real = write(tmp_path / "real/notes.md", "Wombat notes\n")
    os.symlink(real.parent, tmp_path / "linkdir")
    m = MemoryManager(make_settings(memorySearch={"provider": "none", "extraPaths": [str(tmp_path / "linkdir")]}))
    managers.append(m)
    m.sync()
    assert m.search("wombat")["results"] == []


def test_fingerprint_change_triggers_atomic_full_rebuild(workspace, make_settings, managers):
    write(workspace / "memory/log.md", "\n".join(f"- item {i} kiwi" for i in range(300)) + "\n")
    s1 = make_settings(memorySearch={"provider": "none"})
    m1 = MemoryManager(s1)
    managers.append(m1)
    r1 = m1.sync()
    chunks_before = r1["chunks"]
    ino_before = os.stat(s1.index_path).st_ino
    m1.close()
    s2 = make_settings(memorySearch={"provider": "none", "chunking": {"tokens": 100, "overlap": 10}})
    m2 = MemoryManager(s2)
    managers.append(m2)
    assert m2.is_dirty()
    events = []
    m2.sink = events.append
    r2 = m2.sync()
    assert r2["fullRebuild"] and r2["ok"]
    assert r2["chunks"] > chunks_before
    assert os.stat(s2.index_path).st_ino != ino_before  # a new file was swapped in
    assert not [p for p in s2.index_path.parent.iterdir() if ".rebuild-" in p.name]
    assert events and events[-1].full_rebuild
    assert m2.sync()["fullRebuild"] is False  # fingerprint now matches


def test_force_rebuild_and_stale_temp_file_cleanup(workspace, keyword_manager):
    write(workspace / "MEMORY.md", "- lemon\n")
    m = keyword_manager()
    m.sync()
    stale = m.index_path.with_name(m.index_path.name + ".rebuild-999999-1")
    stale.write_bytes(b"half-written rebuild from a crashed process")
    rep = m.sync(force=True)
    assert rep["fullRebuild"] and rep["files"] == 1
    assert not stale.exists()
    assert paths_of(m.search("lemon")) == ["MEMORY.md"]


def test_process_killed_mid_rebuild_leaves_old_index_usable(workspace, make_settings, managers, tmp_path):
    import signal
    import subprocess
    import sys
    import time

    write(workspace / "MEMORY.md", "- mango\n")
    body = "".join(f"- filler line {i} about routine things\n" for i in range(120_000))
    write(workspace / "memory/big.md", body)
    settings = make_settings(memorySearch={"provider": "none"})
    m = MemoryManager(settings)
    managers.append(m)
    m.sync()
    m.close()
    before = settings.index_path.read_bytes()
    code = (
        "from openclaw_tui.config import validate_config, resolve_agent\n"
        "from openclaw_tui.memory.builtin.manager import MemoryManager\n"
        "cfg = validate_config({'agents': {'defaults': {'memorySearch': {'provider': 'none'}}}})\n"
        f"m = MemoryManager(resolve_agent(cfg, workspace={str(workspace)!r}))\n"
        "m.sync(force=True)\n"
    )
    env = dict(os.environ, OPENCLAW_STATE_DIR=str(settings.state_dir))
    proc = subprocess.Popen([sys.executable, "-c", code], env=env)
    deadline = time.monotonic() + 60
    temp = []
    while time.monotonic() < deadline and not temp and proc.poll() is None:
        temp = [p for p in settings.index_path.parent.iterdir() if ".rebuild-" in p.name]
        time.sleep(0.02)
    assert temp, "the rebuild never started a temp file"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert settings.index_path.read_bytes() == before  # the live index was never touched
    m2 = MemoryManager(settings)
    managers.append(m2)
    assert paths_of(m2.search("mango")) == ["MEMORY.md"]
    assert not [p for p in settings.index_path.parent.iterdir() if ".rebuild-" in p.name]  # crashed temp removed
    assert m2.sync(force=True)["ok"]


def test_extra_source_pointing_at_a_directory_is_skipped(workspace, keyword_manager):
    from openclaw_tui.memory.sources import SourceDoc

    write(workspace / "memory/ok.md", "steady fig\n")
    (workspace / "weird.md").mkdir()
    m = keyword_manager()
    m.extra_sources.append(lambda ctx: [SourceDoc(path="weird.md", source="extra", abs_path=workspace / "weird.md", mtime_ns=1, size=1)])
    rep = m.sync()
    assert rep["filesIndexed"] == 1 and rep["filesSkipped"] == 1 and rep["ok"]


def test_invalid_utf8_is_replaced_and_logged(workspace, keyword_manager, caplog):
    f = write(workspace / "memory/bad.md", b"caf\xe9 opening hours\n\xff\xfe broken bytes\n")
    before = hashlib.sha256(f.read_bytes()).hexdigest()
    m = keyword_manager()
    with caplog.at_level("WARNING"):
        rep = m.sync()
    assert rep["filesIndexed"] == 1
    assert any("invalid UTF-8" in w for w in rep["warnings"])
    assert "invalid UTF-8" in caplog.text
    assert paths_of(m.search("opening hours")) == ["memory/bad.md"]
    assert hashlib.sha256(f.read_bytes()).hexdigest() == before  # never modified


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files regardless of permissions")
def test_unreadable_file_is_skipped(workspace, keyword_manager):
    write(workspace / "memory/ok.md", "readable durian\n")
    bad = write(workspace / "memory/locked.md", "locked durian\n")
    bad.chmod(0)
    try:
        m = keyword_manager()
        rep = m.sync()
        assert rep["filesIndexed"] == 1 and rep["filesSkipped"] == 1
        assert any("locked.md" in e for e in rep["errors"])
    finally:
        bad.chmod(0o644)


def test_file_vanishing_before_read_is_skipped(workspace, keyword_manager):
    from openclaw_tui.memory.sources import SourceDoc

    write(workspace / "memory/ok.md", "steady guava\n")
    m = keyword_manager()
    m.extra_sources.append(lambda ctx: [SourceDoc(path="ghost.md", source="extra", abs_path=workspace / "ghost.md", mtime_ns=1, size=5)])
    rep = m.sync()
    assert rep["filesIndexed"] == 1 and rep["filesSkipped"] == 1
    assert any("ghost.md" in e for e in rep["errors"])


def test_ten_megabyte_markdown_file(workspace, keyword_manager):
    line = "- routine log line about coffee, weather and errands number {}\n"
    body = "".join(line.format(i) for i in range(160_000))
    big = write(workspace / "memory/huge.md", body + "- the final line mentions xylophone\n")
    assert big.stat().st_size > 10_000_000
    digest = hashlib.sha256(big.read_bytes()).hexdigest()
    m = keyword_manager()
    rep = m.sync()
    assert rep["ok"] and rep["filesIndexed"] == 1 and rep["chunks"] > 1000
    res = m.search("xylophone")
    assert res["results"][0]["endLine"] == 160_001
    assert hashlib.sha256(big.read_bytes()).hexdigest() == digest


def test_missing_workspace_is_reported_not_created(tmp_path, make_settings, managers):
    ws = tmp_path / "nope"
    m = MemoryManager(make_settings(workspace_dir=ws, memorySearch={"provider": "none"}))
    managers.append(m)
    rep = m.sync()
    assert any("does not exist" in e for e in rep["errors"])
    assert m.search("anything")["results"] == []
    assert m.status()["workspaceExists"] is False
    g = m.get("MEMORY.md")
    assert g["text"] == "" and "does not exist" in g["error"]
    assert not ws.exists()


def test_corrupt_index_is_moved_aside_and_rebuilt(workspace, make_settings, managers):
    write(workspace / "MEMORY.md", "- papaya\n")
    settings = make_settings(memorySearch={"provider": "none"})
    settings.index_path.parent.mkdir(parents=True, exist_ok=True)
    settings.index_path.write_bytes(b"this is not a sqlite database" * 100)
    m = MemoryManager(settings)
    managers.append(m)
    assert paths_of(m.search("papaya")) == ["MEMORY.md"]
    aside = [p for p in settings.index_path.parent.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not")


def test_status_fields(workspace, keyword_manager):
    write(workspace / "MEMORY.md", "- status check\n")
    m = keyword_manager()
    st = m.status()
    assert st["backend"] == "builtin" and st["dirty"] is True and st["files"] == 0
    m.sync()
    st = m.status()
    for key in ("files", "chunks", "provider", "model", "vectorBackend", "ftsAvailable", "dirty", "indexPath"):
        assert key in st
    assert st["files"] == 1 and st["chunks"] == 1 and st["dirty"] is False
    assert st["vectorBackend"] == "sqlite-vec" and st["ftsAvailable"] is True
    assert st["provider"] == "none" and st["searchMode"] == "keyword-only"
    assert st["indexPath"].endswith("memory/main.sqlite")


def test_min_score_and_max_results(workspace, keyword_manager):
    for i in range(10):
        write(workspace / f"memory/2026-01-{i + 10:02d}.md", f"- walked the dog {i} times around the park\n")
    m = keyword_manager()
    m.sync()
    assert len(m.search("dog park")["results"]) == 6
    assert len(m.search("dog park", max_results=3)["results"]) == 3
    # nothing reaches 0.99: keyword hits come back with the floor relaxed to textWeight (0.3)
    res = m.search("dog park", min_score=0.99)
    assert res.get("relaxedMinScore") is True and res["results"]
    assert all(r["score"] >= 0.3 for r in res["results"])
    # a third of the terms: 0.5/3 + 0.15/3 = 0.217, below even the relaxed floor
    assert m.search("dog zeppelin hovercraft", min_score=0.99)["results"] == []


def test_keyword_only_never_imports_litellm(workspace, tmp_path):
    import subprocess
    import sys

    write(workspace / "MEMORY.md", "- quince\n")
    code = (
        "import sys\n"
        "from openclaw_tui.config import validate_config, resolve_agent\n"
        "from openclaw_tui.memory.builtin.manager import MemoryManager\n"
        f"s = resolve_agent(validate_config({{}}), workspace={str(workspace)!r})\n"
        "m = MemoryManager(s); r = m.search('quince'); m.close()\n"
        "assert r['results'][0]['path'] == 'MEMORY.md', r\n"
        "print('litellm' in sys.modules)\n"
    )
    env = dict(os.environ, OPENCLAW_STATE_DIR=str(tmp_path / "st"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_decay_and_mmr_through_config(workspace, make_settings, managers):
    write(workspace / "memory/2025-01-01.md", "- budget review meeting notes budget\n")
    write(workspace / "memory/2026-02-27.md", "- budget review meeting notes\n")
    from datetime import datetime, timezone

    plain = MemoryManager(make_settings(memorySearch={"provider": "none"}))
    decayed = MemoryManager(
        make_settings(memorySearch={"provider": "none", "query": {"hybrid": {"temporalDecay": {"enabled": True}, "mmr": {"enabled": True}}}})
    )
    managers.extend([plain, decayed])
    decayed.now = lambda: datetime(2026, 3, 1, tzinfo=timezone.utc)
    first_plain = paths_of(plain.search("budget review", min_score=0))[0]
    res = decayed.search("budget review", min_score=0)
    assert first_plain == "memory/2025-01-01.md"
    assert paths_of(res)[0] == "memory/2026-02-27.md"
    assert res["results"][1]["score"] < 0.01  # 14 months at a 30-day half-life


@pytest.mark.parametrize(
    "query, expected",
    [
        ("東京", "memory/2026-01-01.md"),
        ("记忆系统", "memory/2026-01-01.md"),
        ("三楼 会议室", "memory/2026-01-01.md"),
        ("寿司", "MEMORY.md"),
        ("서울 회의", "MEMORY.md"),
    ],
)
def test_cjk_search_finds_words_inside_unspaced_text(workspace, keyword_manager, query, expected):
    write(workspace / "memory/2026-01-01.md", "- 我们明天在東京开会讨论新的记忆系统设计。\n- 会议室在三楼\n")
    write(workspace / "MEMORY.md", "- 好きな食べ物は寿司です。\n- 서울에서 회의가 있어요\n")
    m = keyword_manager()
    assert [r["path"] for r in m.search(query)["results"]] == [expected]


def test_named_day_prefers_that_days_log(workspace, keyword_manager):
    write(workspace / "memory/2026-03-02.md", "- Lunch with Sam at the noodle bar.\n")
    write(workspace / "memory/2026-03-09.md", "- Lunch with Sam at the noodle bar again.\n")
    m = keyword_manager()
    assert [r["path"] for r in m.search("lunch with Sam on March 9")["results"]][0] == "memory/2026-03-09.md"
    assert [r["path"] for r in m.search("lunch with Sam on 2026-03-09")["results"]][0] == "memory/2026-03-09.md"
    # without a day, equal scores fall back to path order
    assert [r["path"] for r in m.search("lunch with Sam")["results"]][0] == "memory/2026-03-02.md"


def test_heading_context_is_searchable_but_not_part_of_results(workspace, keyword_manager):
    # a chunk deep inside a section keeps its section title for keyword search (ours)
    filler = "\n".join(f"- filler line {i} with ordinary words" for i in range(120))
    write(workspace / "memory/2026-03-02.md",
          "# 2026-03-02\n\n## Kayak trip planning\n\n" + filler + "\n- Booked the rental for Saturday.\n")
    other = "\n".join(f"- errand {i}: groceries, laundry and a walk" for i in range(6))
    write(workspace / "memory/2026-03-03.md", "# 2026-03-03\n\n" + other + "\n- Returned the rental car.\n")
    for day in range(10, 30):  # other days, so "kayak" stays a rare word in the workspace
        write(workspace / f"memory/2026-03-{day}.md", f"# 2026-03-{day}\n\n- Standup, code review, lunch.\n")
    m = keyword_manager()
    m.sync()
    top = m.search("kayak rental")["results"][0]
    # the booking sits ~120 lines below the heading, in a chunk without "Kayak" in its text
    assert top["path"] == "memory/2026-03-02.md" and top["startLine"] <= 125 <= top["endLine"]
    assert top["startLine"] > 4 and "Kayak" not in top["snippet"]  # results show the chunk's own lines
    assert m.fingerprint()["ftsTokenizer"].endswith("heading-context")


def _long_log_among_noise(workspace, keyword_manager, special: dict[int, str], count: int = 30, heading: bool = True):
    """memory/2026-03-02.md: ``count`` ordinary lines with ``special`` ones (by index) among
    them, beside ten short unrelated logs; returns the synced keyword-only manager."""
    lines = [f"- **Ann**: ordinary line {i} about the weather and the bus ride" for i in range(count)]
    for i, text in special.items():
        lines[i] = text
    write(workspace / "memory/2026-03-02.md", ("# 2026-03-02\n\n" if heading else "") + "\n".join(lines) + "\n")
    for day in range(10, 20):
        write(workspace / f"memory/2026-03-{day}.md", f"# 2026-03-{day}\n\n- Standup, code review, lunch.\n")
    m = keyword_manager()
    m.sync()
    return m


def test_snippet_shows_the_matching_lines_of_a_long_chunk(workspace, keyword_manager):
    # a chunk is ~1,600 characters but a snippet at most 700: the snippet is the part that
    # matched, not the chunk's head (which showed only the first ~6 lines); line 16, in the first chunk only
    m = _long_log_among_noise(workspace, keyword_manager, {13: "- **Ann**: my dentist appointment moved to Friday at nine"})
    top = m.search("When is the dentist appointment?")["results"][0]
    assert top["path"] == "memory/2026-03-02.md" and top["startLine"] == 1 and top["endLine"] >= 20
    shown = top["snippet"].split("\n\nSource: ")[0]
    assert "- **Ann**: my dentist appointment moved to Friday at nine" in shown
    # the heading above the matching lines is kept (it dates them), the lines between left out
    assert len(shown) <= 700 and shown.startswith("# 2026-03-02\n") and "\n…\n" in shown



def test_neighbouring_chunks_are_results_of_their_own_each_showing_its_match(workspace, keyword_manager):
    # a snippet shows at most 700 characters, so joining neighbouring chunks into one result
    # (ranking.merge_adjacent, now off) hid the second match: each chunk is its own result
    special = {10: "- **Ann**: the dentist said to floss daily", 31: "- **Ann**: next dentist visit is in May"}
    m = _long_log_among_noise(workspace, keyword_manager, special, count=60, heading=False)
    res = [r for r in m.search("dentist")["results"] if r["path"] == "memory/2026-03-02.md"]
    assert len(res) >= 2
    shown = [r["snippet"].split("\n\nSource: ")[0] for r in res]
    assert any("floss daily" in s for s in shown) and any("visit is in May" in s for s in shown)
    assert all(len(s) <= 700 for s in shown)


def test_snippet_finds_the_line_the_index_matched_by_stem(workspace, keyword_manager):
    # "camping" only by porter stem
    m = _long_log_among_noise(workspace, keyword_manager, {13: "- **Ann**: we camped by the lake all weekend"})
    top = m.search("Where did Ann go camping?")["results"][0]
    assert top["path"] == "memory/2026-03-02.md" and top["startLine"] == 1
    assert "- **Ann**: we camped by the lake all weekend" in top["snippet"]
