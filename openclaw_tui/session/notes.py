"""The engine's note lines: a fact in the user's words, a certain date beside a relative one,
nothing memory holds already (pure functions, no word of any language in code).

Which sentences are facts is the reader's call (``openclaw_tui.language``: one reading per
message, words per language as data); this module only writes them down. A relative date gets
its absolute date beside it only when certain, in the user's language
(``language/dates.py``: "I met Ana on Monday" said on Sunday 2026-12-06 in the past tense →
"I met Ana on Monday (2026-11-30)"; "the offsite is on Thursday the 12th" stays as said).

    note_lines(["My VPN host is vpn-east.acme.io."], today=date(2026, 12, 4), lang="en", existing="")
    # ["- User: My VPN host is vpn-east.acme.io."]
"""

from __future__ import annotations

import re
from datetime import date

from openclaw_tui.language.dates import annotate_dates
from openclaw_tui.language.stopwords import ALL as STOPWORDS

NOTE_PREFIX = "- User: "
MAX_NOTE_CHARS = 400

# a token that names something specific: digits, a currency sign, an address, a code or host
SPECIFIC_RE = re.compile(r"\d|[$€£]|@|https?://|\b[^\W\d_]+[-_.][^\W_]+[-_.\w]*\b")
WORD_RE = re.compile(r"[^\W_][\w'.@-]*[^\W_]|[^\W_]")
#: the speaker of an engine note, not a word of the fact
SPEAKER = "user"


def key_tokens(text: str) -> set[str]:
    """The words of ``text`` that identify a fact: content words (any script), lowercased."""
    return {w.lower().strip(".") for w in WORD_RE.findall(text)} - STOPWORDS - {SPEAKER}


def already_noted(sentence: str, existing: str) -> bool:
    """Whether ``existing`` (the log, MEMORY.md) holds the fact: the same text, one line holding
    every key token of it, or one line holding its identifiers (digits, codes, hosts) and most of
    its words ("- Travel code FIN-2231-B" holds "The account code for travel is FIN-2231-B")."""
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


def note_text(fact: str, *, today: date, lang: str) -> str:
    """The fact as a note says it: the user's words, one line, a certain date beside a relative one."""
    return " ".join(annotate_dates(fact, said_on=today, lang=lang).split())[:MAX_NOTE_CHARS]


def note_lines(facts: list[str], *, today: date, lang: str, existing: str = "") -> list[str]:
    """One ``- User: …`` line per fact not yet in ``existing`` (nor in an earlier line)."""
    out: list[str] = []
    for fact in facts:
        text = note_text(fact, today=today, lang=lang)
        if not text or already_noted(text, existing + "\n" + "\n".join(out)):
            continue
        out.append(NOTE_PREFIX + text)
    return out
