"""Writes the reader's labelled examples (``openclaw_tui/language/data/examples.jsonl``) from the
labelled splits: every tabled-language row's ``{lang, text, intent}``, split by split in the
order of ``SPLITS``, each secret's value replaced by its marker as on disk. The example
classifier (``openclaw_tui/language/examples.py``) trains on
it; ``tests/language/test_examples_reader.py`` fails when the file is out of step with the
splits. A blind split joins ``SPLITS`` only after it has been measured.

    PYTHONPATH=$PWD .venv/bin/python -m bench.build_examples [--check]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from openclaw_tui.language.examples import EXAMPLES
from openclaw_tui.language.secrets import redact_for_disk

DATA = Path(__file__).resolve().parent / "data"
TABLED = ("en", "es", "de", "fr", "pt", "it")
SPLITS = ("dev", "test", "holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6", "holdout7",
          "holdout8", "holdout9", "holdout10", "holdout11", "wide", "holdout12", "holdout13",
          "holdout14", "holdout15", "holdout16", "holdout17", "holdout18", "holdout19",
          "holdout20", "wide2")


def lines() -> str:
    out = []
    for split in SPLITS:
        path = DATA / f"language_messages.{split}.jsonl"
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            if row["lang"] in TABLED and row["intent"] != "unknown":
                text = redact_for_disk(row["text"]).text  # the package ships no card, key or password
                out.append(json.dumps({"lang": row["lang"], "text": text, "intent": row["intent"]},
                                      ensure_ascii=False))
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when the shipped file differs")
    args = ap.parse_args(argv)
    text = lines()
    if args.check:
        same = EXAMPLES.exists() and EXAMPLES.read_text(encoding="utf-8") == text
        print("in sync" if same else f"{EXAMPLES} is out of step with the splits")
        return 0 if same else 1
    EXAMPLES.write_text(text, encoding="utf-8")
    print(f"{text.count(chr(10))} rows -> {EXAMPLES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
