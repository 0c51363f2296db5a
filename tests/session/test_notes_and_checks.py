"""The write side's pure parts (issue 24): note lines (dates only when certain), dedup; the reply
check (citations, save claims, echoes); the compaction summary check and repair."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from openclaw_tui.session.notes import already_noted, note_lines
from openclaw_tui.session.reply_check import (
    Evidence,
    check_reply,
    claims_save,
    echoes_prompt,
    fix_statement_reply,
    reads_of,
    verify_citations,
)
from openclaw_tui.session.summary_check import check_summary, identifiers, repair, unsupported_lines, user_side
from openclaw_tui.tools.note_text import dated_note
from openclaw_tui.workspace.bootstrap import MEMORY_RECALL_COMPACT

TODAY = date(2026, 12, 4)  # a Friday


def test_note_lines_skip_what_the_log_or_an_earlier_line_holds() -> None:
    existing = "# 2026-12-04\n- User: The gate code is 4471.\n- Favourite colour: teal-4711\n"
    facts = ["The gate code is 4471.", "My favourite colour is teal-4711.", "The review is tomorrow at 10:00.",
             "The review is tomorrow at 10:00."]
    assert note_lines(facts, today=TODAY, lang="en", existing=existing) == \
        ["- User: The review is tomorrow (2026-12-05) at 10:00."]
    assert already_noted("gate code 4471", existing) and not already_noted("gate code 4472", existing)


def test_a_note_for_another_day_keeps_its_date() -> None:
    assert dated_note("- booked the boat", "2026-05-14") == "- (2026-05-14) booked the boat"
    assert dated_note("booked\nthe boat\n", "2026-05-14") == "(2026-05-14) booked\nthe boat\n"
    assert dated_note("2026-05-14: booked", "2026-05-14") == "2026-05-14: booked"


HIT = {"path": "memory/2026-12-01.md", "startLine": 3, "endLine": 8}


@pytest.mark.parametrize(("text", "expected", "removed"), [
    ("Teal.\n\nSource: memory/2026-12-01.md#L4-L5", "Teal.\n\nSource: memory/2026-12-01.md#L4-L5", []),
    ("Teal.\n\nSource: memory/2026-12-01.md#L20-L22", "Teal.", ["memory/2026-12-01.md#L20-L22"]),
    ("2 + 2 equals 4. Source: memory/2026-12-04.md#L1-2", "2 + 2 equals 4.", ["memory/2026-12-04.md#L1-2"]),
    ("Teal (Sources: memory/2026-12-01.md#L4, memory/b.md#L9).", "Teal (Source: memory/2026-12-01.md#L4).", ["memory/b.md#L9"]),
    ("Teal.\nSources: memory/2026-12-01.md#L3, MEMORY.md#L1", "Teal.\nSource: memory/2026-12-01.md#L3", ["MEMORY.md#L1"]),
    ("From USER.md#L1-L2: Ada.", "From USER.md#L1-L2: Ada.", []),  # read this turn
    ("Source: ci-7.example.net#L10-12", "", ["ci-7.example.net#L10-12"]),  # a host on a Source: line
    # a file named with no lines must still be a hit or a read of this turn (tmux: "84. Source: memory/2026-12-05.md")
    ("12 times 7 equals 84. Source: memory/2026-12-05.md", "12 times 7 equals 84.", ["memory/2026-12-05.md"]),
    ("Teal.\nSource: memory/2026-12-01.md", "Teal.\nSource: memory/2026-12-01.md", []),
    ("Teal.\nSources: memory/2026-12-01.md, memory/b.md", "Teal.\nSource: memory/2026-12-01.md", ["memory/b.md"]),
    ("Teal (Source: USER.md).", "Teal (Source: USER.md).", []),
    ("See MEMORY.md for more.", "See MEMORY.md for more.", []),  # naming a file is not citing it
    ("Teal.\nSources: memory/2026-12-01.md#L4, notes#L2", "Teal.\nSource: memory/2026-12-01.md#L4", ["notes#L2"]),
    ("Teal (memory/2026-12-01.md#L3-L5,L40-L41).", "Teal (memory/2026-12-01.md#L3-L5,L40-L41 (unverified)).",
     ["memory/2026-12-01.md#L3-L5,L40-L41"]),
])
def test_citations_stay_only_when_the_turn_found_them(text: str, expected: str, removed: list[str]) -> None:
    ev = Evidence(hits=(HIT,), reads=(("USER.md", 1, None),))
    assert verify_citations(text, ev) == (expected, removed)


def test_reads_of_takes_successful_reads_with_their_ranges() -> None:
    calls = [("read", {"path": "USER.md"}, {"path": "USER.md", "text": "x"}),
             ("memory_get", {"path": "memory/a.md", "from": 5, "lines": 3}, {"path": "memory/a.md", "text": "y"}),
             ("read", {"path": "gone.md"}, {"error": "gone.md does not exist"}),
             ("append", {"path": "memory/a.md"}, {"ok": True})]
    assert reads_of(calls) == [("USER.md", 1, None), ("memory/a.md", 5, 7)]


@pytest.mark.parametrize(("reply", "claims"), [
    ("I remember that your dentist appointment is on Friday.", True),
    ("Got it, I'll remember that.", True),
    ("I've saved it to your notes.", True),
    ("Noted and stored in memory/2026-12-04.md.", True),
    ("Your dentist appointment is on Friday.", False),
    ("Do you remember where we put the keys?", False),
])
def test_save_claims(reply: str, claims: bool) -> None:
    assert claims_save(reply) is claims


def test_a_save_claim_without_a_write_gets_a_note_saying_why() -> None:
    ro = check_reply("I'll remember that.", Evidence(), access="ro", memory_on=True)
    assert ro.note and "read-only" in ro.text and ro.text.startswith("I'll remember that.")
    rw = check_reply("I'll remember that.", Evidence(), access="rw", memory_on=True)
    assert "no memory file was written" in rw.text
    wrote = check_reply("I'll remember that.", Evidence(wrote=1), access="rw", memory_on=True)
    assert wrote.text == "I'll remember that." and not wrote.corrected


SYSTEM = "You are a helpful assistant.\n" + MEMORY_RECALL_COMPACT.format(daily="memory/2026-12-04.md")


@pytest.mark.parametrize(("reply", "echo"), [
    ("To answer about the past (people, events, dates, preferences), call `memory_search`, then answer in one or two sentences.", True),
    ("To remember something the user tells you, call `append` with path memory/2026-12-04.md and the fact as content.", True),
    ("Nice, a new VPN host. I'll use vpn-east.acme.io from now on.", False),
    ("Got it.", False),
])
def test_replies_that_repeat_the_prompt_are_echoes(reply: str, echo: bool) -> None:
    assert echoes_prompt(reply, SYSTEM, "My VPN host is vpn-east.acme.io.") is echo


def test_a_statement_reply_that_echoes_or_cannot_answer_becomes_an_acknowledgement() -> None:
    kw = {"system": SYSTEM, "user": "My VPN host is vpn-east.acme.io.", "access": "rw", "cue": False}
    assert fix_statement_reply("I could not answer that from what I found.", saved_to="memory/2026-12-04.md", **kw) == \
        "Noted — saved to memory/2026-12-04.md."
    assert fix_statement_reply("call `memory_search` first", saved_to=None, **kw) == "Noted."
    assert fix_statement_reply("Thanks, noted the new host.", saved_to=None, **kw) == "Thanks, noted the new host."
    # the same words with a reference the turn never found: the acknowledgement
    assert fix_statement_reply("Thanks, noted the new host.", saved_to="memory/2026-12-04.md", invented=True, **kw) == \
        "Noted — saved to memory/2026-12-04.md."


RENDERED = """Earlier summary:
- The budget for Atlas is $48,500
User: Our VPN hostname is now vpn-east-12.acme.net.
Assistant: Noted.
User: Priya Raman is our on-call lead.
User: The account code for travel is FIN-2231-B.
Assistant: 12 times 7 is 84."""


def test_a_summary_must_keep_the_users_identifiers_and_invent_nothing() -> None:
    assert "84" not in identifiers(user_side(RENDERED))  # the assistant's numbers are not the user's facts
    good = "- Budget for Atlas: $48,500\n- VPN host vpn-east-12.acme.net\n- On-call lead Priya Raman\n- Travel code FIN-2231-B"
    assert check_summary(good, RENDERED).ok
    bad = "- VPN host vpn-east-12.acme.net\n- User: I need to update the calendar for the upcoming week and book flights"
    check = check_summary(bad, RENDERED)
    assert check.missing == ["$48,500", "FIN-2231-B", "Atlas", "Raman"]
    assert check.invented == ["- User: I need to update the calendar for the upcoming week and book flights"]
    fixed = repair(bad, check, RENDERED)
    assert check_summary(fixed, RENDERED).ok and "calendar" not in fixed
    assert "- The account code for travel is FIN-2231-B." in fixed and not unsupported_lines(fixed, RENDERED)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["FIN-1234", "vpn-a.b.net", "Oslo", "$9,900", "2027-01-15", "Kowalski", "the", "ok", "team"]),
                min_size=1, max_size=8), st.booleans())
def test_repair_always_yields_a_summary_that_passes(words: list[str], drop: bool) -> None:
    rendered = "\n".join(f"User: We noted {w} for the plan." for w in words)
    summary = "- a line about nothing in particular whatsoever" if drop else "- " + " ".join(words[:2])
    check = check_summary(summary, rendered)
    assert check_summary(repair(summary, check, rendered), rendered).ok


def test_a_second_check_does_not_mark_a_reference_twice() -> None:
    once, removed = verify_citations("84 (memory/2026-12-05.md#L11-L14)", Evidence())
    assert once.endswith("#L11-L14 (unverified))") and removed == ["memory/2026-12-05.md#L11-L14"]
    assert verify_citations(once, Evidence()) == (once, [])


TEMPLATE = {"path": "USER.md", "startLine": 1, "endLine": 6,
            "snippet": "# USER.md — who you help\n\n- Name:\n- Preferred name:\n- Time zone:\n- Notes: (the user's stable preferences go here)"}
DENTIST = {"path": "memory/2026-12-05.md", "startLine": 1, "endLine": 2,
           "snippet": "# 2026-12-05\n- User: My dentist appointment is on Friday 2026-12-11 at 9am."}


@pytest.mark.parametrize(("text", "expected", "removed"), [
    # the real 1.5B's reply to a general question, citing the template the automatic lookup returned
    ("12 times 7 equals 84. Source: USER.md#L1-L6", "12 times 7 equals 84.", ["USER.md#L1-L6"]),
    ("84.\n\nSource: USER.md#L1-L6", "84.", ["USER.md#L1-L6"]),
    ("12 times 7 equals 84. Source: USER.md", "12 times 7 equals 84.", ["USER.md"]),
    ("84 (USER.md#L2).", "84 (USER.md#L2 (unverified)).", ["USER.md#L2"]),
    # the answer draws on the cited snippet: a word, an inflected word, a number
    ("Your dentist appointment is on Friday at 9am.\nSource: memory/2026-12-05.md#L2",
     "Your dentist appointment is on Friday at 9am.\nSource: memory/2026-12-05.md#L2", []),
    ("Two dentist appointments.\nSource: memory/2026-12-05.md#L1-L2",
     "Two dentist appointments.\nSource: memory/2026-12-05.md#L1-L2", []),
    ("On 2026-12-11.\nSource: memory/2026-12-05.md#L2", "On 2026-12-11.\nSource: memory/2026-12-05.md#L2", []),
    # nothing but a yes: nothing to compare, the found reference stays
    ("Yes, according to your notes.\nSource: memory/2026-12-05.md#L2",
     "Yes, according to your notes.\nSource: memory/2026-12-05.md#L2", []),
    # of two cited hits only the one the answer draws on stays
    ("Friday at 9am.\nSources: memory/2026-12-05.md#L2, USER.md#L1-L6",
     "Friday at 9am.\nSource: memory/2026-12-05.md#L2", ["USER.md#L1-L6"]),
])
def test_a_citation_stays_only_when_the_answer_draws_on_the_cited_snippet(text: str, expected: str,
                                                                           removed: list[str]) -> None:
    ev = Evidence(hits=(TEMPLATE, DENTIST))
    assert verify_citations(text, ev) == (expected, removed)


def test_a_reference_that_was_read_needs_no_shared_word() -> None:
    ev = Evidence(hits=(TEMPLATE,), reads=(("USER.md", 1, None),))
    assert verify_citations("84.\nSource: USER.md#L1-L6", ev) == ("84.\nSource: USER.md#L1-L6", [])


def test_the_path_in_a_reference_does_not_count_as_a_shared_word() -> None:
    # "2026-12-05" of the path is also the snippet's heading: not what the answer says
    dated = {"path": "memory/2026-12-05.md", "startLine": 1, "endLine": 1, "snippet": "# 2026-12-05"}
    assert verify_citations("Paris.\nSource: memory/2026-12-05.md#L1", Evidence(hits=(dated,))) == (
        "Paris.", ["memory/2026-12-05.md#L1"])


_WORDS = st.sampled_from(["teal", "logo", "84", "dentist", "Friday", "yes", "notes", "the", "2026-12-05", "appointments"])
_REFS = st.sampled_from(["USER.md#L1-L6", "USER.md#L2", "memory/2026-12-05.md#L2", "memory/2026-12-05.md#L1-L2,L9",
                         "memory/2026-12-05.md#L40", "memory/x.md#L1", "USER.md", "memory/2026-12-05.md"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDS, max_size=6), st.lists(_REFS, min_size=1, max_size=3),
       st.sampled_from(["\nSource: {}", " Source: {}", " (Sources: {})", "\n**Sources:** {}", " ({})"]))
def test_every_reference_left_unmarked_is_found_and_drawn_on(words: list[str], refs: list[str], shape: str) -> None:
    from openclaw_tui.session.reply_check import LINE_REF_RE, _ranges, answer_words, is_found, is_supported

    ev = Evidence(hits=(TEMPLATE, DENTIST))
    text = " ".join(words) + "." + shape.format(", ".join(refs))
    out, removed = verify_citations(text, ev)
    said = answer_words(text)
    for m in LINE_REF_RE.finditer(out):
        if out[m.end():].startswith(" (unverified)"):
            continue
        assert is_found(m.group("path"), _ranges(m), ev) and is_supported(m.group("path"), _ranges(m), ev, said), (text, out)
    assert verify_citations(out, ev)[0] == out  # a second check changes nothing
    assert set(removed) <= set(refs) | {r.split("#")[0] for r in refs}

