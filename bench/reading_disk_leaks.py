"""What of a reading's leaks would reach disk (issue 35): each ``must_not_keep`` substring found
in the reading's facts, then the same facts through ``redact_for_disk``, as every write path
sends them. A leak the redactor withholds (a key, a card, a named PIN) never reaches a file; the
rest would.

    python -m bench.reading_disk_leaks holdout9 [holdout8 …]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openclaw_tui.language import read_message  # noqa: E402
from openclaw_tui.language.secrets import redact_for_disk  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"


def _flat(s: str) -> str:
    return " ".join(s.lower().split())


def leaks(split: str) -> tuple[int, list[tuple[str, str]]]:
    """(leaks in the readings, the leaks left after the redactor as (row id, substring))."""
    read, left = 0, []
    for line in (DATA / f"language_messages.{split}.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        facts = " ".join(read_message(row["text"], previous=row.get("previous")).facts)
        disk = _flat(redact_for_disk(facts).text)
        for s in row["must_not_keep"]:
            if _flat(s) in _flat(facts):
                read += 1
                if _flat(s) in disk:
                    left.append((row["id"], s))
    return read, left


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("splits", nargs="+")
    args = p.parse_args(argv)
    for split in args.splits:
        read, left = leaks(split)
        print(f"{split}: {read} leaks in the readings, {len(left)} after the redactor")
        for rid, s in left:
            print(f"  {rid}: {s!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
