"""The fitted example classifier, kept between processes (issue 35).

Fitting on the shipped examples takes about two seconds; a ``chat -p`` run, the TUI's first
message and every test worker would pay it. The fitted weights go to the user's cache
(``~/.openclaw/cache/reader``, owner-only, or ``$OPENCLAW_READER_CACHE_DIR``) under a key of
the examples' bytes and the fitting choices, so a changed example file or model refits, and a
file that does not load (cut short, another shape, written by someone else) is refitted and
replaced. Nothing here is needed: with no writable cache the classifier is fitted in memory.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np

from openclaw_tui.language import examples as ex

DIR_ENV = "OPENCLAW_READER_CACHE_DIR"
#: bump when ``features`` or the fitting changes in a way the constants below do not show
VERSION = "1"


def cache_dir() -> Path:
    env = os.environ.get(DIR_ENV, "").strip()
    return Path(env).expanduser() if env else Path.home() / ".openclaw" / "cache" / "reader"


def key(data: bytes) -> str:
    """The cache key of an examples file's bytes under the current fitting choices."""
    h = hashlib.sha256()
    h.update(f"{VERSION}\0{ex.DIM}\0{ex.STEPS}\0{ex.LR}\0{ex.L2}\0".encode())
    h.update(data)
    return h.hexdigest()[:24]


def _path(k: str) -> Path:
    return cache_dir() / f"examples-{k}.npz"


def load(k: str) -> ex.ExampleClassifier | None:
    """The classifier saved under ``k``, or None when there is none that loads and fits together."""
    path = _path(k)
    try:
        if hasattr(os, "getuid") and path.stat().st_uid != os.getuid():
            return None  # someone else's file is refitted over, never read
        with np.load(path, allow_pickle=False) as z:
            labels, cols, w, b = z["labels"], z["cols"], z["W"], z["b"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    k_labels = len(labels)
    if w.ndim != 2 or w.shape != (len(cols), k_labels) or b.shape != (k_labels,) or cols.dtype.kind != "i":
        return None
    clf = ex.ExampleClassifier()
    clf.labels, clf.cols, clf.W, clf.b = [str(x) for x in labels], cols, w, b
    return clf


def save(k: str, clf: ex.ExampleClassifier) -> None:
    """Keep ``clf`` under ``k`` (written whole, then renamed); a cache that cannot be written is skipped."""
    directory = cache_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(directory, 0o700)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".examples-", suffix=".npz")
        with os.fdopen(fd, "wb") as out:
            np.savez(out, labels=np.array(clf.labels), cols=clf.cols, W=clf.W, b=clf.b)
        os.replace(tmp, _path(k))
        for old in directory.glob("examples-*.npz"):  # an older example file's fit is never read again
            if old != _path(k):
                old.unlink(missing_ok=True)
    except OSError:
        return


def fitted(path: Path) -> ex.ExampleClassifier:
    """The classifier of the examples at ``path``: from the cache, else fitted and cached."""
    data = path.read_bytes()
    k = key(data)
    clf = load(k)
    if clf is None:
        clf = ex.fit_rows(ex.rows_of(data))
        save(k, clf)
    return clf
