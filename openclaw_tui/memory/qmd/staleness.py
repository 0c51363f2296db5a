"""``stale`` for qmd hits: the file changed since qmd indexed it.

qmd names each indexed document by its content: a hit's ``docid`` is the first hex digits of
the SHA-256 of the file's text as qmd read it (UTF-8). A hit is stale when its file is gone,
or the file's current text hashes to something that does not start with that docid (so a
touch that changed nothing is not stale), as the builtin index marks its own hits
(``memory/builtin/staleness.py``). Session transcripts are not checked; a hit without a docid
(an older qmd) is never marked. Pure reads: nothing is synced here.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

#: larger files are not read again to hash (the builtin index's limit too)
HASH_LIMIT = 4 * 1024 * 1024
#: shortest docid we trust as a hash prefix (qmd prints 6 hex digits)
MIN_DOCID = 6


def docid_hex(docid: str | None) -> str | None:
    """qmd's ``#abc123`` (or ``abc123``) as lowercase hex; None when it is no hash prefix."""
    text = (docid or "").strip().lstrip("#").lower()
    if len(text) < MIN_DOCID or any(c not in "0123456789abcdef" for c in text):
        return None
    return text


def qmd_hit_stale(path: Path, docid: str | None) -> bool:
    """Whether the file at ``path`` no longer holds the text qmd indexed as ``docid``."""
    want = docid_hex(docid)
    if want is None:
        return False  # nothing to compare with
    try:
        st = os.lstat(path)
    except OSError:
        return True  # deleted or renamed since
    if not stat.S_ISREG(st.st_mode):
        return True
    if st.st_size > HASH_LIMIT:
        return False  # not read again to hash
    try:
        text = path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return True
    return not hashlib.sha256(text.encode("utf-8")).hexdigest().startswith(want)
