"""Lone UTF-16 surrogates (from a model's stream, a JSON ``\\udc80`` escape or undecodable
command-line bytes) cannot be encoded as UTF-8: they are replaced with U+FFFD wherever text
enters the program, so no later write, search or print fails on them."""

from __future__ import annotations


def clean_surrogates(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (valid pairs are joined)."""
    if not isinstance(text, str):
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
