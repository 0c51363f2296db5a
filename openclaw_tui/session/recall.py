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

from openclaw_tui.session.notes import RECALL_RE

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


def asks_to_store(text: str) -> bool:
    """A request to remember something ("Remember that …", "note: …"), not a question that
    recalls ("Remember what I said about the budget?", "remember when the move is")."""
    m = STORE_RE.match(text)
    return m is not None and not RECALL_RE.match(text, m.end())


def wants_recall(text: str) -> bool:
    """Whether ``text`` asks about something memory may hold."""
    if not text or not text.strip() or asks_to_store(text) or GREETING_RE.match(text):
        return False
    return bool(SEARCH_PREFIX_RE.match(text) or ASK_RE.search(text) or STORE_RE.match(text))  # "remember when …"


def store_hint(text: str, daily: str, tool: str = "append") -> str | None:
    """The reminder sent with a request to remember something (None for other messages):
    call ``tool`` (the registry's appending tool) on today's log ``daily``."""
    if not text or not asks_to_store(text):
        return None
    return f"(Save this now: call {tool} with path {daily} and the fact as content.)"


#: words that say nothing about what to look up: a question made only of these ("And when was
#: that?", "Why?", "What about her?") is a follow-up that refers to the message before it
FUNCTION_WORDS = frozenset(
    "a an the and or but so then also too again else ever more about of on in at to for from with by as if not "
    "what when where who whom whose why how which is are was were be been being did do does done have has had "
    "can could would will should shall may might must that this these those it its it's they them their theirs "
    "there here he him his she her hers we us our ours you your yours i me my mine one ones some any "
    "ok okay yes no well oh really exactly".split()
)
WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
CLITIC_RE = re.compile(r"(?:['’](?:s|re|m|d|ll|ve)|n['’]t)$")


def own_words(text: str) -> list[str]:
    """The words of ``text`` that name something (not function words or pronouns; "what's"
    and "didn't" count as "what" and "did")."""
    words = (CLITIC_RE.sub("", w) for w in WORD_RE.findall(text.lower()))
    return [w for w in words if w and w not in FUNCTION_WORDS]


def names_something(text: str) -> bool:
    """Whether the question in ``text`` (without a "search your memory:" lead-in) has words of
    its own, i.e. is not a bare follow-up."""
    return bool(own_words(SEARCH_PREFIX_RE.sub("", text.strip(), count=1)))


def recall_query(text: str, previous: str | None = None) -> str:
    """The search query for ``text``: the question without a "search your memory:" lead-in;
    a follow-up with no words of its own gets ``previous`` (the last user message) in front,
    so "And when was that?" after "What did Melanie paint?" searches both."""
    query = SEARCH_PREFIX_RE.sub("", text.strip(), count=1).strip() or text.strip()
    if previous and previous.strip() and not own_words(query):
        before = SEARCH_PREFIX_RE.sub("", previous.strip(), count=1).strip() or previous.strip()
        room = QUERY_CAP - len(query) - 1
        if room > 0:
            query = f"{before[-room:] if len(before) > room else before} {query}"
    return query[:QUERY_CAP]
