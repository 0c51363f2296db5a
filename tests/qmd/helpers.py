"""Helpers for the QMD backend tests: settings, files, the fake qmd executable."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from openclaw_tui.config import resolve_agent, validate_config


def make_settings(state: Path, workspace: Path, memory: dict[str, Any] | None = None, **agent: Any):
    """AgentSettings for a qmd-backed agent whose state lives in ``state``."""
    data = {"memory": {"backend": "qmd", **(memory or {})}}
    cfg = validate_config(data)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("OPENCLAW_STATE_DIR", str(state))
        return resolve_agent(cfg, workspace=workspace, **agent)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


FAKE_QMD = r'''#!{python}
"""Fake qmd for fault tests. Behaviour per subcommand from $FAKE_QMD_DIR/mode (one word)."""
import json, os, subprocess, sys, time
d = os.environ["FAKE_QMD_DIR"]
args = [a for a in sys.argv[1:]]
with open(os.path.join(d, "calls.log"), "a") as fh:
    fh.write(json.dumps(args) + "\n")
# drop the global --index option
if args[:1] == ["--index"]:
    args = args[2:]
cmd = args[0] if args else ""
mode = open(os.path.join(d, "mode")).read().strip()
if cmd == "collection" and args[1:2] == ["add"] and os.environ.get("FAKE_QMD_SLOW_ADD"):
    time.sleep(float(os.environ["FAKE_QMD_SLOW_ADD"]))
if cmd == "collection" and args[1:2] in (["add"], ["remove"]):
    import yaml
    cfg_path = os.path.join(os.environ["XDG_CONFIG_HOME"], "qmd", "index.yml")
    os.makedirs(os.path.dirname(cfg_path), exist_ok=True)
    data = (yaml.safe_load(open(cfg_path)) if os.path.exists(cfg_path) else None) or {{}}
    cols = data.get("collections") or {{}}
    if args[1] == "add":
        cols[args[args.index("--name") + 1]] = {{"path": os.path.realpath(args[2]), "pattern": args[args.index("--mask") + 1]}}
    else:
        cols.pop(args[2], None)
    data["collections"] = cols
    yaml.safe_dump(data, open(cfg_path, "w"))
if cmd in ("collection", "update", "embed", "--version"):
    print("Indexed: 0 new, 0 updated, 0 unchanged, 0 removed")
    sys.exit(0)
query = args[args.index("--") + 1] if "--" in args else ""
def ok_hits():
    hit = {{"docid": os.environ.get("FAKE_QMD_DOCID", "#abc123"), "score": 0.9, "file": os.environ.get("FAKE_QMD_FILE", "qmd://memory-dir/notes.md"),
           "line": 2, "title": "t", "snippet": "@@ -2,2 @@ (1 before, 0 after)\nfake qmd hit for " + query + "\nsecond"}}
    print("Searching 2 collections...")
    print(json.dumps([hit], indent=2))
    print("done")
if mode == "ok":
    ok_hits(); sys.exit(0)
if mode == "hang":
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    with open(os.path.join(d, "child.pid"), "w") as fh:
        fh.write(str(child.pid))
    with open(os.path.join(d, "parent.pid"), "w") as fh:
        fh.write(str(os.getpid()))
    time.sleep(300)
if mode == "crash":
    sys.stderr.write("Segmentation fault (core dumped)\n")
    sys.stderr.flush()
    os.abort()
if mode == "noresults":
    print("Searching 2 collections...")
    print("No results found.")
    sys.exit(0)
if mode == "mentions-noresults":
    print("Error: index is locked by another process, no results returned")
    sys.exit(0)
if mode == "silent":
    sys.exit(0)
if mode == "garbage":
    print("\x1b[32mQMD\x1b[0m ~~ {{ not json at all ]] <html>oops</html>")
    sys.exit(0)
if mode == "flags":
    if cmd in ("search", "vsearch"):
        sys.stderr.write("error: unknown option '--json'\n")
        sys.exit(2)
    ok_hits(); sys.exit(0)
if mode == "flags-nomodel":
    if cmd in ("search", "vsearch"):
        sys.stderr.write("error: unknown option '--json'\n")
        sys.exit(2)
    sys.stderr.write("NoBinaryFoundError: NoBinaryFoundError\n")
    sys.exit(1)
sys.stderr.write("fake qmd: unknown mode " + mode + "\n")
sys.exit(3)
'''


def make_fake_qmd(directory: Path, mode: str = "ok") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    script = directory / "fake-qmd"
    script.write_text(FAKE_QMD.format(python=sys.executable), encoding="utf-8")
    script.chmod(0o755)
    (directory / "mode").write_text(mode, encoding="utf-8")
    return script


def set_mode(directory: Path, mode: str) -> None:
    (directory / "mode").write_text(mode, encoding="utf-8")


def fake_calls(directory: Path) -> list[list[str]]:
    log = directory / "calls.log"
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def pid_alive(pid: int) -> bool:
    """True if ``pid`` runs (a zombie awaiting reaping counts as dead)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    state = stat.rsplit(")", 1)[1].split()[0]
    return state not in ("Z", "X")

