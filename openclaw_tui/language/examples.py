"""An intent classifier learned from labelled messages (issue 35): behaviour from examples.

The tables decide a message's intent from cues; where no cue fires they fall back to what the
surface shows (a question mark, a default statement). This module reads the same message by
resemblance to labelled ones: hashed features (word unigrams and bigrams, character 3–5-grams
inside word boundaries, a few punctuation marks), and a multinomial logistic regression fitted
in numpy, deterministically, from the rows it is given. It knows no language: the rows of all
six tabled languages train one model. The choices are fixed (no search on any split):

    features  lowercased NFC; words = \\w+ runs; "^" + first word; word bigrams; char 3–5-grams
              of " word "; marks: ? anywhere, ? at the end, !, :, an emoji; hashed (crc32) to
              2**18 buckets, binary, each row scaled to unit length
    model     softmax regression, L2 1e-4, full-batch Adam (lr 0.3), 60 steps, zero start, float32

``ExampleClassifier.fit(rows)`` then ``.predict(text) -> (intent, confidence)``.

The reader (``reader.with_examples``) asks :func:`shipped` — trained once per process, on first
need, from ``data/examples.jsonl`` (the labelled splits' tabled rows, written by
``bench/build_examples.py``) — only where its own decision is weak (``YIELDS``: a statement no
cue made, a question) and takes its answer at confidence ≥ ``THRESHOLD``; both chosen by
leave-one-split-out measurement against the blind first readings (``bench/intent_examples.py``,
docs/language.md "Candidates measured"), before any new blind split was read.
"""

from __future__ import annotations

import json
import re
import threading
import unicodedata
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

DIM = 1 << 18
_WORD = re.compile(r"\w+", re.UNICODE)
_EMOJI = re.compile("[\U0001F300-\U0001FAFF\u2600-\u27BF]")
EXAMPLES = Path(__file__).resolve().parent / "data" / "examples.jsonl"
#: the basis of a reading (``MessageReading.basis``) -> the intents the classifier may change it to.
#: Never towards a question: on the earlier rounds' controls ("Je l'appelle quand il arrive.",
#: "I know what it is.") a question word made it say question at up to 0.83.
YIELDS: dict[str, tuple[str, ...]] = {
    "default": ("remember", "small_talk"),  # a statement because nothing fired (a keep request only before a colon)
    "mark": ("remember", "small_talk"),  # a question by its mark alone ("Dormiste bem por aí?")
    # "Would you be a star and remember that …?"; never small talk after a question word, which
    # asks ("¡Buenas! ¿Cómo se llama la farmacia de la esquina?" was made small talk at 0.44)
    "asked": ("remember",),
}
THRESHOLD = 0.4
L2 = 1e-4
STEPS = 60
LR = 0.3


def _h(s: str) -> int:
    return zlib.crc32(s.encode("utf-8")) & (DIM - 1)


def features(text: str) -> np.ndarray:
    """The sorted unique hashed feature ids of ``text``."""
    t = unicodedata.normalize("NFC", text).lower()
    words = _WORD.findall(t)
    out: set[int] = set()
    if words:
        out.add(_h("^" + words[0]))
    for i, w in enumerate(words):
        out.add(_h("w:" + w))
        if i + 1 < len(words):
            out.add(_h("b:" + w + " " + words[i + 1]))
        padded = f" {w} "
        for n in (3, 4, 5):
            for j in range(len(padded) - n + 1):
                out.add(_h(f"c{n}:" + padded[j:j + n]))
    s = t.rstrip()
    if "?" in t or "¿" in t:
        out.add(_h("m:?"))
    if s.endswith("?"):
        out.add(_h("m:?$"))
    if "!" in t:
        out.add(_h("m:!"))
    if ":" in t:
        out.add(_h("m::"))
    if _EMOJI.search(t):
        out.add(_h("m:emoji"))
    if not words:
        out.add(_h("m:empty"))
    return np.fromiter(sorted(out), dtype=np.int64)


class ExampleClassifier:
    """Softmax regression over hashed features; deterministic for the same rows in the same order."""

    def __init__(self) -> None:
        self.labels: list[str] = []
        self.cols: np.ndarray = np.zeros(0, dtype=np.int64)  # hashed id -> compact column (sorted ids)
        self.W: np.ndarray = np.zeros((0, 0))
        self.b: np.ndarray = np.zeros(0)

    def fit(self, texts: Sequence[str], labels: Sequence[str]) -> ExampleClassifier:
        self.labels = sorted(set(labels))
        k = len(self.labels)
        y = np.array([self.labels.index(lab) for lab in labels])
        feats = [features(t) for t in texts]
        n = len(feats)
        ids = np.concatenate(feats)
        rows = np.repeat(np.arange(n), [len(f) for f in feats])
        self.cols, col = np.unique(ids, return_inverse=True)
        m = len(self.cols)
        order = np.argsort(col, kind="stable")  # the transpose, grouped by column, for X^T G
        col_t, rows_t = col[order], rows[order]
        starts = np.flatnonzero(np.r_[True, col_t[1:] != col_t[:-1]])
        Y = np.zeros((n, k), dtype=np.float32)
        Y[np.arange(n), y] = 1.0
        W = np.zeros((m, k), dtype=np.float32)
        b = np.zeros(k, dtype=np.float32)
        mw, vw, mb, vb = np.zeros_like(W), np.zeros_like(W), np.zeros_like(b), np.zeros_like(b)
        b1, b2, eps = 0.9, 0.999, 1e-8
        row_starts = np.r_[0, np.cumsum([len(f) for f in feats])[:-1]]
        scale = np.array([1.0 / np.sqrt(max(len(f), 1)) for f in feats], dtype=np.float32)[:, None]
        for step in range(1, STEPS + 1):
            Z = np.add.reduceat(np.take(W, col, axis=0), row_starts, axis=0) * scale + b
            Z -= Z.max(axis=1, keepdims=True)
            P = np.exp(Z)
            P /= P.sum(axis=1, keepdims=True)
            G = (P - Y) / n
            gW = np.add.reduceat(np.take(G * scale, rows_t, axis=0), starts, axis=0)  # every column has a row
            gW += L2 * W
            gb = G.sum(axis=0)
            mw *= b1
            mw += (1 - b1) * gW
            vw *= b2
            gW *= gW
            vw += (1 - b2) * gW
            mb = b1 * mb + (1 - b1) * gb
            vb = b2 * vb + (1 - b2) * gb * gb
            c1, c2 = 1 - b1 ** step, 1 - b2 ** step
            W -= (LR / c1) * mw / (np.sqrt(vw / c2) + eps)
            b -= LR * (mb / c1) / (np.sqrt(vb / c2) + eps)
        self.W, self.b = W, b
        return self

    def proba(self, text: str) -> np.ndarray:
        f = features(text)
        hit = np.searchsorted(self.cols, f[np.isin(f, self.cols)])
        z = self.b.copy()
        if len(hit):
            z += self.W[hit].sum(axis=0) / np.sqrt(max(len(f), 1))
        z -= z.max()
        p = np.exp(z)
        return p / p.sum()

    def predict(self, text: str) -> tuple[str, float]:
        p = self.proba(text)
        i = int(np.argmax(p))
        return self.labels[i], float(p[i])


def fit_rows(rows: Iterable[dict]) -> ExampleClassifier:
    """A classifier from labelled rows ``{text, intent}`` (rows labelled ``unknown`` are left out)."""
    use = [r for r in rows if r.get("intent") and r["intent"] != "unknown"]
    return ExampleClassifier().fit([r["text"] for r in use], [r["intent"] for r in use])


_lock = threading.Lock()
_shipped: ExampleClassifier | None = None


def rows_of(data: bytes) -> list[dict]:
    """The labelled rows of an examples file's bytes (JSON lines)."""
    return [json.loads(line) for line in data.decode("utf-8").splitlines() if line.strip()]


def load_examples(path: Path = EXAMPLES) -> list[dict]:
    return rows_of(path.read_bytes())


def shipped() -> ExampleClassifier:
    """The classifier of the shipped examples, once per process: from the user's cache when a
    process before fitted the same examples, else fitted here (``examples_cache``)."""
    global _shipped
    if _shipped is None:
        with _lock:
            if _shipped is None:
                from openclaw_tui.language.examples_cache import fitted

                _shipped = fitted(EXAMPLES)
    return _shipped
