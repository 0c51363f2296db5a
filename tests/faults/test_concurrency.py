"""Fault matrix: two app instances append to the same daily log at the same time.

Two real processes each run the ``append`` tool (the exact handler the model's tool calls
reach) hundreds of times on one workspace. Every block must land whole, in each writer's
order, with nothing lost and nothing interleaved.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

from openclaw_tui.workspace.daily import daily_rel
from tests.faults.conftest import ROOT, cli_env

N_APPENDS = 600  # per process; 3 lines each -> 3,600 lines in total (the overlap is asserted below)

WRITER = textwrap.dedent(
    """
    import sys
    import time
    from pathlib import Path
    from openclaw_tui.tools.files import FileTools
    ws, rel, tag, n, go = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), Path(sys.argv[5])
    tools = FileTools(ws, access="rw")
    (go.parent / f"ready-{tag}").write_text("ready")
    while not go.exists():
        time.sleep(0.001)
    pad = tag * 120  # long lines: a torn write would show up as a broken line
    for i in range(n):
        block = f"{tag}{i:05d}a {pad}\\n{tag}{i:05d}b {pad}\\n{tag}{i:05d}c {pad}"
        res = tools.append({"path": rel, "content": block})
        assert res.get("ok"), res
    """
)


def test_two_instances_append_to_one_daily_log(workspace: Path, state_dir: Path, tmp_path: Path) -> None:
    rel = daily_rel()
    log = workspace / rel
    log.write_text("- existing line\n", encoding="utf-8")
    go = tmp_path / "go"
    env = cli_env(state_dir)
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(workspace), rel, tag, str(N_APPENDS), str(go)], cwd=ROOT, env=env,
                         stderr=subprocess.PIPE)
        for tag in ("A", "B")
    ]
    deadline = time.time() + 120
    while not all((tmp_path / f"ready-{t}").exists() for t in ("A", "B")):
        assert time.time() < deadline and all(p.poll() is None for p in procs), "writers did not start"
        time.sleep(0.01)
    go.write_text("go")  # both writers are loaded and waiting: they start together
    for p in procs:
        _, err = p.communicate(timeout=150)
        assert p.returncode == 0, err.decode()

    lines = log.read_text(encoding="utf-8").split("\n")
    assert lines[-1] == ""  # ends with a newline
    lines = lines[:-1]
    assert lines[0] == "- existing line"
    body = lines[1:]
    assert len(body) == 2 * 3 * N_APPENDS  # nothing lost, nothing duplicated
    seen = {"A": -1, "B": -1}
    for k in range(0, len(body), 3):
        block = body[k : k + 3]
        tag = block[0][0]
        i = int(block[0][1:6])
        pad = tag * 120
        # a block is never split by the other writer, and each line is whole
        assert block == [f"{tag}{i:05d}a {pad}", f"{tag}{i:05d}b {pad}", f"{tag}{i:05d}c {pad}"], (k, block)
        assert i == seen[tag] + 1  # each writer's order is kept
        seen[tag] = i
    assert seen == {"A": N_APPENDS - 1, "B": N_APPENDS - 1}
    # the two writers really overlapped in time (otherwise the test proves little)
    tags = [b[0] for b in body[::3]]
    switches = sum(1 for x, y in zip(tags, tags[1:]) if x != y)
    assert switches > 1
