"""Line-based chunking with a token budget and whole-line overlap (DESIGN §2).

Each chunk keeps its 1-based ``start_line``/``end_line`` and the sha256 of its text.
Lines longer than the budget are cut into pieces that keep the line's number. **Ours:** a
chunk also carries ``context``, the Markdown headings above its first line (the section
it sits in), which the keyword index sees but line numbers and vectors do not. Tokens are
counted with tiktoken ``cl100k_base``; text is cut into bounded character windows before
encoding so pathological lines (50,000 characters, no spaces) stay cheap.
"""

from __future__ import annotations

import hashlib
import re
import string
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

import numpy as np

from openclaw_tui.workspace.supersede import blank_superseded

if TYPE_CHECKING:
    import tiktoken

TokenCounter = Callable[[str], int]

#: never hand tiktoken more than this many characters at once (BPE cost grows with piece length)
MAX_ENCODE_CHARS = 4096


@dataclass(frozen=True)
class Chunk:
    start_line: int
    end_line: int
    text: str
    hash: str
    tokens: int
    #: **ours:** the headings above ``start_line`` (outermost first, one per line) that the
    #: chunk itself does not contain; indexed for keywords only (see ``heading_context``)
    context: str = ""


@lru_cache(maxsize=1)
def _encoding() -> tiktoken.Encoding | None:
    try:
        import tiktoken  # noqa: PLC0415 - offline env is set by the package import

        return tiktoken.get_encoding("cl100k_base")
    except Exception as exc:  # no BPE file offline: estimate instead of failing the index
        import logging  # noqa: PLC0415

        logging.getLogger("openclaw_tui.memory").warning(
            "tiktoken cl100k_base unavailable (%s); estimating tokens from characters", exc
        )
        return None


def estimate_tokens(text: str) -> int:
    """Fallback estimate: ~4 characters per token for most text, 1 per CJK/other wide char."""
    wide = sum(1 for ch in text if ord(ch) >= 0x2E80)
    return wide + (len(text) - wide + 3) // 4


def count_tokens(text: str) -> int:
    """tiktoken count, computed over bounded windows so any text stays fast."""
    if not text:
        return 0
    enc = _encoding()
    if enc is None:
        return estimate_tokens(text)
    if len(text) <= MAX_ENCODE_CHARS:
        return len(enc.encode_ordinary(text))
    return sum(len(enc.encode_ordinary(text[i : i + MAX_ENCODE_CHARS])) for i in range(0, len(text), MAX_ENCODE_CHARS))


#: joins lines so one tiktoken call counts many (``line_token_counts``): cl100k encodes it as
#: one token no line can contain (it holds a newline), and its leading space ends the piece
#: before it (a word, number or punctuation run) exactly where the end of the text would
_LINE_SEPARATOR = " \n"
#: line endings after which the separator provably splits like the end of the text: a letter
#: or digit (``isalnum``) or ASCII punctuation; a line ending in anything else (whitespace,
#: which the separator would join, or a symbol) is counted on its own
_SAFE_LAST = frozenset(string.punctuation)


def _joinable(line: str) -> bool:
    return (0 < len(line) <= MAX_ENCODE_CHARS and "\n" not in line and "\r" not in line
            and (line[-1].isalnum() or line[-1] in _SAFE_LAST))


def line_token_counts(lines: Sequence[str]) -> list[int]:
    """``[count_tokens(line) for line in lines]`` (0 for an empty line) in one tiktoken call
    for the usual lines: they are joined with ``_LINE_SEPARATOR`` and the tokens between two
    separator tokens are the line's. tiktoken cuts text into regex pieces and encodes each
    piece alone, and no piece crosses the separator, so each count equals the line's own."""
    counts = [0] * len(lines)
    enc = _encoding()
    joined: list[int] = []
    for i, line in enumerate(lines):
        if enc is not None and _joinable(line):
            joined.append(i)
        elif line:
            counts[i] = count_tokens(line)
    if not joined:
        return counts
    assert enc is not None  # lines are joined only when tiktoken is there
    text = _LINE_SEPARATOR.join(lines[i] for i in joined) + _LINE_SEPARATOR
    ends = np.flatnonzero(_encode_array(enc, text) == _separator_token())
    sizes = ends - np.concatenate(([-1], ends[:-1])) - 1
    for i, n in zip(joined, sizes.tolist()):
        counts[i] = n
    return counts


@lru_cache(maxsize=1)
def _separator_token() -> int:
    enc = _encoding()
    assert enc is not None  # only called on the tiktoken path
    return enc.encode_ordinary(_LINE_SEPARATOR)[0]


def _encode_array(enc: tiktoken.Encoding, text: str) -> np.ndarray:
    """``enc.encode_ordinary(text)`` as an array (without a list in between when tiktoken has
    ``encode_to_numpy``; allowing no special token encodes their text as ordinary text)."""
    if hasattr(enc, "encode_to_numpy"):
        arr: np.ndarray = enc.encode_to_numpy(text, allowed_special=set(), disallowed_special=())
        return arr
    return np.asarray(enc.encode_ordinary(text), dtype=np.int64)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def split_long_line(line: str, budget: int, counter: TokenCounter = count_tokens) -> list[tuple[str, int]]:
    """Cut ``line`` into consecutive pieces of at most ``budget`` tokens each.

    Returns ``[(piece, tokens)]``; joining the pieces gives back the line exactly.
    Cuts prefer a space near the end of the window so words are kept whole.
    """
    pieces: list[tuple[str, int]] = []
    pos = 0
    n = len(line)
    # start from ~4 chars per token, shrink until the window fits
    width = max(1, budget * 4)
    while pos < n:
        end = min(n, pos + width)
        piece = line[pos:end]
        tokens = counter(piece)
        while tokens > budget and len(piece) > 1:
            new_len = max(1, min(len(piece) - 1, int(len(piece) * budget / tokens * 0.95)))
            piece = piece[:new_len]
            tokens = counter(piece)
        end = pos + len(piece)
        if end < n and len(piece) > 16:
            cut = piece.rfind(" ", len(piece) // 2)
            if cut > 0:
                piece = piece[: cut + 1]
                tokens = counter(piece)
                end = pos + len(piece)
        pieces.append((piece, tokens))
        pos = end
    return pieces


def _line_units(lines: list[str], tokens: int, counter: TokenCounter) -> list[tuple[int, str, int]]:
    """``(line number, text, cost)`` per line, or per piece of a line over ``tokens``; a line
    costs its tokens plus one for the newline joining it."""
    if counter is count_tokens:
        counts = line_token_counts(lines)
    else:
        counts = [counter(line) if line else 0 for line in lines]
    units: list[tuple[int, str, int]] = []
    for lineno, (line, n) in enumerate(zip(lines, counts), start=1):
        if n + 1 <= tokens:
            units.append((lineno, line, n + 1))
        else:
            for piece, ptoks in split_long_line(line, max(1, tokens - 1), counter):
                units.append((lineno, piece, ptoks + 1))
    return units


def chunk_lines(
    lines: Iterable[str],
    *,
    tokens: int = 400,
    overlap: int = 80,
    counter: TokenCounter = count_tokens,
) -> list[Chunk]:
    """Chunk a sequence of lines (no trailing newlines) into overlapping chunks.

    * a chunk holds whole lines (or pieces of one over-long line) up to ``tokens``;
    * the next chunk starts with the previous chunk's trailing whole lines that fit in
      ``overlap`` tokens (never the whole previous chunk, so the walk always advances);
    * each line costs its token count plus one for the newline joining it.
    """
    if tokens < 1:
        raise ValueError("tokens must be >= 1")
    overlap = max(0, min(overlap, tokens - 1))
    units = _line_units(list(lines), tokens, counter)

    chunks: list[Chunk] = []
    cur: list[tuple[int, str, int]] = []
    cur_cost = 0

    def emit(items: list[tuple[int, str, int]]) -> None:
        if not items:
            return
        # pieces of the same over-long line are joined without a newline
        parts: list[str] = []
        prev = None
        for lineno, text, _ in items:
            if prev is not None and lineno == prev:
                parts[-1] += text
            else:
                parts.append(text)
            prev = lineno
        text = "\n".join(parts)
        if not text.strip():
            return
        chunks.append(
            Chunk(
                start_line=items[0][0],
                end_line=items[-1][0],
                text=text,
                hash=sha256_text(text),
                tokens=sum(c for _, _, c in items),
            )
        )

    for unit in units:
        if cur and cur_cost + unit[2] > tokens:
            emit(cur)
            carry: list[tuple[int, str, int]] = []
            carried = 0
            for item in reversed(cur[1:]):
                # carry whole lines only: a piece of a split line never starts an overlap
                if carried + item[2] > overlap:
                    break
                carry.insert(0, item)
                carried += item[2]
            if carry and any(it[0] == carry[0][0] for it in cur[: len(cur) - len(carry)]):
                # first carried unit is a continuation piece of a split line: drop that line
                first = carry[0][0]
                carry = [it for it in carry if it[0] != first]
                carried = sum(it[2] for it in carry)
            while carry and carried + unit[2] > tokens:
                carried -= carry.pop(0)[2]
            cur, cur_cost = carry, carried
        cur.append(unit)
        cur_cost += unit[2]
    emit(cur)
    return chunks


def split_text_lines(text: str) -> list[str]:
    """Split on newlines the way line numbers are counted (\\r\\n and \\r handled)."""
    if not text:
        return []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


#: a heading line is cut to this many characters in a chunk's context (it is repeated for
#: every chunk of its section, so a pathological 50,000-character heading must stay cheap)
HEADING_CONTEXT_MAX_CHARS = 200

_ATX_HEADING_RE = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$")
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def heading_context(lines: list[str], start_lines: Iterable[int]) -> dict[int, str]:
    """For each 1-based line number in ``start_lines``, the Markdown ATX headings in force
    just above it (``# Day`` then ``## Session``…, outermost first, one per line, without
    the ``#`` marks); headings inside fenced code blocks are ignored. A chunk that starts
    in the middle of a section thereby keeps its section's title (a daily log's date, a
    session's participants) for keyword search, where only the section's first chunk
    would otherwise hold it."""
    wanted = sorted(set(start_lines))
    out: dict[int, str] = {}
    stack: list[tuple[int, str]] = []
    fence: str | None = None
    wi = 0
    for lineno, line in enumerate(lines, start=1):
        while wi < len(wanted) and wanted[wi] <= lineno:
            out[wanted[wi]] = "\n".join(t for _, t in stack)
            wi += 1
        if wi >= len(wanted):
            break
        m = _FENCE_RE.match(line)
        if m:
            mark = m.group(1)
            if fence is None:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence) and not line.strip()[len(mark):].strip():
                fence = None
            continue
        if fence is not None:
            continue
        h = _ATX_HEADING_RE.match(line)
        if h and (h.group(2) or "").strip():
            level = len(h.group(1))
            stack = [(lv, t) for lv, t in stack if lv < level]
            stack.append((level, h.group(2).strip()[:HEADING_CONTEXT_MAX_CHARS]))
    while wi < len(wanted):
        out[wanted[wi]] = "\n".join(t for _, t in stack)
        wi += 1
    return out


def chunk_text(
    text: str,
    *,
    tokens: int = 400,
    overlap: int = 80,
    counter: TokenCounter = count_tokens,
    headings: bool = True,
) -> list[Chunk]:
    """Chunk a document; with ``headings`` each chunk's ``context`` holds the headings above
    its first line (``heading_context``). Superseded notes (``workspace/supersede.py``) are
    blank lines here: never in a chunk's text or snippet, and every line keeps its number."""
    lines = blank_superseded(split_text_lines(text))
    chunks = chunk_lines(lines, tokens=tokens, overlap=overlap, counter=counter)
    if not headings or not chunks:
        return chunks
    ctx = heading_context(lines, (c.start_line for c in chunks))
    return [replace(c, context=ctx.get(c.start_line, "")) if ctx.get(c.start_line) else c for c in chunks]


def sub_windows(text: str, tokens: int, counter: TokenCounter = count_tokens) -> list[Chunk]:
    """A chunk's text cut into consecutive windows of whole lines of at most ``tokens``
    tokens each, without overlap (an over-long line is cut into pieces). Each window is
    embedded on its own (several vectors per chunk). Never empty: a blank text is one window."""
    wins = chunk_lines(split_text_lines(text), tokens=max(1, tokens), overlap=0, counter=counter)
    if wins:
        return wins
    return [Chunk(start_line=1, end_line=1, text=text, hash=sha256_text(text), tokens=max(1, counter(text)))]
