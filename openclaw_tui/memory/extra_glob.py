"""The ``pattern`` of an ``extraPaths`` object entry (``{path, pattern}``, OpenClaw's form):
a glob matched against a file's path relative to the entry's folder, ``/`` separated.

``**`` matches any number of folders (none included), ``*`` any characters but ``/``, ``?`` one
character but ``/``, ``[abc]``/``[!abc]`` one of a set. A pattern without ``/`` matches the file
name at any depth, as ``**/<pattern>``. Pure.
"""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=64)
def compile_glob(pattern: str) -> re.Pattern[str]:
    pat = pattern.strip().lstrip("./") if pattern.strip().startswith("./") else pattern.strip()
    if "/" not in pat:
        pat = "**/" + pat
    out: list[str] = []
    i = 0
    while i < len(pat):
        c = pat[i]
        if pat.startswith("**/", i):
            out.append("(?:[^/]+/)*")
            i += 3
        elif pat.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            end = pat.find("]", i + 2)
            if end == -1:
                out.append(re.escape(c))
                i += 1
                continue
            body = pat[i + 1 : end]
            neg = body.startswith("!")
            body = body[1:] if neg else body
            out.append("[" + ("^" if neg else "") + body.replace("\\", "\\\\") + "]")
            i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile("".join(out) + r"\Z", re.S)


def glob_match(pattern: str, rel_path: str) -> bool:
    """Whether ``rel_path`` (relative to the entry's folder, ``/`` separated) matches."""
    return compile_glob(pattern).match(rel_path) is not None
