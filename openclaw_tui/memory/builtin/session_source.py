"""Session transcripts as a memory source (DESIGN §7, opt-in).

Enabled by ``memorySearch.experimental.sessionMemory: true`` plus ``"sessions"`` in
``memorySearch.sources``. Each transcript ``<stateDir>/agents/<id>/sessions/<sid>.jsonl``
becomes one document ``sessions/<sid>.jsonl`` whose line N stands for JSONL line N:
``User: …`` / ``Assistant: …`` for user and assistant text (newlines folded to spaces),
an empty line for everything silent (header, tool calls and results, flush, compaction,
``NO_REPLY``…: the rule of ``records/transcript.py``).
So a search hit's ``startLine``/``endLine`` are the transcript's own line numbers.

When a transcript is re-indexed:

- a transcript already in the index is re-indexed once it has grown by at least
  ``sync.sessions.deltaBytes`` bytes or ``deltaMessages`` user/assistant messages, or a
  compaction entry was appended; below that it is reported unchanged (the index keeps the
  older text);
- a transcript not yet in the index is picked up when it was written after the source was
  switched on (the index keeps that moment in ``meta.sessionsSince``); older transcripts
  wait for ``memory index --force``, which backfills every transcript in full.

``memory_get`` never reads transcripts (it serves memory files only).
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from pathlib import Path
from typing import Any, Iterable

from openclaw_tui.config import AgentSettings
from openclaw_tui.records.forgotten_sessions import read_forgotten
from openclaw_tui.memory.builtin.sync_sources import SourceProvider, SyncContext
from openclaw_tui.memory.sources import SourceDoc
from openclaw_tui.memory.builtin.store import Store
from openclaw_tui.memory.transcript_scope import PREFIX
from openclaw_tui.records.transcript import parse_line, spoken_line

log = logging.getLogger("openclaw_tui.memory.session_source")

SOURCE = "sessions"
SINCE_META = "sessionsSince"


def render_line(raw: bytes) -> tuple[str, bool, bool]:
    """(rendered line, is a user/assistant message, is a compaction) for one JSONL line;
    what counts as text is the transcript module's one rule (``spoken_line``)."""
    entry = parse_line(raw)
    if entry is None:
        return "", False, False  # torn or garbled line: tolerated, renders empty
    text = spoken_line(entry)
    return text, bool(text), entry.get("type") == "compaction"


def render_transcript(data: bytes) -> tuple[str, int]:
    """The indexable text of a transcript (line N ↔ JSONL line N) and its message count."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    out = []
    messages = 0
    for raw in lines:
        text, is_msg, _ = render_line(raw) if raw.strip() else ("", False, False)
        out.append(text)
        messages += is_msg
    return "\n".join(out) + ("\n" if out else ""), messages


def delta_since(data: bytes, offset: int) -> tuple[int, int, bool]:
    """(new bytes, new user/assistant messages, compaction seen) after byte ``offset``."""
    if offset < 0 or offset > len(data):
        return len(data), 10**9, True  # shrank or rewritten: treat as all new
    tail = data[offset:]
    msgs = 0
    compacted = False
    for raw in tail.split(b"\n"):
        if not raw.strip():
            continue
        _, is_msg, is_comp = render_line(raw)
        msgs += is_msg
        compacted = compacted or is_comp
    return len(tail), msgs, compacted


class SessionSource:
    """An extra source of the builtin index producing ``sessions/<file>`` documents."""

    source = SOURCE

    def __init__(self, settings: AgentSettings):
        self.settings = settings
        self.sessions_dir: Path = settings.sessions_dir
        sync = settings.memory_search.sync.sessions
        self.delta_bytes = sync.delta_bytes
        self.delta_messages = sync.delta_messages

    @staticmethod
    def _indexed(store: Store) -> tuple[dict[str, Any], float]:
        """Rows of transcripts in the live index, and the moment the source was switched on."""
        try:
            rows = store.files(SOURCE)
            since_raw = store.get_meta(SINCE_META)
            if since_raw is None:
                since = time.time()
                store.set_meta(SINCE_META, repr(since))
            else:
                since = float(since_raw)
            return rows, since
        except Exception as exc:  # noqa: BLE001 - never break the sync over bookkeeping
            log.warning("sessions source: cannot read index state: %s", exc)
            return {}, 0.0

    def _files(self) -> Iterable[Path]:
        try:
            entries = sorted(os.scandir(self.sessions_dir), key=lambda e: e.name)
        except FileNotFoundError:
            return []
        except OSError as exc:
            log.warning("sessions source: cannot list %s: %s", self.sessions_dir, exc.strerror or exc)
            return []
        out = []
        for e in entries:
            try:
                if e.name.endswith(".jsonl") and not e.is_symlink() and e.is_file(follow_symlinks=False):
                    out.append(Path(e.path))
            except OSError:
                continue
        return out

    def __call__(self, ctx: SyncContext) -> list[SourceDoc]:
        rows, since = self._indexed(ctx.store)
        force = ctx.force  # `memory index --force` backfills every transcript
        docs: list[SourceDoc] = []
        fenced = read_forgotten(self.sessions_dir)  # `memory forget --session`: never ingested again
        fenced_ids = {f.session_id for f in fenced}
        fenced_digests = {f.transcript_sha256 for f in fenced if f.transcript_sha256}
        for path in self._files():
            key = PREFIX + path.name
            if path.stem in fenced_ids:
                continue
            try:
                st = path.stat()
                data = path.read_bytes()
            except OSError as exc:
                log.warning("sessions source: cannot read %s: %s", path.name, exc.strerror or exc)
                continue
            row = rows.get(key)
            if row is None and not force and st.st_mtime < since - 2.0:  # 2 s: coarse fs clocks
                continue  # older transcript: `memory index --force` backfills it
            digest = hashlib.sha256(data).hexdigest()
            if digest in fenced_digests:
                continue  # a forgotten transcript copied back under another name
            text, _ = render_transcript(data)
            doc = SourceDoc(path=key, source=SOURCE, text=text, mtime=st.st_mtime,
                            mtime_ns=st.st_mtime_ns, size=len(data), hash=digest)
            if row is not None and not force and row.hash != digest:
                new_bytes, new_msgs, compacted = delta_since(data, int(row.size))
                due = compacted or new_bytes >= self.delta_bytes or new_msgs >= self.delta_messages
                if not due:
                    # below the thresholds: report the indexed state so the sync skips it
                    doc.mtime, doc.mtime_ns, doc.size, doc.hash = row.mtime, row.mtime_ns, row.size, row.hash
            docs.append(doc)
        return docs


def attach(settings: AgentSettings, sources: list[SourceProvider]) -> SessionSource | None:
    """Add the sessions source to ``sources`` when the config turns it on (once)."""
    ms = settings.memory_search
    if not (ms.experimental.session_memory and SOURCE in ms.sources):
        return None
    if any(getattr(s, "source", None) == SOURCE for s in sources):
        return None
    src = SessionSource(settings)
    sources.append(src)
    return src
