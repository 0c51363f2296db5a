"""Fault matrix: every writer of a memory file takes the same lock (issue 30, point 4).

Two real processes on one workspace: one edits MEMORY.md over and over (read, history,
rename), the other appends to it (the ``append`` tool) and restores versions from the
history. No append may vanish under a rename. A program that takes no lock (an editor
saving the file between a read and the rename) is detected: the tool reads again, and its
change is kept.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

from openclaw_tui.tools.files import FileTools
from openclaw_tui.workspace import safe_fs
from openclaw_tui.records.history import ChangeOrigin, MemoryHistory
from tests.faults.conftest import ROOT, cli_env

N = 150

WORKER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from openclaw_tui.tools.files import FileTools
    from openclaw_tui.records.history import ChangeOrigin, MemoryHistory
    ws, role, n, go, hist = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), Path(sys.argv[4]), Path(sys.argv[5])
    tools = FileTools(ws, history=MemoryHistory(hist), origin=lambda: ChangeOrigin("model", role, 1))
    (go.parent / f"ready-{role}").write_text("ready")
    while not go.exists():
        time.sleep(0.001)
    for i in range(n):
        if role == "appender":
            res = tools.append({"path": "MEMORY.md", "content": f"- appended fact {i:04d}"})
        else:
            res = tools.edit({"path": "MEMORY.md", "old_text": f"counter {i}", "new_text": f"counter {i + 1}"})
        assert res.get("ok"), res
    """
)


def test_an_editing_instance_never_loses_another_instances_appends(workspace: Path, state_dir: Path, tmp_path: Path) -> None:
    (workspace / "MEMORY.md").write_text("# Memory\n\n- counter 0\n" + "".join(f"- old fact {i}\n" for i in range(200)))
    go = tmp_path / "go"
    env = cli_env(state_dir)
    procs = [
        subprocess.Popen([sys.executable, "-c", WORKER, str(workspace), role, str(N), str(go), str(tmp_path / "hist")],
                         cwd=ROOT, env=env, stderr=subprocess.PIPE)
        for role in ("appender", "editor")
    ]
    deadline = time.monotonic() + 60
    while not all((tmp_path / f"ready-{r}").exists() for r in ("appender", "editor")):
        assert time.monotonic() < deadline and all(p.poll() is None for p in procs), [p.stderr.read() for p in procs if p.poll() is not None]
        time.sleep(0.01)
    go.write_text("go")
    for p in procs:
        _out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err.decode()
    text = (workspace / "MEMORY.md").read_text()
    missing = [i for i in range(N) if f"- appended fact {i:04d}\n" not in text]
    assert not missing, f"{len(missing)} appends lost, e.g. {missing[:5]}"
    assert f"- counter {N}\n" in text
    assert not [p for p in workspace.iterdir() if p.name.endswith(".tmp")]


def test_a_save_by_a_program_without_the_lock_is_detected_and_kept(workspace: Path, tmp_path: Path, monkeypatch) -> None:
    (workspace / "MEMORY.md").write_text("# Memory\n\n- likes tea\n")
    tools = FileTools(workspace, history=MemoryHistory(tmp_path / "h"), origin=lambda: ChangeOrigin("model", "s", 1))
    real = safe_fs.current_state
    saves = iter(["# Memory\n\n- likes tea\n- saved by the editor\n"])

    def read_then_editor_saves(root, rel):  # an editor writes right after the tool's read
        got = real(root, rel)
        text = next(saves, None)
        if text is not None:
            subprocess.run([sys.executable, "-c", f"open({str(workspace / 'MEMORY.md')!r}, 'w').write({text!r})"], check=True)
        return got

    monkeypatch.setattr(safe_fs, "current_state", read_then_editor_saves)
    res = tools.edit({"path": "MEMORY.md", "old_text": "likes tea", "new_text": "likes coffee"})
    assert res.get("ok"), res
    assert (workspace / "MEMORY.md").read_text() == "# Memory\n\n- likes coffee\n- saved by the editor\n"
    # an editor that saves every time: the tool gives up with a message, the editor's text stays
    saves = iter([f"# Memory\n\n- likes coffee\n- save {i}\n" for i in range(10)])
    res = tools.edit({"path": "MEMORY.md", "old_text": "likes coffee", "new_text": "likes juice"})
    assert res["refused"] and "changed by another program" in res["error"]
    assert "likes coffee" in (workspace / "MEMORY.md").read_text()
