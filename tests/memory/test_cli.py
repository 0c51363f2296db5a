"""``openclaw-tui memory …`` as a user runs it: real files, the CLI's ``main(argv)`` in this
process (``tests/inproc.py``); the progress bar on a terminal and ``--batch -`` on standard
input start a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.inproc import run_cli

from .conftest import write


def cli(*args: str, state: Path, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return run_cli(*args, env=dict(os.environ, OPENCLAW_STATE_DIR=str(state)), cwd=cwd)


def assert_one_line_error(proc: subprocess.CompletedProcess, fragment: str) -> None:
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    lines = [x for x in proc.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("openclaw-tui: error:") and fragment in lines[0], lines[0]


@pytest.fixture
def ws(workspace):
    write(workspace / "MEMORY.md", "# Memory\n\n- Favourite hiking trail: Ridge Loop.\n")
    write(workspace / "memory/2026-03-02.md", "- Renewed the passport at the consulate.\n- Bought hiking boots.\n")
    write(workspace / "memory/2026-03-05.md", "- Passport arrived by mail.\n")
    return workspace


def test_index_status_search_get_json(ws, state_dir):
    p = cli("--workspace", str(ws), "memory", "index", "--json", state=state_dir)
    assert p.returncode == 0, p.stderr
    rep = json.loads(p.stdout)
    assert rep["filesIndexed"] == 3 and rep["files"] == 3 and rep["ok"] is True
    assert "\r" not in p.stdout and "[#" not in p.stdout  # no progress bar when not a terminal

    st = json.loads(cli("--workspace", str(ws), "memory", "status", "--json", state=state_dir).stdout)
    assert st["files"] == 3 and st["dirty"] is False and st["vectorBackend"] == "sqlite-vec"
    assert st["indexPath"] == str(state_dir / "memory" / "main.sqlite")

    p = cli("--workspace", str(ws), "memory", "search", "passport", "--max-results", "1", "--json", state=state_dir)
    res = json.loads(p.stdout)
    assert p.returncode == 0 and len(res["results"]) == 1
    assert res["results"][0]["path"] in {"memory/2026-03-02.md", "memory/2026-03-05.md"}
    assert res["backend"] == "builtin" and "searchMs" in res

    p = cli("--workspace", str(ws), "memory", "get", "memory/2026-03-02.md", "--from", "2", "--lines", "1", "--json", state=state_dir)
    assert json.loads(p.stdout) == {"path": "memory/2026-03-02.md", "text": "- Bought hiking boots.", "from": 2, "lines": 1}


def test_human_output(ws, state_dir):
    p = cli("--workspace", str(ws), "memory", "index", state=state_dir)
    assert p.returncode == 0 and p.stdout.startswith("synced: 3 indexed")
    p = cli("--workspace", str(ws), "memory", "status", state=state_dir)
    assert "files" in p.stdout and "sqlite-vec" in p.stdout and "keyword-only" in p.stdout
    p = cli("--workspace", str(ws), "memory", "search", "hiking trail", state=state_dir)
    assert p.returncode == 0 and "MEMORY.md:1-3" in p.stdout and "Source: MEMORY.md#L1-L3" in p.stdout
    p = cli("--workspace", str(ws), "memory", "get", "MEMORY.md", "--from", "3", state=state_dir)
    assert p.stdout == "- Favourite hiking trail: Ridge Loop.\n"


def test_search_reflects_edits_without_explicit_index(ws, state_dir):
    cli("--workspace", str(ws), "memory", "index", state=state_dir)
    write(ws / "memory/2026-03-09.md", "- Booked the dentist for April.\n")
    res = json.loads(cli("--workspace", str(ws), "memory", "search", "dentist", "--json", state=state_dir).stdout)
    assert [r["path"] for r in res["results"]] == ["memory/2026-03-09.md"]


def test_batch_search_jsonl(ws, state_dir, tmp_path):
    qfile = write(tmp_path / "q.txt", "passport\n\nhiking boots\nnothing matches zzzqqq\n")
    p = cli("--workspace", str(ws), "memory", "search", "--batch", str(qfile), "--json", state=state_dir)
    assert p.returncode == 0, p.stderr
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert [x["query"] for x in lines] == ["passport", "hiking boots", "nothing matches zzzqqq"]
    assert lines[0]["results"] and lines[1]["results"] and lines[2]["results"] == []
    assert lines[1]["results"][0]["path"] == "memory/2026-03-02.md"


def test_index_force_rebuilds(ws, state_dir):
    cli("--workspace", str(ws), "memory", "index", state=state_dir)
    rep = json.loads(cli("--workspace", str(ws), "memory", "index", "--force", "--json", state=state_dir).stdout)
    assert rep["fullRebuild"] is True and rep["files"] == 3


def test_progress_bar_on_a_terminal(ws, state_dir):
    import pty

    master, slave = pty.openpty()
    env = dict(os.environ, OPENCLAW_STATE_DIR=str(state_dir))
    proc = subprocess.Popen(
        [sys.executable, "-m", "openclaw_tui.cli", "--workspace", str(ws), "memory", "index"],
        stdout=slave, stderr=subprocess.PIPE, env=env,
    )
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=60)
    os.close(master)
    text = out.decode()
    assert proc.returncode == 0
    assert "[" in text and "3/3" in text and "#" * 30 in text and "\r" in text


@pytest.mark.parametrize(
    "config_text, fragment",
    [
        ("{ agents: { defaults: { memorySearch: { chunking: { tokens: 'many' } } } } }", "agents.defaults.memorySearch.chunking.tokens"),
        ("{ agents: ", "not valid JSON5"),
        ("[1, 2]", "top level"),
        ("{ memory: { citations: 'sometimes' } }", "memory.citations"),
    ],
)
def test_broken_config_is_one_line(ws, state_dir, tmp_path, config_text, fragment):
    cfg = write(tmp_path / "bad.json5", config_text)
    before = cfg.read_bytes()
    p = cli("--config", str(cfg), "--workspace", str(ws), "memory", "status", state=state_dir)
    assert_one_line_error(p, fragment)
    assert cfg.read_bytes() == before


def test_missing_workspace_is_one_line(tmp_path, state_dir):
    missing = tmp_path / "no-such-ws"
    for args in (["memory", "index"], ["memory", "search", "x"], ["memory", "get", "MEMORY.md"]):
        p = cli("--workspace", str(missing), *args, state=state_dir)
        assert_one_line_error(p, "does not exist")
    assert not missing.exists()
    p = cli("--workspace", str(missing), "memory", "status", "--json", state=state_dir)
    assert p.returncode == 0 and json.loads(p.stdout)["workspaceExists"] is False


def test_workspace_that_is_a_file_is_named_as_such(tmp_path, state_dir):
    afile = tmp_path / "notes.txt"
    afile.write_text("x")
    for args in (["memory", "index"], ["memory", "search", "x"], ["memory", "get", "MEMORY.md"]):
        p = cli("--workspace", str(afile), *args, state=state_dir)
        assert_one_line_error(p, "is a file, not a directory")


def test_refused_get_and_bad_args_are_one_line(ws, state_dir, tmp_path):
    assert_one_line_error(cli("--workspace", str(ws), "memory", "get", "../etc/passwd.md", state=state_dir), "refused")
    assert_one_line_error(cli("--workspace", str(ws), "memory", "get", "MEMORY.md", "--from", "0", state=state_dir), "--from")
    assert_one_line_error(cli("--workspace", str(ws), "memory", "search", state=state_dir), "QUERY")
    assert_one_line_error(cli("--workspace", str(ws), "memory", "search", "x", "--max-results", "0", state=state_dir), "--max-results")
    assert_one_line_error(
        cli("--workspace", str(ws), "memory", "search", "--batch", str(tmp_path / "missing.txt"), "--json", state=state_dir), "cannot read"
    )
    p = cli("--workspace", str(ws), "memory", "get", "AGENTS.md", "--json", state=state_dir)
    assert p.returncode == 1 and json.loads(p.stdout)["disabled"] is True


def test_invalid_utf8_and_big_line_via_cli(ws, state_dir):
    write(ws / "memory/bad.md", b"\xff\xfe caf\xe9 notes about lanterns\n")
    write(ws / "memory/long.md", "x " * 25_000 + "lantern\n")
    p = cli("--workspace", str(ws), "memory", "index", state=state_dir)
    assert p.returncode == 0 and "Traceback" not in p.stderr
    assert "invalid UTF-8" in p.stderr and len([x for x in p.stderr.splitlines() if x]) == 1
    res = json.loads(cli("--workspace", str(ws), "memory", "search", "lanterns", "--json", state=state_dir).stdout)
    assert "memory/bad.md" in [r["path"] for r in res["results"]]


def test_unusable_index_path_is_one_line(ws, state_dir, tmp_path):
    blocker = write(tmp_path / "blocker", "a file where a directory should be\n")
    cfg = write(tmp_path / "cfg.json5", f"{{agents: {{defaults: {{memorySearch: {{store: {{path: '{blocker}/sub/x.sqlite'}}}}}}}}}}")
    for args in (["memory", "index"], ["memory", "search", "passport"]):
        assert_one_line_error(cli("--config", str(cfg), "--workspace", str(ws), *args, state=state_dir), "cannot open the memory index")
    st = json.loads(cli("--config", str(cfg), "--workspace", str(ws), "memory", "status", "--json", state=state_dir).stdout)
    assert "cannot open the memory index" in st["error"]
    assert blocker.read_text() == "a file where a directory should be\n"


def test_group_session_key_never_shows_memory_md(ws, state_dir, tmp_path):
    group = ("--workspace", str(ws), "--session-key", "agent:main:discord:group:1")
    write(ws / "memory/shared/2026-03-03.md", "- The club's hiking meetup is on Saturday.\n")  # a group session's note
    p = cli(*group, "memory", "search", "hiking", "--json", state=state_dir)
    assert p.returncode == 0, p.stderr
    paths = [r["path"] for r in json.loads(p.stdout)["results"]]
    # the shared tier only: MEMORY.md and a direct session's daily log are private (issue 35)
    assert paths == ["memory/shared/2026-03-03.md"]
    p = cli(*group, "memory", "search", "Ridge Loop", state=state_dir)
    assert p.returncode == 0 and "Ridge Loop" not in p.stdout
    batch = tmp_path / "q.txt"
    batch.write_text("Ridge Loop\n")
    p = cli(*group, "memory", "search", "--batch", str(batch), "--json", state=state_dir)
    assert p.returncode == 0 and json.loads(p.stdout)["results"] == []
    for path in ("MEMORY.md", "./MEMORY.md"):
        p = cli(*group, "memory", "get", path, state=state_dir)
        assert_one_line_error(p, "private")
        assert "Ridge Loop" not in p.stdout
    # the direct session still sees it
    p = cli("--workspace", str(ws), "memory", "get", "MEMORY.md", state=state_dir)
    assert p.returncode == 0 and "Ridge Loop" in p.stdout


def test_batch_search_reads_stdin_with_dash(ws, state_dir):
    env = dict(os.environ, OPENCLAW_STATE_DIR=str(state_dir))
    p = subprocess.run(
        [sys.executable, "-m", "openclaw_tui.cli", "--workspace", str(ws), "memory", "search", "--batch", "-", "--json"],
        input="passport\n\n  hiking boots  \nnothing matches zzzqqq\n", capture_output=True, text=True, env=env, timeout=120,
    )
    assert p.returncode == 0, p.stderr
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert [x["query"] for x in lines] == ["passport", "hiking boots", "nothing matches zzzqqq"]
    assert lines[1]["results"][0]["path"] == "memory/2026-03-02.md" and lines[2]["results"] == []
    # an unreadable FILE is still a one-line error
    p = cli("--workspace", str(ws), "memory", "search", "--batch", str(ws / "missing.txt"), "--json", state=state_dir)
    assert_one_line_error(p, "cannot read")
