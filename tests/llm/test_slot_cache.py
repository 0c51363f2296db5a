"""The slot files kept between runs (issue 38): named by the model and the request's fixed
start, in an owner-only folder, bounded on disk (the least recently used go first)."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

from openclaw_tui.llm.local.slot_cache import make_private, prefix_key, prune, slot_dir

TOOLS = [{"type": "function", "function": {"name": "memory_search", "parameters": {"type": "object"}}}]


def _msgs(system: str, user: str = "hi") -> list[dict]:
    return [{"role": "system", "content": system}, {"role": "system", "content": "notes of today"}, {"role": "user", "content": user}]


def test_the_key_follows_the_fixed_start_and_nothing_after_it(tmp_path: Path) -> None:
    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF" + b"\0" * 60)
    key = prefix_key(model, _msgs("You are helpful."), TOOLS)
    assert key == prefix_key(model, _msgs("You are helpful.", "another question"), TOOLS)  # the history varies
    assert key != prefix_key(model, _msgs("You are terse."), TOOLS)  # another workspace prompt
    assert key != prefix_key(model, _msgs("You are helpful."), [])  # another tool list
    other = tmp_path / "n.gguf"
    other.write_bytes(b"GGUF" + b"\0" * 60)
    assert key != prefix_key(other, _msgs("You are helpful."), TOOLS)  # another model
    assert "/" not in key and key.endswith(".slot")  # a bare name: llama.cpp refuses paths


def _file(d: Path, name: str, size: int, age_s: float) -> Path:
    p = d / name
    p.write_bytes(b"\0" * size)
    t = time.time() - age_s
    os.utime(p, (t, t))
    return p


def test_pruning_keeps_the_recently_used_within_the_bounds(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("OPENCLAW_LOCAL_SLOT_DIR", str(tmp_path / "slots"))
    d = slot_dir()
    make_private(d)
    assert d == tmp_path / "slots"
    assert stat.S_IMODE(d.stat().st_mode) == 0o700
    old = _file(d, "a.slot", 100, 300)
    mid = _file(d, "b.slot", 100, 200)
    new = _file(d, "c.slot", 100, 100)
    unrelated = _file(d, "notes.txt", 100, 999)
    assert prune(d, max_files=2) == [old]
    assert prune(d, max_bytes=150, keep="b.slot") == []  # c is newest but b is kept: one over, nothing else to drop
    assert mid.exists() and new.exists() and unrelated.exists()
    assert prune(d, max_bytes=150) == [mid]
