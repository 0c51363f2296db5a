"""A Source: range names the lines that hold its sentence, checked against the file's text
(session/cite_lines.py, reply_check.py; issue 37: a fact on L3 was cited #L4, one on L4 as
#L9-L10, and "Pixel will be 23 in 2030" kept its Source: line)."""

from __future__ import annotations

import pytest

from openclaw_tui.session.cite_lines import identifying, settle, supporting
from openclaw_tui.session.reply_check import Evidence, verify_citations

PATH = "memory/2026-12-06.md"
LOG = """# 2026-12-06

- User: My cat Pixel is 7 years old.
- User: My neighbour is Frau Berger. She waters our plants when we travel.
- User: Our VPN host is vpn-east.acme.io.
- User: The offsite is in Lisbon on 12 March.
- User: My dentist is Dr Okafor.
- User: The budget for Apollo is $4,200.
- User: My sister Ana lives in Porto.
- User: I take my coffee black.
- User: The printer ticket is INC-87436.
- User: Our standup is at 9:30 every weekday.
- User: Max's birthday is on 4 May.
""".split("\n")
WHOLE_DAY = {"path": PATH, "startLine": 1, "endLine": 13, "snippet": "\n".join(LOG)}


def ev(asked: str = "", hits: tuple[dict, ...] = (WHOLE_DAY,)) -> Evidence:
    return Evidence(hits=hits, texts={PATH: tuple(LOG)}, asked=asked)


@pytest.mark.parametrize("answer, cited, expected", [
    ("Pixel is 7 years old.", "#L4", "#L3"),  # another fact's line: moved to the fact's own
    ("Your neighbour is Frau Berger.", "#L9-L10", "#L4"),
    ("Your standup is at 9:30.", "#L7", "#L12"),
    ("Your dentist is Dr Okafor.", "#L1-L13", "#L7"),  # the whole day: narrowed
    ("Your sister Ana lives in Porto.", "#L9", "#L9"),  # right already
])
def test_a_range_names_the_line_of_its_fact(answer: str, cited: str, expected: str) -> None:
    text, removed = verify_citations(f"{answer}\n\nSource: {PATH}{cited}", ev())
    assert text == f"{answer}\n\nSource: {PATH}{expected}" and removed == []


def test_an_answer_whose_numbers_were_not_read_there_gets_no_citation() -> None:
    text, removed = verify_citations(f"Pixel will be 23 in 2030.\n\nSource: {PATH}#L3", ev("How old will Pixel be in 2030?"))
    assert "Source" not in text and removed == [f"{PATH}#L3"]
    # a number from the question, or one sum away from what was read, keeps it
    kept, _ = verify_citations(f"In 2030 Pixel will be 4 years older than the 7 he is now.\n\nSource: {PATH}#L3",
                               ev("How old will Pixel be in 2030?"))
    assert kept.endswith(f"Source: {PATH}#L3")
    # thousands written either way are one number
    assert verify_citations(f"The Apollo budget is $4200.\n\nSource: {PATH}#L8", ev())[0].endswith("#L8")


def test_inline_references_are_moved_or_marked() -> None:
    text, removed = verify_citations(f"Pixel is 7 years old ({PATH}#L5).", ev())
    assert text == f"Pixel is 7 years old ({PATH}#L3)." and not removed
    text, removed = verify_citations(f"Your car is a red Fiat, see {PATH}#L5.", ev())
    assert "(unverified)" in text and removed


def test_two_facts_in_one_sentence_cite_both_lines_and_no_other() -> None:
    text, _ = verify_citations(f"Pixel is 7 and your dentist is Dr Okafor.\n\nSource: {PATH}#L1-L13", ev())
    assert text.endswith(f"Source: {PATH}#L3,L7")


def test_supporting_lines_use_the_language_tables_not_english_words() -> None:
    # Spanish stopwords and framing ("según tus notas") identify nothing
    said = identifying("Según tus notas, Pixel tiene 7 años.")
    assert "según" not in said.words and "pixel" in said.words and "7" in said.words
    assert supporting(LOG, said, [(1, 13)]) == [3]
    assert settle([(4, 4)], LOG, said, [(1, 13)]).ranges == ((3, 3),)
    # only what the turn saw can be cited
    assert settle([(4, 4)], LOG, said, [(5, 13)]).ranges is None


def test_a_quote_of_two_lines_apart_cites_both_and_nothing_between() -> None:
    from openclaw_tui.session.quote import quote_lines

    snippet = "- Pixel is 7.\n- Tea, no sugar.\n- Coffee black.\n- Pixel likes tuna."
    out = quote_lines(snippet, PATH, 3, "pixel", lead="From memory:")
    assert out.endswith(f"Source: {PATH}#L3,L6"), out
