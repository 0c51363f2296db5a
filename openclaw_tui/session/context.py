"""What a session holds and sends with every prompt: its id, the system prompt, the startup
notes, the compaction summary, the live history, the tool box and the transcript they are
written to. One per engine, started again for each session (``/new``, a resume); the turn,
the flush, compaction and the loop's host read it where it stands. It is a :class:`RunLog`:
a turn's loop reads its prompt from it and writes its messages to it (and the transcript).
"""

from __future__ import annotations

from typing import Any

from openclaw_tui.config import AgentSettings
from openclaw_tui.records.session_store import SessionStore
from openclaw_tui.records.transcript import TranscriptWriter
from openclaw_tui.session.compaction import SUMMARY_HEADER
from openclaw_tui.session.conversation import History
from openclaw_tui.session.engine_notes import model_view
from openclaw_tui.tools.registry import ToolBox


def session_header(settings: AgentSettings, model: str) -> dict[str, Any]:
    """What sessions.json keeps about a session besides its counters."""
    return {"agentId": settings.agent_id, "sessionKey": settings.session_key, "workspace": str(settings.workspace),
            "workspaceAccess": settings.workspace_access, "model": model}


class SessionContext:
    def __init__(self) -> None:
        self.session_id = ""
        self.transcript: TranscriptWriter | None = None
        self.history = History(lambda _msg: 0)
        self.toolbox: ToolBox | None = None
        self.prompt = ""  # the system prompt built from the workspace
        self.notes = ""  # the startup notes (today's and yesterday's logs)
        self.today = ""  # the compact prompt's line naming today's note file (bootstrap.today_file_line)
        self.summary = ""  # the compaction summary
        self.persisted = False  # the session's header is on disk

    def start(self, session_id: str, transcript: TranscriptWriter, history: History, prompt: str, toolbox: ToolBox) -> None:
        """A new (or resumed) session: the previous one's transcript is closed."""
        self.close()
        self.session_id, self.transcript, self.history, self.prompt, self.toolbox = session_id, transcript, history, prompt, toolbox
        self.notes = self.summary = ""
        self.persisted = False

    def close(self) -> None:
        if self.transcript is not None:
            self.transcript.close()

    @property
    def tools(self) -> ToolBox:
        assert self.toolbox is not None, "the session has not started"
        return self.toolbox

    @property
    def log(self) -> TranscriptWriter:
        assert self.transcript is not None, "the session has not started"
        return self.transcript

    def system(self, extra: str | None = None) -> str:
        """Everything the model is told besides the history, as one text: the workspace's
        prompt, the notes, the summary, ``extra`` (what the meter counts, what a flush sends)."""
        parts = [self.prompt, self.carried()]
        if extra:
            parts.append(extra)
        return "\n\n".join(p for p in parts if p)

    def carried(self) -> str:
        """What the session carries besides its history: the startup notes, the summary."""
        parts = []
        if self.today:
            parts.append(self.today)
        if self.notes:
            parts.append(self.notes)
        if self.summary:
            parts.append(SUMMARY_HEADER + "\n" + self.summary)
        return "\n\n".join(parts)

    def leading(self) -> list[dict[str, Any]]:
        """The messages a turn's request starts with (a ``RunLog``): the workspace's system
        prompt alone first, so every request of a session, and of the next run on the same
        workspace, starts with the same bytes (the prompt, then the tool schemas the chat
        template puts beside it); the notes and the summary follow in a system message of their
        own. They change between runs (a note written today) and at a compaction; placed
        after the fixed part, the server re-reads only them (issue 38)."""
        out: list[dict[str, Any]] = [{"role": "system", "content": self.prompt}]
        carried = self.carried()
        if carried:
            out.append({"role": "system", "content": carried})
        return out

    def persist(self, store: SessionStore, header: dict[str, Any]) -> None:
        """Put the session on disk (sessions.json entry, transcript header) once."""
        if not self.persisted:
            self.persisted = True
            store.persist(self.session_id, self.log, self.notes, **header)

    def messages(self) -> list[dict[str, Any]]:
        return self.history.messages

    def add(self, msg: Any, **meta: Any) -> None:  # a message dict (``ChatMessage``)
        # the transcript keeps what was shown; the model's history its own words (engine_notes.py)
        self.history.add(model_view(msg, meta.get("engineNotes") or ()))
        self.log.append({"type": "message", "message": msg, **meta})
