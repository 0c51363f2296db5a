"""Text tool-call recovery and the stream hold-back, over real captured model outputs.

tests/data/toolcall_text/*.json hold what Qwen2.5-Coder 1.5B (Q4_K_M) and 0.5B printed on
llama.cpp when offered the session's tools (scripts/capture_toolcalls.py). The table says
which calls each output must yield; the stream test feeds every capture in small pieces and
checks that no call JSON ever reaches the screen while prose is shown in full.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openclaw_tui.llm.client import Completion
from openclaw_tui.llm.holdback import StreamHoldback
from openclaw_tui.llm.toolcall_text import recover_completion, recover_tool_calls, validate_arguments
from openclaw_tui.tools.files import FILE_SCHEMAS
from openclaw_tui.tools.memory_tools import MEMORY_TOOL_SCHEMAS

TOOLS = MEMORY_TOOL_SCHEMAS + FILE_SCHEMAS
NAMES = {t["function"]["name"] for t in TOOLS}
DATA = Path(__file__).resolve().parents[1] / "data" / "toolcall_text"

# (capture file, index) -> the tool names the output must yield, in order (() = plain text)
EXPECTED: dict[tuple[str, int], tuple[str, ...]] = {
    ("qwen2.5-coder-1.5b", 0): ("memory_search", "memory_get"),  # prose + two ```json blocks
    ("qwen2.5-coder-1.5b", 1): ("memory_search", "memory_get"),
    ("qwen2.5-coder-1.5b", 2): ("memory_search",),  # bare object
    ("qwen2.5-coder-1.5b", 3): ("append",),  # ```json fence, "\n" inside a string
    ("qwen2.5-coder-1.5b", 4): ("read",),  # pretty-printed in a fence
    ("qwen2.5-coder-1.5b", 5): ("memory_search",),  # inside <tools>…</tools>
    ("qwen2.5-coder-1.5b", 6): (),  # a ```python answer
    ("qwen2.5-coder-1.5b", 7): (),  # JSON that names no tool: an answer, shown
    ("qwen2.5-coder-1.5b", 8): ("memory_search",),
    ("qwen2.5-coder-1.5b", 9): ("memory_search",),  # prose + a fence without language
    ("qwen2.5-coder-1.5b", 10): ("memory_search",),
    ("qwen2.5-coder-1.5b", 11): ("memory_get",),
    ("qwen2.5-coder-1.5b", 12): ("read",),
    ("qwen2.5-coder-1.5b", 13): (),
    ("qwen2.5-coder-1.5b", 14): (),
    ("qwen2.5-coder-1.5b", 15): (),
    ("qwen2.5-coder-0.5b", 0): ("memory_search",),
    ("qwen2.5-coder-0.5b", 1): (),  # answered without searching (and made it up)
    ("qwen2.5-coder-0.5b", 2): (),
    ("qwen2.5-coder-0.5b", 3): ("memory_search",),  # the wrong tool for "remember", still a valid call
    ("qwen2.5-coder-0.5b", 4): ("read",),  # prose, then a bare object on its own line
    ("qwen2.5-coder-0.5b", 5): (),
    ("qwen2.5-coder-0.5b", 6): (),
    ("qwen2.5-coder-0.5b", 7): (),  # bare JSON that names no tool
    ("qwen2.5-coder-0.5b", 8): ("memory_search",),
    ("qwen2.5-coder-0.5b", 9): (),
    ("qwen2.5-coder-0.5b", 10): (),
    # one fence, six comma-separated objects: every offered tool in turn
    ("qwen2.5-coder-0.5b", 11): ("memory_search", "memory_get", "read", "write", "edit", "append"),
    ("qwen2.5-coder-0.5b", 12): ("read",),
    ("qwen2.5-coder-0.5b", 13): (),
    ("qwen2.5-coder-0.5b", 14): (),
    ("qwen2.5-coder-0.5b", 15): (),
}


def _captures() -> list[tuple[str, int, str]]:
    out = []
    for path in sorted(DATA.glob("*.json")):
        for i, cap in enumerate(json.loads(path.read_text())["captures"]):
            out.append((path.stem, i, cap["content"]))
    return out


CAPTURES = _captures()


def test_every_capture_has_an_expectation() -> None:
    assert CAPTURES, f"no captured outputs in {DATA}"
    missing = [(m, i) for m, i, _ in CAPTURES if (m, i) not in EXPECTED]
    assert not missing, f"add the expected calls of {missing} to EXPECTED"


@pytest.mark.parametrize(("model", "index", "text"), CAPTURES, ids=[f"{m}-{i}" for m, i, _ in CAPTURES])
def test_recovers_the_calls_of_a_real_output(model: str, index: int, text: str) -> None:
    found = recover_tool_calls(text, TOOLS)
    assert tuple(c.name for c in found.calls) == EXPECTED[(model, index)]
    for call in found.calls:
        assert call.error is None, call.error  # the captured arguments fit the schemas
    if found.calls:
        assert '"arguments"' not in found.text and '"name"' not in found.text
    else:
        assert found.text == text.strip()


@pytest.mark.parametrize("size", [1, 3, 8, 40])
@pytest.mark.parametrize(("model", "index", "text"), CAPTURES, ids=[f"{m}-{i}" for m, i, _ in CAPTURES])
def test_streamed_call_json_is_never_shown(model: str, index: int, text: str, size: int) -> None:
    shown: list[str] = []
    hold = StreamHoldback(shown.append, NAMES)
    seen_during: list[str] = []
    for k in range(0, len(text), size):
        hold.feed(text[k : k + size])
        seen_during.append("".join(shown))
    calls = recover_tool_calls(text, TOOLS).calls
    if calls:
        for screen in seen_during:
            assert '"arguments"' not in screen and '"name"' not in screen, screen
    else:
        hold.release()
        assert "".join(shown) == text


SHAPES = [
    ('<tool_call>\n{"name": "memory_search", "arguments": {"query": "logo"}}\n</tool_call>', "memory_search", {"query": "logo"}),
    ('{"tool": "read", "parameters": {"path": "USER.md"}}', "read", {"path": "USER.md"}),
    ('{"name": "read", "args": {"path": "USER.md"}}', "read", {"path": "USER.md"}),
    ('{"function": {"name": "read", "arguments": "{\\"path\\": \\"USER.md\\"}"}}', "read", {"path": "USER.md"}),
    ('{"type": "function", "function": {"name": "read", "arguments": {"path": "a.md"}}}', "read", {"path": "a.md"}),
    ('{"name": "memory_search", "query": "logo"}', "memory_search", {"query": "logo"}),
    ('{"memory_search": {"query": "logo"}}', "memory_search", {"query": "logo"}),
    ('{"name": "memory_search", "arguments": "{\\"query\\": \\"logo\\"}"}', "memory_search", {"query": "logo"}),
    ('Sure.\n```json\n{"name": "append", "arguments": {"path": "memory/x.md", "content": "hi"}}\n```\nDone.', "append", {"path": "memory/x.md", "content": "hi"}),
]


@pytest.mark.parametrize(("text", "name", "args"), SHAPES)
def test_common_shapes(text: str, name: str, args: dict) -> None:
    found = recover_tool_calls(text, TOOLS)
    assert [(c.name, c.arguments, c.error) for c in found.calls] == [(name, args, None)]


def test_several_calls_in_a_list_and_in_separate_blocks() -> None:
    listed = '[{"name": "read", "arguments": {"path": "a.md"}}, {"name": "read", "arguments": {"path": "b.md"}}]'
    assert [c.arguments["path"] for c in recover_tool_calls(listed, TOOLS).calls] == ["a.md", "b.md"]
    blocks = '<tool_call>{"name": "read", "arguments": {"path": "a.md"}}</tool_call>\n<tool_call>{"name": "memory_search", "arguments": {"query": "q"}}</tool_call>'
    assert [c.name for c in recover_tool_calls(blocks, TOOLS).calls] == ["read", "memory_search"]


def test_a_tool_that_was_not_offered_is_text() -> None:
    text = '{"name": "shell", "arguments": {"cmd": "ls"}}'
    assert recover_tool_calls(text, TOOLS).calls == ()
    assert recover_tool_calls('{"name": "read", "arguments": {"path": "a"}}', []).calls == ()


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('{"name": "memory_search", "arguments": {"maxResults": 3}}', "'query' is a required property"),
        ('{"name": "memory_search", "arguments": {"query": 5}}', "query: 5 is not of type 'string'"),
        ('{"name": "read", "arguments": {"path": "a.md", "mode": "x"}}', "Additional properties are not allowed"),
        ('{"name": "read", "arguments": "not json"}', "must be a JSON object"),
        ('{"name": "read", "arguments": {"path": "a.md", "from": 0}}', "from: 0 is less than the minimum of 1"),
    ],
)
def test_arguments_that_break_the_schema_are_reported_not_run(text: str, needle: str) -> None:
    (call,) = recover_tool_calls(text, TOOLS).calls
    assert call.error is not None and needle in call.error
    done = recover_completion(Completion(text=text), TOOLS)
    assert done.tool_calls[0].invalid == call.error


def test_validate_arguments_accepts_a_good_call() -> None:
    schema = TOOLS[0]["function"]["parameters"]
    assert validate_arguments({"query": "x", "maxResults": 2}, schema) is None


def test_recover_completion_can_keep_only_the_first_call() -> None:
    text = '{"name": "read", "arguments": {"path": "a.md"}},\n{"name": "write", "arguments": {"path": "a.md", "content": ""}}'
    assert [c.name for c in recover_completion(Completion(text=text), TOOLS).tool_calls] == ["read", "write"]
    assert [c.name for c in recover_completion(Completion(text=text), TOOLS, limit=1).tool_calls] == ["read"]


def test_recover_completion_keeps_native_calls_and_plain_text() -> None:
    plain = Completion(text="The logo is blue.")
    assert recover_completion(plain, TOOLS) is plain
    done = recover_completion(Completion(text='{"name": "read", "arguments": {"path": "a.md"}}'), TOOLS)
    assert done.text == "" and done.tool_calls[0].name == "read" and json.loads(done.tool_calls[0].arguments) == {"path": "a.md"}
    assert done.tool_calls[0].id.startswith("text_call_")


@pytest.mark.parametrize(
    "text",
    [
        "Use a dict like {x: 1} here.",
        "A list [1, 2] and a set {1}.",
        "```python\nprint({'a': 1})\n```\nThat prints a dict.",
        'Config: {"theme": "dark"} is the default.',
        "Compare a < b and a << b; `code` and ``double``.",
    ],
)
def test_prose_with_braces_is_shown_in_full_and_mostly_at_once(text: str) -> None:
    shown: list[str] = []
    hold = StreamHoldback(shown.append, NAMES)
    for ch in text:
        hold.feed(ch)
    before_end = "".join(shown)
    hold.release()
    assert "".join(shown) == text
    assert len(before_end) >= len(text) - 3  # released as soon as it is clearly not a call


def test_text_before_a_call_streams_through() -> None:
    shown: list[str] = []
    hold = StreamHoldback(shown.append, NAMES)
    for piece in ["Let me check. ", '{"na', 'me": "memory_search", "arguments": {"query": "x"}}']:
        hold.feed(piece)
    assert "".join(shown) == "Let me check. "
    assert hold.held.startswith('{"name"')


# ---------------------------------------------------------------- lead_in (the local profile)


@pytest.mark.parametrize("size", [1, 8])
@pytest.mark.parametrize(("model", "index", "text"), CAPTURES, ids=[f"{m}-{i}" for m, i, _ in CAPTURES])
def test_lead_in_hides_the_narration_before_a_call_and_shows_answers_in_full(model: str, index: int, text: str, size: int) -> None:
    shown: list[str] = []
    hold = StreamHoldback(shown.append, NAMES, lead_in=True)
    for k in range(0, len(text), size):
        hold.feed(text[k : k + size])
    if recover_tool_calls(text, TOOLS).calls:
        # "To find Caroline's identity, you can call `memory_search` … Here's how:" was shown before
        assert "".join(shown) == ""
    else:
        hold.release()
        assert "".join(shown) == text


def test_lead_in_streams_once_the_first_paragraph_is_plain_prose() -> None:
    shown: list[str] = []
    hold = StreamHoldback(shown.append, NAMES, lead_in=True)
    text = "Caroline is a trans woman.\n\nShe also paints.\n\nSource: memory/a.md#L1"
    for ch in text[: text.index("She") + 1]:
        hold.feed(ch)
    assert "".join(shown).startswith("Caroline is a trans woman.")
    for ch in text[text.index("She") + 1 :]:
        hold.feed(ch)
    assert len("".join(shown)) >= len(text) - 3  # streams on after the first paragraph


@pytest.mark.parametrize(
    "lead",
    ["I will use `memory_search` to look this up.\n\n", "Here is the call:\n\n"],
)
def test_lead_in_paragraph_without_a_call_after_it_is_released_at_the_end(lead: str) -> None:
    shown: list[str] = []
    hold = StreamHoldback(shown.append, NAMES, lead_in=True)
    text = lead + "Sorry, I could not find it."
    for ch in text:
        hold.feed(ch)
    assert "".join(shown) == ""
    hold.release()
    assert "".join(shown) == text
