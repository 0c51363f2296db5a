"""One form of a fact's text for comparing, whatever the keyboard or the disguise.

``fold_fact(text)`` is what a forgotten fact and a proposed line are compared in
(``workspace/tombstones.py``): NFKC (fullwidth letters and digits, ligatures, superscripts),
format characters (Unicode category Cf: zero-width space and joiners, bidi marks, soft
hyphen) and the invisible fillers of ``data/confusables.json`` removed, case folded, accents
and other combining marks dropped, letters of other scripts that look like Latin ones folded
to them (the same table), and a decimal digit of any script written as an ASCII digit.

    fold_fact("ｗｉ\u200bfi раssword ４４１７")  # "wifi password 4417"
"""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from importlib import resources

from openclaw_tui.language.lexicon import DATA_PACKAGE


@lru_cache(maxsize=1)
def _table() -> tuple[dict[int, str], frozenset[str]]:
    raw = json.loads(resources.files(DATA_PACKAGE).joinpath("confusables.json").read_text(encoding="utf-8"))
    letters = raw.get("letters") or {}
    invisible = raw.get("invisible") or []
    if not isinstance(letters, dict) or not all(isinstance(k, str) and len(k) == 1 and isinstance(v, str)
                                                for k, v in letters.items()):
        raise ValueError("confusables.json: 'letters' must map single characters to strings")
    return {ord(k): v for k, v in letters.items()}, frozenset(invisible)


def _char(c: str, letters: dict[int, str], invisible: frozenset[str]) -> str:
    if c in invisible:
        return ""
    cat = unicodedata.category(c)
    if cat == "Cf" or cat == "Mn" or cat == "Me":
        return ""
    if cat == "Nd":
        return str(unicodedata.decimal(c))
    return letters.get(ord(c), c)


def fold_fact(text: str) -> str:
    """``text`` in the form facts are compared in (see the module docstring)."""
    letters, invisible = _table()
    text = unicodedata.normalize("NFKC", text).casefold()
    text = unicodedata.normalize("NFD", text)
    out = "".join(_char(c, letters, invisible) for c in text)
    return unicodedata.normalize("NFC", out)
