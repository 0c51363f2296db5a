"""Tool calls a model printed as text instead of sending them as ``tool_calls``.

Small local models (Qwen2.5 on llama.cpp, many Ollama models) answer a tool request with
the call as JSON in the message text: inside ``<tool_call>…</tool_call>`` (or ``<tools>``,
``<function_call>``), in a fenced
```` ```json ```` block, or bare. ``recover_tool_calls(text, tools)`` finds the objects that name
an offered tool and returns them with the arguments checked against the tool's JSON
schema; the rest of the text is returned as prose. Pure functions, no I/O.

Accepted shapes (one object or a list of them, several blocks per message):

    {"name": "memory_search", "arguments": {"query": "logo"}}
    {"tool": "memory_search", "parameters": {...}}         also "args", "input", "params"
    {"function": {"name": "memory_search", "arguments": "{\\"query\\": \\"logo\\"}"}}
    {"name": "memory_search", "query": "logo"}              arguments inline
    {"memory_search": {"query": "logo"}}                    the tool name as the only key
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, Sequence

from openclaw_tui.llm.client import Completion, ToolCall

NAME_KEYS = ("name", "tool", "tool_name", "function", "function_name", "action")
ARG_KEYS = ("arguments", "parameters", "args", "input", "params", "action_input", "tool_input")
TAG_NAMES = r"(?:tool_call|tool_calls|tools?|function_call|functioncall)"
TAG_RE = re.compile(rf"<({TAG_NAMES})>\s*(.*?)\s*(?:</\1>|$)", re.DOTALL)
FENCE_RE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n`]*\n(.*?)(?:```|$)", re.DOTALL)
JSON_FENCE_LANGS = ("", "json", "json5", "jsonc", "tool_call", "tool_code", "javascript", "js")
MAX_DEPTH = 32  # deeper JSON is never a tool call: skipped before decoding (no RecursionError)
_OPEN_RE = re.compile(r"[\[{]")


@dataclass(frozen=True)
class TextToolCall:
    name: str
    arguments: dict[str, Any]
    error: str | None = None  # the arguments break the tool's schema: report it, do not run
    kind: str = "bare"  # tag | fence | bare: how the call was written
    span: tuple[int, int] = (0, 0)  # where its block is in the text

    @property
    def key(self) -> str:
        """Name and arguments compared as parsed JSON (key order and spacing aside)."""
        return f"{self.name} {json.dumps(self.arguments, sort_keys=True, ensure_ascii=False)}"


@dataclass(frozen=True)
class Recovery:
    calls: tuple[TextToolCall, ...]
    text: str  # what is left of the message once the calls are taken out (stripped)


def tool_names(tools: Sequence[dict[str, Any]] | None) -> dict[str, dict[str, Any]]:
    """Offered tools by name -> their JSON schema for the arguments."""
    out: dict[str, dict[str, Any]] = {}
    for t in tools or ():
        fn = t.get("function") if isinstance(t, dict) else None
        if isinstance(fn, dict) and fn.get("name"):
            out[str(fn["name"])] = fn.get("parameters") or {"type": "object"}
    return out


Accept = Callable[[TextToolCall, str], bool]  # (a call found, the whole text) -> run it?


def recover_tool_calls(text: str, tools: Sequence[dict[str, Any]] | None, accept: Accept | None = None) -> Recovery:
    """The offered-tool calls written in ``text`` (possibly none) and the remaining prose.
    ``accept`` may turn a found call down (it stays in the text as prose)."""
    schemas = tool_names(tools)
    if not text or not schemas:
        return Recovery((), (text or "").strip())
    calls: list[TextToolCall] = []
    spans: list[tuple[int, int]] = []
    seen: list[tuple[int, int]] = []
    for kind, start, end, value in _candidates(text):
        if any(s <= start < e for s, e in seen):
            continue
        found = [replace(c, kind=kind, span=(start, end)) for c in (_as_call(v, schemas) for v in _items(value)) if c is not None]
        if found:
            seen.append((start, end))
            kept = [c for c in found if accept is None or accept(c, text)]
            if kept:
                calls.extend(kept)
                spans.append((start, end))
    rest = text
    for s, e in sorted(spans, reverse=True):
        rest = rest[:s] + rest[e:]
    return Recovery(tuple(calls), rest.strip())


def recover_completion(
    done: Completion, tools: Sequence[dict[str, Any]] | None, *, limit: int | None = None, accept: Accept | None = None
) -> Completion:
    """``done`` with the calls it printed as text moved into ``tool_calls`` (the text keeps the
    prose only); unchanged when it has native tool calls or names no offered tool. ``limit``
    keeps the first calls only (a small model may print every tool it was offered); ``accept``
    turns down calls that are not the model's own (session/own_calls.py)."""
    if done.tool_calls or not tools:
        return done
    found = recover_tool_calls(done.text, tools, accept)
    if not found.calls:
        return done
    calls = [
        ToolCall(f"text_call_{uuid.uuid4().hex[:12]}", c.name, json.dumps(c.arguments, ensure_ascii=False), invalid=c.error, recovered=True)
        for c in found.calls[:limit]
    ]
    return Completion(text=found.text, tool_calls=calls, usage=done.usage, finish_reason=done.finish_reason)


def validate_arguments(args: dict[str, Any], schema: dict[str, Any]) -> str | None:
    """None when ``args`` satisfies the JSON schema, else one line naming the first problem."""
    from jsonschema import Draft202012Validator  # noqa: PLC0415 - litellm's dependency; loaded on first use

    errors = sorted(Draft202012Validator(schema).iter_errors(args), key=lambda e: list(e.path))
    if not errors:
        return None
    err = errors[0]
    where = ".".join(str(p) for p in err.path)
    return f"{where + ': ' if where else ''}{err.message}"


# ---------------------------------------------------------------------------- candidates


def _candidates(text: str) -> Iterator[tuple[str, int, int, Any]]:
    """(kind, start, end, value) of JSON values in tags, fences, then bare objects/lists."""
    for m in TAG_RE.finditer(text):
        value = _loads_lenient(m.group(2))
        if value is not None:
            yield "tag", m.start(), m.end(), value
    for m in FENCE_RE.finditer(text):
        if m.group(1).lower() in JSON_FENCE_LANGS:
            value = _loads_lenient(m.group(2))
            if value is not None:
                yield "fence", m.start(), m.end(), value
    for start, end, value in _bare_values(text):
        yield "bare", start, end, value


def _bare_values(text: str) -> Iterator[tuple[int, int, Any]]:
    deep = _too_deep_starts(text)
    i = 0
    while True:
        m = _OPEN_RE.search(text, i)
        if m is None:
            return
        got = None if m.start() in deep else _decode_at(text, m.start())
        if got is None:
            i = m.start() + 1
            continue
        value, end = got
        yield m.start(), end, value
        i = end


def _too_deep_starts(text: str) -> set[int]:
    """Positions of brackets under which brackets nest more than MAX_DEPTH deep (counted
    naively, strings included: generous), in one pass with an explicit stack."""
    stack: list[list[int]] = []  # [position, deepest nesting below it]
    deep: set[int] = set()
    for m in re.finditer(r"[\[\]{}]", text):
        if m.group() in "[{":
            stack.append([m.start(), 0])
            continue
        if stack:
            _close(stack, deep)
    while stack:
        _close(stack, deep)
    return deep


def nests_deeper(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether brackets opened at the start of ``text`` nest more than ``limit`` deep before
    they close (counted naively; stops early either way)."""
    depth = 0
    for m in re.finditer(r"[\[\]{}]", text):
        depth += 1 if m.group() in "[{" else -1
        if depth > limit:
            return True
        if depth <= 0:
            return False
    return False


def _close(stack: list[list[int]], deep: set[int]) -> None:
    pos, below = stack.pop()
    if below >= MAX_DEPTH:
        deep.add(pos)
    if stack:
        stack[-1][1] = max(stack[-1][1], below + 1)


def _decode_at(text: str, start: int) -> tuple[Any, int] | None:
    """The JSON value starting at ``start`` and where it ends, or None (not JSON, or nested
    deeper than MAX_DEPTH: such a value is never a call, and the decoder recurses)."""
    try:
        value, end = json.JSONDecoder().raw_decode(text, start)
    except (ValueError, RecursionError):
        return None
    return (value, end) if _depth(value) <= MAX_DEPTH else None


def _depth(value: Any) -> int:
    """How deep lists and objects nest in ``value`` (iterative)."""
    deepest = 0
    todo: list[tuple[Any, int]] = [(value, 1)]
    while todo:
        v, d = todo.pop()
        if isinstance(v, dict):
            v = list(v.values())
        if isinstance(v, list):
            deepest = max(deepest, d)
            if d <= MAX_DEPTH:
                todo.extend((x, d + 1) for x in v)
    return deepest


def _loads_lenient(raw: str) -> Any:
    """A JSON value from a block: the whole block, else the values it starts with (objects
    separated by commas or newlines come back as a list; trailing prose is ignored)."""
    raw = raw.strip()
    if not raw:
        return None
    deep = _too_deep_starts(raw)
    whole = None if 0 in deep else _decode_at(raw, 0)
    if whole is not None and whole[1] == len(raw):
        return whole[0]
    values: list[Any] = []
    i = 0
    while i < len(raw):
        got = None if i in deep else _decode_at(raw, i)
        if got is None:
            break
        value, i = got
        values.append(value)
        while i < len(raw) and raw[i] in " \t\r\n,":
            i += 1
    if not values:
        return None
    return values[0] if len(values) == 1 else values


def _items(value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    if isinstance(value, dict) and isinstance(value.get("tool_calls"), list):
        calls: list[Any] = value["tool_calls"]
        return calls
    return [value]


# ---------------------------------------------------------------------------- normalising


def _as_call(obj: Any, schemas: dict[str, dict[str, Any]]) -> TextToolCall | None:
    if not isinstance(obj, dict):
        return None
    found = _name_and_args(obj, schemas)
    if found is None:
        return None
    name, args = found
    if isinstance(args, str):
        parsed = _loads_lenient(args) if args.strip() else {}
        if not isinstance(parsed, dict):
            return TextToolCall(name, {}, f"arguments for {name} must be a JSON object, got {args[:80]!r}")
        args = parsed
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return TextToolCall(name, {}, f"arguments for {name} must be a JSON object")
    err = validate_arguments(args, schemas[name])
    return TextToolCall(name, args, f"invalid arguments for {name}: {err}; {_usage(name, schemas[name])}" if err else None)


def _usage(name: str, schema: dict[str, Any]) -> str:
    """How to call ``name`` correctly, for the error a model reads."""
    props = schema.get("properties") or {}
    required = [str(k) for k in schema.get("required") or []]
    example = {k: f"<{(props.get(k) or {}).get('type', 'value')}>" for k in required}
    optional = [k for k in props if k not in required]
    extra = f" (optional: {', '.join(optional)})" if optional else ""
    return f"call it as {json.dumps({'name': name, 'arguments': example})}{extra}"


def _name_and_args(obj: dict[str, Any], schemas: dict[str, dict[str, Any]]) -> tuple[str, Any] | None:
    fn = obj.get("function")
    if isinstance(fn, dict):  # OpenAI's own shape, printed as text
        return _name_and_args(fn, schemas)
    for key in NAME_KEYS:
        name = obj.get(key)
        if isinstance(name, str) and name.strip() in schemas:
            name = name.strip()
            for akey in ARG_KEYS:
                if akey in obj:
                    return name, obj[akey]
            inline = {k: v for k, v in obj.items() if k not in NAME_KEYS and k != "type" and k != "id"}
            return name, inline
    if len(obj) == 1:
        (key, val), = obj.items()
        if key in schemas and (isinstance(val, dict) or val is None):
            return key, val
    return None
