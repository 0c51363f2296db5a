"""memory_search / memory_get tool schemas and handlers; citations by session key."""

from __future__ import annotations

import json

import pytest

from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.tools.memory_tools import (
    MEMORY_GET_SCHEMA,
    MEMORY_SEARCH_SCHEMA,
    run_memory_get,
    run_memory_search,
)

from openclaw_tui.workspace.session_keys import is_direct_session

from .conftest import write


@pytest.fixture
def ws(workspace):
    write(workspace / "MEMORY.md", "# Memory\n\n- The wifi password hint is 'blue heron'.\n")
    write(workspace / "memory/2026-01-10.md", "- Called the plumber about the leaking sink.\n- Sink fixed on Friday.\n")
    return workspace


def mgr(make_settings, managers, citations="auto", session_key=None):
    m = MemoryManager(make_settings(memorySearch={"provider": "none"}, memory={"citations": citations}, session_key=session_key))
    managers.append(m)
    return m


def test_schemas_are_openai_function_tools():
    for schema, name, required in ((MEMORY_SEARCH_SCHEMA, "memory_search", ["query"]), (MEMORY_GET_SCHEMA, "memory_get", ["path"])):
        assert schema["type"] == "function"
        fn = schema["function"]
        assert fn["name"] == name and fn["description"]
        assert fn["parameters"]["type"] == "object"
        assert fn["parameters"]["required"] == required
        json.dumps(schema)  # serialisable
    assert set(MEMORY_SEARCH_SCHEMA["function"]["parameters"]["properties"]) == {"query", "maxResults", "minScore"}
    assert set(MEMORY_GET_SCHEMA["function"]["parameters"]["properties"]) == {"path", "from", "lines"}


@pytest.mark.parametrize(
    "key, mode, cited",
    [
        ("agent:main:main", "auto", True),
        ("agent:main:telegram:dm:42", "auto", True),
        ("agent:main:discord:group:99", "auto", False),
        ("agent:main:slack:channel:c1", "auto", False),
        ("agent:main:discord:group:99", "on", True),
        ("agent:main:main", "off", False),
    ],
)
def test_citations_by_session_key(ws, make_settings, managers, key, mode, cited):
    # a group key finds the shared tier only (issue 35): the same note, written by a group session
    write(ws / "memory/shared/2026-01-11.md", "- Called the plumber about the leaking sink.\n- Sink fixed on Friday.\n")
    m = mgr(make_settings, managers, citations=mode)
    res = run_memory_search(m, {"query": "plumber sink"}, session_key=key)
    rel = "memory/2026-01-10.md" if is_direct_session(key) else "memory/shared/2026-01-11.md"
    r = next(r for r in res["results"] if r["path"] == rel)
    assert all(x["path"] != "memory/2026-01-10.md" for x in res["results"]) or is_direct_session(key)
    if cited:
        # a daily log's notes are hits of their own, each citing its own line (issue 37)
        assert r["citation"] == f"{rel}#L1"
        assert r["snippet"].endswith(f"\n\nSource: {rel}#L1")
        assert any(x.get("citation") == f"{rel}#L2" for x in res["results"])
    else:
        assert "citation" not in r and "Source:" not in r["snippet"]


def test_single_line_citation(ws, make_settings, managers):
    write(ws / "memory/one.md", "- just one line about kayaks\n")
    m = mgr(make_settings, managers, citations="on")
    r = m.search("kayaks")["results"][0]
    assert r["citation"] == "memory/one.md#L1" and r["snippet"].endswith("Source: memory/one.md#L1")


def test_default_session_key_comes_from_settings(ws, make_settings, managers):
    write(ws / "memory/shared/2026-01-11.md", "- Called the plumber again.\n")
    m = mgr(make_settings, managers, session_key="agent:main:discord:group:7")
    res = m.search("plumber")["results"]
    assert [r["path"] for r in res] == ["memory/shared/2026-01-11.md"]  # the group key's default: shared tier only
    assert "citation" not in res[0]


@pytest.mark.parametrize(
    "args, fragment",
    [
        ({}, "query"),
        ({"query": ""}, "query"),
        ({"query": "   "}, "query"),
        ({"query": 5}, "query"),
        ({"query": "x", "maxResults": 0}, "maxResults"),
        ({"query": "x", "maxResults": 1000}, "maxResults"),
        ({"query": "x", "maxResults": "many"}, "maxResults"),
        ({"query": "x", "minScore": 2}, "minScore"),
        ({"query": "x", "minScore": "high"}, "minScore"),
        ("not a dict", "object"),
    ],
)
def test_search_argument_errors_are_result_objects(ws, make_settings, managers, args, fragment):
    m = mgr(make_settings, managers)
    res = run_memory_search(m, args, session_key="agent:main:main")
    assert res["results"] == [] and res["disabled"] is True and fragment in res["error"]


def test_search_tool_passes_limits(ws, make_settings, managers):
    for i in range(8):
        write(ws / f"memory/2026-02-{i + 1:02d}.md", f"- sink inspection round {i}\n")
    m = mgr(make_settings, managers)
    res = run_memory_search(m, {"query": "sink inspection", "maxResults": 2, "minScore": 0.1}, session_key="agent:main:main")
    assert len(res["results"]) == 2


def test_handlers_without_memory_return_results():
    assert run_memory_search(None, {"query": "x"}, session_key="k")["disabled"] is True
    assert run_memory_get(None, {"path": "MEMORY.md"})["disabled"] is True


def test_closed_manager_get_is_a_result(ws, make_settings, managers):
    m = mgr(make_settings, managers)
    m.close()
    res = run_memory_get(m, {"path": "MEMORY.md"})
    assert res["text"].startswith("# Memory")  # reading files needs no index


def test_search_disabled_by_config(ws, make_settings, managers):
    m = MemoryManager(make_settings(memorySearch={"provider": "none", "enabled": False}))
    managers.append(m)
    res = run_memory_search(m, {"query": "plumber"}, session_key="agent:main:main")
    assert res["results"] == [] and res["disabled"] is True and "enabled" in res["error"]


def test_search_after_close_is_a_result_not_an_exception(ws, make_settings, managers):
    m = mgr(make_settings, managers)
    m.close()
    res = m.search("plumber")
    assert res["results"] == [] and res["disabled"] is True
