"""``NO_REPLY``: the reply of a turn that says nothing (a memory flush, a silent tool turn).
Never shown and never a transcript's text (DESIGN §6)."""

from __future__ import annotations

import re

# NO_REPLY as models write it: "NO_REPLY", "NO_REPLY.", "**NO_REPLY**", "`NO_REPLY`", "No reply."
NO_REPLY_RE = re.compile(r"""^[\s*_`"'(\[]*NO[_ -]?REPLY[\s*_`"')\].!]*$""", re.IGNORECASE)


def is_no_reply(text: str | None) -> bool:
    return bool(text is not None and NO_REPLY_RE.match(text))
