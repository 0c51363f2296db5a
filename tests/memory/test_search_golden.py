"""Whole searches on a fixed corpus against a recorded answer: every hit's path, lines,
score, snippet, source, citation and stale flag, in order, for hybrid and keyword-only
search. The answer was recorded before the speed work of issue 38 (item 7); a change that
only makes search faster must leave it as it is.

The corpus is seeded Markdown (topic notes with headings, long chunks whose snippets are
windowed by line cosines, daily logs whose notes are hits of their own) and the vectors come
from an in-process provider hashing words into dimensions, so texts sharing words are near.
``OPENCLAW_RECORD_GOLDEN=1`` rewrites the recorded answer (only for an intended change).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any, Callable

import numpy as np

from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.memory.embeddings.base import EmbeddingProvider, ProviderInfo

GOLDEN = Path(__file__).parent / "data" / "search_golden.json"
DIMS = 64


class HashedWords(EmbeddingProvider):
    """Each word adds ±1 to two dimensions chosen by its hash: deterministic, and a query
    sharing words with a text is near it."""

    def __init__(self) -> None:
        self.info = ProviderInfo("golden", "hashed-words-64", "local")
        self.max_input_tokens = 48  # long chunks get several sub-windows

    def _one(self, text: str) -> np.ndarray:
        v = np.zeros(DIMS, dtype=np.float32)
        for word in text.lower().split():
            h = hashlib.blake2b(word.strip(".,:#-").encode(), digest_size=4).digest()
            v[h[0] % DIMS] += 1.0 if h[1] & 1 else -1.0
            v[h[2] % DIMS] += 0.5 if h[3] & 1 else -0.5
        n = float(np.linalg.norm(v))
        return v / n if n > 0 else v

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return np.stack([self._one(t) for t in texts]) if texts else np.zeros((0, DIMS), np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self._one(text)


def _vocabulary(rng: random.Random) -> list[str]:
    words: set[str] = set()
    while len(words) < 400:
        words.add("".join(rng.choice("abcdefghijklmnoprstuvw") for _ in range(rng.randint(3, 8))))
    return sorted(words)


def write_corpus(ws: Path) -> list[str]:
    """The seeded workspace; returns texts to draw queries from."""
    rng = random.Random(2026)
    vocab = _vocabulary(rng)
    weights = [1.0 / (r + 1) ** 0.9 for r in range(len(vocab))]

    def sentence(n: int) -> str:
        return " ".join(rng.choices(vocab, weights=weights, k=n))

    samples: list[str] = []
    (ws / "memory").mkdir(parents=True)
    for f in range(24):
        lines = [f"# {sentence(3)}", ""]
        for s in range(rng.randint(3, 6)):
            lines += [f"## {sentence(2)}", ""]
            for _ in range(rng.randint(4, 14)):
                line = sentence(rng.randint(6, 22))
                lines.append(f"- {line}" if rng.random() < 0.5 else line)
                if rng.random() < 0.08:
                    samples.append(line)
            lines.append("")
        (ws / "memory" / f"topic-{f:02d}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for d in range(10):
        notes = [f"- {sentence(rng.randint(5, 14))}" for _ in range(rng.randint(3, 9))]
        samples.append(notes[0][2:])
        (ws / "memory" / f"2024-03-{d + 1:02d}.md").write_text(f"# 2024-03-{d + 1:02d}\n\n" + "\n".join(notes) + "\n",
                                                                  encoding="utf-8")
    (ws / "MEMORY.md").write_text("# Memory\n\n" + "\n".join(f"- {sentence(8)}" for _ in range(12)) + "\n",
                                  encoding="utf-8")
    return samples


def queries(samples: list[str]) -> list[str]:
    rng = random.Random(7)
    out = [" ".join(rng.sample(s.split(), min(len(s.split()), rng.randint(2, 5)))) for s in rng.sample(samples, 26)]
    return out + ["what happened on March 4, 2024", "2024-03-07", "zzqx unknownword"]


def answer(m: MemoryManager, qs: list[str]) -> list[Any]:
    out = []
    for q in qs:
        r = m.search(q, min_score=0.0)
        assert not r.disabled, r.error
        out.append({"query": q, "mode": r.mode,
                    "hits": [[h.path, h.start_line, h.end_line, h.score, h.snippet, h.source, h.citation, h.stale]
                             for h in r.results]})
    return out


def test_hybrid_and_keyword_search_answer_as_recorded(workspace: Path, make_settings: Callable[..., Any]):
    samples = write_corpus(workspace)
    qs = queries(samples)
    base = {"store": {"path": str(workspace.parent / "index.sqlite")}, "sync": {"onSearch": False, "watch": False}}
    settings = make_settings(memorySearch={"provider": "none", **base}, memory={"citations": "on"})
    hybrid = MemoryManager(settings, provider=HashedWords())
    keyword = MemoryManager(settings, provider=None)
    try:
        hybrid.sync(reason="test")
        got = {"hybrid": answer(hybrid, qs), "keyword": answer(keyword, qs)}
    finally:
        hybrid.close()
        keyword.close()
    assert {r["mode"] for r in got["hybrid"]} == {"hybrid"}
    assert sum(len(r["hits"]) for r in got["hybrid"]) > 100
    assert any("…" in h[4] for r in got["hybrid"] for h in r["hits"])  # windowed snippets are in it
    if os.environ.get("OPENCLAW_RECORD_GOLDEN") == "1":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for kind in ("hybrid", "keyword"):
        for g, w in zip(got[kind], want[kind]):
            assert g == w, (kind, g["query"])
    assert got == want
