"""Is a compaction summary faithful to the turns it replaces? (pure functions)

A small model's fourth summary in a row was invented text ("User: I need to update the
calendar…") and the facts of the earlier ones were gone. The engine checks every summary
against what it compacts (the turns and the earlier summary): the exact identifiers the user
gave (codes, numbers, dates, hosts, names) must be in it, and no line may be made of words
the source never used. A failing summary is asked for once more, naming what it left out;
when it fails again it is repaired from the source's own sentences (``repair``) — or, in
``compaction.mode: "safeguard"``, the older turns are kept instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from openclaw_tui.language.detect import detect
from openclaw_tui.language.lexicon import TABLES, lexicon
from openclaw_tui.language.stopwords import ALL as STOPWORDS
from openclaw_tui.language.words import cue_words

# a token with a digit (codes, amounts, dates, times, numbers), a host or address, a CamelCase/ALLCAPS code
IDENT_RE = re.compile(
    r"[$€£]?\b[\w.@:/-]*\d[\w.@:/,-]*\b|\b[a-z0-9-]+(?:\.[a-z0-9-]+)+\.[a-z]{2,}\b|\b[A-Z]{2,}[A-Z0-9-]*\b",
)
# Every IDENT_RE match lies inside one run of these characters (all word characters are in
# it, so a run's edges are word boundaries): matched run by run, IDENT_RE's backtracking is
# bounded by MAX_RUN, and a longer run (a 400 KB dotted token) is no identifier to keep
# verbatim. On the whole text it was quadratic: > 90 s for such a token (issue 36).
_RUN_RE = re.compile(r"[\w.@:/,$€£-]++")
MAX_RUN = 200
_LETTERS_RE = re.compile(r"[^\W\d_]+")
WORD_RE = re.compile(r"[^\W_][\w'-]*")
#: words a summary may use that its source need not contain, in every language's table
SUMMARY_WORDS = cue_words("summary_words")
SENTENCE_RE = re.compile(r"(?<=[.!?])\s+|\n+")
MIN_SUPPORT = 0.5
MAX_REPAIR_LINES = 40


def _norm(text: str) -> str:
    return re.sub(r"[\s,]+", "", text.lower())


def _capitalised(word: str) -> bool:
    return len(word) >= 3 and word[0].isupper() and word[1:].islower()


def names(text: str) -> list[str]:
    """Capitalised words inside a sentence (after a lowercase word, a comma or a semicolon and
    one space), with a capitalised word right after them: "met Ana Souza", "con José"."""
    out: list[str] = []
    toks = list(_LETTERS_RE.finditer(text))
    i = 0
    while i < len(toks):
        m = toks[i]
        before = text[max(0, m.start() - 2) : m.start()]
        if _capitalised(m.group()) and len(before) == 2 and before[1] == " " and (before[0].islower() or before[0] in ",;"):
            name = m.group()
            if i + 1 < len(toks) and _capitalised(toks[i + 1].group()) and text[m.end() : toks[i + 1].start()] == " ":
                name += " " + toks[i + 1].group()
                i += 1
            out.append(name)
        i += 1
    return out


def capitalises_nouns(text: str) -> bool:
    """Whether ``text`` is written in a language that capitalises every noun (German): there a
    capital inside a sentence is no sign of a name."""
    lang = detect(text) if text.strip() else ""
    return lang in TABLES and lexicon(lang).capitalized_nouns


def identifiers(text: str, *, with_names: bool = True) -> list[str]:
    """The exact identifiers in ``text``, in order, once each: codes, numbers, hosts and, when
    ``with_names``, the names (see :func:`names`)."""
    out: dict[str, None] = {}

    def add(tok: str) -> None:
        if tok and tok not in out and tok.lower() not in STOPWORDS:
            out[tok] = None

    for run in _RUN_RE.finditer(text):  # IDENT_RE within each run: linear in the text
        if len(run.group(0)) > MAX_RUN:
            continue
        for m in IDENT_RE.finditer(run.group(0)):
            tok = m.group(0).strip(".,:;/-")
            if len(tok) >= 2 and not tok.isalpha() or tok.isupper() and len(tok) >= 2:
                add(tok)
    for name in names(text) if with_names else []:
        add(name)
    return list(out)


def user_side(rendered: str) -> str:
    """The lines of a rendered conversation that come from the user or the earlier summary."""
    keep: list[str] = []
    in_summary = False
    for line in rendered.splitlines():
        if line.startswith("Earlier summary:"):
            in_summary = True
            continue
        if line.startswith(("User: ", "Assistant: ", "Assistant called ", "Tool result: ")):
            in_summary = False
        if in_summary or line.startswith("User: "):
            keep.append(line.removeprefix("User: "))
    return "\n".join(keep)


@dataclass
class SummaryCheck:
    missing: list[str] = field(default_factory=list)  # identifiers of the source not in the summary
    invented: list[str] = field(default_factory=list)  # summary lines the source does not support

    @property
    def ok(self) -> bool:
        return not self.missing and not self.invented


def _content_words(text: str) -> list[str]:
    return [w for w in WORD_RE.findall(text.lower()) if len(w) > 2 and w not in STOPWORDS and w not in SUMMARY_WORDS]


def unsupported_lines(summary: str, source: str) -> list[str]:
    """Lines of ``summary`` whose content words are mostly absent from ``source``."""
    known = set(WORD_RE.findall(source.lower()))
    out: list[str] = []
    for line in summary.splitlines():
        body = line.strip().lstrip("#-*• ").strip()
        words = _content_words(body)
        if len(words) < 3:
            continue
        support = sum(1 for w in words if w in known or w.rstrip("s") in known) / len(words)
        if support < MIN_SUPPORT:
            out.append(line.strip())
    return out


def check_summary(summary: str, rendered: str) -> SummaryCheck:
    """``summary`` against the rendered turns it replaces (``compaction.render_for_summary``)."""
    flat = _norm(summary)
    source = user_side(rendered)
    missing = [i for i in identifiers(source, with_names=not capitalises_nouns(source)) if _norm(i) not in flat]
    return SummaryCheck(missing=missing, invented=unsupported_lines(summary, rendered))


def retry_hint(check: SummaryCheck) -> str:
    parts = []
    if check.missing:
        parts.append("Keep these exactly as written: " + ", ".join(check.missing[:30]) + ".")
    if check.invented:
        parts.append("Write only what the conversation says.")
    return " ".join(parts)


def repair(summary: str, check: SummaryCheck, rendered: str) -> str:
    """``summary`` without its unsupported lines, plus the source's own sentences holding each
    missing identifier (verbatim, so nothing is invented and nothing is lost)."""
    bad = set(check.invented)
    kept = [line for line in summary.splitlines() if line.strip() not in bad]
    source = user_side(rendered)
    added: list[str] = []
    for ident in check.missing:
        for sentence in SENTENCE_RE.split(source):
            if _norm(ident) in _norm(sentence):
                line = "- " + " ".join(sentence.split()).lstrip("-*• ")
                if line not in added:
                    added.append(line)
                break
    if added:
        kept += ["", "Facts kept verbatim from the compacted turns:"] + added[:MAX_REPAIR_LINES]
    return "\n".join(kept).strip()
