"""GGUF (llama-cpp-python) vs sentence-transformers on the same texts: agreement and speed.

    python scripts/gguf_compare.py [--gguf .cache/gguf/all-MiniLM-L6-v2-q8_0.gguf]
                                   [--conv ../shared/data/locomo/conv-26] [--json]

Documents are the conversation's memory files cut into ~48-token windows of whole lines
(what the index embeds), queries are its qa.jsonl questions. Prints the cosine between the
two providers' vectors per text (min / mean / max deviation) and each provider's throughput
(texts/s for documents, ms per query), measured in the same process one after the other.
Needs the [local] and [gguf] extras.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from openclaw_tui.memory.embeddings.local import GgufProvider, SentenceTransformerProvider, bundled_minilm_dir  # noqa: E402


def windows(conv: Path, max_words: int = 36) -> list[str]:
    out: list[str] = []
    files = [conv / "MEMORY.md", *sorted((conv / "memory").glob("*.md"))]
    for f in files:
        if not f.is_file():
            continue
        cur: list[str] = []
        n = 0
        for line in f.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            w = len(line.split())
            if cur and n + w > max_words:
                out.append("\n".join(cur))
                cur, n = [], 0
            cur.append(line)
            n += w
        if cur:
            out.append("\n".join(cur))
    return out


def questions(conv: Path) -> list[str]:
    qs = []
    with open(conv / "qa.jsonl", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                qs.append(str(json.loads(line)["question"]))
    return qs


def timed_docs(p, texts: list[str], batch: int = 64) -> tuple[np.ndarray, float]:
    p.embed_documents(texts[:2])  # load + warm up outside the clock
    t0 = time.perf_counter()
    out = np.vstack([p.embed_documents(texts[i:i + batch]) for i in range(0, len(texts), batch)])
    return out, time.perf_counter() - t0


def timed_queries(p, qs: list[str]) -> tuple[np.ndarray, float]:
    t0 = time.perf_counter()
    out = np.vstack([p.embed_query(q) for q in qs])
    return out, time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gguf", default=str(REPO / ".cache" / "gguf" / "all-MiniLM-L6-v2-q8_0.gguf"))
    ap.add_argument("--conv", default=str((REPO / ".." / "shared" / "data" / "locomo" / "conv-26").resolve()))
    ap.add_argument("--queries", type=int, default=100, help="first N questions (0 = all)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    conv = Path(args.conv)
    docs = windows(conv)
    qs = questions(conv)
    if args.queries:
        qs = qs[: args.queries]

    g = GgufProvider(Path(args.gguf))
    s = SentenceTransformerProvider(bundled_minilm_dir())
    gd, g_dt = timed_docs(g, docs)
    gq, g_qt = timed_queries(g, qs)
    sd, s_dt = timed_docs(s, docs)
    sq, s_qt = timed_queries(s, qs)

    cd = np.sum(gd * sd, axis=1)
    cq = np.sum(gq * sq, axis=1)
    report = {
        "gguf": Path(args.gguf).name,
        "threads": g.n_threads,
        "documents": len(docs),
        "queries": len(qs),
        "doc_cosine": {"min": float(cd.min()), "mean": float(cd.mean()), "max_deviation": float(1 - cd.min())},
        "query_cosine": {"min": float(cq.min()), "mean": float(cq.mean()), "max_deviation": float(1 - cq.min())},
        "gguf_docs_per_s": len(docs) / g_dt,
        "st_docs_per_s": len(docs) / s_dt,
        "gguf_ms_per_query": 1000 * g_qt / len(qs),
        "st_ms_per_query": 1000 * s_qt / len(qs),
        # same-rank check: does each query's top document agree between the two?
        "top1_same": float(np.mean(np.argmax(gq @ gd.T, axis=1) == np.argmax(sq @ sd.T, axis=1))),
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for k, v in report.items():
            print(f"{k:20} {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
