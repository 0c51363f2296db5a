"""Chunk boundaries, line numbers, overlap, CJK and over-long lines."""

from __future__ import annotations

import pytest

from openclaw_tui.memory.builtin.chunking import (
    chunk_lines,
    chunk_text,
    count_tokens,
    heading_context,
    split_long_line,
    split_text_lines,
)


def words_counter(text: str) -> int:
    """Deterministic counter for table tests: one token per whitespace-separated word."""
    return len(text.split())


@pytest.mark.parametrize(
    "lines, tokens, overlap, expected",
    [
        # everything fits: one chunk covering all lines
        (["a b", "c d"], 10, 2, [(1, 2)]),
        # each line costs 2 words + 1 newline = 3; budget 6 holds two lines; overlap 3 carries one line
        (["a b", "c d", "e f", "g h"], 6, 3, [(1, 2), (2, 3), (3, 4)]),
        # no overlap: disjoint chunks
        (["a b", "c d", "e f", "g h"], 6, 0, [(1, 2), (3, 4)]),
        # blank lines cost 1 and keep their numbers; whitespace-only chunks are dropped
        (["a", "", "", "b"], 4, 0, [(1, 3), (4, 4)]),
        # a line over the budget is split into pieces that keep its line number
        (["x " * 10], 4, 0, [(1, 1), (1, 1), (1, 1), (1, 1)]),
    ],
)
def test_chunk_boundaries(lines, tokens, overlap, expected):
    chunks = chunk_lines(lines, tokens=tokens, overlap=overlap, counter=words_counter)
    assert [(c.start_line, c.end_line) for c in chunks] == expected


def test_chunks_stay_under_budget_and_cover_every_line():
    lines = [f"line {i} " + "word " * (i % 7) for i in range(1, 200)]
    chunks = chunk_lines(lines, tokens=20, overlap=5, counter=words_counter)
    for c in chunks:
        assert c.tokens <= 20
        # the text is exactly the source lines start..end
        assert c.text == "\n".join(lines[c.start_line - 1 : c.end_line])
    covered = set()
    for c in chunks:
        covered.update(range(c.start_line, c.end_line + 1))
    assert covered == set(range(1, 200))
    # overlap: each chunk after the first starts at or before the previous end (+1)
    for a, b in zip(chunks, chunks[1:]):
        assert b.start_line <= a.end_line + 1
        assert b.start_line > a.start_line


def test_overlap_carries_whole_trailing_lines_with_tiktoken():
    lines = [f"- note {i}: the quick brown fox jumps over the lazy dog" for i in range(1, 121)]
    chunks = chunk_text("\n".join(lines), tokens=100, overlap=20)
    assert len(chunks) > 5
    for a, b in zip(chunks, chunks[1:]):
        assert b.start_line <= a.end_line  # at least one whole line repeated
        assert a.end_line - b.start_line + 1 >= 1
        assert b.text.splitlines()[0] == lines[b.start_line - 1]
    assert all(count_tokens(c.text) <= 100 for c in chunks)


def test_hash_is_sha256_of_text_and_stable():
    import hashlib

    a = chunk_text("alpha\nbeta\n")
    b = chunk_text("alpha\nbeta\n")
    assert a[0].hash == b[0].hash == hashlib.sha256("alpha\nbeta".encode()).hexdigest()
    assert chunk_text("alpha\nbetA\n")[0].hash != a[0].hash


def test_cjk_text_respects_token_budget():
    # CJK costs ~1 token per character: character counts would blow the budget
    line = "我们明天在东京开会讨论新的记忆系统设计。" * 40  # one long CJK line
    text = "# 日记\n" + line + "\n最后一行"
    chunks = chunk_text(text, tokens=64, overlap=8)
    assert len(chunks) > 5
    for c in chunks:
        assert count_tokens(c.text) <= 64, c
    # the long line keeps its line number across all of its pieces
    middle = [c for c in chunks if c.start_line == 2 and c.end_line == 2]
    assert len(middle) >= 4
    assert "".join(c.text for c in middle).replace("\n", "") in line or line.startswith(middle[0].text)
    assert chunks[-1].end_line == 3


def test_fifty_thousand_character_line():
    words = " ".join(f"w{i}" for i in range(12_000))
    line = words[:50_000]
    assert len(line) == 50_000
    chunks = chunk_text("before\n" + line + "\nafter", tokens=400, overlap=80)
    pieces = [c for c in chunks if c.start_line == c.end_line == 2]
    assert len(pieces) >= 10
    assert all(count_tokens(c.text) <= 400 for c in chunks)
    # the line-2 parts of every chunk touching line 2 reassemble to the line exactly
    segs = [c.text.split("\n")[2 - c.start_line] for c in chunks if c.start_line <= 2 <= c.end_line]
    assert "".join(segs) == line
    assert chunks[0].start_line == 1 and chunks[-1].end_line == 3


def test_fifty_thousand_chars_without_spaces():
    line = "a" * 50_000
    pieces = split_long_line(line, 400)
    assert "".join(p for p, _ in pieces) == line
    assert all(t <= 400 for _, t in pieces)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", []),
        ("a", ["a"]),
        ("a\n", ["a"]),
        ("a\r\nb\r\n", ["a", "b"]),
        ("a\rb", ["a", "b"]),
        ("a\n\nb", ["a", "", "b"]),
        ("a\u2028b", ["a\u2028b"]),  # only \n, \r\n and \r end lines
    ],
)
def test_split_text_lines(text, expected):
    assert split_text_lines(text) == expected


def test_empty_and_blank_text():
    assert chunk_text("") == []
    assert chunk_text("\n\n   \n") == []


@pytest.mark.parametrize(
    "text, expected",
    [("", 0), ("abcd", 1), ("abcdefgh", 2), ("東京", 2), ("ab東京", 3)],
)
def test_estimate_tokens_fallback(text, expected):
    from openclaw_tui.memory.builtin.chunking import estimate_tokens

    assert estimate_tokens(text) == expected


def test_estimate_is_never_far_below_tiktoken():
    from openclaw_tui.memory.builtin.chunking import estimate_tokens

    for text in ["plain english words in a sentence", "我们明天在東京开会", "x" * 1000]:
        assert estimate_tokens(text) >= count_tokens(text) * 0.5


def test_heading_context_is_the_heading_chain_above_a_line():
    lines = ["# Day", "intro", "## Session 1 (Ann & Bo)", "a", "```", "# not a heading", "```", "b",
             "## Session 2", "c", "# Other day", "d", "#hashtag is not a heading", "e"]
    ctx = heading_context(lines, [1, 2, 4, 6, 8, 10, 12, 14])
    assert ctx[1] == ""  # nothing above the first line
    assert ctx[2] == "Day"
    assert ctx[4] == "Day\nSession 1 (Ann & Bo)"
    assert ctx[6] == ctx[8] == "Day\nSession 1 (Ann & Bo)"  # fenced "# …" is code, not a heading
    assert ctx[10] == "Day\nSession 2"  # a sibling replaces its level
    assert ctx[12] == ctx[14] == "Other day"  # a higher level clears the deeper ones


def test_chunk_text_carries_heading_context_for_chunks_inside_a_section():
    body = [f"- line {i} about nothing in particular" for i in range(40)]
    text = "\n".join(["# 2023-06-27", "", "## Session 5 — 27 June, 2023 (Caroline & Melanie)", *body])
    chunks = chunk_text(text, tokens=60, overlap=10)
    assert len(chunks) > 2
    assert chunks[0].start_line == 1 and chunks[0].context == ""  # its headings are in its own text
    for c in chunks[1:]:
        assert c.context == "2023-06-27\nSession 5 — 27 June, 2023 (Caroline & Melanie)"
        assert "Session 5" not in c.text  # the chunk's text and line numbers are unchanged
    assert all(c.context == "" for c in chunk_text(text, tokens=60, overlap=10, headings=False))


def test_heading_context_cuts_an_overlong_heading():
    ctx = heading_context(["# " + "x" * 50_000, "body"], [2])
    assert ctx[2] == "x" * 200
