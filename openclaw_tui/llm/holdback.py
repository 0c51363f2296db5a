"""Hold back streamed text that may be a tool call printed as text.

A model that prints its tool call as JSON streams it like an answer. ``StreamHoldback``
sits between the stream and the screen: text passes through until something that could
start a call shows up (``<tool_call>``, a fence, ``{"``, ``[{``); from there it is held until
it is clearly prose (a fence of another language, JSON that names no offered tool, a brace
that cannot open an object) or the stream ends. At the end the caller either drops the held
text (it was a call) or ``release()``-s it.

With ``lead_in`` (the local profile) the reply's first paragraph is held too until it is
complete: small models narrate a call before printing it ("To find Caroline's identity, you
can call `memory_search` … Here's how:"). A first paragraph that names an offered tool in
backticks or ends with a colon leads into a call and stays held with everything after it;
any other is shown and the rest streams as usual.

    hb = StreamHoldback(show, {"memory_search", "read"})
    for piece in stream: hb.feed(piece)
    if not recover_tool_calls(full_text, tools).calls: hb.release()
"""

from __future__ import annotations

import json
import re
from typing import Callable, Collection

from openclaw_tui.llm.toolcall_text import JSON_FENCE_LANGS, TAG_NAMES, nests_deeper

TAG_OPEN_RE = re.compile(rf"<{TAG_NAMES}>")
TRIGGER_RE = re.compile(rf'<{TAG_NAMES}>|```|\{{\s*"|\[\s*\{{')
# the end of the text could still grow into a trigger: hold it a moment
PARTIAL_RE = re.compile(r"(?:<[A-Za-z_]{0,14}|`{1,2}|\{\s*|\[\s*|\[\s*\{\s*)$")
HOLD, TEXT, CODE = "hold", "text", "code"  # CODE: a fence of another language opened
PARAGRAPH_END_RE = re.compile(r"\S\s*?\n[ \t]*\n")


class StreamHoldback:
    def __init__(self, emit: Callable[[str], None], names: Collection[str], *, lead_in: bool = False):
        self._emit = emit
        self._names = set(names)
        self._lead: str | None = "first" if lead_in else None  # "first": deciding; "call": holding to the end
        self._text = ""
        self._shown = 0  # text[:_shown] went to emit
        self._hold_from: int | None = None
        self._in_code = False  # inside a non-JSON fence: only its closing ``` matters

    @property
    def held(self) -> str:
        return self._text[self._shown :]

    @property
    def shown(self) -> str:
        return self._text[: self._shown]

    def feed(self, piece: str) -> None:
        self._text += piece
        if self._lead is not None and not self._lead_decided():
            return
        while True:
            if self._in_code:
                close = self._text.find("```", self._shown)
                if close < 0:
                    p = re.search(r"`{1,2}$", self._text[self._shown :])
                    self._show_to(len(self._text) - (len(p.group()) if p else 0))
                    return
                self._show_to(close + 3)
                self._in_code = False
            if self._hold_from is None:
                m = TRIGGER_RE.search(self._text, self._shown)
                if m is None:
                    p = PARTIAL_RE.search(self._text, self._shown)
                    self._show_to(p.start() if p else len(self._text))
                    return
                self._show_to(m.start())
                self._hold_from = m.start()
            verdict, end = _verdict(self._text[self._hold_from :], self._names)
            if verdict == HOLD:
                return
            self._hold_from = None
            self._in_code = verdict == CODE
            self._show_to(self._shown + end)

    def _lead_decided(self) -> bool:
        """With ``lead_in``: whether the first paragraph is complete and is not a lead-in."""
        if self._lead == "first":
            end = PARAGRAPH_END_RE.search(self._text)
            if end is None:
                return False
            para = self._text[: end.start() + 1]
            narrates = para.rstrip().endswith(":") or any(f"`{name}`" in para for name in self._names)
            self._lead = "call" if narrates else None
        return self._lead is None

    def release(self) -> None:
        """Show whatever is still held (the stream ended and it was not a tool call)."""
        self._lead = None
        self._hold_from = None
        self._show_to(len(self._text))

    def _show_to(self, end: int) -> None:
        if end > self._shown:
            self._emit(self._text[self._shown : end])
            self._shown = end


def _verdict(seg: str, names: set[str]) -> tuple[str, int]:
    """HOLD, or (TEXT, n): the first n characters of ``seg`` are prose and can be shown."""
    if TAG_OPEN_RE.match(seg):
        return HOLD, 0
    if seg.startswith("```"):
        nl = seg.find("\n")
        if nl < 0:
            return HOLD, 0
        lang = seg[3:nl].strip().split(" ")[0].lower()
        return (HOLD, 0) if lang in JSON_FENCE_LANGS else (CODE, nl + 1)
    if nests_deeper(seg):  # nested too deep to be a call: prose (never decoded)
        return TEXT, 1
    try:
        value, end = json.JSONDecoder().raw_decode(seg)
    except ValueError:
        return HOLD, 0  # not complete yet (a broken one is released when the stream ends)
    except RecursionError:
        return TEXT, 1
    return (HOLD, 0) if _names_a_tool(value, names) else (TEXT, end)


def _names_a_tool(value: object, names: set[str]) -> bool:
    """Whether a JSON value mentions an offered tool's name as a string (cheap, generous)."""
    todo = [value]  # iterative: a deeply nested value must not exhaust the stack
    while todo:
        v = todo.pop()
        if isinstance(v, dict):
            if any(str(k) in names for k in v):
                return True
            todo.extend(v.values())
        elif isinstance(v, list):
            todo.extend(v)
        elif isinstance(v, str) and v.strip() in names:
            return True
    return False
