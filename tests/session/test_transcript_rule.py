"""The one rule for what a transcript entry says (records/transcript.py), and that the
session memory source and the QMD export both follow it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openclaw_tui.memory.qmd.sessions_export import transcript_messages
from openclaw_tui.memory.builtin.session_source import render_line
from openclaw_tui.records.transcript import TranscriptWriter, spoken, spoken_line

# (entry, what it says: (role, text) or None when silent)
TABLE = [
    ({"type": "session", "version": 1, "id": "s"}, None),
    ({"type": "message", "message": {"role": "user", "content": "  two\nlines  "}}, ("user", "two lines")),
    ({"type": "message", "role": "user", "content": "flat form"}, ("user", "flat form")),
    ({"role": "assistant", "content": "no type"}, ("assistant", "no type")),
    ({"type": "message", "message": {"role": "assistant", "content": [{"type": "text", "text": "a"}, "b", {"type": "output_text", "text": "c"}]}}, ("assistant", "a b c")),
    ({"type": "message", "message": {"role": "assistant", "content": [{"type": "image_url", "text": "not text"}]}}, None),
    ({"type": "message", "message": {"role": "assistant", "content": "", "tool_calls": [{"id": "t"}]}}, None),
    ({"type": "message", "message": {"role": "assistant", "content": None, "tool_calls": [{"id": "t"}]}}, None),
    ({"type": "message", "message": {"role": "tool", "tool_call_id": "t", "content": "result"}}, None),
    ({"type": "message", "message": {"role": "system", "content": "sys"}}, None),
    ({"type": "message", "message": {"role": "assistant", "content": "NO_REPLY"}}, None),
    ({"type": "message", "message": {"role": "assistant", "content": "**no reply.**"}}, None),
    ({"type": "message", "message": {"role": "user", "content": "NO_REPLY"}}, ("user", "NO_REPLY")),
    ({"type": "message", "message": "not a dict"}, None),
    ({"type": "context", "notes": "today's log"}, None),
    ({"type": "flush", "path": "memory/x.md", "reply": "stored"}, None),
    ({"type": "compaction", "summary": "the summary", "kept": 2}, None),
    ({"type": "model", "model": "m"}, None),
    ({"type": "error", "message": "boom", "action": "retry"}, None),
    ({"type": "cancelled", "partial": "half an answer"}, None),
    ({"type": "pending", "message": {"role": "user", "content": "waiting"}}, None),
]


@pytest.mark.parametrize(("entry", "said"), TABLE)
def test_what_an_entry_says(entry, said):
    assert spoken(entry) == said
    line = spoken_line(entry)
    assert line == ("" if said is None else f"{'User' if said[0] == 'user' else 'Assistant'}: {said[1]}")
    # the session memory source renders the same line for the same JSONL line
    text, is_msg, is_comp = render_line(json.dumps(entry).encode())
    assert (text, is_msg, is_comp) == (line, said is not None, entry.get("type") == "compaction")


def test_the_export_and_the_index_read_a_transcript_alike(tmp_path: Path):
    path = tmp_path / "s.jsonl"
    w = TranscriptWriter(path)
    for entry, _ in TABLE:
        w.append(entry)
    w.close()
    with path.open("ab") as fh:
        fh.write(b'{"type": "message", "message": {"role": "user", "content": "torn')
    want = [said for _, said in TABLE if said is not None]
    assert transcript_messages(path) == want
    indexed = [render_line(raw)[0] for raw in path.read_bytes().split(b"\n") if raw.strip()]
    assert [line for line in indexed if line] == [spoken_line({"role": r, "content": t}) for r, t in want]


SECRET_CARD = "4539 1488 0343 6467"  # passes Luhn


@pytest.mark.parametrize("said, gone", [
    (f"My card is {SECRET_CARD}.", SECRET_CARD),
    ("My API key is sk-proj-Zk4vY2uQx81LmN0pRtS7wA.", "sk-proj-Zk4vY2uQx81LmN0pRtS7wA"),
    ("I'm interviewing at Globex next week, don't write that down.", "Globex"),
    ("Estoy buscando trabajo en Initech, no lo apuntes.", "Initech"),
])
def test_session_sources_never_hold_a_secret_or_what_was_not_to_be_kept(tmp_path: Path, said: str, gone: str):
    # the transcript keeps what was said (it is the user's own record, owner-only) except its
    # secrets, which are markers there as in every file; what the session memory sources index
    # or export keeps neither the secrets nor what was not to be kept (issue 35: secrets, consent)
    path = tmp_path / "s.jsonl"
    w = TranscriptWriter(path)
    w.append({"type": "session", "version": 1, "id": "s"})
    w.append({"type": "message", "message": {"role": "user", "content": said}})
    w.append({"type": "message", "message": {"role": "assistant", "content": f"Sure: {said}"}})
    w.close()
    assert (gone in path.read_text()) is (gone in ("Globex", "Initech"))
    exported = [text for _, text in transcript_messages(path)]
    indexed = [render_line(raw)[0] for raw in path.read_bytes().splitlines()][1:]
    assert indexed[0].startswith("User: ") and indexed[1].startswith("Assistant: ")
    for user, assistant in (exported, indexed):
        if gone in (SECRET_CARD, "sk-proj-Zk4vY2uQx81LmN0pRtS7wA"):
            assert gone not in user + assistant
            assert all("[secret withheld" in t or "***" in t for t in (user, assistant))
        else:
            assert "not kept" in user and gone not in user


def test_a_secret_said_in_a_session_is_a_marker_in_its_transcript(tmp_path: Path) -> None:
    """Newcomer walk: "Please don't write this down: my PIN is 4821." kept the PIN in the
    transcript (and a resumed session showed it to the model again). Texts of message entries
    are written as memory files are: secrets as markers, the words around them kept."""
    path = tmp_path / "s.jsonl"
    w = TranscriptWriter(path)
    w.append({"type": "message", "message": {"role": "user", "content": "Please don't write this down: my PIN is 4821."}})
    w.append({"type": "message", "message": {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "append", "arguments": json.dumps({"path": "memory/x.md", "content": "card 4111 1111 1111 1111"})}}]}})
    w.append({"type": "message", "message": {"role": "user", "content": [{"type": "text", "text": "mi contraseña es Gato123!"}]}})
    w.append({"type": "compaction", "summary": "kept as is"})
    w.close()
    raw = path.read_text()
    assert "4821" not in raw and "4111 1111" not in raw and "Gato123" not in raw, raw
    lines = [json.loads(x) for x in raw.splitlines()]
    assert lines[0]["message"]["content"] == "Please don't write this down: my PIN is [secret withheld: PIN]."
    assert json.loads(lines[1]["message"]["tool_calls"][0]["function"]["arguments"])["path"] == "memory/x.md"
    assert lines[1]["message"]["tool_calls"][0]["id"] == "c1" and lines[3]["summary"] == "kept as is"
