"""LoCoMo evidence-all-found@k through the real CLI: ``memory search --batch FILE --json``.

For each conversation folder (``conv-*``) the workspace files are copied to a temp dir,
the category 1–4 questions are written one per line, and ONE ``openclaw-tui memory search
--batch`` process answers them all. A question counts as found when every evidence line
lies inside some returned chunk's ``[startLine, endLine]`` of the same path; "shown" counts
it only when every evidence line is also shown whole in that result's snippet (at most 700
characters, while a chunk is ~1,600), which is what the model reads.

    python -m bench.locomo_eval                       # keyword-only, OR-joined FTS query
    python -m bench.locomo_eval --fts-mode and        # OpenClaw's AND join, for comparison
    python -m bench.locomo_eval --config cfg.json5    # e.g. with an embedding provider
    python -m bench.locomo_eval --data DIR --conv conv-26 --k 6 --json

``--mode keyword`` forces ``memorySearch.provider = "none"``; ``--mode config`` keeps
whatever the config file selects (the embeddings engineer reuses this with a provider).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = (REPO / ".." / "shared" / "data" / "locomo").resolve()


def load_questions(conv_dir: Path, categories: set[int]) -> list[dict]:
    out = []
    with open(conv_dir / "qa.jsonl", encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            item = json.loads(line)
            if int(item.get("category", 0)) in categories and item.get("evidence_locs"):
                out.append(item)
    return out


def evidence_lines_found(item: dict, results: list[dict]) -> tuple[int, int]:
    """(evidence lines inside some result, evidence lines) for one question."""
    locs = item["evidence_locs"]
    hits = sum(
        any(r.get("path") == loc["path"] and r.get("startLine", 0) <= loc["line"] <= r.get("endLine", -1) for r in results)
        for loc in locs
    )
    return hits, len(locs)


def shown_text(result: dict) -> str:
    """What a result shows the model: its snippet without the ``Source:`` footer."""
    snippet = result.get("snippet") or ""
    cut = snippet.rfind("\n\nSource: ")
    return snippet[:cut] if cut >= 0 else snippet


def evidence_lines_shown(item: dict, results: list[dict], file_lines: Callable[[str], list[str]]) -> tuple[int, int]:
    """(evidence lines shown whole in some result's snippet, evidence lines) for one question.

    Stricter than :func:`evidence_lines_found`: a result's line range may cover far more
    than its snippet (at most 700 characters) shows, so a line counts only when it lies in
    the range AND its text (stripped) is inside that result's snippet."""
    hits = 0
    for loc in item["evidence_locs"]:
        lines = file_lines(loc["path"])
        text = lines[loc["line"] - 1].strip() if 0 < loc["line"] <= len(lines) else ""
        hits += any(
            r.get("path") == loc["path"] and r.get("startLine", 0) <= loc["line"] <= r.get("endLine", -1)
            and text in shown_text(r)
            for r in results
        )
    return hits, len(item["evidence_locs"])


def workspace_lines(root: Path) -> Callable[[str], list[str]]:
    """``path -> lines`` of the workspace files under ``root`` (read once each)."""
    cache: dict[str, list[str]] = {}

    def lines(path: str) -> list[str]:
        if path not in cache:
            cache[path] = (root / path).read_text(encoding="utf-8").split("\n")
        return cache[path]

    return lines


def evidence_found(item: dict, results: list[dict]) -> bool:
    """Every evidence line of the question is inside some result."""
    hits, total = evidence_lines_found(item, results)
    return hits == total


def run_conversation(
    conv_dir: Path,
    *,
    k: int,
    mode: str,
    fts_mode: str,
    config: Path | None,
    categories: set[int],
    python: str,
    now: str | None,
) -> dict:
    questions = load_questions(conv_dir, categories)
    with tempfile.TemporaryDirectory(prefix="locomo-") as tmp:
        tmpd = Path(tmp)
        ws = tmpd / "workspace"
        ws.mkdir()
        for name in ("MEMORY.md",):
            if (conv_dir / name).exists():
                shutil.copy2(conv_dir / name, ws / name)
        shutil.copytree(conv_dir / "memory", ws / "memory")
        for p in ws.rglob("*"):
            os.chmod(p, 0o755 if p.is_dir() else 0o644)
        qfile = tmpd / "questions.txt"
        qfile.write_text("\n".join(" ".join(q["question"].split()) for q in questions) + "\n", encoding="utf-8")
        cfg: dict = {}
        if config is not None:
            import json5  # noqa: PLC0415

            cfg = json5.loads(config.read_text(encoding="utf-8"))
        ms = cfg.setdefault("agents", {}).setdefault("defaults", {}).setdefault("memorySearch", {})
        if mode == "keyword":
            ms["provider"] = "none"
        cfg_path = tmpd / "openclaw.json"
        cfg_path.write_text(json.dumps(cfg), encoding="utf-8")
        env = dict(os.environ, OPENCLAW_STATE_DIR=str(tmpd / "state"), OPENCLAW_MEMORY_FTS_MODE=fts_mode)
        if now:
            env["OPENCLAW_MEMORY_NOW"] = now
        cmd = [
            python, "-m", "openclaw_tui.cli", "--config", str(cfg_path), "--workspace", str(ws),
            "memory", "search", "--batch", str(qfile), "--json", "--max-results", str(k),
        ]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(REPO))
        elapsed = time.perf_counter() - t0
        if proc.returncode != 0:
            raise SystemExit(f"{conv_dir.name}: batch search failed ({proc.returncode}): {proc.stderr.strip()[-500:]}")
        lines = [json.loads(x) for x in proc.stdout.splitlines() if x.strip()]
    if len(lines) != len(questions):
        raise SystemExit(f"{conv_dir.name}: got {len(lines)} results for {len(questions)} questions")
    return {"conv": conv_dir.name, "questions": len(questions), "seconds": round(elapsed, 2),
            "provider": lines[0].get("provider") if lines else None,
            **score_answers(questions, lines, workspace_lines(conv_dir))}


def score_answers(questions: list[dict], answers: list[dict], file_lines: Callable[[str], list[str]]) -> dict:
    """Found (every evidence line in a result's range) and shown (every evidence line shown
    whole in a snippet, what the model reads) per question, totalled and per category."""
    # per category: [all evidence found, questions, evidence lines found, evidence lines, all shown]
    per_cat: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    disabled = 0
    for q, res in zip(questions, answers):
        line_hits, line_total = evidence_lines_found(q, res.get("results", []))
        seen = evidence_lines_shown(q, res.get("results", []), file_lines)[0] == line_total
        disabled += bool(res.get("disabled"))
        tally = per_cat[int(q["category"])]
        for i, n in enumerate((line_hits == line_total, 1, line_hits, line_total, seen)):
            tally[i] += n
    found = sum(v[0] for v in per_cat.values())
    return {
        "found": found,
        "rate": found / len(questions) if questions else 0.0,
        "shown": sum(v[4] for v in per_cat.values()),
        "byCategory": {
            str(c): {"found": v[0], "total": v[1], "linesFound": v[2], "lines": v[3], "shown": v[4]}
            for c, v in sorted(per_cat.items())
        },
        "linesFound": sum(v[2] for v in per_cat.values()),
        "lines": sum(v[3] for v in per_cat.values()),
        "disabled": disabled,
    }


def print_totals(label: str, rows: list[dict]) -> None:
    """All conversations together: all-found and line recall, overall and per category."""
    tf, tq = sum(r["found"] for r in rows), sum(r["questions"] for r in rows)
    ts = sum(r["shown"] for r in rows)
    lf, lt = sum(r["linesFound"] for r in rows), sum(r["lines"] for r in rows)
    cats: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for r in rows:
        for c, v in r["byCategory"].items():
            for i, key in enumerate(("found", "total", "linesFound", "lines")):
                cats[c][i] += v[key]
    cats_s = " ".join(f"c{c}:{v[0]}/{v[1]} ({v[2] / v[3]:.0%})" for c, v in sorted(cats.items()))
    print(f"{label:<10} {'all':<8} {tf:>4}/{tq:<4} {tf / tq if tq else 0:>7.1%} {lf / lt if lt else 0:>7.1%}  {cats_s}"
          f"  shown in snippets {ts}/{tq}")



def copy_workspace(conv: Path, dest: Path) -> Path:
    """A copy of a conversation's memory workspace (MEMORY.md and memory/) at ``dest/workspace``."""
    ws = dest / "workspace"
    ws.mkdir(parents=True)
    if (conv / "MEMORY.md").exists():
        shutil.copy2(conv / "MEMORY.md", ws / "MEMORY.md")
    shutil.copytree(conv / "memory", ws / "memory")
    return ws


def embedding_bench_args(prog: str, description: str, argv: list[str] | None, *, state: bool = False,
                         extra: Callable[[argparse.ArgumentParser], None] | None = None) -> argparse.Namespace:
    """The arguments the embedding-based LoCoMo benches share: --data, --k, --json (and
    with ``state``, --state DIR: keep the workspaces and indexes there, reused next run);
    ``extra`` adds a bench's own."""
    ap = argparse.ArgumentParser(prog=prog, description=description)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--k", type=int, default=6)
    ap.add_argument("--json", action="store_true")
    if state:
        ap.add_argument("--state", type=Path, help="keep workspaces and indexes here (reused by the next run)")
    if extra is not None:
        extra(ap)
    return ap.parse_args(argv)


def embedding_conversations(data: Path, prog: str) -> tuple[list[Path], int | None]:
    """The dev conversations for a bench that needs the local embedding model.

    Returns ``(conversations, None)``, or ``([], exit code)`` after saying why not: 0 when the
    local model is not installed (skipped), 2 when the data is missing."""
    from openclaw_tui.memory.embeddings.local import bundled_minilm_dir, library_available, xllama_runnable  # noqa: PLC0415

    folder = bundled_minilm_dir()
    if folder is None or not (library_available("sentence-transformers") or xllama_runnable(folder)):
        print(f"{prog}: needs the local embedding model (make dev); skipped", file=sys.stderr)
        return [], 0
    if not data.is_dir():
        print(f"locomo data not found at {data}; pass --data DIR", file=sys.stderr)
        return [], 2
    return sorted(p for p in data.iterdir() if p.is_dir() and p.name.startswith("conv-")), None

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.locomo_eval", description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"folder holding conv-* (default {DEFAULT_DATA})")
    ap.add_argument("--conv", action="append", help="conversation folder name(s); default: every conv-*")
    ap.add_argument("--k", type=int, default=6, help="results per question (default 6)")
    ap.add_argument("--mode", choices=["keyword", "config"], default="keyword")
    ap.add_argument("--fts-mode", choices=["or", "and", "and-strict", "both", "all"], default="both",
                    help="FTS join: or (ours), and (AND + keyword fallback), and-strict; both = or+and; all = all three")
    ap.add_argument("--config", type=Path, help="openclaw.json to start from (JSON5)")
    ap.add_argument("--categories", default="1,2,3,4")
    ap.add_argument("--now", help="ISO datetime used as 'now' for temporal decay")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    data = args.data
    if not data.is_dir():
        print(f"locomo data not found at {data}; pass --data DIR", file=sys.stderr)
        return 2
    convs = sorted(p for p in data.iterdir() if p.is_dir() and p.name.startswith("conv-"))
    if args.conv:
        convs = [data / c for c in args.conv]
    cats = {int(c) for c in args.categories.split(",") if c.strip()}
    fts_modes = {"both": ["or", "and"], "all": ["or", "and", "and-strict"]}.get(args.fts_mode, [args.fts_mode])
    rows = []
    for fm in fts_modes:
        for conv in convs:
            r = run_conversation(
                conv, k=args.k, mode=args.mode, fts_mode=fm, config=args.config, categories=cats,
                python=args.python, now=args.now,
            )
            r["ftsMode"] = fm
            rows.append(r)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"LoCoMo evidence-all-found@{args.k} (categories {sorted(cats)}, mode {args.mode})")
    print("all evidence found per question, and per evidence line (lines found / lines)")
    print("(shown: every evidence line shown whole in a result's snippet, which holds at most 700 characters)")
    print(f"{'fts':<10} {'conv':<8} {'found':>9} {'rate':>7} {'lines':>7}  by category: all-found (line recall)          secs  shown")
    for r in rows:
        cats_s = " ".join(
            f"c{c}:{v['found']}/{v['total']} ({v['linesFound'] / v['lines']:.0%})" for c, v in r["byCategory"].items()
        )
        print(f"{r['ftsMode']:<10} {r['conv']:<8} {r['found']:>4}/{r['questions']:<4} {r['rate']:>7.1%}"
              f" {r['linesFound'] / max(1, r['lines']):>7.1%}  {cats_s:<46} {r['seconds']:>5}  {r['shown']:>5}")
    for fm in fts_modes:
        print_totals(fm, [r for r in rows if r["ftsMode"] == fm])
    return 0


if __name__ == "__main__":
    sys.exit(main())
