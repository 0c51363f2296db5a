"""Batched token counting (``line_token_counts``) gives every line the count it gets alone,
so chunk boundaries, texts and token totals are the ones of the per-line count."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from openclaw_tui.memory.builtin.chunking import (
    MAX_ENCODE_CHARS,
    chunk_lines,
    chunk_text,
    count_tokens,
    line_token_counts,
    split_text_lines,
)

#: line ends and starts where tiktoken's pieces could reach across a line join: trailing and
#: leading whitespace of every kind, punctuation runs, contractions, digit runs, CJK, emoji,
#: combining marks, special-token text, the separator's own characters
TRICKY = [
    "", " ", "  ", "\t", "a  ", "a\t", "word.", "word...", "end!!", "x:", "don'", "'s", "'ll go", "it's",
    "12345", "1234567", "  indented", "\tTabbed", " ", "a\u00a0", "\u3000全角", "日本語のテキスト",
    "emoji 🎉", "🎉", "e\u0301", "\u0301start", "<|endoftext|>", "<|endoftext|>x", "a \x0b", "\x0c",
    "\x1c", "tail\x1f", "- [ ] todo", "# Heading", "```python", "http://x.y/z?q=1&r=2", "C++", "$$",
    "mixed123abc", "ÀÉÎõü", "кириллица.", "\u2028", "a\u2029b", "x" * 5000, "y " * 3000,
    " \n".strip(), "trailing space ", "ends with tab\t", "-", "—", "…", "«quoted»",
]


def _per_line(lines: list[str]) -> list[int]:
    return [count_tokens(line) if line else 0 for line in lines]


def test_tricky_lines_get_their_own_count_in_every_order():
    rng = random.Random(3)
    for _ in range(40):
        lines = [rng.choice(TRICKY) for _ in range(rng.randint(1, 30))]
        assert line_token_counts(lines) == _per_line(lines), lines


_chars = st.sampled_from(list("ab Z9 0 .,;:'!?-_\t\u00a0\u3000日本🎉\u0301\x0bé$#<|>()[]{}") + ["'s", "'ll", "123", "  "])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_chars, max_size=12).map("".join), max_size=12))
def test_any_lines_get_their_own_count(lines):
    assert line_token_counts(lines) == _per_line(lines)


def _per_line_counter(text: str) -> int:
    return count_tokens(text)


def _markdown(seed: int) -> str:
    rng = random.Random(seed)
    words = "alpha beta gamma delta, epsilon. zeta! eta? theta: iota's kappa 2024-12-03 42 日本語 🎉 don't".split()
    out = []
    for i in range(rng.randint(50, 400)):
        kind = rng.random()
        if kind < 0.05:
            out.append(f"## Section {i}")
        elif kind < 0.1:
            out.append("")
        elif kind < 0.12:
            out.append(" ".join(rng.choice(words) for _ in range(rng.randint(300, 900))))  # over-long
        elif kind < 0.15:
            out.append("  " + " ".join(rng.choice(words) for _ in range(5)) + rng.choice(["  ", "\t", ""]))
        else:
            out.append("- " + " ".join(rng.choice(words) for _ in range(rng.randint(3, 40))))
    return "\n".join(out)


def test_chunks_are_identical_to_per_line_counting():
    for seed in range(12):
        text = _markdown(seed)
        for tokens, overlap in ((400, 80), (64, 16), (30, 0)):
            batched = chunk_text(text, tokens=tokens, overlap=overlap)
            # any counter other than count_tokens itself is called line by line
            alone = chunk_text(text, tokens=tokens, overlap=overlap, counter=_per_line_counter)
            assert batched == alone
            assert len(batched) > 1


def test_long_lines_are_counted_in_windows_as_before():
    lines = ["w" * (MAX_ENCODE_CHARS + 10), "short line", "z " * (MAX_ENCODE_CHARS // 2 + 5)]
    assert line_token_counts(lines) == _per_line(lines)
    assert chunk_lines(lines) == chunk_lines(lines, counter=_per_line_counter)


def test_split_lines_of_a_windows_file_are_counted_alike():
    lines = split_text_lines("one.\r\ntwo  \r\n\r\nthree\rfour")
    assert line_token_counts(lines) == _per_line(lines)
