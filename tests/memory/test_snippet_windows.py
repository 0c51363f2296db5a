"""Snippets as several windows of one chunk (memory/snippet_windows.py): the lines that
matter within 700 characters, a visible gap marker between runs, and a citation naming
exactly the lines shown."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from openclaw_tui.memory import citations
from openclaw_tui.memory.builtin import snippet_windows as sw
from openclaw_tui.memory.builtin.manager import MemoryManager
from openclaw_tui.session.quote import best_lines
from openclaw_tui.tools.note_text import drop_citation_lines

from .conftest import write

FILLER = "- **Ann**: an ordinary remark about the weather, the bus ride and what we had for lunch today"


def chunk(special: dict[int, str], count: int = 20, head: str | None = None) -> list[str]:
    lines = [f"{FILLER} ({i})" for i in range(count)]
    for i, text in special.items():
        lines[i] = text
    return ([head, ""] if head else []) + lines


def shown_lines(shown: sw.Shown) -> list[tuple[int, str]]:
    """(file line, text) of every line the snippet shows, by its citation's ranges."""
    lines = shown.text.split("\n")
    numbers = citations.line_numbers(lines, shown.ranges)
    assert numbers is not None, shown
    return [(n, line) for n, line in zip(numbers, lines) if n is not None]


def test_two_matches_far_apart_are_both_shown_with_a_gap_marker_and_two_ranges():
    lines = chunk({2: "- **Ann**: the dentist moved my appointment", 17: "- **Ann**: the dentist is on Elm Street"})
    shown = sw.windowed("\n".join(lines), 40, 40 + len(lines) - 1, ["dentist"])
    assert "the dentist moved my appointment" in shown.text and "the dentist is on Elm Street" in shown.text
    assert len(shown.text) <= 700 and len(shown.ranges) >= 2
    assert f"\n{sw.GAP}\n" in shown.text  # a visible marker where lines are left out
    assert (42, lines[2]) in shown_lines(shown) and (57, lines[17]) in shown_lines(shown)
    assert citations.cite("memory/x.md", shown.ranges).startswith("memory/x.md#L")
    assert "," in citations.cite("memory/x.md", shown.ranges)


def test_cite_reads_as_before_for_one_run_and_joins_several():
    assert citations.cite("MEMORY.md", [(3, 5)]) == "MEMORY.md#L3-L5"
    assert citations.cite("MEMORY.md", [(4, 4)]) == "MEMORY.md#L4"
    assert citations.cite("m/a.md", [(3, 5), (20, 20), (22, 24)]) == "m/a.md#L3-L5,L20,L22-L24"
    assert citations.parse_ranges("L3-L5,L20,L22-L24") == ((3, 5), (20, 20), (22, 24))


def test_the_line_answering_a_question_comes_with_it():
    # the question line holds the terms, the answer after it holds none
    lines = chunk({9: "- **Bo**: Which dentist did you pick in the end?",
                   10: "- **Ann**: Dr. Alvarez on Elm Street, she was recommended by my sister"})
    shown = sw.windowed("\n".join(lines), 1, len(lines), ["dentist"])
    assert lines[10] in shown.text


def test_vector_evidence_picks_a_line_without_query_terms():
    lines = chunk({3: "- **Ann**: the dentist moved things around again",
                   15: "- **Ann**: Friday at nine works, I wrote it in the calendar"})
    cos = [0.1] * len(lines)
    cos[15] = 0.9
    text = "\n".join(lines)
    without = sw.windowed(text, 1, len(lines), ["dentist"])
    with_vectors = sw.windowed(text, 1, len(lines), ["dentist"], cosines=cos)
    assert lines[15] not in without.text and lines[15] in with_vectors.text
    assert lines[3] in with_vectors.text


def test_session_header_is_kept_when_it_fits_and_its_line_is_cited():
    head = "## Session 4 — 10:37 am on 27 June, 2023 (Caroline & Melanie)"
    lines = chunk({16: "- **Ann**: the dentist moved my appointment to Friday"}, head=head)
    shown = sw.windowed("\n".join(lines), 10, 10 + len(lines) - 1, ["dentist"])
    assert shown.text.startswith(head + "\n")
    assert (10, head) in shown_lines(shown)
    off = sw.windowed("\n".join(lines), 10, 10 + len(lines) - 1, ["dentist"], header=False)
    assert head not in off.text and lines[18] in off.text


def test_header_gives_way_to_the_lines_that_matter():
    # two long matching lines fill the budget: the header is left out, not the evidence
    long_a = "- **Ann**: dentist " + "a" * 315
    long_b = "- **Ann**: dentist " + "b" * 315
    lines = chunk({5: long_a, 15: long_b}, head="## Session 1 — 1:56 pm on 8 May, 2023 (Ann & Bo)")
    shown = sw.windowed("\n".join(lines), 1, len(lines), ["dentist"])
    assert long_a in shown.text and long_b in shown.text and "## Session" not in shown.text


def test_a_chunk_that_fits_is_shown_whole_with_its_own_range():
    text = "- one\n- two dentist\n- three"
    assert sw.windowed(text, 7, 9, ["dentist"]) == sw.Shown(text, ((7, 9),))


def test_no_term_and_no_vectors_shows_the_head():
    lines = chunk({})
    shown = sw.windowed("\n".join(lines), 1, len(lines), ["zebra"])
    assert shown.ranges[0][0] == 1 and shown.text.startswith(lines[0]) and shown.text.endswith(sw.GAP)


def test_one_line_longer_than_the_limit_is_cut_and_cited_alone():
    lines = ["- short", "- dentist " + "x" * 900, "- short too"]
    shown = sw.windowed("\n".join(lines), 5, 7, ["dentist"])
    assert len(shown.text) <= 700 and shown.ranges == ((6, 6),) and "dentist" in shown.text


words = st.sampled_from(["dentist", "friday", "bus", "lunch", "Elm", "nine", "?", "**Ann**:", "- ", "…", "#", "x" * 40,
                        "# 2023-07-12", "## Session 1 — 8 May, 2023"])
lines_st = st.lists(st.lists(words, max_size=40).map(" ".join), min_size=1, max_size=40)


@settings(max_examples=300, deadline=None)
@given(lines=lines_st, terms=st.lists(st.sampled_from(["dentist", "friday", "bus", "nine", "zebra"]), max_size=3),
       start=st.integers(1, 500), with_cos=st.booleans(), seed=st.randoms(use_true_random=False),
       limit=st.integers(60, 900))
def test_every_cited_range_is_shown_and_every_shown_line_is_cited(lines, terms, start, with_cos, seed, limit):
    text = "\n".join(lines)
    cos = [seed.random() for _ in lines] if with_cos else None
    shown = sw.windowed(text, start, start + len(lines) - 1, terms, limit=limit, cosines=cos)
    assert len(shown.text) <= limit
    for a, b in shown.ranges:
        assert start <= a <= b <= start + len(lines) - 1
    assert all(b1 + 1 < a2 for (_, b1), (a2, _) in zip(shown.ranges, shown.ranges[1:]))  # disjoint runs, a gap between
    body = shown.text.split("\n")
    numbers = citations.line_numbers(body, shown.ranges)
    if numbers is None:  # only a chunk shown whole with blank edge lines, or a cut over-long line
        whole = len(text.strip("\n")) <= limit
        assert whole or (len(shown.ranges) == 1 and shown.ranges[0][0] == shown.ranges[0][1])
        return
    cited = {n for a, b in shown.ranges for n in range(a, b + 1)}
    assert {n for n in numbers if n is not None} == cited
    for n, line in zip(numbers, body):
        if n is None:
            assert line == sw.GAP
        elif not (len(shown.ranges) == 1 and line.endswith(sw.GAP) and len(lines[n - start]) > limit - 6):
            assert line == lines[n - start]  # the file's line, whole


def test_quote_numbers_lines_by_the_snippets_ranges():
    snippet = "…\n- **Ann**: bus at nine\n…\n- **Ann**: dentist on Friday\n- **Bo**: ok\n…\n\nSource: memory/a.md#L4,L9-L10"
    assert best_lines(snippet, "dentist Friday", 1) == [("- **Ann**: dentist on Friday", 9)]
    assert best_lines(snippet, "bus nine", 1)[0] == ("- **Ann**: bus at nine", 4)


def test_a_note_drops_a_citation_line_of_several_ranges():
    assert drop_citation_lines("Dana owns billing.\nSource: memory/x.md#L3-L5,L20\n") == "Dana owns billing.\n"
    assert drop_citation_lines("Dana owns billing.\n**Source:** MEMORY.md#L3,L9-L10") == "Dana owns billing."


def test_a_chunks_window_cosines_come_in_window_order():
    import numpy as np  # noqa: PLC0415

    from openclaw_tui.memory.builtin.vector_matrix import VectorMatrix  # noqa: PLC0415

    # rows of chunk 7 interleaved with chunk 3's and stored out of id order
    vm = VectorMatrix("e", ids=np.array([12, 10, 20, 11]), owners=np.array([7, 7, 3, 7]),
                      mat=np.eye(4, dtype=np.float32))
    sims = np.array([0.2, 0.0, 0.9, 0.1], dtype=np.float32)  # by row
    assert vm.owner_similarities(sims, 7).tolist() == pytest.approx([0.0, 0.1, 0.2])  # ids 10, 11, 12
    assert vm.owner_similarities(sims, 5).size == 0
    assert sw.line_cosines(["a", "b", "c"], [(1, 2), (3, 3)], [0.4, 0.7]) == [0.4, 0.4, 0.7]
    assert sw.line_cosines(["a", "b", "c"], [(1, 2)], [0.4, 0.7]) is None  # windows and cosines do not pair up


def test_hybrid_search_cites_every_run_its_snippet_shows(workspace, make_settings, managers, remote_ms):
    lines = [f"- **Ann**: ordinary line {i} about the weather and the bus ride to work" for i in range(16)]
    lines[2] = "- **Ann**: the dentist moved my appointment to Friday at nine"
    lines[14] = "- **Ann**: the dentist is on Elm Street next to the bakery"
    text = "# 2026-03-02\n\n" + "\n".join(lines) + "\n"
    write(workspace / "memory/2026-03-02.md", text)
    m = MemoryManager(make_settings(memorySearch=remote_ms))
    managers.append(m)
    m.sync()
    top = m.search("dentist appointment Elm Street")["results"][0]
    body, _, cite = top["snippet"].rpartition("\n\nSource: ")
    assert cite == top["citation"] and cite.startswith("memory/2026-03-02.md#L") and "," in cite
    ranges = citations.parse_ranges(cite.split("#", 1)[1])
    numbers = citations.line_numbers(body.split("\n"), ranges)
    file_lines = text.split("\n")
    assert numbers is not None and len(body) <= 700
    for n, line in zip(numbers, body.split("\n")):
        assert line == (sw.GAP if n is None else file_lines[n - 1])
    assert lines[2] in body and lines[14] in body


def test_a_chunk_of_headings_only_shows_its_best_heading_whole():
    # found by the property test above in CI: the heading was cut and marked although it fit
    lines = ["# dentist dentist dentist dentist dentist dentist", "", "", "# dentist"]
    shown = sw.windowed("\n".join(lines), 1, len(lines), ["dentist"], limit=60)
    assert len(shown.text) <= 60
    body = shown.text.split("\n")
    numbers = citations.line_numbers(body, shown.ranges)
    assert numbers is not None
    for n, line in zip(numbers, body):
        assert line == sw.GAP if n is None else line == lines[n - 1]


def test_a_file_line_reading_as_the_gap_marker_never_ends_a_run():
    # found by the property test: "…\nA\n…" could not say whether the first or the last "…" is the file's
    lines = ["dentist dentist dentist dentist", "dentist dentist dentist dentist", "…"]
    shown = sw.windowed("\n".join(lines), 1, 3, [], limit=60, cosines=[0.1, 0.9, 0.5])
    body = shown.text.split("\n")
    numbers = citations.line_numbers(body, shown.ranges)
    assert numbers is not None and 3 not in numbers
    for n, line in zip(numbers, body):
        assert line == sw.GAP if n is None else line == lines[n - 1]


DAY = ["# 2023-07-12", "", "## Session 7 — 4:33 pm on 12 July, 2023 (Caroline & Melanie)", ""]


def test_the_heading_that_dates_a_line_is_the_shortest_dated_one_it_sits_under():
    lines = DAY + ["- a", "# 2023-07-13", "", "## Session 8 — 1:00 pm on 13 July, 2023 (A & B)", "- b"]
    assert sw.heading_above(lines, 4) == 0  # "# 2023-07-12", not the 60-character session line
    assert sw.heading_above(lines, 8) == 5  # its own day, never the day before
    assert sw.heading_path(lines, 8) == [7, 5]


def test_headings_without_a_date_give_the_nearest():
    lines = ["# Notes", "## Preferences", "- tea, not coffee", "## Maybe later", "- a boat"]
    assert sw.heading_above(lines, 2) == 1 and sw.heading_above(lines, 4) == 3
    assert sw.heading_above(["- no heading"], 0) is None


def test_a_relative_date_is_shown_with_the_date_it_is_relative_to():
    # LoCoMo QA: shown "I went to a conference two days ago" without its date, the 1.5B answered
    # "two days ago"; the day's heading costs 13 characters
    best = ("- **Caroline**: I went to an LGBTQ conference two days ago and it was really special. " + "x" * 400)[:380]
    second = ("- **Caroline**: the LGBTQ conference made me feel accepted. " + "y" * 400)[:240]
    lines = chunk({8: best, 16: second}, count=20)
    lines = DAY + lines
    shown = sw.windowed("\n".join(lines), 1, len(lines), ["lgbtq", "conference"])
    got = dict(shown_lines(shown))
    assert got[1] == "# 2023-07-12" and best in got.values() and second in got.values()
    assert len(shown.text) <= 700
