"""Corrections supersede: a note that a later one replaces is marked in place, and readers leave it out.

A superseded note keeps its line (``memory_get`` and the history still show what was said)
and carries a status comment, in our form or in OpenClaw's USER.md form::

    - User: The offsite is on Thursday. <!-- status: superseded -->
    - Prefers tea <!-- observed: 2026-11-02 | status: superseded -->

A status comment on a line of its own marks the entry directly above it (a list item with
its continuation lines, or a paragraph), as OpenClaw's annotations below an entry do.

Readers: :func:`hidden_lines` (the 0-based lines a reader leaves out), :func:`visible_text`
(the prompt: those lines dropped), :func:`blank_superseded` (the search index: those lines
blanked, so line numbers stay right). Writers: :func:`find_replaced` picks the note a
correction replaces, :func:`mark_superseded` marks it (atomic, under the workspace's file lock).
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Iterable, Sequence

from openclaw_tui.workspace import file_lock, safe_fs

#: a status comment saying superseded: ``<!-- status: superseded -->``, ``<!-- observed: … | status: superseded -->``
SUPERSEDED_RE = re.compile(r"<!--(?:(?!-->).)*?\bstatus\s*:\s*superseded(?=[\s|;,]|-->)(?:(?!-->).)*-->", re.IGNORECASE)
#: OpenClaw's observed comment with an active status (flipped in place)
ACTIVE_RE = re.compile(r"(<!--(?:(?!-->).)*?\bstatus\s*:\s*)active(?=[\s|;,]|-->)((?:(?!-->).)*-->)", re.IGNORECASE)
COMMENT_RE = re.compile(r"<!--.*?-->", re.DOTALL)
MARK = "<!-- status: superseded -->"
_ONLY_COMMENTS_RE = re.compile(r"^\s*(?:<!--.*?-->\s*)+$")
_ITEM_RE = re.compile(r"^\s{0,3}(?:[-*+]|\d{1,9}[.)])\s+\S")
_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}(?:\s|$)")
_WORD_RE = re.compile(r"[^\W_]+", re.UNICODE)


def is_superseded(line: str) -> bool:
    """Whether ``line`` carries a superseded status comment."""
    return "<!--" in line and SUPERSEDED_RE.search(line) is not None


def _entry_above(lines: Sequence[str], i: int) -> list[int]:
    """The 0-based lines of the entry that ends directly above line ``i`` ([] after a blank)."""
    out: list[int] = []
    j = i - 1
    while j >= 0:
        line = lines[j]
        if not line.strip() or _HEADING_RE.match(line):
            break
        out.append(j)
        if _ITEM_RE.match(line):
            break
        j -= 1
    return out


def hidden_lines(lines: Sequence[str]) -> set[int]:
    """0-based indexes of the superseded lines: each marked line, and for a status comment on
    a line of its own, the entry directly above it."""
    hidden: set[int] = set()
    for i, line in enumerate(lines):
        if not is_superseded(line):
            continue
        hidden.add(i)
        if _ONLY_COMMENTS_RE.match(line):
            hidden.update(_entry_above(lines, i))
    return hidden


def visible_text(text: str) -> str:
    """``text`` without its superseded lines (for the prompt)."""
    if "<!--" not in text:
        return text
    lines = text.splitlines(keepends=True)
    hidden = hidden_lines([line.rstrip("\r\n") for line in lines])
    return "".join(line for i, line in enumerate(lines) if i not in hidden) if hidden else text


def blank_superseded(lines: Sequence[str]) -> list[str]:
    """``lines`` with each superseded line made empty (for the search index: numbering kept)."""
    if not any("<!--" in line for line in lines):
        return list(lines)
    hidden = hidden_lines(lines)
    return [("" if i in hidden else line) for i, line in enumerate(lines)]


# --------------------------------------------------------------------------- writers


def _fold(word: str) -> str:
    """A word compared without case or accents ("Reunión" == "reunion")."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def content_words(line: str) -> set[str]:
    """The words of a note line, comments left out, folded."""
    return {_fold(w) for w in _WORD_RE.findall(COMMENT_RE.sub(" ", line))}


def _is_note(line: str) -> bool:
    return bool(line.strip()) and not _HEADING_RE.match(line) and not _ONLY_COMMENTS_RE.match(line)


def find_replaced(lines: Sequence[str], words: Iterable[str]) -> int | None:
    """The 1-based number of the newest (last) note line that is not superseded and whose
    content words include every one of ``words`` (a reading's ``replaces``); None when no
    line does or ``words`` holds none."""
    wanted = {_fold(part) for w in words for part in _WORD_RE.findall(w)}
    if not wanted:
        return None
    hidden = hidden_lines(lines)
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i]
        if i in hidden or not _is_note(line):
            continue
        if wanted <= content_words(line):
            return i + 1
    return None


def superseded_line(line: str) -> str | None:
    """``line`` marked superseded (an active status flipped, else the mark appended); None
    when it is blank or superseded already."""
    if not line.strip() or is_superseded(line):
        return None
    flipped, n = ACTIVE_RE.subn(r"\1superseded\2", line, count=1)
    return flipped if n else f"{line.rstrip()} {MARK}"


def mark_superseded(path: Path | str, line_no: int) -> bool:
    """Mark line ``line_no`` (1-based) of ``path`` superseded, in place: the whole file is
    replaced atomically under the folder's write lock (the lock every workspace writer takes),
    its mode kept, and only if it did not change while being edited. False when the line is
    out of range, blank or superseded already (nothing written)."""
    path = Path(path)
    root, name = path.parent, path.name

    def change() -> bool:
        with file_lock.writing(root, name):
            data, seen = safe_fs.current_state(root, name)
            if data is None:
                return False
            lines = data.decode("utf-8", errors="surrogateescape").splitlines(keepends=True)
            if not 1 <= line_no <= len(lines):
                return False
            line = lines[line_no - 1]
            body = line.rstrip("\r\n")
            marked = superseded_line(body)
            if marked is None:
                return False
            lines[line_no - 1] = marked + line[len(body):]
            safe_fs.replace_text(root, name, "".join(lines).encode("utf-8", errors="surrogateescape"), expect=seen)
            return True

    return file_lock.retrying(name, change, lambda _why: False)
