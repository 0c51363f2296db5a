"""The builtin index's search, composed from the pure steps of ``query``, ``scoring`` and ``ranking``.

retrieve (FTS5 BM25 hits, the query's vector hits) → score (keyword-only, vector or
hybrid) → rank (privacy, temporal decay, sort, MMR, min score, each retriever's best) →
hits (query-focused snippets, citations). A provider that fails answers keyword-only
when it is only down and keyword hits exist, else the search comes back ``disabled``.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from openclaw_tui.config import AgentSettings
from openclaw_tui.events import Event
from openclaw_tui.memory import citations
from openclaw_tui.memory.api import SearchHit, SearchResult
from openclaw_tui.memory.template_text import template_only
from openclaw_tui.memory.builtin import query as qry
from openclaw_tui.memory.builtin import blas_threads, note_hits, ranking, scoring, snippet_windows, snippets
from openclaw_tui.memory.builtin import vector_matrix as vmx
from openclaw_tui.memory.builtin.embedding_ops import error_message, provider_error_event, provider_key, window_tokens
from openclaw_tui.memory.builtin.chunk_files import ChunkRow
from openclaw_tui.memory.builtin.row_scan import RowScan
from openclaw_tui.memory.builtin.staleness import stale_keys
from openclaw_tui.memory.builtin.store import Store, window_cosines
from openclaw_tui.memory.transcript_scope import drop_foreign_transcripts
from openclaw_tui.memory.triggers import apply_importance
from openclaw_tui.unicode_clean import clean_surrogates
from openclaw_tui.workspace.privacy import drop_private, hidden_for
from openclaw_tui.workspace.session_keys import is_direct_session

if TYPE_CHECKING:
    from openclaw_tui.memory.embeddings.base import EmbeddingProvider


@dataclass(frozen=True)
class SearchRequest:
    """One search, normalised: the cleaned query, result count, score floor and session."""

    query: str
    max_results: int
    min_score: float
    session_key: str
    #: FTS join mode: "or", "and" (OR of keywords when AND finds nothing) or "and-strict"
    fts_mode: str
    now: Callable[[], datetime]


@dataclass
class Retrieved:
    """What the index returned for a query, before scoring."""

    text: dict[int, float]
    vector: dict[int, float] = field(default_factory=dict)
    qvec: np.ndarray | None = None
    mode: str = "keyword"
    warning: str | None = None


def text_hits(store: Store, q: str, terms: list[str], mode: str, limit: int) -> dict[int, float]:
    """``{chunk id: BM25 score}`` of the ``limit`` best FTS hits of ``q`` in ``mode``.

    In OR mode the terms found in more than half the chunks are left out first: BM25
    weighs them ~0, yet FTS5 would score every chunk holding one (most of the cost at
    100k chunks). When the rarer terms alone find ``limit`` chunks, those are the full
    query's best ``limit`` too; when they find fewer, the full query runs."""
    if store.fts.kind == "trigram":  # memorySearch.store.fts.tokenizer (fts_index.py)
        return {cid: scoring.bm25_rank_to_score(rank) for cid, rank in store.fts.trigram_search(q, limit)}
    skip = store.common_terms(terms) if mode == "or" else set()
    hits: list[tuple[int, float]] = []
    if mode == "or" and terms:  # the same rows, proven from fewer (bm25_topk.py)
        hits = store.fts.top_k(qry.fts_or_terms(terms, skip), limit) or []
    if not hits and skip and not set(terms) <= skip:
        hits = store.fts_search(qry.build_fts_query(q, mode, skip), limit)
    if len(hits) < limit:
        hits = store.fts_search(qry.build_fts_query(q, mode), limit)
    return {cid: scoring.bm25_rank_to_score(rank) for cid, rank in hits}


@dataclass(frozen=True)
class VectorSide:
    """What the worker thread found: the query vector (empty when the provider failed, with
    its ``error``) and the nearest chunks (None when the stored vectors are not comparable)."""

    qvec: np.ndarray
    error: Exception | None = None
    hits: list[tuple[int, float]] | None = None


class ScanSlot:
    """Where the worker puts its vector scan for the caller's thread to share (None until
    the query is embedded and the scan started)."""

    scan: RowScan | None = None


_WORKER: list[ThreadPoolExecutor] = []
_WORKER_LOCK = threading.Lock()


def _worker() -> ThreadPoolExecutor:
    """The threads (two per process) that run the vector side of searches, made on first use;
    their BLAS calls use one core, FTS5 the other (``blas_threads``)."""
    with _WORKER_LOCK:
        if not _WORKER:
            _WORKER.append(ThreadPoolExecutor(max_workers=2, thread_name_prefix="memory-vector",
                                              initializer=blas_threads.limit_to_one))
        return _WORKER[0]


class Searcher:
    """Searches one agent's index with its provider and ``memorySearch.query`` settings."""

    def __init__(self, settings: AgentSettings, provider: EmbeddingProvider | None, *, name: str, emit: Callable[[Event], None],
                 on_stale_vectors: Callable[[], None], fallback: Callable[[], dict | None]) -> None:
        self.settings = settings
        self.ms = settings.memory_search
        self.provider = provider
        self.name = name
        self._emit = emit
        #: the stored vectors come from another provider or model: rebuild (in the background)
        self._on_stale_vectors = on_stale_vectors
        self._fallback = fallback

    def request(self, query: Any, max_results: int | None, min_score: float | None, session_key: str | None,
                *, fts_mode: str, now: Callable[[], datetime]) -> SearchRequest:
        qc = self.ms.query
        max_r = int(max_results) if max_results else qc.max_results
        return SearchRequest(
            query=clean_surrogates(query).strip() if isinstance(query, str) else "",
            max_results=max(1, min(max_r, 100)),
            min_score=qc.min_score if min_score is None else float(min_score),
            session_key=session_key if session_key is not None else self.settings.session_key,
            fts_mode=fts_mode, now=now,
        )

    def _result(self, started: float, **fields: Any) -> SearchResult:
        pid, model, _ = provider_key(self.provider)
        return SearchResult(backend=self.name, provider=pid, model=model, fallback=self._fallback(),
                            search_ms=round((time.perf_counter() - started) * 1000, 1), **fields)

    def disabled(self, error: str, *, warning: str = "", action: str = "", started: float | None = None) -> SearchResult:
        pid, model, _ = provider_key(self.provider)
        return SearchResult(
            backend=self.name, provider=pid, model=model, fallback=self._fallback(), disabled=True, error=error,
            warning=warning or "memory search is unavailable right now",
            action=action or "retry later, or set memorySearch.provider to \"none\" for keyword-only search",
            search_ms=round((time.perf_counter() - started) * 1000, 1) if started is not None else None,
        )

    def run(self, store: Store, req: SearchRequest, started: float, *, keywords_only: bool = False) -> SearchResult:
        """``keywords_only``: the vectors are still being built, answer from the text index now."""
        if not req.query:
            return self._result(started, mode="none")
        terms, dates = qry.query_terms(req.query), qry.query_dates(req.query)
        got = self._retrieve(store, req, terms, req.max_results * self.ms.query.hybrid.candidate_multiplier, started,
                             keywords_only=keywords_only)
        if isinstance(got, SearchResult):
            return got
        rows = {cid: r for cid, r in store.chunk_rows(set(got.text) | set(got.vector)).items()
                if not template_only(r.path, r.text)}  # the template's own words are no result
        cands, text_floor = self._score(store, got, rows, terms, dates)
        picked, relaxed = self._rank(cands, req, text_floor, got.mode)
        weights = snippets.idf_weights(*store.doc_frequencies(terms))
        stems = store.index_tokens if snippets.STEMMED_LINES else None
        line_cos = self._line_cosines(store, got.qvec)
        return self._result(started, results=self._hits(picked, req.session_key, terms, weights, stems, line_cos,
                                                                    store=store),
                            mode=got.mode,
                            warning=got.warning, relaxed_min_score=relaxed)

    # ------------------------------------------------------------------ retrieve

    def _retrieve(self, store: Store, req: SearchRequest, terms: list[str], n: int,
                  started: float, keywords_only: bool = False) -> Retrieved | SearchResult:
        hq = self.ms.query.hybrid
        use_text = store.fts_available and (self.provider is None or hq.enabled or keywords_only)
        got = Retrieved(text={})
        # the query's embedding and vector search run on a worker thread while FTS5 answers
        # here (numpy and SQLite release the GIL); what they found is judged below, in order
        side: Future[VectorSide] | None = None
        dims: int | None = None
        slot = ScanSlot()
        if self.provider is not None and not keywords_only:
            # what the worker needs of the store is read here, so it never waits for the
            # store's lock (held through each FTS5 statement below)
            dims = store.vec_dims()
            comparable = dims is not None and self._fingerprint_matches(store)
            matrix = store.resident_matrix() if comparable else None
            side = _worker().submit(self._vector_side, store, req.query, n, dims, matrix, slot)
        if use_text:
            mode = "and" if req.fts_mode == "and-strict" else req.fts_mode
            got.text = text_hits(store, req.query, terms, mode, n)
            if not got.text and req.fts_mode == "and":
                got.text = text_hits(store, req.query, terms, "or", n)
        if self.provider is None:
            return got
        if keywords_only:
            got.warning = "the memory index is still being embedded: keyword results for now"
            return got
        assert side is not None
        scan = slot.scan
        if scan is not None and not side.done():
            scan.help()  # the rest of the vector scan on this thread too, rather than wait
        found = side.result()
        qv = self._embed_query(found, got, started)
        if isinstance(qv, SearchResult):
            return qv
        if qv.size and float(np.linalg.norm(qv)) > 0 and dims is not None:
            if found.hits is not None:
                got.qvec = qv
                got.vector = dict(found.hits)
                got.mode = "hybrid" if use_text else "vector"
            else:
                # the stored vectors come from another provider/model (e.g. a fallback took
                # over): answer keyword-only now and rebuild in the background
                self._on_stale_vectors()
                if not use_text and store.fts_available:
                    got.text = text_hits(store, req.query, terms, "or", n)
        return got

    def _vector_side(self, store: Store, q: str, n: int, dims: int | None,
                     matrix: vmx.VectorMatrix | None, slot: ScanSlot) -> VectorSide:
        """On the worker: the query vector (or the provider's error) and, when the stored
        vectors are comparable with it (``matrix`` given: same provider and model; ``dims``
        its size), its ``n`` nearest chunks. No SQL here: the caller read ``dims`` and
        ``matrix``. The scan is put in ``slot``, where the caller takes blocks of it once
        its keyword search is done."""
        assert self.provider is not None  # asked only when there is one
        try:
            qv = np.asarray(self.provider.embed_query(q), dtype=np.float32)
        except Exception as exc:  # judged by _embed_query on the caller's thread
            return VectorSide(np.zeros(0, dtype=np.float32), exc)
        if not (qv.size and float(np.linalg.norm(qv)) > 0 and dims is not None):
            return VectorSide(qv)
        if matrix is None or dims != int(qv.shape[-1]):
            return VectorSide(qv)
        slot.scan = matrix.scan(qv)
        return VectorSide(qv, hits=store.vectors.search_matrix(matrix, qv, n, scan=slot.scan))

    def _embed_query(self, found: VectorSide, got: Retrieved, started: float) -> np.ndarray | SearchResult:
        """The query vector; a failed provider gives an empty one (keyword-only, with a
        warning) when it is only down and keyword hits exist, else a disabled result."""
        exc = found.error
        if exc is None:
            return found.qvec
        msg = error_message(exc)
        self._emit(provider_error_event(exc, provider_key(self.provider)[0], msg))
        if not (bool(getattr(exc, "retryable", False)) and got.text):
            return self.disabled(
                msg, warning="memory search unavailable: the embedding provider failed",
                action=getattr(exc, "action", "") or "check the embedding provider, or set memorySearch.provider to \"none\" for keyword-only search",
                started=started,
            )
        got.warning = f"embedding provider unavailable ({msg}); keyword-only results"
        return np.zeros(0, dtype=np.float32)

    def _fingerprint_matches(self, store: Store) -> bool:
        """True when the index's vectors were made by the current provider and model (their
        size is compared with the query vector's on the worker)."""
        stored = store.get_meta_json("fingerprint") or {}
        pid, model, key = provider_key(self.provider)
        return stored.get("provider") == pid and stored.get("model") == model and stored.get("endpointKey") == key

    # ------------------------------------------------------------------ score and rank

    def _score(self, store: Store, got: Retrieved, rows: dict[int, ChunkRow], terms: list[str],
               dates: list[Any]) -> tuple[list[scoring.Candidate], float]:
        """Scored candidates and the text weight that relaxes the score floor."""
        hq = self.ms.query.hybrid
        mtimes = store.file_mtimes(r.path for r in rows.values()) if hq.temporal_decay.enabled else {}

        def cand(cid: int, vector: float | None, text: float | None) -> scoring.Candidate:
            r = rows[cid]
            return scoring.Candidate(cid, r.path, r.source, r.start_line, r.end_line, r.text, mtime=mtimes.get(r.path),
                                vector_score=vector, text_score=text)

        def keyword(c: scoring.Candidate, t: float) -> float:
            return scoring.keyword_only_score(t, scoring.coverage(terms, c.text), scoring.path_match(terms, c.path),
                                         scoring.date_path_match(dates, c.path))

        vw, tw = scoring.normalized_weights(hq.vector_weight, hq.text_weight)
        if got.mode == "keyword":
            cands = [cand(cid, None, t) for cid, t in got.text.items() if cid in rows]
            for c in cands:
                c.score = keyword(c, c.text_score or 0.0)
            return cands, tw  # relaxed floor min(minScore, textWeight), as in hybrid mode
        if got.mode == "vector":
            vcs = [cand(cid, v, None) for cid, v in got.vector.items() if cid in rows]
            tcs = [cand(cid, None, t) for cid, t in got.text.items() if cid in rows]
            return scoring.merge_hybrid(vcs, tcs, 1.0, 0.0), 0.0
        # ours: keyword-only's score (coverage/path/date boosts) plus semantic evidence; keyword
        # hits the KNN did not reach get their exact best-window cosine
        if got.qvec is not None:
            extra = [cid for cid in got.text if cid not in got.vector and cid in rows]
            got.vector.update(store.vector_scores(got.qvec, extra))
        cands = []
        for cid in set(got.vector) | set(got.text):
            if cid not in rows:
                continue
            c = cand(cid, got.vector.get(cid), got.text.get(cid))
            kw = keyword(c, c.text_score) if c.text_score is not None else None
            c.score = scoring.hybrid_keyword_score(kw, c.vector_score, vw)
            cands.append(c)
        return cands, tw

    def _rank(self, cands: list[scoring.Candidate], req: SearchRequest, text_floor: float,
              mode: str) -> tuple[list[scoring.Candidate], bool]:
        """The ``max_results`` best candidates (and whether the score floor was relaxed)."""
        hq = self.ms.query.hybrid
        if hidden_for(req.session_key):  # MEMORY.md by file identity, under any key (extraPaths, "..")
            cands = drop_private(cands, self.settings.workspace)
            cands = drop_foreign_transcripts(cands, self.settings.sessions_dir, req.session_key)
        if hq.temporal_decay.enabled:
            scoring.apply_decay(cands, hq.temporal_decay.half_life_days, req.now())
        apply_importance(cands, self.settings.workspace)  # <!-- importance: N --> (memory/triggers.py)
        cands = ranking.sort_candidates(cands)
        if hq.mmr.enabled:
            cands = ranking.mmr_order(cands, hq.mmr.lambda_)
        ranked, relaxed = ranking.apply_min_score(cands, req.min_score, text_floor, len(cands))
        if mode == "hybrid":
            ranked = ranking.keep_each_best(ranked, req.max_results)
        if ranking.MERGE_ADJACENT:
            return ranking.merge_adjacent(ranked, req.max_results), relaxed
        return ranked[: req.max_results], relaxed

    def _line_cosines(self, store: Store, qvec: np.ndarray | None) -> Callable[[scoring.Candidate], list[float] | None]:
        """Per result, the query's cosine with each line's embedded sub-window (ours: vector
        evidence for the snippet's lines; None without a query vector)."""
        window = window_tokens(self.provider)

        def of(c: scoring.Candidate) -> list[float] | None:
            if qvec is None or not window or len(c.text.strip("\n")) <= ranking.SNIPPET_MAX_CHARS:
                return None
            cos = window_cosines(store, qvec, c.id)
            return snippet_windows.chunk_line_cosines(c.text, cos.tolist(), window) if cos is not None else None

        return of

    def _hits(self, picked: list[scoring.Candidate], session_key: str, terms: list[str], weights: dict[str, float],
              stems: Callable[[str], list[str]] | None,
              line_cos: Callable[[scoring.Candidate], list[float] | None] | None = None,
              store: Store | None = None) -> tuple[SearchHit, ...]:
        cite = citations.citations_enabled(self.settings.config.memory.citations, is_direct_session(session_key))
        stale = self._stale(store, {c.path for c in picked if c.source == "memory"})
        hits = []
        for c in picked:
            notes = note_hits.note_lines(c.text.split("\n"), terms, weights, stems) \
                if note_hits.splits(c.path, c.text, c.start_line, c.end_line) else []
            for i in notes:  # a daily log's notes: each its own hit, citing its own line
                line = c.start_line + i
                hits.append(SearchHit(path=c.path, start_line=line, end_line=line, score=round(float(c.score), 4),
                                      snippet=c.text.split("\n")[i].strip(), source=c.source,
                                      citation=citations.citation_for(c.path, line, line) if cite else None))
            if notes:
                continue
            shown = snippet_windows.windowed(c.text, c.start_line, c.end_line, terms, weights, stems=stems,
                                             cosines=line_cos(c) if line_cos is not None else None)
            snippet = shown.text
            citation = citations.cite(c.path, shown.ranges) if cite else None
            hits.append(SearchHit(path=c.path, start_line=c.start_line, end_line=c.end_line,
                                  score=round(float(c.score), 4),
                                  snippet=snippet,
                                  source=c.source, citation=citation, stale=c.path in stale))
        return tuple(hits)

    def _stale(self, store: Store | None, keys: set[str]) -> set[str]:
        """The hit files changed since indexing (staleness.py); none when that cannot be read."""
        if not keys or store is None:
            return set()
        try:
            rows = store.files("memory", keys)
        except Exception:  # noqa: BLE001 - a hit is not stale when the index cannot say
            return set()
        return stale_keys(self.settings.workspace, rows, keys)
