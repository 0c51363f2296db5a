"""First-frame time of ``openclaw-tui`` beside a bare Textual app started the same way.

Each sample is a fresh ``python`` process (headless driver, 120×40). The parent takes the
time just before spawning and when the child reports that its first screen is ready
(from an auto-pilot that waits for the app's own screen and then for its first refresh). The "ours"
child builds the app through the same path as the console script (argparse → settings →
``OpenClawApp``); the "bare" child runs ``App`` with one ``Label``. The child also reports
whether litellm was imported by then (it must not be).

    python -m bench.first_frame [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _child(variant: str, workspace: str) -> None:
    from textual.app import App
    from textual.widgets import Label

    if variant == "bare":

        class Bare(App):
            def compose(self):
                yield Label("hello")

        app = Bare()
    else:
        from openclaw_tui.cli import build_parser
        from openclaw_tui.commands.app_cmd import build_app

        app = build_app(build_parser().parse_args(["--workspace", workspace]))

    async def first_frame(pilot) -> None:
        import asyncio

        running = pilot.app
        if variant == "ours":
            while running.screen is not running.main_screen:  # the app pushes its screen on mount
                await asyncio.sleep(0)
        painted = asyncio.get_running_loop().create_future()
        running.screen.call_after_refresh(lambda: painted.done() or painted.set_result(True))
        await painted  # the screen has been refreshed (painted) once
        print(json.dumps({"ready": True, "litellm": "litellm" in sys.modules}), flush=True)
        running.exit()

    app.run(headless=True, size=(120, 40), auto_pilot=first_frame)
    os._exit(0)  # do not wait for background workers (engine boot) to finish


def _sample(variant: str, workspace: str, env: dict[str, str]) -> tuple[float, bool]:
    cmd = [sys.executable, "-m", "bench.first_frame", "--child", variant, "--workspace", workspace]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True,
                            cwd=str(Path(__file__).resolve().parent.parent))
    assert proc.stdout is not None
    litellm = False
    elapsed = float("nan")
    for line in proc.stdout:
        if line.startswith("{"):
            elapsed = time.perf_counter() - t0
            litellm = bool(json.loads(line).get("litellm"))
            break
    proc.stdout.close()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
    return elapsed, litellm


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench.first_frame")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--child", choices=["bare", "ours"])
    p.add_argument("--workspace")
    args = p.parse_args(argv)
    if args.child:
        _child(args.child, args.workspace or ".")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp, "workspace")
        (ws / "memory").mkdir(parents=True)
        (ws / "MEMORY.md").write_text("# Memory\n\n- We chose PostgreSQL for the billing service.\n", encoding="utf-8")
        env = dict(os.environ, OPENCLAW_STATE_DIR=str(Path(tmp, "state")), TEXTUAL_ANIMATIONS="none")
        env.pop("OPENCLAW_CONFIG_PATH", None)
        times: dict[str, list[float]] = {"bare": [], "ours": []}
        litellm_seen = False
        _sample("bare", str(ws), env)  # warm the file cache once, unmeasured
        _sample("ours", str(ws), env)
        for _ in range(args.runs):
            for variant in ("bare", "ours"):  # interleaved so drift hits both alike
                t, lit = _sample(variant, str(ws), env)
                times[variant].append(t)
                litellm_seen |= lit and variant == "ours"
    bare = statistics.median(times["bare"]) * 1000
    ours = statistics.median(times["ours"]) * 1000
    print(f"first frame, headless 120x40, median of {args.runs} fresh processes")
    print(f"  bare Textual app : {bare:7.1f} ms  (min {min(times['bare']) * 1000:.1f})")
    print(f"  openclaw-tui     : {ours:7.1f} ms  (min {min(times['ours']) * 1000:.1f})")
    print(f"  ratio ours/bare  : {ours / bare:.2f}x")
    print(f"  litellm imported before first frame: {'YES (regression)' if litellm_seen else 'no'}")
    return 1 if litellm_seen else 0


if __name__ == "__main__":
    sys.exit(main())
