"""What a user's message states, as notes the engine can store (pure functions).

A small local model does not reliably decide what to store, nor write it down: measured on
Qwen2.5-Coder-1.5B, four flushes in a row answered ``NO_REPLY`` over six fact-dense
statements. The engine does it instead: it picks the user's own sentences that state
something specific (a number, a code, a name, a date, an address) and are not questions or
requests, turns relative dates into absolute ones ("yesterday" → 2026-12-03) and skips what
today's log already holds. Small talk without a specific token is never stored.

    notes = note_lines(["My VPN host is vpn-east.acme.io."], today=date(2026, 12, 4), existing="")
    # ["- User: My VPN host is vpn-east.acme.io."]
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from openclaw_tui.memory.stopwords import ALL as STOPWORDS

NOTE_PREFIX = "- User: "
MIN_CHARS = 12
MAX_NOTE_CHARS = 400

# a request to remember, with the lead-in the note drops ("Remember that …", "Please note: …")
CUE_RE = re.compile(
    r"^\s*(?:please\s+)?(?:remember|note|save|store|write down|keep in mind|don't forget|do not forget)"
    r"(?P<that>\s+(?:that|this))?\s*(?P<colon>[:,-]?)\s*",
    re.IGNORECASE,
)
# the same request asked politely ("Can you remember that I prefer tea?", "Could you please
# make a note that …"): only with "that" or a colon, since "Can you remember what …" asks
POLITE_CUE_RE = re.compile(
    r"^\s*(?:(?:can|could|would|will) you\s+(?:please\s+)?|i(?:'d| would) like you to\s+|i want you to\s+|please\s+)"
    r"(?:remember|note|make a note|save|store|write down|keep in mind|not forget)(?:\s+of)?(?:\s+that\b\s*|\s*:\s*)",
    re.IGNORECASE,
)
# "Remember what I said about the budget?", "remember when the migration is": a question
RECALL_RE = re.compile(r"\s*(?:what|when|where|who|whom|whose|which|how|why|whether|if)\b", re.IGNORECASE)
QUESTION_RE = re.compile(
    r"\?\s*$|^\s*(?:what|when|where|who|whom|whose|why|how|which|did|do|does|was|were|is|are|am|can|could|"
    r"should|would|will|shall|may|might|have|has|had|tell me|remind me|recall|search|look up|find|show me|"
    r"list|explain|help me|give me|let me know)\b",
    re.IGNORECASE,
)
# an instruction, not a statement: "Read USER.md for me", "Summarise the notes"
REQUEST_RE = re.compile(
    r"^\s*(?:please\s+|can you\s+|could you\s+)?(?:read|open|write|show|summari[sz]e|check|make|create|run|tell|give|find|"
    r"search|list|explain|translate|help|look|get|fetch|compute|calculate|draft|edit|update|delete|remove|fix|describe|"
    r"compare|count|generate|plan|suggest|recommend|convert|send|book|schedule|call|use|try|let's|lets|append|go|"
    r"answer|reply|say|repeat|print|format|rewrite|continue|stop|wait|forget|ignore|do)\b",
    re.IGNORECASE,
)
# a preference or decision is worth keeping even without a specific token ("I prefer tea")
KEEP_RE = re.compile(
    r"\b(?:i|we)(?:'m| am| are)?\s+(?:really\s+|always\s+|never\s+)?(?:prefer|like|love|hate|dislike|decided|chose|"
    r"agreed|allergic|vegetarian|vegan)\b|\bmy (?:favou?rite|name|birthday)\b|\b(?:always|never)\s+(?:use|call|send|book)\b",
    re.IGNORECASE,
)
SMALL_TALK_RE = re.compile(
    r"^\s*(?:hi|hello|hey|thanks|thank you|ok|okay|cool|great|nice|good (?:morning|evening|night)|bye|lol)\b.{0,30}$",
    re.IGNORECASE,
)
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
MONTH_ABBR = tuple(m[:3] for m in MONTHS)
# a token that names something specific: digits, a code or host, an address, a money amount
SPECIFIC_RE = re.compile(
    r"\d|[$€£]|@|https?://|\b[a-z]+[-_.][a-z0-9]+[-_.a-z0-9]*\b|\b[A-Z][A-Za-z]*[A-Z0-9][A-Za-z0-9]*\b",
)
CAPITAL_RE = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}\b")
DATE_WORD_RE = re.compile(r"\b(?:" + "|".join(WEEKDAYS + MONTHS + MONTH_ABBR) + r")\b", re.IGNORECASE)
SENTENCE_RE = re.compile(r"(?<=[.!;])\s+(?=[A-Z0-9\"'(])|\n+")
WORD_RE = re.compile(r"[a-z0-9][a-z0-9'._@-]*[a-z0-9]|[a-z0-9]", re.IGNORECASE)
DAILY_NAME_RE = re.compile(r"^memory/(\d{4}-\d{2}-\d{2})\.md$")


def is_question(text: str) -> bool:
    """A question or a request for something (not a statement)."""
    text = text.strip()
    return bool(QUESTION_RE.search(text) or REQUEST_RE.match(text))


def _cue(text: str) -> re.Match[str] | None:
    """The "remember that" lead-in of a request to remember, or None (also for a question
    that recalls: "Remember what I said about the budget?")."""
    polite = POLITE_CUE_RE.match(text)
    if polite:
        return polite
    m = CUE_RE.match(text)
    if m is None or (not m.group("that") and not m.group("colon") and RECALL_RE.match(text, m.end())):
        return None
    return m


def strip_cue(text: str) -> str:
    """``text`` without a "remember that" lead-in (and without the request's own wording; a
    polite request's question mark too)."""
    m = _cue(text)
    out = text[m.end():].strip() if m else text.strip()
    if m is not None and POLITE_CUE_RE.match(text):
        out = out.rstrip("?").rstrip() + ("." if out.endswith("?") else "")
    return out[:1].upper() + out[1:] if out else out


def has_cue(text: str) -> bool:
    return _cue(text) is not None


def is_specific(sentence: str) -> bool:
    """Whether ``sentence`` carries a token worth keeping: digits, a code, a host, an address,
    a month or weekday, or a capitalised name after the first word."""
    if SPECIFIC_RE.search(sentence) or DATE_WORD_RE.search(sentence) or KEEP_RE.search(sentence) or _REL_RE.search(sentence):
        return True
    words = sentence.split()
    return any(w[:1].isupper() and w[1:].islower() and len(w.strip(".,;:!")) > 2 and w != "I" for w in words[1:])


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_RE.split(text or "") if s and s.strip()]


def fact_sentences(text: str) -> list[str]:
    """The sentences of a user message that state something specific (not questions,
    requests, small talk); a "remember …" message keeps its whole request without the cue."""
    text = (text or "").strip()
    if not text or text.startswith("/"):
        return []
    if has_cue(text):
        fact = strip_cue(text)
        return [fact] if len(fact) >= 4 else []
    out: list[str] = []
    for s in sentences(text):
        if len(s) < MIN_CHARS or is_question(s) or SMALL_TALK_RE.match(s) or not is_specific(s):
            continue
        if s not in out:
            out.append(s)
    return out


def is_statement(text: str) -> bool:
    """A message that tells rather than asks: no question or request in it, and something to
    keep (a fact sentence or a remember cue)."""
    text = (text or "").strip()
    if not text or text.startswith("/"):
        return False
    if has_cue(text):
        return True
    if any(is_question(s) for s in sentences(text)):
        return False
    return bool(fact_sentences(text))


# ---------------------------------------------------------------- relative dates

_REL_RE = re.compile(
    r"\b(?P<word>the day before yesterday|the day after tomorrow|yesterday|today|tonight|tomorrow)\b"
    r"|\b(?P<dir>next|last|this|on|coming)\s+(?P<wd>" + "|".join(WEEKDAYS) + r")\b"
    r"|\bin\s+(?P<n>\d{1,3}|one|two|three|four|five|six|seven)\s+(?P<unit>days?|weeks?)\b"
    r"|\b(?P<n2>\d{1,3}|one|two|three|four|five|six|seven)\s+(?P<unit2>days?|weeks?)\s+ago\b"
    r"|\b(?P<wk>next|last|this)\s+week\b",
    re.IGNORECASE,
)
_NUM = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_WORD_OFFSET = {"the day before yesterday": -2, "yesterday": -1, "today": 0, "tonight": 0, "tomorrow": 1,
                "the day after tomorrow": 2}


def _weekday(today: date, name: str, direction: str) -> date:
    target = WEEKDAYS.index(name.lower())
    ahead = (target - today.weekday()) % 7
    direction = direction.lower()
    if direction == "last":
        return today - timedelta(days=(today.weekday() - target) % 7 or 7)
    if direction == "next":  # the first one after today (documented: not "the week after")
        return today + timedelta(days=ahead or 7)
    return today + timedelta(days=ahead)  # this / on / coming: the coming one (today counts)


def _count(raw: str) -> int:
    return _NUM.get(raw.lower()) or int(raw)


def _resolve(m: re.Match[str], today: date) -> str:
    if m.group("word"):
        return (today + timedelta(days=_WORD_OFFSET[m.group("word").lower()])).isoformat()
    if m.group("wd"):
        when = _weekday(today, m.group("wd"), m.group("dir"))
        lead = "on " if m.group("dir").lower() == "on" else ""
        return f"{lead}{m.group('wd')} {when.isoformat()}"
    if m.group("n"):
        days = _count(m.group("n")) * (7 if m.group("unit").lower().startswith("week") else 1)
        return (today + timedelta(days=days)).isoformat()
    if m.group("n2"):
        days = _count(m.group("n2")) * (7 if m.group("unit2").lower().startswith("week") else 1)
        return (today - timedelta(days=days)).isoformat()
    monday = today - timedelta(days=today.weekday())
    shift = {"next": 7, "last": -7, "this": 0}[m.group("wk").lower()]
    return f"the week of {(monday + timedelta(days=shift)).isoformat()}"


def absolute_dates(text: str, today: date) -> str:
    """``text`` with relative dates written as absolute ones: "yesterday" → "2026-12-03",
    "next Tuesday" → "Tuesday 2026-12-08", "in 3 days" → "2026-12-07"."""
    return _REL_RE.sub(lambda m: _resolve(m, today), text)


# ---------------------------------------------------------------- notes and dedup


def key_tokens(text: str) -> set[str]:
    """The words of ``text`` that identify a fact: content words, lowercased."""
    return {w.lower().strip(".") for w in WORD_RE.findall(text)} - STOPWORDS - {"user"}


def already_noted(sentence: str, existing: str) -> bool:
    """Whether ``existing`` (today's log) holds the fact: the same text, one line holding every
    key token of it, or one line holding its identifiers (digits, codes, hosts) and most of its
    words ("- Travel code FIN-2231-B" holds "The account code for travel is FIN-2231-B")."""
    flat = " ".join(sentence.split()).lower()
    if flat and flat in " ".join(existing.split()).lower():
        return True
    keys = key_tokens(sentence)
    if not keys:
        return True
    idents = {w for w in keys if SPECIFIC_RE.search(w)}  # the words with digits, codes, hosts
    for line in existing.splitlines():
        have = key_tokens(line)
        if keys <= have or idents and idents <= have and len(keys & have) * 2 > len(keys):
            return True
    return False


def note_lines(facts: list[str], *, today: date, existing: str = "") -> list[str]:
    """One ``- User: …`` line per fact not yet in ``existing``, dates made absolute, deduplicated."""
    out: list[str] = []
    for fact in facts:
        text = " ".join(absolute_dates(fact, today).split())[:MAX_NOTE_CHARS]
        if not text or already_noted(text, existing + "\n" + "\n".join(out)):
            continue
        out.append(NOTE_PREFIX + text)
    return out
