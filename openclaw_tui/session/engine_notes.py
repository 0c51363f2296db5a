"""What the engine adds to a model's reply (a correction, what was kept or not, a refusal) is
shown to the user and kept in the transcript, but the model's own history holds its reply
without it: the 1.5B copies its earlier replies, and a copied "(Nothing was stored …)" or
"Note: this turn did write …" then contradicts what the later turn did (seen in a real-model
``eval survival`` run: "Noted — saved … (Nothing was stored …) Note: this turn did write …").

The transcript entry of such a reply carries ``engineNotes`` (the paragraphs the engine
added); the live history and a resumed one both take ``model_view`` of it."""

from __future__ import annotations

import re
from typing import Any, Sequence

_PARAGRAPH = re.compile(r"\n\s*\n")


def paragraphs(text: str) -> list[str]:
    return [p.strip() for p in _PARAGRAPH.split(text) if p.strip()]


def added_paragraphs(model_text: str, shown: str) -> tuple[str, ...]:
    """The paragraphs of ``shown`` the model did not write (in order, each once)."""
    own = set(paragraphs(model_text))
    return tuple(dict.fromkeys(p for p in paragraphs(shown) if p not in own))


def model_view(msg: dict[str, Any], notes: Sequence[str]) -> dict[str, Any]:
    """``msg`` without the engine's paragraphs; unchanged when nothing of the model's would be
    left (the engine's line replaced the reply: the model may see it as its own answer)."""
    content = msg.get("content")
    if not notes or not isinstance(content, str):
        return msg
    drop = set(notes)
    kept = [p for p in paragraphs(content) if p not in drop]
    if not kept:
        return msg
    return {**msg, "content": "\n\n".join(kept)}
