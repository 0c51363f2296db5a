"""Which lines of a file support a sentence, so its ``Source:`` names them (pure functions).

A citation overlapping a hit said nothing about the fact: a day's notes sat in one hit
(``L1-L13``), so a fact on L3 cited ``#L4`` (another fact's line) passed, and a wrong answer
("Pixel will be 23 in 2030"; the note: 7 years old) kept its ``Source:`` line (issue 37).
**Ours:** the sentence a citation follows is checked against the cited file's text:

- its *identifying words* are its content words and numbers (no stopword, function word or
  framing word of any language with a table: ``openclaw_tui.language``);
- the *supporting lines* are the fewest content lines (no heading, no blank line) of what
  the turn saw of the file (its hits' and reads' lines) that hold them: the line holding the
  most first, then each line adding at least half as many words not yet held;
- a cited range holding a supporting line is narrowed to the supporting lines it holds; one
  holding none is moved to the supporting lines; none at all: the citation is unsupported;
- a number the sentence states must appear in the cited lines, the question, or the file's
  name (a daily log's year), or be the sum or difference of two of those; else the sentence
  gets no citation (it was not read there).

    settle([(4, 4)], lines, said=identifying("Pixel is 7 years old."), seen=[(1, 13)])
    # Settled(ranges=((3, 3),), why="")
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from openclaw_tui.language.stopwords import ALL as STOPWORDS
from openclaw_tui.language.words import cue_words, function_words

#: a word of 3+ characters in any script, or a number ("7", "4200", "2030")
WORD_RE = re.compile(r"[^\W_](?:[^\W_]|['-]){2,}")
NUMBER_RE = re.compile(r"\d+(?:[.,]\d+)*")
#: "4,200" and "4.200": one number with thousands separators
THOUSANDS_RE = re.compile(r"\d{1,3}(?:[.,]\d{3})+")
#: two words match when equal or, both this long, alike in this many first letters
PREFIX = 5
#: a further supporting line adds at least this share of the first line's words
ADD_SHARE = 0.5
#: words that say how an answer came, not what it says ("according", "notes", "según")
FRAME = cue_words("frame_words")


@dataclass(frozen=True)
class Said:
    """A sentence's identifying words (numbers among them) and its numbers alone."""

    words: frozenset[str]
    numbers: frozenset[str]


@dataclass(frozen=True)
class Settled:
    """A citation's ranges after the check (None: nothing the turn saw supports the sentence),
    and why it was refused ("" when kept: ``unsupported``, ``numbers``)."""

    ranges: tuple[tuple[int, int], ...] | None
    why: str = ""


def _norm_number(n: str) -> str:
    if THOUSANDS_RE.fullmatch(n):
        n = n.replace(",", "").replace(".", "")
    n = n.replace(",", ".")
    return n if "." in n else n.lstrip("0") or "0"


def numbers_in(text: str) -> set[str]:
    return {_norm_number(n) for n in NUMBER_RE.findall(text)}


def identifying(text: str) -> Said:
    """The identifying words and numbers of ``text`` (module doc)."""
    skip = STOPWORDS | function_words() | FRAME
    words = {w.strip("'-") for w in WORD_RE.findall(text.lower())}
    words = {w for w in words if w and w not in skip}
    nums = numbers_in(text)
    return Said(frozenset({w for w in words if not w[0].isdigit()} | nums), frozenset(nums))


def _alike(a: str, b: str) -> bool:
    if a == b:
        return True
    return len(a) >= PREFIX and len(b) >= PREFIX and not a[0].isdigit() and a[:PREFIX] == b[:PREFIX]


def held(said: Said, line: str) -> set[str]:
    """The identifying words of ``said`` that ``line`` holds."""
    have = {w.strip("'-") for w in WORD_RE.findall(line.lower())} | numbers_in(line)
    return {w for w in said.words if any(_alike(w, h) for h in have)}


def is_content(line: str) -> bool:
    s = line.strip()
    return bool(s) and not s.startswith("#") and any(ch.isalnum() for ch in s)


def _inside(n: int, spans: Iterable[tuple[int, int]]) -> bool:
    return any(a <= n <= b for a, b in spans)


def supporting(lines: Sequence[str], said: Said, seen: Sequence[tuple[int, int]]) -> list[int]:
    """The 1-based supporting lines (module doc), file order; [] when none holds a word."""
    gain = {n: held(said, lines[n - 1]) for n in range(1, len(lines) + 1)
            if _inside(n, seen) and is_content(lines[n - 1])}
    gain = {n: g for n, g in gain.items() if g}
    if not gain:
        return []
    first = max(gain, key=lambda n: (len(gain[n]), -n))
    chosen, have = [first], set(gain[first])
    need = max(1.0, ADD_SHARE * len(gain[first]))
    while True:
        best = max((n for n in gain if n not in chosen), key=lambda n: (len(gain[n] - have), -n), default=None)
        if best is None or len(gain[best] - have) < need:
            break
        chosen.append(best)
        have |= gain[best]
    return sorted(chosen)


def runs(numbers: Iterable[int]) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for n in sorted(set(numbers)):
        if out and out[-1][1] == n - 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return tuple(out)


def numbers_follow(stated: Iterable[str], known: set[str]) -> bool:
    """Whether every stated number is known, or the sum or difference of two known numbers."""
    values = []
    for k in known:
        try:
            values.append(float(k))
        except ValueError:
            continue
    for n in stated:
        if n in known:
            continue
        try:
            v = float(n)
        except ValueError:
            return False
        if not any(abs(a + b - v) < 1e-9 or abs(a - b - v) < 1e-9 for a in values for b in values):
            return False
    return True


def settle(cited: Sequence[tuple[int, int]], lines: Sequence[str], said: Said, seen: Sequence[tuple[int, int]],
           *, given: str = "") -> Settled:
    """The ranges a citation of ``cited`` should name in a file of ``lines`` for a sentence
    whose identifying words are ``said``; ``seen``: the lines the turn saw of the file;
    ``given``: text whose numbers the sentence may repeat (the question, the file's name)."""
    if not said.words:
        return Settled(tuple(cited))
    support = supporting(lines, said, seen)
    if not support:
        return Settled(None, "unsupported")
    inside = [n for n in support if _inside(n, cited)]
    final = runs(inside or support)
    shown = "\n".join(lines[a - 1] for lo, hi in final for a in range(lo, hi + 1))
    if not numbers_follow(said.numbers, numbers_in(shown) | numbers_in(given)):
        return Settled(None, "numbers")
    return Settled(final)
