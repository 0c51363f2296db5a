"""Pure helpers for MCP client tools: ``server__tool`` names, OpenAI function schemas made
from MCP tool listings, and tool results as the JSON object the model reads."""

from __future__ import annotations

import re
from typing import Any, Iterable

SEP = "__"  # server__tool (llm/profiles.py keeps such names for every profile: the session decides)
MAX_NAME = 64  # OpenAI's limit on a function name
MAX_DESCRIPTION = 1024
MAX_RESULT_CHARS = 50_000
_BAD = re.compile(r"[^A-Za-z0-9_-]")


def tool_name(server: str, tool: str) -> str:
    """The name the model sees: ``server__tool`` with characters OpenAI refuses made ``_``."""
    return f"{server}{SEP}{_BAD.sub('_', tool)}"[:MAX_NAME]


def function_schema(name: str, description: str | None, input_schema: dict[str, Any] | None, server: str) -> dict[str, Any]:
    """An OpenAI function tool for one MCP tool (its input schema as the parameters)."""
    params = dict(input_schema or {})
    params.setdefault("type", "object")
    if params.get("type") == "object":
        params.setdefault("properties", {})
    text = " ".join((description or "").split()) or f"Tool of the MCP server {server}."
    return {"type": "function", "function": {"name": name, "description": text[:MAX_DESCRIPTION], "parameters": params}}


def _block_text(block: Any) -> str:
    kind = getattr(block, "type", "")
    if kind == "text":
        return str(getattr(block, "text", ""))
    resource = getattr(block, "resource", None)
    if resource is not None and getattr(resource, "text", None) is not None:
        return str(resource.text)
    mime = getattr(block, "mime_type", None) or getattr(resource, "mime_type", None) or ""
    return f"[{kind or 'content'}{(' ' + mime) if mime else ''} not shown]"


def result_payload(server: str, tool: str, blocks: Iterable[Any], structured: Any, is_error: bool) -> dict[str, Any]:
    """A ``CallToolResult`` as the object the model gets: ``text`` (or ``error``), the
    server's structured content when there is no text, and where it came from."""
    text = "\n".join(t for t in (_block_text(b) for b in blocks) if t)
    out: dict[str, Any] = {"server": server, "tool": tool}
    if len(text) > MAX_RESULT_CHARS:
        text, out["truncated"] = text[:MAX_RESULT_CHARS], True
    if is_error:
        out["error"] = text or f"{tool} failed on the MCP server {server}"
        return out
    out["text"] = text
    if structured is not None and not text:
        out["structuredContent"] = structured
    return out


def first_error(exc: BaseException) -> BaseException:
    """The innermost first exception of an exception group (task groups wrap them)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def describe(exc: BaseException) -> str:
    leaf = first_error(exc)
    if isinstance(leaf, FileNotFoundError):
        return f"command not found: {leaf.filename or leaf}"
    text = " ".join(str(leaf).split())
    return f"{type(leaf).__name__}: {text}" if text else type(leaf).__name__
