"""One qmd search: the command line, running it, and its hits mapped to memory search results.

Hits of collections this agent does not serve are dropped; so are the private files (MEMORY.md,
USER.md, the private tier of memory/: by file identity, whichever collection indexed them)
when the session must not see them, and superseded notes' lines in snippets. A hit whose
file changed since qmd indexed it is marked ``stale`` (``qmd/staleness.py``).
Snippets are cut to ``limits.maxSnippetChars`` and all of them together to
``limits.maxInjectedChars``; citations are built as the builtin index builds them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from openclaw_tui.config.loader import AgentSettings
from openclaw_tui.memory import citations
from openclaw_tui.memory.api import SearchHit
from openclaw_tui.memory.template_text import template_only
from openclaw_tui.memory.qmd.collections import CollectionSpec, display_path, resolve_hit_path, source_of
from openclaw_tui.memory.qmd.home import QmdHome, exit_error
from openclaw_tui.memory.qmd.parse import QmdHit, QmdParseError, parse_search_output, trim_blank_edges
from openclaw_tui.memory.qmd.staleness import qmd_hit_stale
from openclaw_tui.memory.qmd.runner import QmdError, first_line, looks_like_flag_rejection
from openclaw_tui.workspace.privacy import hidden_for, is_private_key, private_identities
from openclaw_tui.workspace.session_keys import is_direct_session
from openclaw_tui.workspace.supersede import blank_superseded


def search_args(mode: str, query: str, n: int, collections: Iterable[str]) -> list[str]:
    """``<mode> --json -n N -c <name>… -- <query>`` (only collections qmd knows: ``-c`` with an
    unknown name makes qmd exit 1)."""
    args = [mode, "--json", "-n", str(n)]
    for name in collections:
        args += ["-c", name]
    return [*args, "--", query]


def run_search(home: QmdHome, mode: str, timeout_ms: int, query: str, n: int,
               collections: list[str]) -> tuple[list[QmdHit], str]:
    """qmd's hits and the mode that produced them; raises ``QmdError`` on any failure."""
    res = home.run(search_args(mode, query, n, collections), timeout_ms)
    if res.returncode != 0 and mode != "query" and looks_like_flag_rejection(res.stderr + res.stdout):
        mode = "query"  # this qmd's search/vsearch rejected the flags: retry with query
        res = home.run(search_args(mode, query, n, collections), timeout_ms)
    if res.returncode != 0:
        raise exit_error(res, mode, flags=True)
    try:
        hits = parse_search_output(res.stdout, res.stderr)
    except QmdParseError as exc:
        raise QmdError("garbage", str(exc)) from None
    if not hits and mode != "search" and "need embeddings" in res.stderr.lower():
        raise QmdError("embeddings", f"qmd {mode} has no embeddings yet: {first_line(res.stderr)}")
    return hits, mode


def _hit(spec: CollectionSpec, rel: str, hit: QmdHit, max_snippet: int, cite: bool, budget: int) -> SearchHit:
    path = display_path(spec, rel)
    stale = spec.kind != "sessions" and qmd_hit_stale(Path(spec.root) / rel, hit.docid)
    current = "\n".join(blank_superseded(hit.snippet.split("\n")))  # superseded notes left out
    start, end, text = trim_blank_edges(hit.start_line, hit.end_line, current)
    snippet = text[:max_snippet]
    citation = citations.citation_for(path, start, end) if cite else None
    footer = len(f"\n\nSource: {citation}") if citation is not None else 0  # added by SearchHit.for_model
    return SearchHit(path=path, start_line=start, end_line=end, score=round(hit.score, 6), snippet=snippet[:max(0, budget - footer)],
                     source=source_of(spec), citation=citation, collection=spec.name, docid=hit.docid or None,
                     stale=stale)


def to_hits(settings: AgentSettings, by_name: dict[str, CollectionSpec], hits: list[QmdHit], n: int,
            session_key: str) -> list[SearchHit]:
    """At most ``n`` search hits for qmd's ``hits`` within the injected-characters budget."""
    lim = settings.config.memory.qmd.limits
    cite = citations.citations_enabled(settings.config.memory.citations, is_direct_session(session_key))
    workspace = Path(settings.workspace)
    hide = hidden_for(session_key)
    private = private_identities(workspace) if hide else frozenset()
    budget = lim.max_injected_chars
    results: list[SearchHit] = []
    for hit in hits:
        if len(results) >= n or budget <= 0:
            break
        spec = by_name.get(hit.collection)
        if spec is None:
            continue  # not one of ours
        rel = resolve_hit_path(spec, hit.path)
        if hide and is_private_key(workspace, Path(spec.root) / rel, private):
            continue  # MEMORY.md by identity, whichever collection indexed it
        if template_only(display_path(spec, rel), hit.snippet):
            continue  # the workspace template's own words (memory/template_text.py)
        item = _hit(spec, rel, hit, lim.max_snippet_chars, cite, budget)
        if not item.snippet.strip():
            continue  # only superseded notes (workspace/supersede.py)
        budget -= len(item.cited_snippet)
        results.append(item)
    return results


def keep_min_score(results: list[SearchHit], min_score: float | None, mode: str) -> tuple[list[SearchHit], bool]:
    """``(results at or above min_score, relaxed)``.

    qmd's BM25 score is 0 for a real match when the term sits in half of a small collection's
    documents (no IDF weight): as with the builtin keyword-only floor, keyword hits stand
    rather than an empty answer (``relaxed``)."""
    if min_score is None:
        return results, False
    kept = [r for r in results if r.score >= min_score]
    if not kept and results and mode == "search":
        return results, True
    return kept, False
