"""Tombstones match a forgotten fact in disguise (issue 36, item 4): after NFKC, without format
characters, with look-alike letters and digits of any width folded, by its identifying words
with their subject, across two adjacent lines; and they travel with the workspace."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openclaw_tui.tools.files import FileTools
from openclaw_tui.workspace.tombstones import Tombstones, is_tombstoned

WIFI = "- The wifi password is hunter2"
LOCKER = "- The gym locker code is 4417"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    w = tmp_path / "ws"
    (w / "memory").mkdir(parents=True)
    return w


def forget(ws: Path, state: Path, *lines: str) -> Tombstones:
    stones = Tombstones.for_workspace(ws, state)
    stones.add(list(lines), "MEMORY.md", "h1")
    return stones


# the attack's five disguises (5 of 5 were stored again), and some more
DISGUISED = [
    ("one word dropped", WIFI, "- wifi password: hunter2"),
    ("one word dropped", LOCKER, "- locker code 4417"),
    ("split over two lines", WIFI, "- wifi password:\n  hunter2"),
    ("split over two lines", LOCKER, "- gym locker code\n- 4417"),
    ("zero-width space", WIFI, "- The wifi pass\u200bword is hun\u200bter2"),
    ("zero-width joiner and soft hyphen", LOCKER, "- The gym lock\u200der co\u00adde is 44\u200c17"),
    ("Cyrillic letters", WIFI, "- The wifi раsswоrd is hunter2"),
    ("Greek and Cyrillic", LOCKER, "- The gym lοcker cоde is 4417"),
    ("fullwidth digits", LOCKER, "- The gym locker code is ４４１７"),
    ("Arabic-Indic digits", LOCKER, "- gym locker code ٤٤١٧"),
    ("fullwidth letters", WIFI, "- ｗｉｆｉ password ｈｕｎｔｅｒ２"),
    ("digits with separators", LOCKER, "- gym locker: 44-17"),
    ("upper case and punctuation", WIFI, "WIFI PASSWORD -> HUNTER2!!"),
]


@pytest.mark.parametrize(("why", "fact", "again"), DISGUISED, ids=[d[0] + ":" + d[2][:18] for d in DISGUISED])
def test_a_disguised_restatement_is_refused(ws: Path, state_dir: Path, why: str, fact: str, again: str) -> None:
    forget(ws, state_dir, fact)
    assert is_tombstoned(ws, again, state_dir), why


UNRELATED = [
    "- what is the wifi password?",  # asks, names no value
    "- hunter2 is a game I used to play",  # the value without its subject
    "- 4417 steps today",
    "- the gym opens at 7",
    "- bought a new locker for the garage",
    "- wifi router moved to the hall",
]


@pytest.mark.parametrize("line", UNRELATED)
def test_unrelated_lines_pass(ws: Path, state_dir: Path, line: str) -> None:
    forget(ws, state_dir, WIFI, LOCKER)
    assert not is_tombstoned(ws, line, state_dir)


def test_tombstones_travel_with_the_workspace(ws: Path, state_dir: Path, tmp_path: Path) -> None:
    forget(ws, state_dir, LOCKER)
    moved = tmp_path / "renamed-ws"
    shutil.move(str(ws), str(moved))
    assert is_tombstoned(moved, LOCKER, state_dir)  # the exact line does not come back
    copy = tmp_path / "copy-ws"
    shutil.copytree(moved, copy)
    assert is_tombstoned(copy, "locker code 4417", state_dir)


def test_the_tools_do_not_touch_the_tombstones(ws: Path, state_dir: Path) -> None:
    forget(ws, state_dir, LOCKER)
    rel = ".openclaw/forgotten.jsonl"
    before = (ws / rel).read_bytes()
    tools = FileTools(ws, access="rw")
    assert tools.write({"path": rel, "content": ""}).get("refused")
    assert tools.append({"path": rel, "content": "x"}).get("refused")
    assert tools.read({"path": rel}).get("refused")
    assert (ws / rel).read_bytes() == before
    assert tools.append({"path": "memory/2026-01-01.md", "content": "- locker code: ４４１７"}).get("refused")


# ---------------------------------------------------------------- properties

WORDS = st.text(alphabet="abcdefghjkmn", min_size=4, max_size=9)
OTHER = st.text(alphabet="qrstuvwxyz", min_size=3, max_size=9)
FACT_DIGITS = st.text(alphabet="0123", min_size=4, max_size=6)
CYRILLIC = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "k": "к", "m": "м", "h": "һ"}
FULLWIDTH = {c: chr(ord(c) - 0x30 + 0xFF10) for c in "0123456789"}
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e"]


@st.composite
def disguised(draw: st.DrawFn) -> tuple[str, str]:
    a, b = draw(WORDS), draw(WORDS)
    n = draw(FACT_DIGITS)
    fact = f"- The {a} {b} code is {n}"
    text = fact
    if draw(st.booleans()):
        text = "".join(CYRILLIC.get(c, c) if draw(st.booleans()) else c for c in text)
    if draw(st.booleans()):
        text = "".join(FULLWIDTH.get(c, c) for c in text)
    spots = draw(st.lists(st.integers(min_value=3, max_value=len(text)), max_size=4))
    for at in sorted(spots, reverse=True):
        text = text[:at] + draw(st.sampled_from(INVISIBLE)) + text[at:]
    if draw(st.booleans()):
        text = text.upper()
    return fact, text


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pair=disguised())
def test_property_a_disguised_fact_still_matches(tmp_path: Path, pair: tuple[str, str]) -> None:
    fact, text = pair
    ws = tmp_path / "p"
    shutil.rmtree(ws, ignore_errors=True)
    ws.mkdir()
    stones = Tombstones.for_workspace(ws, tmp_path / "state")
    stones.add([fact], "MEMORY.md", "h")
    assert stones.match(text) is not None, (fact, text)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pair=disguised(), other=st.lists(OTHER, min_size=1, max_size=8), number=st.text(alphabet="56789", max_size=6))
def test_property_unrelated_text_does_not_match(tmp_path: Path, pair: tuple[str, str], other: list[str], number: str) -> None:
    fact, _ = pair
    ws = tmp_path / "q"
    shutil.rmtree(ws, ignore_errors=True)
    ws.mkdir()
    stones = Tombstones.for_workspace(ws, tmp_path / "state")
    stones.add([fact], "MEMORY.md", "h")
    line = "- " + " ".join(other) + (" " + number if number else "")
    assert stones.match(line) is None, (fact, line)
