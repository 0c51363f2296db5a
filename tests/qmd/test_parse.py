"""qmd --json output parsing: noisy stdout, no results, line ranges, URIs, garbage."""

from __future__ import annotations

import json

import pytest

from openclaw_tui.memory.qmd.parse import (
    QmdParseError,
    extract_json_array,
    parse_qmd_uri,
    parse_search_output,
    parse_snippet,
    trim_blank_edges,
)


def _hit(file: str = "qmd://memory-dir/2026-01-01.md", snippet: str = "@@ -39,4 @@ (38 before, 18 after)\na\nb\nc\nd",
         **kw) -> dict:
    return {"docid": "#58ac5b", "score": 0.61, "file": file, "line": 40, "title": "t", "snippet": snippet, **kw}


@pytest.mark.parametrize(
    "snippet, fallback, expected",
    [
        ("@@ -39,4 @@ (38 before, 18 after)\na\nb\nc\nd", None, (39, 42, "a\nb\nc\nd")),
        ("@@ -2,3 @@ (1 before, 0 after)\n\nline\n", None, (2, 4, "\nline\n")),
        ("@@ -7 @@\nonly", None, (7, 7, "only")),
        ("@@ -1,1 @@", None, (1, 1, "")),
        ("@@ -12,2 +12,2 @@ ctx\nx\ny", None, (12, 13, "x\ny")),
        ("@@ -0,2 @@\nx\ny", None, (1, 2, "x\ny")),
        ("no header\nsecond", 5, (5, 6, "no header\nsecond")),
        ("no header", None, (1, 1, "no header")),
        ("", 3, (3, 3, "")),
        ("@@ -10,3 @@\r\na\r\nb\r\nc", None, (10, 12, "a\nb\nc")),
    ],
)
def test_parse_snippet_table(snippet, fallback, expected):
    assert parse_snippet(snippet, fallback) == expected


@pytest.mark.parametrize(
    "uri, expected",
    [
        ("qmd://memory-dir/2026-01-01.md", ("memory-dir", "2026-01-01.md")),
        ("qmd://notes/Meeting Notes/Big_Plan v2.md", ("notes", "Meeting Notes/Big_Plan v2.md")),
        ("qmd://notes/a%20b.md", ("notes", "a b.md")),
        ("qmd://sessions//x.md", ("sessions", "x.md")),
    ],
)
def test_parse_qmd_uri(uri, expected):
    assert parse_qmd_uri(uri) == expected


@pytest.mark.parametrize("uri", ["memory/x.md", "qmd://", "qmd://onlycollection", "qmd://c/", "", None])
def test_parse_qmd_uri_refuses(uri):
    with pytest.raises(QmdParseError):
        parse_qmd_uri(uri)


def test_plain_json_array():
    hits = parse_search_output(json.dumps([_hit(), _hit(file="qmd://memory-root/MEMORY.md", snippet="@@ -2,1 @@\nx")]))
    assert [(h.collection, h.path, h.start_line, h.end_line) for h in hits] == [
        ("memory-dir", "2026-01-01.md", 39, 42),
        ("memory-root", "MEMORY.md", 2, 2),
    ]
    assert hits[0].score == pytest.approx(0.61)
    assert hits[0].snippet == "a\nb\nc\nd"
    assert hits[0].docid == "#58ac5b"


def test_noisy_stdout_around_the_array():
    noisy = (
        "\x1b[2mSearching 2 collections [maybe] ...\x1b[0m\n"
        "Warning: 13 documents (100%) need embeddings.\n"
        + json.dumps([_hit()], indent=2)
        + "\n\x1b[32m✓\x1b[0m done [1/1]\n"
    )
    hits = parse_search_output(noisy)
    assert len(hits) == 1 and hits[0].start_line == 39


def test_bracket_noise_before_array_is_skipped():
    out = "[1/2] memory-root\n[progress 50%]\n" + json.dumps([_hit()])
    assert extract_json_array(out) == [_hit()]
    assert parse_search_output(out)[0].path == "2026-01-01.md"


@pytest.mark.parametrize(
    "out",
    [
        "[]",
        "[]\n",
        "No results found.",
        "no results found",
        "\x1b[33mNo  results found.\x1b[0m\n",
        "No results found above minimum score threshold.",
        "Searching 2 collections...\nNo results found.\n",
        "[qmd] warn: no results found",
        "WARNING: No results found.",
    ],
)
def test_no_results_means_empty(out):
    assert parse_search_output(out) == []


def test_no_results_marker_on_stderr_counts_only_when_stdout_is_empty():
    assert parse_search_output("", "No results found.\n") == []
    with pytest.raises(QmdParseError):
        parse_search_output("Segmentation fault", "No results found.")


@pytest.mark.parametrize(
    "out",
    [
        "",  # printed nothing: a failure, not "no results" (OpenClaw: "stdout empty")
        "   \n",
        "no results for 'zeta'\n",
        "No matches",
        "Error: index locked, no results returned",
        "<html>502: no results from upstream</html>",
        "No results found. Database corrupted: run qmd update",
        "panic: no results found in cache table",
    ],
)
def test_text_that_only_mentions_no_results_is_garbage(out):
    with pytest.raises(QmdParseError):
        parse_search_output(out)


@pytest.mark.parametrize(
    "out",
    ["Segmentation fault", "<html>502 Bad Gateway</html>", "{\"file\": \"qmd://a/b.md\"}", "[1, 2, 3]", "[{broken json"],
)
def test_garbage_raises(out):
    with pytest.raises(QmdParseError):
        parse_search_output(out)


def test_hit_with_bad_uri_is_garbage():
    with pytest.raises(QmdParseError):
        parse_search_output(json.dumps([_hit(file="/abs/path.md")]))


def test_score_missing_or_bad_is_zero():
    hits = parse_search_output(json.dumps([_hit(score=None), _hit(score="x")]))
    assert [h.score for h in hits] == [0.0, 0.0]


@pytest.mark.parametrize(
    "start, end, body, expected",
    [
        (2, 4, "\nline\n", (3, 3, "line")),
        (2, 5, "\nUser prefers coffee.\n\n## Projects", (3, 5, "User prefers coffee.\n\n## Projects")),
        (39, 42, "a\nb\nc\nd", (39, 42, "a\nb\nc\nd")),
        (5, 7, "\n  \n", (7, 7, "")),
        (1, 1, "", (1, 1, "")),
    ],
)
def test_trim_blank_edges_moves_the_range(start, end, body, expected):
    assert trim_blank_edges(start, end, body) == expected
