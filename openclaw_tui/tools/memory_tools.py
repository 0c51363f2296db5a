"""``memory_search`` and ``memory_get``: OpenAI function-tool schemas and handlers.

Handlers validate the model's arguments and never raise. ``run_memory_search`` returns the
backend's ``SearchResult`` as it is (an argument error is a ``SearchResult.refused``): the
model gets its ``for_model()``, the screen and the CLI read its fields. ``run_memory_get``
returns the JSON object the model gets. ``memory`` is a ``MemoryBackend`` (the builtin
index or QMD), or None when memory is off.
"""

from __future__ import annotations

import logging
from typing import Any

from openclaw_tui.memory.api import MemoryBackend, SearchResult

log = logging.getLogger("openclaw_tui.tools.memory")

MEMORY_SEARCH_SCHEMA: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "memory_search",
        "description": (
            "Search the agent's long-term memory (MEMORY.md and the daily logs in memory/*.md). "
            "Call it before answering questions about prior work, decisions, dates, people, "
            "preferences or todos. Returns ranked snippets with path and line range; use "
            "memory_get to read the lines you need."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to look for, in natural language or keywords."},
                "maxResults": {"type": "integer", "minimum": 1, "maximum": 100, "description": "How many results (default 6)."},
                "minScore": {"type": "number", "minimum": 0, "maximum": 1, "description": "Drop results scoring below this (default 0.35)."},
            },
            "required": ["query"],
            "additionalProperties": False,
        },
    },
}

MEMORY_GET_SCHEMA: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "memory_get",
        "description": (
            "Read lines from a memory file: MEMORY.md, memory/**/*.md or a configured extra path "
            "(use the path from a memory_search result). Without from/lines it returns the whole file."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "Workspace-relative path, e.g. memory/2026-01-31.md"},
                "from": {"type": "integer", "minimum": 1, "description": "First line to read (1-based)."},
                "lines": {"type": "integer", "minimum": 1, "description": "How many lines to read (default: to the end)."},
            },
            "required": ["path"],
            "additionalProperties": False,
        },
    },
}

MEMORY_TOOL_SCHEMAS = [MEMORY_SEARCH_SCHEMA, MEMORY_GET_SCHEMA]


def _int_arg(args: dict[str, Any], name: str, lo: int, hi: int | None = None) -> tuple[int | None, str | None]:
    if name not in args or args[name] is None:
        return None, None
    v = args[name]
    if isinstance(v, bool):
        return None, f"{name} must be an integer"
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        v = int(v.strip())
    if not isinstance(v, int):
        return None, f"{name} must be an integer"
    if v < lo or (hi is not None and v > hi):
        return None, f"{name} must be between {lo} and {hi}" if hi is not None else f"{name} must be >= {lo}"
    return v, None


def run_memory_search(memory: MemoryBackend | None, args: dict[str, Any], *, session_key: str) -> SearchResult:
    """Validate ``{query, maxResults?, minScore?}`` and run the search. Never raises."""
    try:
        if memory is None:
            return SearchResult.refused("memory is off for this session", warning="memory tools are disabled", action="")
        if not isinstance(args, dict):
            return SearchResult.refused("arguments must be a JSON object with a 'query' string")
        query = args.get("query")
        if not isinstance(query, str) or not query.strip():
            return SearchResult.refused("query must be a non-empty string", warning="invalid arguments", action="pass {\"query\": \"...\"}")
        max_results, err = _int_arg(args, "maxResults", 1, 100)
        if err:
            return SearchResult.refused(err, warning="invalid arguments", action="")
        min_score = args.get("minScore")
        if min_score is not None:
            if isinstance(min_score, bool) or not isinstance(min_score, (int, float)) or not 0 <= float(min_score) <= 1:
                return SearchResult.refused("minScore must be a number between 0 and 1", warning="invalid arguments", action="")
            min_score = float(min_score)
        return memory.search(query, max_results=max_results, min_score=min_score, session_key=session_key)
    except Exception as exc:  # noqa: BLE001
        log.warning("memory_search failed: %s", exc)
        return SearchResult.refused(f"memory_search failed: {type(exc).__name__}: {exc}", warning="memory search is unavailable",
                                    action="retry later")


def run_memory_get(memory: MemoryBackend | None, args: dict[str, Any], *, session_key: str | None = None) -> dict[str, Any]:
    """Validate ``{path, from?, lines?}`` and read. Never raises."""
    path = args.get("path") if isinstance(args, dict) else None
    shown = path if isinstance(path, str) else ""
    try:
        if memory is None:
            return {"path": shown, "text": "", "disabled": True, "error": "memory is off for this session"}
        if not isinstance(args, dict):
            return {"path": "", "text": "", "disabled": True, "error": "arguments must be a JSON object with a 'path' string"}
        if not isinstance(path, str) or not path.strip():
            return {"path": shown, "text": "", "disabled": True, "error": "path must be a non-empty string"}
        from_line, err = _int_arg(args, "from", 1)
        if err:
            return {"path": shown, "text": "", "error": err}
        lines, err = _int_arg(args, "lines", 1)
        if err:
            return {"path": shown, "text": "", "error": err}
        return dict(memory.get(path, from_line=from_line, lines=lines, session_key=session_key))
    except Exception as exc:  # noqa: BLE001
        log.warning("memory_get failed: %s", exc)
        return {"path": shown, "text": "", "error": f"memory_get failed: {type(exc).__name__}: {exc}"}
