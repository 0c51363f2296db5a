"""The memory contract: what a memory backend offers, and the values it answers with.

``MemoryBackend`` is the one interface the tools, the CLI, the session engine and the TUI
use; the builtin index (``memory.manager.MemoryManager``) and QMD (``memory.qmd.QmdBackend``)
both implement it. It is synchronous: callers on an event loop run it in a thread.

The results are frozen dataclasses and travel as they are from the backend through the tools,
the events and the engine to the TUI's side panel and the CLI. ``to_dict()`` gives the whole
JSON object (``memory search --json``, ``chat --json``'s events; ``None`` fields that JSON omits
stay omitted); a search's ``for_model()`` the object the model gets: the only place a hit's
snippet gets its ``Source:`` line and screen-only fields (``searchMs``) are left out. Each
result is also a read-only ``Mapping`` over ``to_dict()``, so code that reads its keys
(``result["results"]``, ``result.get("error")``) sees exactly the JSON, and
``dict(result) == result.to_dict()``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Protocol, runtime_checkable

#: ``progress(done, total, path)`` during a sync
ProgressFn = Callable[[int, int, str], None]

Json = dict[str, Any]


def _put(out: Json, key: str, value: Any, *, keep_false: bool = False) -> None:
    """Set ``out[key]`` unless ``value`` is None (or False, unless ``keep_false``)."""
    if value is None or (value is False and not keep_false):
        return
    out[key] = list(value) if isinstance(value, tuple) else value


def _put_fields(out: Json, obj: Any, **keys: str) -> None:
    """``_put`` each JSON key from the attribute named beside it, in the order given."""
    for key, attr in keys.items():
        _put(out, key, getattr(obj, attr))


class _JsonView(Mapping[str, Any]):
    """A read-only ``Mapping`` over ``to_dict()`` (computed once: the values are frozen)."""

    def to_dict(self) -> Json:  # pragma: no cover - every result overrides it
        raise NotImplementedError

    @cached_property
    def _json(self) -> Json:
        return self.to_dict()

    def __getitem__(self, key: str) -> Any:
        return self._json[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._json)

    def __len__(self) -> int:
        return len(self._json)


def line_citation(path: str, start: int | None, end: int | None) -> str:
    """``path#Lstart-Lend`` (``path#Lstart`` for one line, ``path`` without lines)."""
    if start is None:
        return path
    if end is None or end == start:
        return f"{path}#L{start}"
    return f"{path}#L{start}-L{end}"


@dataclass(frozen=True, eq=False)
class SearchHit(_JsonView):
    """One ranked snippet: the lines' text (``snippet``) and, when citations are on, the
    ``citation`` naming the lines it shows; the model gets both as one text (``for_model``)."""

    path: str
    start_line: int
    end_line: int
    score: float
    snippet: str = ""
    #: the index source the chunk came from ("memory", "sessions", or qmd's)
    source: str = "memory"
    citation: str | None = None
    #: QMD only: the collection that indexed the file, and qmd's document id
    collection: str | None = None
    docid: str | None = None

    @property
    def cited(self) -> str:
        """The citation shown for this hit: its own, else its path and lines."""
        return self.citation or line_citation(self.path, self.start_line, self.end_line)

    @property
    def cited_snippet(self) -> str:
        """The snippet as the model reads it: ending with ``Source: <citation>`` when cited."""
        return f"{self.snippet}\n\nSource: {self.citation}" if self.citation else self.snippet

    def for_model(self) -> Json:
        out: Json = {"path": self.path, "startLine": self.start_line, "endLine": self.end_line,
                     "score": self.score, "snippet": self.cited_snippet, "source": self.source}
        _put_fields(out, self, collection="collection", docid="docid", citation="citation")
        return out

    def to_dict(self) -> Json:
        return self.for_model()  # a hit has no screen-only field


@dataclass(frozen=True, eq=False)
class SearchResult(_JsonView):
    """A search's answer. ``disabled`` with ``error``/``warning``/``action`` when memory
    search could not run; ``denied`` with ``scope`` when QMD's scope rules refused it.
    ``backend`` is "" for an answer no backend gave (the tool's arguments were refused,
    memory is off): its JSON names no backend, provider or model."""

    backend: str
    results: tuple[SearchHit, ...] = ()
    provider: str | None = None
    model: str | None = None
    #: the embedding provider's fallback, or QMD's ``{"from": "qmd", "reason"}``
    fallback: Mapping[str, Any] | None = None
    #: builtin only: "hybrid", "keyword", "vector" or "none" (empty query)
    mode: str | None = None
    search_ms: float | None = None
    disabled: bool = False
    error: str | None = None
    warning: str | None = None
    action: str | None = None
    relaxed_min_score: bool = False
    denied: bool = False
    scope: Mapping[str, Any] | None = None

    @classmethod
    def refused(cls, error: str, *, warning: str | None = None, action: str | None = None) -> SearchResult:
        """A search that did not run (bad arguments, memory off), made outside any backend."""
        return cls(backend="", disabled=True, error=error, warning=warning, action=action)

    def for_model(self) -> Json:
        """What the model gets: the hits' snippets with their ``Source:`` lines, no timing
        (it would change the context's tokens from run to run)."""
        return self._json_for(screen=False)

    def to_dict(self) -> Json:
        return self._json_for(screen=True)

    def _json_for(self, *, screen: bool) -> Json:
        out: Json = {"results": [h.for_model() for h in self.results]}
        _put_fields(out, self, disabled="disabled", error="error", warning="warning", action="action", denied="denied")
        _put(out, "scope", dict(self.scope) if self.scope is not None else None)
        if self.backend:
            out.update(provider=self.provider, model=self.model,
                       fallback=dict(self.fallback) if self.fallback is not None else None, backend=self.backend)
        _put(out, "mode", self.mode)
        if screen:
            _put(out, "searchMs", self.search_ms)
        _put(out, "relaxedMinScore", self.relaxed_min_score)
        return out


@dataclass(frozen=True, eq=False)
class ReadResult(_JsonView):
    """``memory_get``'s answer: the text read, or an ``error`` (``disabled`` when refused)."""

    path: str
    text: str = ""
    #: the range actually read, only when a range was asked for
    from_line: int | None = None
    lines: int | None = None
    truncated: bool = False
    note: str | None = None
    disabled: bool = False
    error: str | None = None

    def to_dict(self) -> Json:
        out: Json = {"path": self.path, "text": self.text}
        _put_fields(out, self, **{"from": "from_line"}, lines="lines", truncated="truncated", note="note",
                    disabled="disabled", error="error")
        return out


@dataclass(frozen=True, eq=False)
class SyncReport(_JsonView):
    """What a sync did. Counts a backend does not know are None (left out of the JSON);
    ``details`` holds the backend's own figures (embedding and cache counts, qmd's
    ``updated``/``embedded``/``collections``), emitted after the common ones."""

    ok: bool = True
    reason: str = ""
    errors: tuple[str, ...] | None = ()
    warnings: tuple[str, ...] | None = None
    full_rebuild: bool | None = None
    files: int | None = None
    chunks: int | None = None
    files_indexed: int | None = None
    files_unchanged: int | None = None
    files_removed: int | None = None
    files_skipped: int | None = None
    #: nothing was written: the index is the one from before
    aborted: bool = False
    duration_ms: float | None = None
    #: set by backends whose reports say which backend made them (QMD)
    backend: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> Json:
        out: Json = {}
        _put(out, "backend", self.backend)
        _put(out, "ok", self.ok, keep_false=True)
        _put(out, "fullRebuild", self.full_rebuild, keep_false=True)
        for key, value in (("files", self.files), ("chunks", self.chunks), ("filesIndexed", self.files_indexed),
                           ("filesUnchanged", self.files_unchanged), ("filesRemoved", self.files_removed),
                           ("filesSkipped", self.files_skipped), ("errors", self.errors),
                           ("warnings", self.warnings)):
            _put(out, key, value)
        out.update(self.details)
        _put(out, "aborted", self.aborted)
        out["reason"] = self.reason
        _put(out, "durationMs", self.duration_ms)
        return out


@dataclass(frozen=True, eq=False)
class MemoryStatus(_JsonView):
    """``memory status``: the fields every backend reports, then its own (``details``)."""

    backend: str
    agent_id: str
    workspace: str
    workspace_exists: bool
    index_path: str
    provider: str | None
    model: str | None
    search_mode: str
    files: int | None
    chunks: int | None
    dirty: bool
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> Json:
        out: Json = {"backend": self.backend, "agentId": self.agent_id, "workspace": self.workspace,
                     "workspaceExists": self.workspace_exists, "indexPath": self.index_path,
                     "provider": self.provider, "model": self.model, "searchMode": self.search_mode,
                     "files": self.files, "chunks": self.chunks, "dirty": self.dirty}
        out.update(self.details)
        return out


#: the reason of the sync a forget asks for: the builtin index also purges what the deleted rows
#: left in its file (``builtin/purge.py``)
SYNC_FORGET = "forget"


@runtime_checkable
class MemoryBackend(Protocol):
    """A memory backend for one agent. ``search`` and ``get`` never raise: failures come
    back as results with ``error`` set; ``sync`` reports failures in its report."""

    #: "builtin" or "qmd"
    name: str

    def search(self, query: str, *, max_results: int | None = None, min_score: float | None = None,
               session_key: str | None = None) -> SearchResult: ...

    def get(self, path: str, from_line: int | None = None, lines: int | None = None,
            *, session_key: str | None = None) -> ReadResult: ...

    def status(self) -> MemoryStatus: ...

    def sync(self, *, force: bool = False, reason: str = "", progress: ProgressFn | None = None) -> SyncReport: ...

    def is_dirty(self) -> bool:
        """Whether a sync would change the index (cheap enough to ask before a search)."""
        ...

    def start_watcher(self) -> None:
        """Keep the index fresh in the background (file watcher, interval timer)."""
        ...

    def warm_up(self) -> None:
        """Load what the first search would wait for (an embedding model); never raises."""
        ...

    def stop_watcher(self) -> None: ...

    def close(self) -> None: ...
