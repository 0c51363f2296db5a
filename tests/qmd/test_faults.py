"""Fault tests: a fake qmd executable that hangs, crashes, prints garbage or rejects flags.

Every fault ends in a builtin-index answer for the same query (the real ``MemoryManager``
over a real workspace), a ``fallback: {from: "qmd", reason}`` field and a ``QmdFallback``
event; the next search tries qmd again.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from openclaw_tui.events import QmdFallback
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.memory.qmd import QmdBackend
from openclaw_tui.memory.qmd.runner import QmdError, run_qmd

from .helpers import fake_calls, make_fake_qmd, make_settings, pid_alive, set_mode, write

QUERY = "heliotrope deployment"


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    fake_dir = tmp_path / "fake"
    script = make_fake_qmd(fake_dir, "ok")
    monkeypatch.setenv("FAKE_QMD_DIR", str(fake_dir))
    ws = tmp_path / "ws"
    write(ws / "MEMORY.md", "# Memory\n\nThe heliotrope deployment runs on Thursdays.\n")
    write(ws / "memory" / "notes.md", "# notes\nfirst fake line\nsecond fake line\n")
    write(ws / "memory" / "2026-01-02.md", "# log\nnothing relevant here\n")

    def build(mode: str = "ok", **qmd: object) -> tuple[QmdBackend, list]:
        set_mode(fake_dir, mode)
        cfg = {"command": str(script), "update": {"onBoot": False}, "limits": {"timeoutMs": 10000}}
        cfg.update(qmd)
        s = make_settings(tmp_path / "state", ws, {"qmd": cfg})
        events: list = []
        backend = QmdBackend(s, sink=events.append, builtin=MemoryManager(s, sink=events.append))
        return backend, events

    built: list[QmdBackend] = []

    def factory(mode: str = "ok", **qmd: object):
        b, ev = build(mode, **qmd)
        built.append(b)
        return b, ev

    factory.dir = fake_dir  # type: ignore[attr-defined]
    yield factory
    for b in built:
        b.close()


def assert_fallback(res: dict, events: list, kind: str) -> None:
    assert res["fallback"]["from"] == "qmd"
    assert res["fallback"]["reason"].startswith(kind + ":"), res["fallback"]
    assert res["backend"] == "builtin"
    # the query was not lost: the builtin index answered it
    assert any("heliotrope" in r["snippet"].lower() for r in res["results"]), res
    assert res["results"][0]["path"] == "MEMORY.md"
    fb = [e for e in events if isinstance(e, QmdFallback)]
    assert fb and fb[-1].query == QUERY and fb[-1].reason == res["fallback"]["reason"]


def test_ok_fake_maps_hit_to_workspace_lines(env):
    backend, events = env("ok")
    res = backend.search(QUERY)
    assert res["fallback"] is None and res["backend"] == "qmd"
    [hit] = res["results"]
    assert (hit["path"], hit["startLine"], hit["endLine"]) == ("memory/notes.md", 2, 3)
    assert hit["snippet"].startswith(f"fake qmd hit for {QUERY}\nsecond")
    assert hit["citation"] == "memory/notes.md#L2-L3"
    search_calls = [c for c in fake_calls(env.dir) if "search" in c]
    assert search_calls[-1][:2] == ["--index", "index"]
    assert search_calls[-1][-2:] == ["--", QUERY]
    assert ["-c", "memory-root"] == search_calls[-1][6:8] and "memory-dir" in search_calls[-1]
    assert not [e for e in events if isinstance(e, QmdFallback)]
    # -n: the requested count, capped by limits.maxResults (6)
    backend.search(QUERY, max_results=2)
    backend.search(QUERY, max_results=50)
    counts = [c[c.index("-n") + 1] for c in fake_calls(env.dir) if "-n" in c]
    assert counts == ["6", "2", "6"]


def test_hang_kills_process_group_and_falls_back(env):
    backend, events = env("hang", limits={"timeoutMs": 2500})
    res = backend.search(QUERY)
    assert_fallback(res, events, "timeout")
    assert "process group killed" in res["fallback"]["reason"]
    child = int((env.dir / "child.pid").read_text())
    parent = int((env.dir / "parent.pid").read_text())
    deadline = time.monotonic() + 10
    while (pid_alive(child) or pid_alive(parent)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not pid_alive(parent), "the hung qmd survived its timeout"
    assert not pid_alive(child), "an orphaned qmd child survived the timeout"
    # retried on a later search, and qmd serves again once healthy
    set_mode(env.dir, "ok")
    res2 = backend.search(QUERY)
    assert res2["fallback"] is None and res2["results"][0]["path"] == "memory/notes.md"


def test_crash_falls_back(env):
    backend, events = env("crash")
    res = backend.search(QUERY)
    assert_fallback(res, events, "exit")
    assert "Segmentation fault" in res["fallback"]["reason"]


def test_garbage_output_falls_back(env):
    backend, events = env("garbage")
    res = backend.search(QUERY)
    assert_fallback(res, events, "garbage")
    assert "unparsable qmd output" in res["fallback"]["reason"]


def test_no_results_marker_is_an_empty_answer_not_a_fallback(env):
    backend, events = env("noresults")
    res = backend.search(QUERY)
    assert res["results"] == [] and res["fallback"] is None and res["backend"] == "qmd"
    assert not [e for e in events if isinstance(e, QmdFallback)]


@pytest.mark.parametrize("mode", ["mentions-noresults", "silent"])
def test_output_that_is_not_a_marker_falls_back(env, mode):
    # text that merely mentions "no results", or no output at all, is a qmd failure:
    # the builtin index must answer instead of an empty result
    backend, events = env(mode)
    res = backend.search(QUERY)
    assert_fallback(res, events, "garbage")


def test_rejected_flags_retry_with_query(env):
    backend, events = env("flags")
    res = backend.search(QUERY)
    assert res["fallback"] is None and res["model"] == "query"
    assert res["results"][0]["path"] == "memory/notes.md"
    modes = [c[2] for c in fake_calls(env.dir) if "--json" in c]
    assert modes == ["search", "query"]


def test_rejected_flags_then_query_without_models_falls_back(env):
    backend, events = env("flags-nomodel", searchMode="vsearch")
    res = backend.search(QUERY)
    assert_fallback(res, events, "models")
    modes = [c[2] for c in fake_calls(env.dir) if "--json" in c]
    assert modes == ["vsearch", "query"]


def test_missing_binary_falls_back_and_is_retried(env, tmp_path):
    backend, events = env("ok", command=str(tmp_path / "nope" / "qmd"))
    res = backend.search(QUERY)
    assert_fallback(res, events, "missing")
    assert "make qmd" in res["fallback"]["reason"]
    res = backend.search(QUERY)
    assert len([e for e in events if isinstance(e, QmdFallback)]) == 2
    st = backend.status()
    assert st["backend"] == "qmd" and st["available"] is False and "missing" in st["error"]


def test_command_on_path_that_is_not_executable(env, tmp_path):
    bad = write(tmp_path / "bin" / "qmd-noexec", "#!/bin/sh\necho hi\n")
    backend, events = env("ok", command=str(bad))
    res = backend.search(QUERY)
    assert_fallback(res, events, "start")


def test_run_qmd_returns_nonzero_exit_and_raises_timeout(tmp_path):
    res = run_qmd(["sh", "-c", "echo out; echo err >&2; exit 4"], [], timeout_s=10)
    assert (res.returncode, res.stdout, res.stderr) == (4, "out\n", "err\n")
    pidfile = tmp_path / "bg.pid"
    with pytest.raises(QmdError) as ei:
        run_qmd(["sh", "-c", f"sleep 300 & echo $! > {pidfile}; wait"], [], timeout_s=0.5)
    assert ei.value.kind == "timeout"
    pid = int(pidfile.read_text())
    deadline = time.monotonic() + 10
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not pid_alive(pid)


def test_denied_scope_never_runs_qmd(env):
    backend, events = env("ok")
    res = backend.search(QUERY, session_key="agent:main:discord:group:42")
    assert res["results"] == [] and res["denied"] is True
    assert not [c for c in fake_calls(env.dir) if "--json" in c]
    warnings = [e for e in events if getattr(e, "level", "") == "warning"]
    assert "channel=discord" in warnings[-1].message and "chatType=group" in warnings[-1].message


@pytest.mark.parametrize("body", ["exit 0", "echo '[]'", "echo 'No results found.'"])
def test_a_command_that_is_not_qmd_falls_back_with_a_warning(env, tmp_path, body):
    impostor = tmp_path / "impostor"
    impostor.write_text(f"#!/bin/sh\n{body}\n")
    impostor.chmod(0o755)
    backend, events = env("ok", command=str(impostor))
    for _ in range(2):  # every search, not only the first
        res = backend.search(QUERY)
        assert res.fallback and "does not behave like qmd" in res.fallback["reason"]
        assert res.results and "heliotrope" in res.results[0].snippet  # the builtin index answered
    assert [e for e in events if isinstance(e, QmdFallback)]
