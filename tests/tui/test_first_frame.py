"""What the first frame costs: the side column (Memory panel, Timeline) and the slash
command handlers are built after it (issue 12: first frame ≤ 1.5× a bare Textual app,
measured in ``bench/first_frame``; this test checks the structure, not the time)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import asyncio, json, os, sys
from openclaw_tui.cli import build_parser
from openclaw_tui.commands.app_cmd import build_app

app = build_app(build_parser().parse_args(["--workspace", sys.argv[1]]))

async def first_frame(pilot):
    running = pilot.app
    while running.screen is not running.main_screen:
        await asyncio.sleep(0)
    painted = asyncio.get_running_loop().create_future()
    running.screen.call_after_refresh(lambda: painted.done() or painted.set_result(True))
    await painted
    screen = running.main_screen
    at_frame = {
        "side_children": len(screen.side.children),
        "modules": sorted(m for m in ("openclaw_tui.tui.widgets.memory_panel", "openclaw_tui.tui.widgets.timeline",
                                      "openclaw_tui.tui.commands.dispatch", "openclaw_tui.tui.screens.picker") if m in sys.modules),
    }
    await screen.side.build()
    at_frame["then"] = [w.id for w in screen.side.children]
    print(json.dumps(at_frame), flush=True)
    running.exit()

app.run(headless=True, size=(120, 40), auto_pilot=first_frame)
os._exit(0)
"""


def test_the_side_column_and_the_command_handlers_come_after_the_first_frame(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / "memory").mkdir(parents=True)
    env = dict(os.environ, OPENCLAW_STATE_DIR=str(tmp_path / "state"), TEXTUAL_ANIMATIONS="none")
    env.pop("OPENCLAW_CONFIG_PATH", None)
    out = subprocess.run([sys.executable, "-c", CHILD, str(ws)], capture_output=True, text=True, env=env, timeout=120)
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("{")), None)
    assert line is not None, out.stderr[-2000:]
    seen = json.loads(line)
    assert seen["side_children"] == 0 and seen["modules"] == []
    assert seen["then"] == ["memory-panel", "timeline"]  # and it fills right after
