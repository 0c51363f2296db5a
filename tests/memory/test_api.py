"""The memory contract: both backends satisfy ``MemoryBackend``; results give today's JSON."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import pytest

from openclaw_tui.memory.api import (
    MemoryBackend,
    MemoryStatus,
    ReadResult,
    SearchHit,
    SearchResult,
    SyncReport,
    line_citation,
)
from openclaw_tui.memory.open import open_memory
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.memory.qmd import QmdBackend

PROTOCOL_METHODS = ["search", "get", "status", "sync", "is_dirty", "start_watcher", "stop_watcher", "close"]


def _accepts(impl: Any, proto: Any) -> list[str]:
    """Problems calling ``impl`` the way the Protocol's signature allows (names, kinds, defaults)."""
    problems = []
    got = inspect.signature(impl).parameters
    for name, p in inspect.signature(proto).parameters.items():
        if name == "self":
            continue
        q = got.get(name)
        if q is None:
            problems.append(f"no parameter {name}")
            continue
        if p.kind is p.KEYWORD_ONLY and q.kind not in (q.KEYWORD_ONLY, q.POSITIONAL_OR_KEYWORD):
            problems.append(f"{name} cannot be passed by keyword")
        if p.kind is p.POSITIONAL_OR_KEYWORD and q.kind is not q.POSITIONAL_OR_KEYWORD:
            problems.append(f"{name} cannot be passed by position")
        if (p.default is p.empty) != (q.default is q.empty):
            problems.append(f"{name}: default differs")
    extra = [n for n, q in got.items() if n != "self" and n not in inspect.signature(proto).parameters
             and q.default is q.empty and q.kind not in (q.VAR_POSITIONAL, q.VAR_KEYWORD)]
    problems += [f"extra required parameter {n}" for n in extra]
    return problems


@pytest.fixture
def backends(make_settings: Any, tmp_path: Path, managers: list[MemoryManager]) -> list[Any]:
    builtin = MemoryManager(make_settings(memorySearch={"provider": "none"}))
    managers.append(builtin)
    qmd_settings = make_settings(memorySearch={"provider": "none"},
                                 memory={"backend": "qmd", "qmd": {"command": "/bin/false", "update": {"onBoot": False}}})
    inner = MemoryManager(qmd_settings)
    managers.append(inner)
    qmd = QmdBackend(qmd_settings, builtin=inner)
    yield [builtin, qmd]
    qmd.close()


def test_both_backends_satisfy_the_protocol(backends: list[Any]) -> None:
    builtin, qmd = backends
    assert (builtin.name, qmd.name) == ("builtin", "qmd")
    for backend in backends:
        assert isinstance(backend, MemoryBackend)
        for method in PROTOCOL_METHODS:
            impl = getattr(type(backend), method)
            assert _accepts(impl, getattr(MemoryBackend, method)) == [], (type(backend).__name__, method)


def test_the_signature_check_can_fail() -> None:
    class Narrow:
        name = "narrow"

        def search(self, query: str, limit: int) -> SearchResult: ...

    assert _accepts(Narrow.search, MemoryBackend.search) == [
        "no parameter max_results", "no parameter min_score", "no parameter session_key",
        "extra required parameter limit",
    ]
    assert not isinstance(Narrow(), MemoryBackend)


def test_open_memory_returns_a_backend(make_settings: Any, managers: list[MemoryManager]) -> None:
    memory = open_memory(make_settings(memorySearch={"provider": "none"}))
    assert isinstance(memory, MemoryManager)
    managers.append(memory)
    assert isinstance(memory, MemoryBackend)


HIT = SearchHit(path="memory/a.md", start_line=1, end_line=2, score=0.5, snippet="x", source="memory")

CASES = [
    (SearchResult(backend="builtin", results=(HIT,), provider="none", model=None, mode="keyword", search_ms=1.5),
     {"results": [{"path": "memory/a.md", "startLine": 1, "endLine": 2, "score": 0.5, "snippet": "x",
                   "source": "memory"}],
      "provider": "none", "model": None, "fallback": None, "backend": "builtin", "mode": "keyword", "searchMs": 1.5}),
    (SearchResult(backend="builtin", provider="none", disabled=True, error="e", warning="w", action=""),
     {"results": [], "disabled": True, "error": "e", "warning": "w", "action": "", "provider": "none",
      "model": None, "fallback": None, "backend": "builtin"}),
    (SearchResult(backend="qmd", provider="qmd", model="search", denied=True,
                  scope={"channel": "discord", "chatType": "group"}, search_ms=0.0),
     {"results": [], "denied": True, "scope": {"channel": "discord", "chatType": "group"}, "provider": "qmd",
      "model": "search", "fallback": None, "backend": "qmd", "searchMs": 0.0}),
    (SearchHit(path="qmd/c/a.md", start_line=3, end_line=3, score=0.25, snippet="s",
               source="qmd", citation="qmd/c/a.md#L3", collection="c", docid="#ab"),
     {"path": "qmd/c/a.md", "startLine": 3, "endLine": 3, "score": 0.25, "snippet": "s\n\nSource: qmd/c/a.md#L3",
      "source": "qmd", "collection": "c", "docid": "#ab", "citation": "qmd/c/a.md#L3"}),
    (ReadResult(path="MEMORY.md"), {"path": "MEMORY.md", "text": ""}),
    (ReadResult(path="m.md", text="a\nb", from_line=2, lines=2, truncated=True, note="cut"),
     {"path": "m.md", "text": "a\nb", "from": 2, "lines": 2, "truncated": True, "note": "cut"}),
    (ReadResult(path="x", disabled=True, error="refused: no"),
     {"path": "x", "text": "", "disabled": True, "error": "refused: no"}),
    (SyncReport(ok=False, reason="cli", errors=("sync failed: disk",), warnings=(), full_rebuild=False, files=0,
                chunks=0, files_indexed=0, files_unchanged=0, files_removed=0, files_skipped=0, aborted=True,
                duration_ms=2.0, details={"cacheHits": 0}),
     {"ok": False, "fullRebuild": False, "files": 0, "chunks": 0, "filesIndexed": 0, "filesUnchanged": 0,
      "filesRemoved": 0, "filesSkipped": 0, "errors": ["sync failed: disk"], "warnings": [], "cacheHits": 0,
      "aborted": True, "reason": "cli", "durationMs": 2.0}),
    (SyncReport(backend="qmd", reason="r", errors=None, details={"skipped": "debounced"}),
     {"backend": "qmd", "ok": True, "skipped": "debounced", "reason": "r"}),
    (MemoryStatus(backend="qmd", agent_id="main", workspace="/w", workspace_exists=True, index_path="/i",
                  provider="qmd", model=None, search_mode="qmd search", files=None, chunks=None, dirty=False,
                  details={"error": None}),
     {"backend": "qmd", "agentId": "main", "workspace": "/w", "workspaceExists": True, "indexPath": "/i",
      "provider": "qmd", "model": None, "searchMode": "qmd search", "files": None, "chunks": None,
      "dirty": False, "error": None}),
]


@pytest.mark.parametrize(("value", "expected"), CASES)
def test_to_dict_is_the_json_shape(value: Any, expected: dict[str, Any]) -> None:
    assert value.to_dict() == expected
    assert json.loads(json.dumps(value.to_dict())) == expected
    # the Mapping view reads the same JSON
    assert dict(value) == expected and value == expected
    assert sorted(value) == sorted(expected) and len(value) == len(expected)


def test_results_are_frozen() -> None:
    with pytest.raises(AttributeError):
        HIT.score = 1.0  # type: ignore[misc]
    assert HIT.get("citation") is None and "citation" not in HIT


CITED = SearchHit(path="memory/b.md", start_line=4, end_line=6, score=0.75, snippet="teal logo", citation="memory/b.md#L4-L6")


def test_for_model_adds_the_source_line_and_leaves_the_timing_out() -> None:
    """The snippet travels without its citation; only ``for_model`` (the model's JSON, and the
    full JSON built on it) joins them, and only the screen keeps ``searchMs``."""
    result = SearchResult(backend="builtin", results=(CITED, HIT), provider="none", mode="hybrid", search_ms=1234.5)
    sent = result.for_model()
    assert list(sent) == ["results", "provider", "model", "fallback", "backend", "mode"]
    assert sent["results"][0]["snippet"] == "teal logo\n\nSource: memory/b.md#L4-L6"
    assert sent["results"][1]["snippet"] == "x"  # not cited: no Source line
    assert CITED.snippet == "teal logo" and CITED.cited == "memory/b.md#L4-L6" and HIT.cited == "memory/a.md#L1-L2"
    full = result.to_dict()
    assert full["searchMs"] == 1234.5 and {k: v for k, v in full.items() if k != "searchMs"} == sent


def test_a_refused_search_names_no_backend() -> None:
    refused = SearchResult.refused("query must be a non-empty string", warning="invalid arguments", action="")
    assert refused.for_model() == refused.to_dict() == {
        "results": [], "disabled": True, "error": "query must be a non-empty string", "warning": "invalid arguments", "action": ""}
    assert SearchResult.refused("off").to_dict() == {"results": [], "disabled": True, "error": "off"}


@pytest.mark.parametrize(("start", "end", "out"), [(3, 7, "MEMORY.md#L3-L7"), (4, 4, "MEMORY.md#L4"), (None, None, "MEMORY.md")])
def test_line_citation(start: int | None, end: int | None, out: str) -> None:
    assert line_citation("MEMORY.md", start, end) == out
