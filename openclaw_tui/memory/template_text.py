"""The workspace template's own words: a chunk made only of them holds nothing the user said.

A new workspace starts with ``MEMORY.md`` and ``USER.md`` from ``workspace_template/``: a
title, a sentence on what goes there, empty headings ("## Preferences", "- Name:"). They are
indexed like any memory file, and on a young workspace they came back for nearly every
question — "drink preference" found MEMORY.md's "Curated facts, decisions and preferences"
instead of the user's "I prefer tea over coffee", and the 1.5B cited the empty USER.md under
"12 times 7 equals 84". A chunk whose every non-blank line is a line of the template file of
the same name is therefore not a search result; one line the user added keeps it. Pure
functions (the template is read once).
"""

from __future__ import annotations

from functools import lru_cache

from openclaw_tui.workspace.template import template_root


@lru_cache(maxsize=8)
def template_lines(rel: str) -> frozenset[str]:
    """The stripped non-blank lines of the template file ``rel`` (``MEMORY.md``), or empty
    when the template has no such file (any other path)."""
    if "/" in rel or "\\" in rel or not rel.lower().endswith(".md"):
        return frozenset()
    path = template_root() / rel
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return frozenset()
    return frozenset(line.strip() for line in text.splitlines() if line.strip())


def template_only(rel: str, text: str) -> bool:
    """Whether the chunk ``text`` of the workspace file ``rel`` holds only template lines."""
    known = template_lines(rel)
    if not known:
        return False
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return bool(lines) and all(line in known for line in lines)
