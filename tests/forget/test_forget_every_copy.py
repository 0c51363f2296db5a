"""forget takes every copy or says how many remain and where; the index file's bytes and the
session transcripts lose the text too (issue 36, item 4)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from openclaw_tui.config import resolve_agent, validate_config
from openclaw_tui.memory import forget as forget_mod
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.memory.builtin.store import Store
from openclaw_tui.memory.forget import apply_forget, plan_query
from openclaw_tui.records.history import MemoryHistory
from openclaw_tui.workspace.tombstones import Tombstones

FACT = "- The wifi password is quokkaberry4417"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    w = tmp_path / "ws"
    (w / "memory").mkdir(parents=True)
    (w / "MEMORY.md").write_text("# Memory\n\n- Likes oolong tea\n")
    for day in range(1, 13):  # the fact in 12 logs
        (w / "memory" / f"2026-11-{day:02d}.md").write_text(f"# Day {day}\n\n- bought bread\n{FACT}\n- walked {day} km\n")
    return w


def _forget(ws: Path, tmp_path: Path, query: str = "wifi password", **kw):
    plan = plan_query(ws, "agent:main:main", query)
    return plan, apply_forget(ws, MemoryHistory(tmp_path / "history"), plan, Tombstones.for_workspace(ws, tmp_path / "st"), **kw)


def test_a_fact_in_twelve_logs_goes_from_all_twelve(ws: Path, tmp_path: Path) -> None:
    plan, _done = _forget(ws, tmp_path)
    assert len(plan.targets) == 12
    for p in (ws / "memory").glob("*.md"):
        assert "quokkaberry" not in p.read_text(), p


def test_copies_in_other_words_go_too(ws: Path, tmp_path: Path) -> None:
    (ws / "memory" / "2026-11-03.md").write_text("- wifi pass\u200bword: quokkaberry４４１７\n- router in the hall\n")
    (ws / "memory" / "2026-11-04.md").write_text("- wifi password\n- quokkaberry4417\n- milk\n")
    _forget(ws, tmp_path)
    assert (ws / "memory" / "2026-11-03.md").read_text() == "- router in the hall\n"
    assert (ws / "memory" / "2026-11-04.md").read_text() == "- milk\n"


def test_copies_past_the_cap_are_named(ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forget_mod, "MAX_TARGETS", 10)
    plan, done = _forget(ws, tmp_path)
    assert len(plan.targets) == 10 and len(plan.left_out) == 2
    assert "2 more copies" in plan.describe()
    assert len(done.remaining) == 2 and all(r.startswith("memory/2026-11-") and "#L4" in r for r in done.remaining)
    assert "2 copies still in memory" in " ".join(done.still_held())


def test_a_bootstrap_file_holding_it_is_named(ws: Path, tmp_path: Path) -> None:
    (ws / "TOOLS.md").write_text("# Tools\n\nwifi password: quokkaberry4417\n")
    _plan, done = _forget(ws, tmp_path)
    assert done.elsewhere == ["TOOLS.md#L3"]
    assert "TOOLS.md#L3, which is not a memory file" in " ".join(done.still_held())


def test_transcripts_are_rewritten_without_it(ws: Path, tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    entries = [
        {"type": "session", "version": 1, "id": "s1"},
        {"type": "context", "notes": "## Recent notes\nFrom memory/2026-11-12.md:\n> " + FACT + "\n> - bought bread"},
        {"type": "message", "message": {"role": "user", "content": "my wifi password is quokkaberry4417, keep it"}},
        {"type": "message", "message": {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "append", "arguments": json.dumps(
                {"path": "memory/2026-11-12.md", "content": FACT})}}]}},
        {"type": "compaction", "summary": "Decisions:\n- wifi password is quokkaberry4417\n- tea", "kept": 0},
        {"type": "message", "message": {"role": "user", "content": "what tea do I like?"}},
    ]
    path = sessions / "s1.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in entries))
    other = sessions / "s2.jsonl"
    other.write_text(json.dumps({"type": "message", "message": {"role": "user", "content": "hello"}}) + "\n")
    before_other = other.read_bytes()
    _plan, done = _forget(ws, tmp_path, sessions_dir=sessions)
    text = path.read_text()
    assert "quokkaberry" not in text
    got = [json.loads(line) for line in text.splitlines()]
    assert len(got) == len(entries) and got[-1] == entries[-1]
    assert json.loads(got[3]["message"]["tool_calls"][0]["function"]["arguments"])["path"] == "memory/2026-11-12.md"
    assert "- tea" in got[4]["summary"] and "bought bread" in got[1]["notes"]
    assert [f.path.name for f in done.transcripts] == ["s1.jsonl"]
    assert other.read_bytes() == before_other


def _index_bytes(path: Path) -> bytes:
    return b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*"))


def test_the_index_file_loses_the_text(ws: Path, tmp_path: Path) -> None:
    for p in sorted((ws / "memory").glob("*.md"))[1:]:  # one copy: any forget removes it from the files
        p.unlink()
    settings = resolve_agent(validate_config({"agents": {"defaults": {"memorySearch": {"provider": "none"}}}}), workspace=str(ws))
    with MemoryManager(settings) as mm:
        mm.sync()
        assert "quokkaberry4417" in json.dumps(mm.search("wifi password").to_dict())
        assert b"quokkaberry4417" in _index_bytes(settings.index_path)
        _forget(ws, tmp_path)
        mm.sync(reason="forget")
        assert "quokkaberry" not in json.dumps(mm.search("wifi password quokkaberry4417").to_dict())
        assert "bought bread" in json.dumps(mm.search("bought bread").to_dict())  # the rest stays
    data = _index_bytes(settings.index_path)
    assert b"quokkaberry" not in data  # not in a table, an FTS segment or a freed page


def test_the_vector_rows_and_the_embedding_cache_lose_it(tmp_path: Path) -> None:
    store = Store(tmp_path / "i.sqlite")
    secret = np.full(16, 0.123456, dtype=np.float32)
    other = np.linspace(-1, 1, 16, dtype=np.float32)
    store.replace_file("memory/a.md", "memory", "h1", 0, 0, 0, [(1, 1, "c1", "secret line"), (2, 2, "c2", "other line")],
                       np.vstack([secret, other]))
    store.cache_put("p", "m", "k", {"w1": secret})
    (blob,), (kept,) = store.conn.execute("select embedding from chunk_vectors order by id").fetchall()
    assert store.vec_loaded and _index_bytes(tmp_path / "i.sqlite").count(blob) >= 2  # chunk_vectors and vec0
    store.replace_file("memory/a.md", "memory", "h2", 0, 0, 0, [(2, 2, "c2", "other line")], np.vstack([other]))
    store.purge()
    assert store.vector_count() == 1 and store.cache_count() == 0
    assert [cid for cid, _ in store.vec0_search(other, 5)]  # the rest still searchable through sqlite-vec
    store.close()
    data = _index_bytes(tmp_path / "i.sqlite")
    assert blob not in data and secret.tobytes() not in data and b"secret line" not in data
