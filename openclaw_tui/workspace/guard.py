"""Path guard: turn an untrusted, model-supplied path into a safe path inside a root.

Used by memory_get and by the read/write/edit/append tools. Every refusal raises
``PathRefused`` with a one-line reason; nothing here follows a symlink.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path, PurePosixPath

from openclaw_tui.workspace.session_keys import ROOT_MEMORY_FILES

MAX_PATH_CHARS = 1024
MAX_COMPONENT_CHARS = 255
_DRIVE_RE = re.compile(r"^[A-Za-z]:")


#: bidi embeddings, overrides and isolates, marks, and the line/paragraph separators
_BIDI = frozenset("\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _unsafe_char(c: str) -> bool:
    """C0/C1 controls, DEL, bidi controls and lone surrogates (undecodable bytes)."""
    o = ord(c)
    return o < 32 or 0x7F <= o <= 0x9F or c in _BIDI or 0xD800 <= o <= 0xDFFF


def printable_path(path: object) -> str:
    """``path`` safe to print on a terminal: undecodable bytes as ``\\xNN``, controls and
    bidi characters as ``\\uNNNN``; everything else unchanged."""
    text = str(path)
    if not any(_unsafe_char(c) for c in text):
        return text
    out = []
    for c in text:
        o = ord(c)
        if 0xDC80 <= o <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
            out.append(f"\\x{o - 0xDC00:02x}")
        elif _unsafe_char(c):
            out.append(f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}")
        else:
            out.append(c)
    return "".join(out)


class PathRefused(Exception):
    def __init__(self, path: str, reason: str):
        super().__init__(reason)
        self.path = path
        self.reason = reason


def normalize_rel(raw: object) -> str:
    """Validate the textual form of a workspace-relative path; return it normalised.

    Refuses NUL and control characters, absolute paths, drive letters, backslashes,
    ``..`` components, home expansion and over-long names.
    """
    if not isinstance(raw, str):
        raise PathRefused(str(raw), "path must be a string")
    path = raw.strip()
    if not path:
        raise PathRefused(raw, "path is empty")
    if any(ord(c) < 32 or c == "\x7f" for c in path):
        raise PathRefused(printable_path(raw), "path contains control or NUL characters")
    if any(_unsafe_char(c) for c in path):
        raise PathRefused(printable_path(raw), "path contains control, bidi or undecodable characters")
    if len(path) > MAX_PATH_CHARS:
        raise PathRefused(raw[:80] + "…", f"path is longer than {MAX_PATH_CHARS} characters")
    if "\\" in path:
        raise PathRefused(raw, "use '/' as the separator; backslashes are refused")
    if path.startswith(("/", "~")) or _DRIVE_RE.match(path):
        raise PathRefused(raw, "absolute paths are refused; give a path relative to the workspace")
    parts = [p for p in PurePosixPath(path).parts if p not in ("", ".")]
    if not parts:
        raise PathRefused(raw, "path names no file")
    for part in parts:
        if part == "..":
            raise PathRefused(raw, "'..' is refused; paths must stay inside the workspace")
        if len(part.encode("utf-8", "surrogatepass")) > MAX_COMPONENT_CHARS:
            raise PathRefused(raw[:80] + "…", "a path component is longer than 255 bytes")
    return "/".join(parts)


def safe_join(root: Path, rel: str, *, allow_missing: bool = True) -> Path:
    """Join ``rel`` (already normalised) under ``root`` without following any symlink.

    Every existing component is ``lstat``-ed: a symlink anywhere refuses the path. The
    final component, when it exists, must be a regular file (no devices, FIFOs or sockets).
    """
    root = Path(root)
    cur = root
    parts = rel.split("/")
    for i, part in enumerate(parts):
        cur = cur / part
        try:
            st = os.lstat(cur)
        except FileNotFoundError:
            if allow_missing:
                # Nothing below a missing component exists, so nothing below can be a link.
                return root.joinpath(*parts)
            raise PathRefused(rel, "file does not exist") from None
        except OSError as exc:
            raise PathRefused(rel, f"cannot inspect path: {exc.strerror or exc}") from None
        if stat.S_ISLNK(st.st_mode):
            raise PathRefused(rel, "symlinks are refused")
        last = i == len(parts) - 1
        if not last and not stat.S_ISDIR(st.st_mode):
            raise PathRefused(rel, f"'{part}' is not a directory")
        if last:
            check_file(rel, st)
    # Belt and braces: the resolved parent must still sit under the resolved root.
    try:
        parent = cur.parent.resolve()
        if parent != root.resolve() and root.resolve() not in parent.parents:
            raise PathRefused(rel, "path escapes the workspace")
    except OSError as exc:
        raise PathRefused(rel, f"cannot resolve path: {exc}") from None
    return cur


def is_memory_rel(rel: str) -> bool:
    """True for MEMORY.md, USER.md (either case) and memory/**/*.md (already normalised)."""
    if rel in ROOT_MEMORY_FILES:
        return True
    return rel.startswith("memory/") and rel.lower().endswith(".md") and len(rel) > len("memory/.md")


def check_file(rel: str, st: os.stat_result) -> None:
    """A regular file, or ``PathRefused``.

    A file with other hard links is a plain file: a second name elsewhere (a ``cp -al``
    snapshot of the workspace) is not a way out of it, since no link is followed to reach the
    file, and writes never go through to the other name (a file is replaced by a rename, and
    an append to a file with other links is made on a copy: ``safe_fs.append_bytes``). What
    leads out of the workspace, a symlink, is refused where the path is walked."""
    if stat.S_ISDIR(st.st_mode):
        raise PathRefused(rel, "path is a directory, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise PathRefused(rel, "not a regular file (device, FIFO or socket refused)")
