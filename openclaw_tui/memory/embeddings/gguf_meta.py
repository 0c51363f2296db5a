"""What a GGUF embedding model needs to be used right: its header's name keys and the task
prefixes its family was trained with.

Some embedding models only rank well when a query and a document are each marked with the
prefix they were trained with (nomic-embed-text: ``search_query: `` / ``search_document: ``;
E5: ``query: `` / ``passage: ``). The family is read from the file's own header
(``general.architecture``, ``general.name``), so any GGUF of such a model gets its prefixes
without a setting. Only the first key/value pairs are read, not the tensors.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

#: GGUF value types with a fixed size (bytes); 8 = string, 9 = array
_FIXED = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
_STRING, _ARRAY = 8, 9
#: a header with more pairs than this before the wanted keys is not read further
MAX_PAIRS = 64
WANTED = ("general.architecture", "general.name", "general.basename")


@dataclass(frozen=True)
class TaskPrefixes:
    query: str = ""
    document: str = ""


NO_PREFIXES = TaskPrefixes()
#: (substring of the architecture or name, lower case) → the prefixes that family was trained with
FAMILIES: tuple[tuple[str, TaskPrefixes], ...] = (
    ("nomic-bert", TaskPrefixes("search_query: ", "search_document: ")),
    ("nomic-embed", TaskPrefixes("search_query: ", "search_document: ")),
    ("e5-", TaskPrefixes("query: ", "passage: ")),
)


def _string(fh: BinaryIO) -> str:
    (n,) = struct.unpack("<Q", fh.read(8))
    if n > 1 << 20:
        raise ValueError("string too long for a header key")
    return fh.read(n).decode("utf-8", "replace")


def _skip(fh: BinaryIO, vtype: int) -> None:
    if vtype in _FIXED:
        fh.seek(_FIXED[vtype], 1)
    elif vtype == _STRING:
        (n,) = struct.unpack("<Q", fh.read(8))
        fh.seek(n, 1)
    elif vtype == _ARRAY:
        etype, count = struct.unpack("<IQ", fh.read(12))
        if etype in _FIXED:
            fh.seek(_FIXED[etype] * count, 1)
        else:
            for _ in range(count):
                _skip(fh, etype)
    else:
        raise ValueError(f"unknown GGUF value type {vtype}")


def header_names(path: Path) -> dict[str, str]:
    """The ``general.*`` name keys of a GGUF file's header ({} when it is not a readable GGUF)."""
    out: dict[str, str] = {}
    try:
        with open(path, "rb") as fh:
            if fh.read(4) != b"GGUF":
                return {}
            _version, _tensors, pairs = struct.unpack("<IQQ", fh.read(20))
            for _ in range(min(pairs, MAX_PAIRS)):
                key = _string(fh)
                (vtype,) = struct.unpack("<I", fh.read(4))
                if key in WANTED and vtype == _STRING:
                    out[key] = _string(fh)
                else:
                    _skip(fh, vtype)
                if len(out) == len(WANTED):
                    break
    except (OSError, ValueError, struct.error):
        return out
    return out


def task_prefixes(path: Path) -> TaskPrefixes:
    """The query/document prefixes of the model family in ``path``'s header (none for most)."""
    names = " ".join(header_names(path).values()).lower()
    for needle, prefixes in FAMILIES:
        if needle in names:
            return prefixes
    return NO_PREFIXES
