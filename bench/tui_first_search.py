"""``tui-first-search``: the first ``/memory search`` of a fresh session, default setup
(the bundled embedder, a workspace not indexed yet) beside a keyword-only setup, in one run.

Each sample is a fresh ``python`` process (headless driver, 120×40, the offline agent, a
fresh state dir: nothing indexed, no model loaded). The child starts the app through the
console script's path, types ``/memory search …`` as soon as the session engine is up and
reports how long until the Memory panel shows the citation. Variants alternate so machine
drift hits both alike. Bar (issue 27): default ≤ 2× keyword-only.

    python -m bench.tui_first_search [--runs N] [--files N]
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

QUERY = "which database does the billing service use"
WANT = "MEMORY.md"


def _child(workspace: str) -> None:
    from openclaw_tui.cli import build_parser
    from openclaw_tui.commands.app_cmd import build_app

    app = build_app(build_parser().parse_args(["--workspace", workspace, "--model", "offline"]))
    t_start = time.perf_counter()

    async def drive(pilot) -> None:
        import asyncio

        screen = app.main_screen
        while screen.engine is None:
            await asyncio.sleep(0.01)
        t_ready = time.perf_counter()
        screen.prompt.load_text(f"/memory search {QUERY}")
        await pilot.press("enter")
        t_sent = time.perf_counter()
        panel = None
        while True:
            await asyncio.sleep(0.01)
            if screen.side.built:
                panel = screen.memory_panel
                if any(WANT in s for s in panel.sources):
                    break
            if time.perf_counter() - t_sent > 300:
                break
        t_shown = time.perf_counter()
        result = panel.result if panel is not None else {}
        print(json.dumps({
            "ready_s": t_ready - t_start, "search_s": t_shown - t_sent,
            "mode": result.get("mode"), "provider": result.get("provider"),
            "found": panel is not None and any(WANT in s for s in panel.sources),
        }), flush=True)
        app.exit()

    app.run(headless=True, size=(120, 40), auto_pilot=drive)
    os._exit(0)


def _workspace(root: Path, files: int) -> Path:
    ws = root / "workspace"
    (ws / "memory").mkdir(parents=True)
    (ws / "MEMORY.md").write_text("# Memory\n\n- The billing service uses PostgreSQL 16 as its database.\n", encoding="utf-8")
    for i in range(files):
        day = f"2026-{1 + i // 28:02d}-{1 + i % 28:02d}"
        lines = [f"# {day}"] + [f"- note {i}.{j}: met the team about project {i * 7 + j}, follow-ups on the roadmap." for j in range(30)]
        (ws / "memory" / f"{day}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ws


def _sample(variant: str, workspace: Path, root: Path, n: int) -> dict:
    state = root / f"state-{variant}-{n}"  # fresh: nothing indexed, nothing cached
    env = dict(os.environ, OPENCLAW_STATE_DIR=str(state), TEXTUAL_ANIMATIONS="none")
    env.pop("OPENCLAW_CONFIG_PATH", None)
    if variant == "keyword":
        env["OPENCLAW_BUNDLED_EMBEDDINGS"] = "off"
    else:
        env.pop("OPENCLAW_BUNDLED_EMBEDDINGS", None)
    cmd = [sys.executable, "-m", "bench.tui_first_search", "--child", "--workspace", str(workspace)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True,
                            cwd=str(Path(__file__).resolve().parent.parent))
    assert proc.stdout is not None
    out: dict = {"found": False, "search_s": float("nan")}
    for line in proc.stdout:
        if line.startswith("{"):
            out = json.loads(line)
            break
    proc.stdout.close()
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bench.tui_first_search")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--files", type=int, default=60, help="daily files beside MEMORY.md (30 lines each)")
    p.add_argument("--child", action="store_true")
    p.add_argument("--workspace")
    args = p.parse_args(argv)
    if args.child:
        _child(args.workspace or ".")
        return 0
    samples: dict[str, list[dict]] = {"default": [], "keyword": []}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ws = _workspace(root, args.files)
        for n in range(args.runs):
            for variant in ("default", "keyword"):
                samples[variant].append(_sample(variant, ws, root, n))
    med = {v: statistics.median(s["search_s"] for s in samples[v]) * 1000 for v in samples}
    missing = [v for v in samples if not all(s.get("found") for s in samples[v])]
    print(f"tui-first-search: first /memory search of a fresh session, headless 120x40, {args.files + 1} files, median of {args.runs}")
    for v, label in (("default", "default (bundled embedder)"), ("keyword", "keyword-only")):
        first = samples[v][0]
        print(f"  {label:27}: {med[v]:8.1f} ms to the citation  (mode {first.get('mode')}, provider {first.get('provider') or 'none'},"
              f" engine ready after {first.get('ready_s', float('nan')) * 1000:.0f} ms)")
    ratio = med["default"] / med["keyword"] if med["keyword"] else float("nan")
    print(f"  ratio default/keyword-only : {ratio:.2f}x  (bar: <= 2x)")
    whole = {v: statistics.median(s["search_s"] + s.get("ready_s", 0.0) for s in samples[v]) * 1000 for v in samples}
    print(f"  launch to citation         : default {whole['default']:.0f} ms, keyword-only {whole['keyword']:.0f} ms"
          f" ({whole['default'] / whole['keyword']:.2f}x)")
    if missing:
        print(f"  citation NOT shown in: {', '.join(missing)}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
