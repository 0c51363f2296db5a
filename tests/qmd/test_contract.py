"""QmdBackend answers with the memory contract's values (``memory.api``) whose JSON is today's.

A fake qmd that logs its calls serves the searches; the builtin index under it is real.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from openclaw_tui.memory.api import MemoryBackend, MemoryStatus, ReadResult, SearchHit, SearchResult, SyncReport
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.memory.qmd import QmdBackend

from .helpers import make_fake_qmd, make_settings, set_mode, write


@pytest.fixture
def backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    fake = tmp_path / "fake"
    script = make_fake_qmd(fake, "ok")
    monkeypatch.setenv("FAKE_QMD_DIR", str(fake))
    ws = tmp_path / "ws"
    write(ws / "MEMORY.md", "# Memory\n")
    write(ws / "memory" / "notes.md", "# notes\nfirst fake line\nsecond fake line\n")
    # qmd's docid: its content hash's first 6 hex digits (a hit whose file differs is stale)
    monkeypatch.setenv("FAKE_QMD_DOCID", "#" + hashlib.sha256((ws / "memory" / "notes.md").read_bytes()).hexdigest()[:6])
    s = make_settings(tmp_path / "state", ws, {"qmd": {"command": str(script), "update": {"onBoot": False},
                                                       "limits": {"timeoutMs": 10000}}})
    b = QmdBackend(s, builtin=MemoryManager(s))
    b.fake_dir = fake  # type: ignore[attr-defined]
    yield b
    b.close()


def _json(value: object) -> dict:
    """The value as the tools send it to the model (and a check that it is JSON)."""
    return json.loads(json.dumps(value.to_dict()))  # type: ignore[attr-defined]


def test_qmd_is_a_memory_backend(backend: QmdBackend) -> None:
    assert isinstance(backend, MemoryBackend) and backend.name == "qmd"


def test_search_answers_with_search_result_and_hits(backend: QmdBackend) -> None:
    res = backend.search("fake words", session_key="agent:main:main")
    assert isinstance(res, SearchResult) and all(isinstance(h, SearchHit) for h in res.results)
    got = _json(res)
    assert got.pop("searchMs") >= 0
    assert got == {"results": [{"path": "memory/notes.md", "startLine": 2, "endLine": 3, "score": 0.9,
                                "snippet": "fake qmd hit for fake words\nsecond\n\nSource: memory/notes.md#L2-L3",
                                "source": "memory", "collection": "memory-dir", "docid": os.environ["FAKE_QMD_DOCID"],
                                "citation": "memory/notes.md#L2-L3"}],
                   "provider": "qmd", "model": "search", "fallback": None, "backend": "qmd"}


def test_search_hit_of_a_changed_file_is_stale(backend: QmdBackend) -> None:
    (backend.settings.workspace / "memory" / "notes.md").write_text("# notes\nedited since qmd indexed it\n")
    assert _json(backend.search("fake words", session_key="agent:main:main"))["results"][0]["stale"] is True


def test_denied_and_empty_searches(backend: QmdBackend) -> None:
    denied = backend.search("fake", session_key="agent:main:discord:group:1")
    assert isinstance(denied, SearchResult) and _json(denied) == {
        "results": [], "denied": True, "scope": {"channel": "discord", "chatType": "group"},
        "provider": "qmd", "model": "search", "fallback": None, "backend": "qmd", "searchMs": 0.0}
    assert _json(backend.search("   ")) == {"results": [], "provider": "qmd", "model": "search",
                                            "fallback": None, "backend": "qmd", "searchMs": 0.0}


def test_fallback_is_the_builtin_result_marked(backend: QmdBackend) -> None:
    set_mode(backend.fake_dir, "crash")  # type: ignore[attr-defined]
    res = backend.search("fake line")
    assert isinstance(res, SearchResult) and res.backend == "builtin"
    assert res.fallback is not None and res.fallback["from"] == "qmd" and res.fallback["reason"].startswith("exit:")
    assert _json(res)["fallback"] == dict(res.fallback) and res.search_ms is not None


def test_get_answers_with_read_result(backend: QmdBackend) -> None:
    read = backend.get("qmd/memory-dir/notes.md", from_line=2, lines=1)
    assert isinstance(read, ReadResult)
    assert _json(read) == {"path": "qmd/memory-dir/notes.md", "text": "first fake line", "from": 2, "lines": 1}
    refused = backend.get("qmd/nosuch/notes.md")
    assert isinstance(refused, ReadResult) and _json(refused) == {
        "path": "qmd/nosuch/notes.md", "text": "", "disabled": True,
        "error": "refused: qmd collection 'nosuch' is not served by this agent"}
    bad = backend.get("qmd/memory-dir/notes.md", lines=0)
    assert _json(bad) == {"path": "qmd/memory-dir/notes.md", "text": "", "error": "lines must be an integer >= 1"}
    assert isinstance(backend.get("memory/notes.md"), ReadResult)  # the builtin's get


def test_sync_and_status(backend: QmdBackend) -> None:
    report = backend.sync(force=True, reason="test")
    assert isinstance(report, SyncReport)
    got = _json(report)
    assert got.pop("durationMs") >= 0
    assert got == {"backend": "qmd", "ok": True, "files": 0, "filesIndexed": 0, "filesUnchanged": 0,
                   "filesRemoved": 0, "errors": [], "updated": True, "embedded": False,
                   "collections": {"added": ["memory-root", "memory-dir"], "removed": [], "skipped": []},
                   "reason": "test"}
    skipped = backend.sync(reason="again")
    assert _json(skipped) == {"backend": "qmd", "ok": True, "skipped": "debounced", "reason": "again"}
    status = backend.status()
    assert isinstance(status, MemoryStatus)
    st = _json(status)
    assert (st["backend"], st["provider"], st["searchMode"], st["dirty"]) == ("qmd", "qmd", "qmd search", False)
    assert [c["name"] for c in st["collections"]] == ["memory-root", "memory-dir"]
    assert st["builtin"]["backend"] == "builtin"
