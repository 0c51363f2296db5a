"""Lone UTF-16 surrogates (from a model's stream, a JSON ``\\udc80`` escape or undecodable
command-line bytes) cannot be encoded as UTF-8: they are replaced with U+FFFD wherever text
enters the program, so no later write, search or print fails on them."""

from __future__ import annotations

from typing import Any


def clean_surrogates(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (valid pairs are joined)."""
    if not isinstance(text, str):
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def clean_strings(value: Any) -> Any:
    """``value`` (a tool result: dicts, lists, strings) with lone surrogates replaced in every
    string, keys included; other values unchanged (iterative: any nesting)."""
    if isinstance(value, str):
        return clean_surrogates(value)
    if not isinstance(value, (dict, list)):
        return value
    root: list[Any] = [None]
    todo: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while todo:
        src, parent, slot = todo.pop()
        if isinstance(src, dict):
            out: Any = {}
            for k, v in src.items():
                key = clean_surrogates(k) if isinstance(k, str) else k
                out[key] = None
                todo.append((v, out, key))
        elif isinstance(src, list):
            out = [None] * len(src)
            for i, v in enumerate(src):
                todo.append((v, out, i))
        else:
            out = clean_surrogates(src) if isinstance(src, str) else src
        parent[slot] = out
    return root[0]
