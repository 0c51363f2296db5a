"""False positives of the disk redactor (issue 35): how many lines that hold no secret it changes.

    python -m bench.secret_false_positives            # counts
    python -m bench.secret_false_positives --list     # and each changed line, before → after

Two sources of text with no secret in it: every fact of every labelled message
(``bench/data/language_messages.*.jsonl``) whose ``must_not_keep`` is empty, and every line of
the LoCoMo memory workspaces (``MEMORY.md`` and ``memory/*.md`` under ``--locomo``, by default
``../shared/data/locomo`` beside the repository, or ``/work/shared/data/locomo``). A line the
redactor changes there is a false positive. Also counted: each labelled message whose
``must_not_keep`` is not empty, and how many of those substrings the redactor withholds.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openclaw_tui.language.secrets import redact_for_disk  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _locomo_default() -> Path:
    for candidate in (ROOT.parent / "shared" / "data" / "locomo", Path("/work/shared/data/locomo")):
        if candidate.is_dir():
            return candidate
    return ROOT.parent / "shared" / "data" / "locomo"


def labelled_facts() -> Iterator[tuple[str, str]]:
    """(row id, fact) for every fact of a row that keeps nothing back."""
    for path in sorted((ROOT / "bench" / "data").glob("language_messages.*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            if row.get("must_not_keep"):
                continue
            for fact in row.get("facts", []):
                yield str(row["id"]), str(fact)


def labelled_texts() -> Iterator[tuple[str, str]]:
    """(row id, message) for every row that keeps nothing back."""
    for path in sorted((ROOT / "bench" / "data").glob("language_messages.*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                if not row.get("must_not_keep"):
                    yield str(row["id"]), str(row["text"])


def withheld_rows() -> Iterator[tuple[str, str, list[str]]]:
    """(row id, text, must_not_keep) for every row that keeps something back."""
    for path in sorted((ROOT / "bench" / "data").glob("language_messages.*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                if row.get("must_not_keep"):
                    yield str(row["id"]), str(row["text"]), [str(s) for s in row["must_not_keep"]]


def locomo_lines(root: Path) -> Iterator[tuple[str, str]]:
    """(file:line, text) for every line of every LoCoMo memory file."""
    files = sorted(root.glob("*/MEMORY.md")) + sorted(root.glob("*/memory/*.md"))
    for path in files:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            yield f"{path.relative_to(root)}:{n}", line


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--locomo", type=Path, default=_locomo_default())
    ap.add_argument("--list", action="store_true", help="print each changed line")
    args = ap.parse_args(argv)
    for label, items in (("labelled facts (must_not_keep empty)", list(labelled_facts())),
                         ("labelled messages (must_not_keep empty)", list(labelled_texts())),
                         ("LoCoMo memory lines", list(locomo_lines(args.locomo)))):
        changed = [(where, text, redact_for_disk(text).text) for where, text in items]
        changed = [c for c in changed if c[1] != c[2]]
        print(f"{label}: {len(changed)} changed of {len(items)}")
        if args.list:
            for where, before, after in changed:
                print(f"  {where}: {before!r}\n    → {after!r}")
    print("by split: must_not_keep substrings withheld / all, facts changed / all facts:")
    for path in sorted((ROOT / "bench" / "data").glob("language_messages.*.jsonl")):
        rows_ = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        subs_ = [(r["text"], m) for r in rows_ for m in r.get("must_not_keep") or []]
        facts_ = [f for r in rows_ for f in r.get("facts") or []]
        held = sum(m not in redact_for_disk(t).text for t, m in subs_)
        broken = sum(redact_for_disk(f).text != f for f in facts_)
        print(f"  {path.name.split('.')[1]}: {held} / {len(subs_)}, {broken} / {len(facts_)}")
    rows = list(withheld_rows())
    subs = [(i, s, s not in redact_for_disk(t).text) for i, t, ss in rows for s in ss]
    values = [x for x in subs if " " not in x[1].strip()]  # one-word substrings: the secret values
    print(f"must_not_keep substrings withheld by the redactor alone: {sum(ok for *_, ok in subs)} of {len(subs)}"
          f" ({len(rows)} rows); one-word ones (values): {sum(ok for *_, ok in values)} of {len(values)}")
    if args.list:
        for where, value, ok in values:
            if not ok:
                print(f"  kept: {where}: {value!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
