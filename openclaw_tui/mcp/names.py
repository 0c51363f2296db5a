"""Pure helpers for MCP client tools: ``server__tool`` names, OpenAI function schemas made
from MCP tool listings (within a budget per server and in all), and tool results as the
JSON object the model reads (within one size cap, whatever the server sent)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

SEP = "__"  # server__tool (llm/profiles.py keeps such names for every profile: the session decides)
MAX_NAME = 64  # OpenAI's limit on a function name
MAX_DESCRIPTION = 1024
#: the most a tool result may hold as the JSON the model and the transcript get (text,
#: structured content, resources, error: all of it, keys and escapes included)
MAX_RESULT_CHARS = 50_000
#: tool schemas (their JSON) one server may put into every request, and all servers together
MAX_SERVER_SCHEMA_CHARS = 40_000
MAX_TOTAL_SCHEMA_CHARS = 100_000
#: MCP tools offered at most (OpenAI takes 128 tools in a request; ours come first)
MAX_MCP_TOOLS = 100
MAX_TOOL_LABEL = 200  # a server's tool name as the result names it
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


def json_chars(value: Any) -> int:
    """Characters of ``value`` as a tool message carries it (``session/compaction.tool_result_content``)."""
    return len(json.dumps(value, ensure_ascii=False, default=str))


def _char_cost(ch: str) -> int:
    """Characters one character takes inside a JSON string (``ensure_ascii=False``)."""
    if ch in '"\\\n\r\t\b\f':
        return 2
    return 6 if ch < " " else 1


def prefix_within(text: str, budget: int) -> str:
    """The longest start of ``text`` whose JSON string body is at most ``budget`` characters."""
    if budget <= 0:
        return ""
    head = text[:budget]  # every character costs at least one
    if json_chars(head) - 2 <= budget:
        return head
    used = 0
    for i, ch in enumerate(head):
        used += _char_cost(ch)
        if used > budget:
            return head[:i]
    return head


def result_payload(server: str, tool: str, blocks: Iterable[Any], structured: Any, is_error: bool,
                   cap: int = MAX_RESULT_CHARS) -> dict[str, Any]:
    """A ``CallToolResult`` as the object the model gets: ``text`` (or ``error``), the
    server's structured content when there is no text, and where it came from. The whole
    object, as JSON, is at most ``cap`` characters: what is over is cut (``truncated``), and
    structured content too large to send whole is sent as the start of its JSON text."""
    text = "\n".join(t for t in (_block_text(b) for b in blocks) if t)
    out: dict[str, Any] = {"server": server[:MAX_TOOL_LABEL], "tool": tool[:MAX_TOOL_LABEL]}
    key = "error" if is_error else "text"
    if is_error:
        text = text or f"{tool[:MAX_TOOL_LABEL]} failed on the MCP server {server[:MAX_TOOL_LABEL]}"
    elif structured is not None and not text:
        whole = {**out, "text": "", "structuredContent": structured}
        if json_chars(whole) <= cap:
            return whole
        text = json.dumps(structured, ensure_ascii=False, default=str)
    budget = cap - json_chars({**out, key: "", "truncated": True})
    fitted = prefix_within(text, budget)
    out[key] = fitted
    if len(fitted) < len(text):
        out["truncated"] = True
    return out


@dataclass
class SchemaBudget:
    """Which MCP tool schemas fit into a request: at most ``per_server`` characters of JSON
    from one server, ``total`` from all of them and ``tools`` tools; a tool that does not fit
    is dropped (listed in ``dropped`` by server) and the next one is tried."""

    per_server: int = MAX_SERVER_SCHEMA_CHARS
    total: int = MAX_TOTAL_SCHEMA_CHARS
    tools: int = MAX_MCP_TOOLS
    used: int = 0
    kept: int = 0
    by_server: dict[str, int] = field(default_factory=dict)
    dropped: dict[str, list[str]] = field(default_factory=dict)

    def admit(self, server: str, tool: str, schema: dict[str, Any]) -> bool:
        size = len(json.dumps(schema)) + 2  # and the ", " that joins it to the next
        mine = self.by_server.get(server, 0)
        if self.kept >= self.tools or mine + size > self.per_server or self.used + size > self.total:
            self.dropped.setdefault(server, []).append(tool)
            return False
        self.by_server[server] = mine + size
        self.used += size
        self.kept += 1
        return True

    def why(self, server: str) -> str:
        """One line naming the tools of ``server`` that were not offered ("" when none)."""
        names = self.dropped.get(server, [])
        if not names:
            return ""
        shown = ", ".join(names[:12]) + (f" and {len(names) - 12} more" if len(names) > 12 else "")
        return (f"{len(names)} tool{'s' if len(names) != 1 else ''} not offered (tool schemas are capped at "
                f"{self.per_server:,} characters a server, {self.total:,} in all, {self.tools} tools): {shown}")


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
