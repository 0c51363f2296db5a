"""Fault matrix: disk full and read-only state dir. The state dir sits on a real 64 KiB tmpfs
that is filled up, or on a read-only bind mount; the CLI must print one clear line (no
traceback), exit non-zero, and leave the Markdown workspace byte-identical.

Mounting needs root (the CI and dev machines run the suite as root); elsewhere these tests
skip with the reason.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Iterator

import pytest

from openclaw_tui.workspace.daily import daily_rel
from tests.faults.conftest import cli_cmd, cli_env, snapshot


def _mount(args: list[str]) -> None:
    r = subprocess.run(["mount", *args], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount ({' '.join(args[:3])}…): {r.stderr.strip() or 'not permitted'}")


def _umount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], capture_output=True)


def _fill(path: Path) -> None:
    with open(path / "filler", "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 4096)
                fh.flush()
        except OSError:
            pass


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    mnt = tmp_path / "small-fs"
    mnt.mkdir()
    _mount(["-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)])
    try:
        yield mnt
    finally:
        _umount(mnt)


@pytest.fixture
def notes_ws(workspace: Path) -> Path:
    (workspace / daily_rel()).write_text("- decided: ship on Friday\n", encoding="utf-8")
    (workspace / "memory" / "2026-01-02.md").write_text("- Met Bob about the garden tomatoes.\n", encoding="utf-8")
    return workspace


def run(args: list[str], state: Path) -> subprocess.CompletedProcess:
    return subprocess.run(cli_cmd(*args), env=cli_env(state), capture_output=True, text=True, timeout=120)


def one_clear_error(proc: subprocess.CompletedProcess, *fragments: str) -> str:
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    errs = [ln for ln in proc.stderr.splitlines() if ln.startswith("openclaw-tui: error:")]
    assert len(errs) == 1, proc.stderr
    assert any(f in errs[0] for f in fragments), errs[0]
    return errs[0]


def test_disk_full_state_dir_chat_is_a_clear_error(notes_ws: Path, small_fs: Path) -> None:
    state = small_fs / "state"
    state.mkdir()
    _fill(small_fs)
    before = snapshot(notes_ws)
    proc = run(["--workspace", str(notes_ws), "chat", "-p", "remember that the logo is teal", "--session", "s1"], state)
    one_clear_error(proc, "No space left on device", "disk is full")
    assert snapshot(notes_ws) == before


def test_disk_full_state_dir_index_keeps_the_old_index(notes_ws: Path, small_fs: Path) -> None:
    state = small_fs / "state"
    r = run(["--workspace", str(notes_ws), "memory", "index", "--json"], state)
    assert r.returncode == 0, r.stderr
    index = state / "memory" / "main.sqlite"
    old = index.read_bytes()
    for i in range(30):  # enough new text that the index must grow
        (notes_ws / "memory" / f"2025-11-{i + 1:02d}.md").write_text(f"- note {i} " + "lorem ipsum dolor " * 200 + "\n")
    before = snapshot(notes_ws)
    _fill(small_fs)
    r = run(["--workspace", str(notes_ws), "memory", "index", "--json"], state)
    assert "Traceback" not in r.stderr
    report = json.loads(r.stdout)
    assert report["ok"] is False and any("full" in e for e in report["errors"]), (report, r.stderr)
    assert not list(index.parent.glob("*.corrupt-*"))  # a full disk is not corruption
    assert index.read_bytes() == old  # the transaction rolled back: old index intact
    # searching the old content still works on the full disk
    (small_fs / "filler").unlink()
    r = run(["--workspace", str(notes_ws), "memory", "search", "garden tomatoes", "--json"], state)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["results"][0]["path"] == "memory/2026-01-02.md"
    assert snapshot(notes_ws) == before


def test_read_only_state_dir_is_a_clear_error(notes_ws: Path, tmp_path: Path) -> None:
    real = tmp_path / "state-real"
    r = run(["--workspace", str(notes_ws), "memory", "index", "--json"], real)
    assert r.returncode == 0, r.stderr
    ro = tmp_path / "state-ro"
    ro.mkdir()
    _mount(["--bind", str(real), str(ro)])
    try:
        r2 = subprocess.run(["mount", "-o", "remount,bind,ro", str(ro)], capture_output=True, text=True)
        if r2.returncode != 0:
            pytest.skip(f"cannot remount read-only: {r2.stderr.strip()}")
        before = snapshot(notes_ws)
        proc = run(["--workspace", str(notes_ws), "chat", "-p", "remember that the logo is teal", "--session", "s1"], ro)
        one_clear_error(proc, "Read-only file system")
        # the existing index is still searchable from the read-only state dir
        r = run(["--workspace", str(notes_ws), "memory", "search", "garden tomatoes", "--json"], ro)
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["results"][0]["path"] == "memory/2026-01-02.md"
        assert snapshot(notes_ws) == before
    finally:
        _umount(ro)


def test_disk_full_workspace_append_leaves_no_torn_line(small_fs: Path) -> None:
    """The workspace itself fills up while the model appends to the daily log: the tool
    answers with one clear error and the log is exactly as before (no half-written line)."""
    from openclaw_tui.tools.files import FileTools

    ws = small_fs / "ws"
    (ws / "memory").mkdir(parents=True)
    log = ws / daily_rel()
    log.write_text("- existing line\n", encoding="utf-8")
    _fill(small_fs)
    filler = small_fs / "filler"
    os.truncate(filler, filler.stat().st_size - 8192)  # two pages free: the big append fits only partly
    tools = FileTools(ws, access="rw")
    res = tools.append({"path": daily_rel(), "content": "- a long note " + "x" * 20_000})
    assert res.get("error") and "No space left on device" in res["error"] and "\n" not in res["error"], res
    assert log.read_bytes() == b"- existing line\n"
    # space comes back: the next append lands cleanly on its own line
    filler.unlink()
    assert tools.append({"path": daily_rel(), "content": "- after the disk was freed"}).get("ok")
    assert log.read_text(encoding="utf-8") == "- existing line\n- after the disk was freed\n"
