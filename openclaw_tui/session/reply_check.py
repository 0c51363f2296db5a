"""The engine's check of a finished reply, for every model (pure functions).

A model's word about memory is not taken on trust:

- **Citations.** A ``Source: path#Lx-Ly`` line stays only when it names a hit this turn's
  searches returned (same path, overlapping lines) or a file the turn read; any other is
  removed (a ``Source: …`` inside a line too), and any other ``path.md#L…`` reference that
  names nothing found is marked "(unverified)". A small model cited "memory/2026-12-04.md#L1-2" under "2 + 2 equals 4".
  A hit the answer draws nothing from does not support it either: when the answer has
  content words or numbers and shares none with the snippets of the hits it cites, the
  reference goes the same way (the 1.5B answered "12 times 7 equals 84. Source:
  USER.md#L1-L6", the empty profile template the automatic lookup had returned).
- **Save claims.** A reply that says it saved or will remember something when no write
  landed this turn gets a visible note saying nothing was stored, and why.
- **Statements.** A reply to a statement that repeats the system prompt's instructions, or
  says it could not answer, is replaced by a short acknowledgement.

    checked = check_reply(text, Evidence(hits, reads, wrote=0), access="ro")
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from openclaw_tui.language import read_reply
from openclaw_tui.language.engine_lines import engine_lines
from openclaw_tui.language.lexicon import TABLES
from openclaw_tui.language.stopwords import ALL as STOPWORDS
from openclaw_tui.language.words import cue_words
from openclaw_tui.session.cite_lines import identifying, settle
from openclaw_tui.session.invented_marker import without_invented_markers

# "Source: memory/x.md#L3-L5", "Sources: a.md#L1, b.md#L2-4", "(Source: …)", "**Source:** …"
SOURCE_LINE_RE = re.compile(r"(?im)^[ \t>*_(\[]*sources?\**\s*:\**[^\n]*$")
REF_RE = re.compile(r"(?P<path>[\w./~-]+\.md)#L(?P<a>\d+)(?:-L?(?P<b>\d+))?(?P<more>(?:,\s*L\d+(?:-L?\d+)?)*)")
# inside a Source: line any "<something>#L3-5" is a reference, a host or a bare name too
# ("Source: ci-7.example.net#L10-12" from the 1.5B): it must name a hit or a read like any other
LINE_REF_RE = re.compile(r"(?P<path>[^\s,;:()\[\]`*<>\"']+)#L(?P<a>\d+)(?:-L?(?P<b>\d+))?(?P<more>(?:,\s*L\d+(?:-L?\d+)?)*)")
# a file named with no line range ("Source: memory/2026-12-05.md", "… 84. Source: MEMORY.md"):
# it must still be a file this turn's search returned or a read opened
BARE_REF_RE = re.compile(r"(?P<path>[\w./~-]+\.md)\b(?!#L)")
INLINE_BARE_SOURCE_RE = re.compile(r"[ \t]*[(\[]?\bsources?:\s*(?P<path>[\w./~-]+\.md)\b(?!#L)[)\]]?", re.IGNORECASE)
# "… equals 84. Source: USER.md#L1-L6", "Teal (Sources: a.md#L3, b.md#L2)." inside a line
_ONE_REF = r"[^\s,;()\[\]]+#L\d+(?:-L?\d+)?(?:,\s*L\d+(?:-L?\d+)?)*"
INLINE_SOURCE_RE = re.compile(
    rf"[ \t]*(?P<open>[(\[]?)\bsources?\**\s*:\**\s*(?P<refs>{_ONE_REF}(?:,\s*{_ONE_REF})*)(?P<close>[)\]]?)",
    re.IGNORECASE)
MORE_RE = re.compile(r"L(\d+)(?:-L?(\d+))?")
# words of the system prompt's memory section a small model repeated back to statements
PROMPT_MARKERS = ("memory_search", "memory_get", "`append`", "call append", "path#lstart", "source: path#")
ECHO_SHINGLE = 4
ECHO_SHARE = 0.3
WORD_RE = re.compile(r"[a-z0-9_`'#/.-]+")
#: how the engine's not-stored note begins in each language with a table ("_(Nothing was stored:")
NOT_STORED_HEADS = tuple(engine_lines(lang).say("not_stored").split("{why}")[0]
                         for lang in ("en", "es", "de", "fr", "pt", "it"))


@dataclass(frozen=True)
class Evidence:
    """What this turn actually found and did: search hits (``path``, ``startLine``,
    ``endLine``), files read (path, first line, last line or None for the rest), lines written."""

    hits: tuple[dict[str, Any], ...] = ()
    reads: tuple[tuple[str, int, int | None], ...] = ()
    wrote: int = 0
    #: the lines of the files cited, as they are on disk (normalised path → lines): a citation is
    #: checked against them (``cite_lines.py``); a file not here is checked against the hits only
    texts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: the user's message: numbers the answer repeats from it need no source
    asked: str = ""


@dataclass
class Checked:
    text: str
    removed: list[str] = field(default_factory=list)  # citations taken out or marked
    note: str = ""  # the "nothing was stored" note added, if any

    @property
    def corrected(self) -> bool:
        return bool(self.removed or self.note)


def _ranges(m: re.Match[str]) -> list[tuple[int, int]]:
    a = int(m.group("a"))
    out = [(a, int(m.group("b") or a))]
    for extra in MORE_RE.finditer(m.group("more") or ""):
        lo = int(extra.group(1))
        out.append((lo, int(extra.group(2) or lo)))
    return out


def _norm(path: str) -> str:
    return path.strip().lstrip("./")


def is_found(path: str, ranges: list[tuple[int, int]], ev: Evidence) -> bool:
    """Whether every cited range of ``path`` overlaps a hit of this turn or a read of it."""
    path = _norm(path)
    spans: list[tuple[int, int]] = []
    for hit in ev.hits:
        if _norm(str(hit.get("path", ""))) == path:
            spans.append((int(hit.get("startLine") or 1), int(hit.get("endLine") or hit.get("startLine") or 1)))
    for rpath, first, last in ev.reads:
        if _norm(rpath) == path:
            spans.append((first, last if last is not None else 10**9))
    return bool(spans) and all(any(lo <= b and a <= hi for a, b in spans) for lo, hi in ranges)


#: an answer's content words (3+ characters in any script, no stopwords) and its numbers, "84" included
SUPPORT_WORD_RE = re.compile(r"[^\W_](?:[^\W_]|['-]){2,}|\d+")
#: words of an answer that say how, not what ("Yes, according to your notes.", "Sí, según tus notas."),
#: in every language's table (language/data/cues.<lang>.json)
FRAME_WORDS = cue_words("frame_words")
#: two words match when equal or, both this long, alike in this many first letters ("appointments")
PREFIX = 5


def answer_words(text: str) -> set[str]:
    """What ``text`` says, without its ``Source:`` lines and references (a path's date would
    "match" a daily log's heading)."""
    body = SOURCE_LINE_RE.sub("", text)
    body = LINE_REF_RE.sub(" ", body)
    body = BARE_REF_RE.sub(" ", body)
    return {w.strip("'-") for w in SUPPORT_WORD_RE.findall(body.lower())} - STOPWORDS - FRAME_WORDS - {""}


def _shares(said: set[str], snippet: str) -> bool:
    have = {w.strip("'-") for w in SUPPORT_WORD_RE.findall(snippet.lower())}
    if said & have:
        return True
    stems = {w[:PREFIX] for w in have if len(w) >= PREFIX and not w.isdigit()}
    return any(len(w) >= PREFIX and not w.isdigit() and w[:PREFIX] in stems for w in said)


def is_supported(path: str, ranges: list[tuple[int, int]] | None, ev: Evidence, said: set[str]) -> bool:
    """Whether the answer (its words ``said``) draws on what it cites: a read of ``path`` (its
    text is not kept), a cited hit without a snippet, an answer without content words ("Yes."),
    or a snippet of a cited hit sharing a word or number with it. ``ranges`` None: any hit of
    ``path``."""
    if not said:
        return True
    path = _norm(path)
    if any(_norm(r[0]) == path for r in ev.reads):
        return True
    for hit in ev.hits:
        if _norm(str(hit.get("path", ""))) != path:
            continue
        a = int(hit.get("startLine") or 1)
        b = int(hit.get("endLine") or a)
        if ranges is not None and not any(lo <= b and a <= hi for lo, hi in ranges):
            continue
        snippet = hit.get("snippet")
        if snippet is None or _shares(said, str(snippet)):
            return True
    return False


def _known(path: str, ev: Evidence) -> bool:
    """Whether ``path`` is a file this turn's search returned or a read opened (any lines)."""
    path = _norm(path)
    return any(_norm(str(h.get("path", ""))) == path for h in ev.hits) or any(_norm(r[0]) == path for r in ev.reads)


def seen_spans(path: str, ev: Evidence) -> list[tuple[int, int]]:
    """The lines of ``path`` this turn saw: its hits' ranges and its reads."""
    path = _norm(path)
    spans = [(int(h.get("startLine") or 1), int(h.get("endLine") or h.get("startLine") or 1))
             for h in ev.hits if _norm(str(h.get("path", ""))) == path]
    spans += [(first, last if last is not None else 10**9) for rpath, first, last in ev.reads if _norm(rpath) == path]
    return spans


def _sentence(segment: str) -> str:
    """What a citation's sentence says, without references and ``Source:`` lines."""
    body = SOURCE_LINE_RE.sub("", segment)
    body = LINE_REF_RE.sub(" ", body)
    return BARE_REF_RE.sub(" ", body)


def settled_ref(m: re.Match[str], ev: Evidence, segment: str) -> str | None:
    """The reference ``m`` (a ``path#L…`` match) as the file's text supports its sentence
    ``segment``: the same, narrowed or moved to the supporting lines, or None (nothing the turn
    saw holds the sentence's words, or its numbers were not read there). Unchanged when the
    file's text is not known."""
    path = m.group("path")
    lines = ev.texts.get(_norm(path))
    if lines is None:
        return m.group(0)
    done = settle(_ranges(m), lines, identifying(_sentence(segment)), seen_spans(path, ev), given=f"{ev.asked} {path}")
    if done.ranges is None:
        return None
    return f"{path}#" + ",".join(f"L{a}" if a == b else f"L{a}-L{b}" for a, b in done.ranges)


def _segment_before(text: str, pos: int) -> str:
    """The text a ``Source:`` line at ``pos`` follows: back to the previous ``Source:`` line."""
    start = 0
    for m in SOURCE_LINE_RE.finditer(text, 0, pos):
        start = m.end()
    return text[start:pos]


def _line_at(text: str, pos: int) -> str:
    return text[text.rfind("\n", 0, pos) + 1: (text.find("\n", pos) + 1 or len(text) + 1) - 1]


def verify_citations(text: str, ev: Evidence) -> tuple[str, list[str]]:
    """``text`` with unverified ``Source:`` lines removed and other unverified references
    marked, a reference the file's text supports elsewhere narrowed or moved to the lines that
    hold its sentence (``cite_lines.py``); the references removed or marked."""
    removed: list[str] = []
    said = answer_words(text)
    changed = False

    def keep(r: re.Match[str], segment: str) -> str | None:
        """The reference to keep for ``r``, or None."""
        nonlocal changed
        if _norm(r.group("path")) in ev.texts and _known(r.group("path"), ev):
            pass  # checked against the file's text: the lines the turn saw that hold the sentence
        elif not (is_found(r.group("path"), _ranges(r), ev) and is_supported(r.group("path"), _ranges(r), ev, said)):
            return None
        got = settled_ref(r, ev, segment)
        changed |= got is not None and got != r.group(0)
        return got

    def source_line(m: re.Match[str]) -> str:
        line = m.group(0)
        refs = list(LINE_REF_RE.finditer(line))
        if not refs:  # files named without lines
            bare = [b.group("path") for b in BARE_REF_RE.finditer(line)]
            unknown = [b for b in bare if not (_known(b, ev) and is_supported(b, None, ev, said))]
            if not unknown:
                return line
            removed.extend(unknown)
            known = [b for b in bare if b not in unknown]
            return f"Source: {', '.join(known)}" if known else "\x00"
        segment = _segment_before(m.string, m.start())
        kept = [(r, keep(r, segment)) for r in refs]
        bad = [r.group(0) for r, k in kept if k is None]
        good = list(dict.fromkeys(k for _r, k in kept if k is not None))
        if not bad and good == [r.group(0) for r in refs]:
            return line
        removed.extend(bad)
        return f"Source: {', '.join(good)}" if good else "\x00"

    out = SOURCE_LINE_RE.sub(source_line, text)
    out = re.sub(r"\n*\x00", "", out)

    def inline_bare(m: re.Match[str]) -> str:
        if _known(m.group("path"), ev) and is_supported(m.group("path"), None, ev, said):
            return m.group(0)
        removed.append(m.group("path"))
        return ""

    out = "\n".join(line if SOURCE_LINE_RE.match(line) else INLINE_BARE_SOURCE_RE.sub(inline_bare, line) for line in out.split("\n"))

    def inline_source(m: re.Match[str]) -> str:
        refs = list(LINE_REF_RE.finditer(m.group("refs")))
        segment = _line_at(m.string, m.start())
        kept = [(r, keep(r, segment)) for r in refs]
        good = list(dict.fromkeys(k for _r, k in kept if k is not None))
        if good == [r.group(0) for r in refs]:
            return m.group(0)
        removed.extend(r.group(0) for r, k in kept if k is None)
        if not good:
            return ""
        lead = m.group(0)[: len(m.group(0)) - len(m.group(0).lstrip())]
        return f"{lead}{m.group('open')}Source: {', '.join(good)}{m.group('close')}"

    out = "\n".join(line if SOURCE_LINE_RE.match(line) else INLINE_SOURCE_RE.sub(inline_source, line)
                    for line in out.split("\n"))

    def inline(m: re.Match[str]) -> str:
        if m.string[m.end():].startswith(" (unverified)"):
            return m.group(0)  # marked already (the check runs twice on a statement's reply)
        got = keep(m, _line_at(m.string, m.start()))
        if got is not None:
            return got
        removed.append(m.group(0))
        return m.group(0) + " (unverified)"

    lines = []
    for line in out.split("\n"):
        lines.append(line if SOURCE_LINE_RE.match(line) else REF_RE.sub(inline, line))
    return "\n".join(lines).rstrip() if removed or changed else text, removed


def claims_save(text: str) -> bool:
    """Whether a reply says it saved or will remember something, in any language with a table."""
    return read_reply(text).claims_save


def not_stored_note(access: str, memory_on: bool, lang: str = "en") -> str:
    """The engine's note after a save claim that no write backs, in the user's language."""
    lines = engine_lines(lang)
    why = "not_stored_ro" if access == "ro" else "not_stored_off" if access == "none" or not memory_on else "not_stored_turn"
    return lines.say("not_stored", why=lines.say(why))


def flags_not_stored(reply: str) -> bool:
    """Whether ``reply`` carries the engine's not-stored note, in any language with a table."""
    return any(head and head in reply for head in NOT_STORED_HEADS)


def _words(text: str) -> list[str]:
    return [w for w in WORD_RE.findall(text.lower()) if w not in STOPWORDS]


def echoes_prompt(reply: str, system: str, user: str = "") -> bool:
    """Whether ``reply`` repeats the system prompt's instructions rather than answering:
    a tool name or citation template from it, or a large share of its 4-word runs."""
    low = reply.lower()
    if any(m in low and m not in user.lower() for m in PROMPT_MARKERS):
        return True
    words = _words(reply)
    grams = {tuple(words[i : i + ECHO_SHINGLE]) for i in range(len(words) - ECHO_SHINGLE + 1)}
    if len(grams) < 2:
        return False
    sw = _words(system)
    prompt = {tuple(sw[i : i + ECHO_SHINGLE]) for i in range(len(sw) - ECHO_SHINGLE + 1)}
    uw = _words(user)
    said = {tuple(uw[i : i + ECHO_SHINGLE]) for i in range(len(uw) - ECHO_SHINGLE + 1)}
    return len((grams & prompt) - said) / len(grams) >= ECHO_SHARE


def acknowledgement(*, saved_to: str | None, access: str, cue: bool, lang: str = "en") -> str:
    """The engine's short reply to a statement when the model's was no reply, in the user's
    language (``language/data/<lang>.replies.json``)."""
    lines = engine_lines(lang)
    if saved_to:
        return lines.say("noted_saved", path=saved_to)
    if cue and access != "rw":
        return lines.say("noted_here")
    return lines.say("noted")


def fix_statement_reply(text: str, *, system: str, user: str, saved_to: str | None, access: str, cue: bool,
                        invented: bool = False, lang: str = "en") -> str:
    """A statement's reply, or the acknowledgement when the reply is empty, echoes the
    system prompt, says it could not answer or cited a reference the turn never found
    (``invented``: the 1.5B restated the user's fact "from" a made-up ``memory/…#L…``)."""
    stripped = text.strip()
    said = SOURCE_LINE_RE.sub("", stripped).strip()  # a reply that is only a Source: line says nothing
    if invented or not said or read_reply(stripped).cannot_answer or echoes_prompt(stripped, system, user):
        return acknowledgement(saved_to=saved_to, access=access, cue=cue, lang=lang)
    if _acknowledges_in_another_language(stripped, lang):
        # "Anotado — guardado en …" to a Portuguese statement: the 1.5B copying the acknowledgement
        # of an earlier Spanish turn; the engine's own line in the user's language instead
        return acknowledgement(saved_to=saved_to, access=access, cue=cue, lang=lang)
    return text


_ACK_KEYS = ("noted", "noted_saved", "noted_here")


def _ack_pattern(template: str) -> re.Pattern[str]:
    parts = [re.escape(p) for p in template.split("{path}")]
    return re.compile(r"\S+".join(parts) + r"\Z")


def _acknowledges_in_another_language(text: str, lang: str) -> bool:
    """``text`` is one of the engine's acknowledgements of another table and none of ``lang``'s."""
    def matches(code: str) -> bool:
        lines = engine_lines(code)
        return any(_ack_pattern(lines.say(key)).match(text) for key in _ACK_KEYS)

    if matches(lang):
        return False
    return any(matches(code) for code in TABLES if code != lang)


def check_reply(text: str, ev: Evidence, *, access: str, memory_on: bool, lang: str = "en") -> Checked:
    """Citations verified and a save claim without a write noted (every profile)."""
    out, removed = verify_citations(text, ev)
    out, invented = without_invented_markers(out, ev, lang)
    removed += invented
    note = ""
    if ev.wrote == 0 and claims_save(out):
        note = not_stored_note(access, memory_on, lang)
        out = out.rstrip() + "\n\n" + note
    return Checked(out, removed, note)


def reads_of(calls: Iterable[tuple[str, dict[str, Any], dict[str, Any]]]) -> list[tuple[str, int, int | None]]:
    """(path, first, last) of the successful ``read``/``memory_get`` calls among (name, args, result)."""
    out: list[tuple[str, int, int | None]] = []
    for name, args, result in calls:
        if name not in ("read", "memory_get") or not isinstance(result, dict) or result.get("error"):
            continue
        path = str(result.get("path") or args.get("path") or "")
        if not path:
            continue
        try:
            first = max(1, int(args.get("from") or args.get("offset") or 1))
            count = args.get("lines") or args.get("limit")
            last = first + int(count) - 1 if count else None
        except (TypeError, ValueError):
            first, last = 1, None
        out.append((path, first, last))
    return out
