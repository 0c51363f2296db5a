"""A full rebuild (one temp file written without fsyncs, many files per savepoint) holds
exactly the rows and answers exactly the searches of the same files indexed one sync per
file into the live index, keyword-only and hybrid."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from openclaw_tui.memory.builtin.manager import MemoryManager

from .conftest import write

WORDS = "kiwi mango plum fig lime pear date yuzu melon guava rollout budget deploy meeting sprint 2024 Q3".split()


def _files(seed: int = 5) -> dict[str, str]:
    rng = random.Random(seed)
    out = {"MEMORY.md": "# Memory\n\n- prefers tea.  \n- owns a cat named Fig\n"}
    for i in range(24):
        lines = [f"# 2024-03-{i + 1:02d}", ""]
        for j in range(rng.randint(5, 120)):
            if j % 17 == 16:
                lines.append(f"## Session {j}")
            lines.append("- " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 30))) + rng.choice(["", ".", "  ", "!"]))
        if i % 7 == 0:
            lines.append(" ".join(rng.choice(WORDS) for _ in range(700)))  # an over-long line
        out[f"memory/2024-03-{i + 1:02d}.md"] = "\n".join(lines) + "\n"
    return out


def _dump(m: MemoryManager) -> dict:
    store = m.index.store()
    q = store.conn.execute
    chunks = q("select id, path, source, start_line, end_line, hash, model, text, embedding from chunks").fetchall()
    key = {r[0]: (r[1], r[3], r[4]) for r in chunks}
    subs = q("select chunk_id, embedding from chunk_vectors order by id").fetchall()
    fts = q("select rowid, text from chunks_fts").fetchall()
    return {
        "files": sorted(q("select path, source, hash, size from files").fetchall()),
        "chunks": sorted(r[1:] for r in chunks),
        "vectors": sorted((key[c], e) for c, e in subs),
        "fts": sorted((key[r], t) for r, t in fts),
    }


def _hits(m: MemoryManager, queries: list[str]) -> list:
    out = []
    for query in queries:
        res = m.search(query)
        out.append([(r["path"], r["startLine"], r["endLine"], round(r["score"], 6), r["snippet"]) for r in res["results"]])
    return out


@pytest.mark.parametrize("hybrid", [False, True], ids=["keyword-only", "hybrid"])
def test_full_rebuild_equals_file_by_file_sync(tmp_path, workspace, make_settings, managers, remote_ms, hybrid):
    files = _files()
    base = remote_ms if hybrid else {"provider": "none"}

    def manager(name: str) -> MemoryManager:
        m = MemoryManager(make_settings(memorySearch={**base, "store": {"path": str(tmp_path / f"{name}.sqlite")}}))
        managers.append(m)
        return m

    one_by_one = manager("one-by-one")
    for rel in sorted(files, key=lambda p: (p != "MEMORY.md", p)):
        write(workspace / rel, files[rel])
        rep = one_by_one.sync()
        assert rep["ok"] and not rep["fullRebuild"] and rep["filesIndexed"] == 1
    rebuilt = manager("rebuilt")
    rep = rebuilt.sync(force=True)
    assert rep["ok"] and rep["fullRebuild"] and rep["filesIndexed"] == len(files)

    a, b = _dump(rebuilt), _dump(one_by_one)
    assert len(a["chunks"]) > len(files) and len(a["fts"]) == len(a["chunks"])
    assert bool(a["vectors"]) is hybrid
    assert a == b
    queries = ["kiwi rollout", "cat named Fig", "Session budget", "2024-03-07", "guava melon deploy", "tea"]
    assert _hits(rebuilt, queries) == _hits(one_by_one, queries)
    assert any(_hits(rebuilt, queries))
