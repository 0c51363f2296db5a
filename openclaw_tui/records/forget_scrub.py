"""A forgotten fact taken out of text the session holds and of the transcripts on disk.

``scrub_text(text, stones)`` replaces every line (or pair of adjacent lines) that brings one of
``stones`` back (``workspace/tombstones.find_hits``) with :data:`FORGOTTEN_MARK`. ``scrub_value``
does it in every string of a JSON value (a message, a transcript entry; a tool call's JSON
``arguments`` are scrubbed inside and stay JSON). ``scrub_transcripts(sessions_dir, stones)``
rewrites each transcript that held the fact **in place** (truncated and written through the
same file, so a session appending to it keeps appending to the same file; a torn line a crash
leaves behind is skipped on read, as always) and says which ones it changed.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from openclaw_tui.workspace.tombstones import Tombstone, find_hits

FORGOTTEN_MARK = "[forgotten]"


def scrub_text(text: str, stones: Sequence[Tombstone]) -> tuple[str, int]:
    """``text`` with the lines that hold a forgotten fact replaced; how many lines went."""
    if not stones or not text:
        return text, 0
    lines = text.split("\n")
    hits = find_hits(lines, stones)
    if not hits:
        return text, 0
    gone = sorted({i for h in hits for i in h.lines})
    for i in gone:
        lines[i] = FORGOTTEN_MARK
    return "\n".join(lines), len(gone)


def scrub_value(value: Any, stones: Sequence[Tombstone], key: str = "") -> tuple[Any, int]:
    """``value`` (dicts, lists, strings) with every string scrubbed; lines replaced in all."""
    if isinstance(value, str):
        if key == "arguments":
            try:
                inner = json.loads(value)
            except ValueError:
                inner = None
            if isinstance(inner, (dict, list)):
                out, n = scrub_value(inner, stones)
                return (json.dumps(out, ensure_ascii=False) if n else value), n
        return scrub_text(value, stones)
    if isinstance(value, dict):
        total, out_d = 0, {}
        for k, v in value.items():
            out_d[k], n = scrub_value(v, stones, str(k))
            total += n
        return out_d, total
    if isinstance(value, list):
        total, out_l = 0, []
        for v in value:
            item, n = scrub_value(v, stones, key)
            out_l.append(item)
            total += n
        return out_l, total
    return value, 0


@dataclass(frozen=True)
class ScrubbedFile:
    path: Path
    lines: int  # how many lines of text were replaced


def scrub_transcript(path: Path, stones: Sequence[Tombstone]) -> int:
    """Rewrite one transcript without the forgotten fact (in place); lines replaced."""
    try:
        raw = path.read_bytes()
    except OSError:
        return 0
    out: list[bytes] = []
    total = 0
    for line in raw.split(b"\n"):
        if not line.strip():
            out.append(line)
            continue
        try:
            entry = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            text, n = scrub_text(line.decode("utf-8", "replace"), stones)
            total += n
            out.append(b"" if n else line)  # a torn line that held the fact goes
            continue
        new, n = scrub_value(entry, stones)
        total += n
        out.append(json.dumps(new, ensure_ascii=False).encode("utf-8") if n else line)
    if total:
        _rewrite_in_place(path, b"\n".join(out))
    return total


def _rewrite_in_place(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0))
    try:
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def scrub_transcripts(sessions_dir: Path, stones: Sequence[Tombstone]) -> list[ScrubbedFile]:
    """Every transcript of ``sessions_dir`` that held the fact, rewritten without it."""
    if not stones:
        return []
    try:
        paths = sorted(p for p in Path(sessions_dir).glob("*.jsonl") if p.is_file() and not p.is_symlink())
    except OSError:
        return []
    done = []
    for p in paths:
        n = scrub_transcript(p, stones)
        if n:
            done.append(ScrubbedFile(p, n))
    return done
