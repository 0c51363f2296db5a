"""``memorySearch.store.fts.tokenizer: "trigram"`` (OpenClaw's key): a trigram FTS5 table,
rebuilt when the setting changes, and CJK queries that find their notes."""

from __future__ import annotations

import apsw

from openclaw_tui.memory.builtin.manager import MemoryManager

from .conftest import write


def _table_sql(m: MemoryManager) -> str:
    conn = apsw.Connection(str(m.index.path))
    try:
        return str(conn.execute("select sql from sqlite_master where name = 'chunks_fts'").fetchone()[0])
    finally:
        conn.close()


def _paths(res: dict) -> list[str]:
    return [r["path"] for r in res["results"]]


def _notes(workspace):
    write(workspace / "memory/2026-03-01.md", "# 2026-03-01\n\n- 我最喜欢吃四川火锅，每周都去。\n")
    write(workspace / "memory/2026-03-02.md", "# 2026-03-02\n\n- 東京で寿司を食べるのが好きです。\n")
    write(workspace / "memory/2026-03-03.md", "# 2026-03-03\n\n- The cluster runs Kubernetes 1.31 on bare metal.\n")


def test_trigram_index_finds_cjk_notes(workspace, make_settings, managers):
    _notes(workspace)
    m = MemoryManager(make_settings(memorySearch={"provider": "none", "store": {"fts": {"tokenizer": "trigram"}}}))
    managers.append(m)
    assert m.sync()["ok"]
    assert "tokenize='trigram'" in _table_sql(m)
    assert m.status()["ftsTokenizer"] == "trigram"
    assert _paths(m.search("四川火锅"))[:1] == ["memory/2026-03-01.md"]
    assert _paths(m.search("寿司が好き"))[:1] == ["memory/2026-03-02.md"]  # a two-character word: the scan
    assert _paths(m.search("東京で寿司"))[:1] == ["memory/2026-03-02.md"]
    assert _paths(m.search("kubernetes cluster"))[:1] == ["memory/2026-03-03.md"]


def test_default_tokenizer_is_unicode61_and_a_change_rebuilds(workspace, make_settings, managers):
    _notes(workspace)
    first = MemoryManager(make_settings(memorySearch={"provider": "none"}))
    managers.append(first)
    assert first.sync()["ok"]
    assert "porter unicode61" in _table_sql(first)
    assert _paths(first.search("四川火锅"))[:1] == ["memory/2026-03-01.md"]
    first.close()
    second = MemoryManager(make_settings(memorySearch={"provider": "none", "store": {"fts": {"tokenizer": "trigram"}}}))
    managers.append(second)
    assert second.is_dirty()
    rep = second.sync()
    assert rep["ok"] and rep["fullRebuild"]
    assert "tokenize='trigram'" in _table_sql(second)
    assert _paths(second.search("東京で寿司"))[:1] == ["memory/2026-03-02.md"]
    second.close()
    back = MemoryManager(make_settings(memorySearch={"provider": "none"}))
    managers.append(back)
    assert back.sync()["fullRebuild"]
    assert "porter unicode61" in _table_sql(back)
