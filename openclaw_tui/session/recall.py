"""Memory help for models that do not use the memory tools on their own
(``agents.defaults.autoRecall``; on for the local profile).

Small local models rarely call ``memory_search`` unless told to, so for them the engine
runs the search itself when a message asks about something (a question, "remind me", a
"search your memory" request) and hands the results to the model with the question. A
request to remember something gets no lookup but a one-line reminder, sent with the
message, to ``append`` it to today's log (without it the 1.5B model sometimes only said
it would remember). A plain greeting gets neither. Pure functions.
"""

from __future__ import annotations

import re

QUERY_CAP = 300

STORE_RE = re.compile(r"^\s*(?:please\s+)?(?:remember|note|save|store|write down|keep in mind|add)\b", re.IGNORECASE)
ASK_RE = re.compile(
    r"\?\s*$|^\s*(?:what|when|where|who|whom|whose|why|how|which|did|do|does|was|were|is|are|have|has|had|"
    r"can you (?:tell|remind|find|recall)|tell me|remind me|recall|search|look up|find)\b",
    re.IGNORECASE,
)
SEARCH_PREFIX_RE = re.compile(
    r"^\s*(?:please\s+)?(?:search|check|look (?:in|through|up))\s+(?:in\s+)?(?:your\s+|the\s+)?memor(?:y|ies)\s*(?:for\b)?\s*[:,.-]?\s*",
    re.IGNORECASE,
)
GREETING_RE = re.compile(r"^\s*(?:hi|hello|hey|thanks|thank you|good (?:morning|evening|night))\b.{0,40}$", re.IGNORECASE | re.DOTALL)


def wants_recall(text: str) -> bool:
    """Whether ``text`` asks about something memory may hold."""
    if not text or not text.strip() or STORE_RE.match(text) or GREETING_RE.match(text):
        return False
    return bool(SEARCH_PREFIX_RE.match(text) or ASK_RE.search(text))


def store_hint(text: str, daily: str, tool: str = "append") -> str | None:
    """The reminder sent with a request to remember something (None for other messages):
    call ``tool`` (the registry's appending tool) on today's log ``daily``."""
    if not text or not STORE_RE.match(text):
        return None
    return f"(Save this now: call {tool} with path {daily} and the fact as content.)"


def recall_query(text: str) -> str:
    """The search query for ``text``: the question without a "search your memory:" lead-in."""
    query = SEARCH_PREFIX_RE.sub("", text.strip(), count=1).strip() or text.strip()
    return query[:QUERY_CAP]
