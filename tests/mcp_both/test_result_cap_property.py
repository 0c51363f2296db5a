"""Property: whatever an MCP server answers — text, structured content, embedded resources,
images, an error — the object the model and the transcript get is at most the cap as JSON,
and what fits is passed on unchanged (issue 36, item 1)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings, strategies as st

from openclaw_tui.mcp.names import result_payload


@dataclass
class Text:
    text: str
    type: str = "text"


@dataclass
class Resource:
    text: str | None
    mime_type: str | None = "text/plain"


@dataclass
class Embedded:
    resource: Resource
    type: str = "resource"


@dataclass
class Image:
    data: str
    mime_type: str = "image/png"
    type: str = "image"


texts = st.text(st.characters(codec="utf-8"), max_size=400) | st.sampled_from(['"\\\n' * 300, "\x01" * 500, "é" * 900])
blocks = st.lists(st.one_of(texts.map(Text), texts.map(lambda t: Embedded(Resource(t))), texts.map(Image)), max_size=6)
json_values = st.recursive(st.none() | st.booleans() | st.integers() | texts,
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4), max_leaves=20)
names = st.text(st.characters(codec="utf-8"), min_size=1, max_size=300)


def size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, default=str))


@settings(max_examples=300, deadline=None)
@given(server=names, tool=names, content=blocks, structured=st.none() | json_values, is_error=st.booleans(),
       cap=st.integers(min_value=700, max_value=5_000))
def test_every_result_fits_the_cap(server: str, tool: str, content: list[Any], structured: Any, is_error: bool, cap: int) -> None:
    out = result_payload(server, tool, content, structured, is_error, cap=cap)
    assert size(out) <= cap
    body = out.get("error" if is_error else "text")
    assert isinstance(body, str)
    if out.get("truncated"):
        assert size(out) > cap - 6  # cut only as far as needed (one character is at most 6 in JSON)
    else:
        parts = [b.text if isinstance(b, Text) else b.resource.text if isinstance(b, Embedded) else "[image image/png not shown]"
                 for b in content]
        text = "\n".join(t for t in parts if t)
        if "structuredContent" in out:
            assert out["structuredContent"] == structured and not is_error and not text
        elif text:
            assert body == text  # what fits is passed on unchanged


@settings(max_examples=100, deadline=None)
@given(structured=json_values.filter(lambda v: v is not None), cap=st.integers(min_value=300, max_value=3_000))
def test_structured_content_over_the_cap_is_sent_as_the_start_of_its_json(structured: Any, cap: int) -> None:
    out = result_payload("s", "t", [], structured, False, cap=cap)
    assert size(out) <= cap
    whole = json.dumps(structured, ensure_ascii=False, default=str)
    if "structuredContent" in out:
        assert out["structuredContent"] == structured
    else:
        assert whole.startswith(out["text"]) and out.get("truncated") is True


wide = st.text(st.sampled_from(["a", "é", "\n", '"', "\\", "\x00", "😀", "\u200b", "ｗ", "𝔸"]), max_size=3_000)
mixed = st.lists(st.one_of(wide.map(Text), wide.map(lambda t: Embedded(Resource(t))),
                           st.just(Embedded(Resource(None, "application/octet-stream"))), wide.map(Image)), max_size=8)


@settings(max_examples=200, deadline=None)
@given(content=mixed, structured=st.none() | json_values | st.dictionaries(wide, wide, max_size=3),
       is_error=st.booleans(), cap=st.integers(min_value=700, max_value=4_000))
def test_any_mix_is_valid_json_under_the_cap(content: list[Any], structured: Any, is_error: bool, cap: int) -> None:
    """Astral characters, NULs, escapes and mixed blocks: the capped payload is still one valid
    JSON object, encodable as strict UTF-8, with its body a string, under the cap."""
    out = result_payload("srv", "tool", content, structured, is_error, cap=cap)
    raw = json.dumps(out, ensure_ascii=False)
    assert len(raw) <= cap
    raw.encode("utf-8")  # no lone surrogate from a cut
    assert json.loads(raw) == out
    assert isinstance(out.get("error" if is_error else "text"), str)
