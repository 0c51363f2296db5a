"""A secret's marker in a reply that nothing this turn found (issue 35).

Memory files hold ``[secret withheld: PIN]`` where a secret was (``language/secrets.py``). The
1.5B, asked about a fact memory does not hold, has answered with a marker of its own ("Das
Budget für Atlas ist [secret withheld: Budget]."): it tells the user a value is kept and hidden
when nothing is kept. A marker the turn's search hits and cited lines do not hold is replaced by
the user's language's line saying memory has no such value. A turn that read files whole keeps
its markers (what it read is not at hand here to compare).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from openclaw_tui.language.engine_lines import engine_lines
from openclaw_tui.language.secrets import table

if TYPE_CHECKING:
    from openclaw_tui.session.reply_check import Evidence


@lru_cache(maxsize=1)
def marker_like() -> re.Pattern[str]:
    """Any marker of the redactor's form, whatever its kind word (the model makes new ones)."""
    head, _, tail = table().marker.partition("{kind}")
    return re.compile(re.escape(head.rstrip()) + r"[^\]\[\n]{0,60}" + re.escape(tail), re.IGNORECASE)


def _seen(ev: "Evidence") -> str:
    hits = (str(h.get("snippet", "")) for h in ev.hits)
    lines = ("\n".join(v) for v in ev.texts.values())
    return "\n".join([*hits, *lines]).lower()


def without_invented_markers(text: str, ev: "Evidence", lang: str = "en") -> tuple[str, list[str]]:
    """``text`` with each marker nothing this turn found replaced, and the markers replaced."""
    found = [m.group() for m in marker_like().finditer(text)]
    if not found or ev.reads:
        return text, []
    seen = _seen(ev)
    invented = [m for m in dict.fromkeys(found) if m.lower() not in seen]
    if not invented:
        return text, []
    line = engine_lines(lang).say("no_such_value")
    for m in invented:
        text = text.replace(m, line)
    return text, invented
