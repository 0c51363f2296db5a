"""The engine's own short lines, in the user's language: data (``data/<lang>.replies.json``).

The engine speaks in a few places without the model: the acknowledgement of a statement, what a
turn kept and did not keep, a refusal in a read-only workspace. Each line is a template in one
table per language; a key a table lacks (or a language without a table) falls back to English.

    lines = engine_lines("es")
    lines.say("kept_one", path="memory/2026-12-06.md")  # "Guardé 1 nota en memory/2026-12-06.md."
    lines.reason("already noted", n=2)                   # "2 ya anotado"
    lines.kind("card number")                            # "el número de tarjeta"
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

from openclaw_tui.language.lexicon import DATA_PACKAGE

FALLBACK = "en"


def _table(lang: str) -> dict[str, Any]:
    try:
        text = resources.files(DATA_PACKAGE).joinpath(f"{lang}.replies.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return {}
    raw = json.loads(text)
    return raw if isinstance(raw, dict) else {}


def _fill(template: str, values: Mapping[str, object]) -> str:
    """``template`` with its ``{name}`` fields filled (a field without a value stays as written)."""
    out = template
    for name, value in values.items():
        out = out.replace("{" + name + "}", str(value))
    return out


@dataclass(frozen=True)
class EngineLines:
    language: str  # the table used ("en" when the language has none)
    table: Mapping[str, Any]
    fallback: Mapping[str, Any]

    def _get(self, section: str | None, key: str) -> str | None:
        for table in (self.table, self.fallback):
            part = table.get(section, {}) if section else table
            value = part.get(key) if isinstance(part, dict) else None
            if isinstance(value, str):
                return value
        return None

    def say(self, key: str, **values: object) -> str:
        """The line ``key`` filled with ``values`` (KeyError: no table has it)."""
        template = self._get(None, key)
        if template is None:
            raise KeyError(key)
        return _fill(template, values)

    def reason(self, why: str, **values: object) -> str:
        """How a reason a note was not kept reads (``NotKept.reason`` → its phrase); the reason itself when unknown."""
        return _fill(self._get("reasons", why) or why, values)

    def kind(self, kind: str) -> str:
        """A kind of secret as the user's language names it ("card number" → "el número de tarjeta")."""
        return self._get("kinds", kind) or kind

    def join(self, items: list[str]) -> str:
        return (self._get(None, "list_join") or ", ").join(items)


@lru_cache(maxsize=16)
def engine_lines(lang: str) -> EngineLines:
    """The lines for ``lang`` (an ISO 639-1 code; "und" or a language without a table: English)."""
    fallback = _table(FALLBACK)
    table = _table(lang) if lang and lang != FALLBACK and lang.isalpha() else {}
    return EngineLines(lang if table else FALLBACK, table or fallback, fallback)
