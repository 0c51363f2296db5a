"""How a turn ends when it does not end with an answer: a provider error (the partial answer
kept, the error in the transcript where it happened) or a cancel (the partial answer kept
and marked). A base of ``SessionEngine``: the parts of the engine these steps use are
declared here."""

from __future__ import annotations

import asyncio
from typing import Any

from openclaw_tui import events
from openclaw_tui.llm.errors import LLMError
from openclaw_tui.session.conversation import History
from openclaw_tui.session.surface import CANCEL_MARK, TurnResult
from openclaw_tui.session.tool_loop import RunScratch
from openclaw_tui.records.transcript import TranscriptWriter


class TurnEnding:
    session_id: str
    _history: History
    _turn_scratch: RunScratch
    _transcript: TranscriptWriter

    def _emit(self, event: events.Event) -> None:
        raise NotImplementedError

    def token_snapshot(self) -> events.TokenUsage:
        raise NotImplementedError

    def _persist_header(self) -> None:
        raise NotImplementedError

    def _add(self, msg: dict[str, Any], **meta: Any) -> None:
        raise NotImplementedError

    def _finished(self, done: TurnResult) -> TurnResult:
        done.usage = self.token_snapshot()
        self._emit(done.usage)
        return done

    def _ended_by_error(self, exc: LLMError, done: TurnResult) -> TurnResult:
        self._emit(exc.info.event())
        # so a resumed session shows it where it happened
        self._transcript.append({"type": "error", "message": exc.info.line(), "action": exc.info.action or ""})
        done.text, done.error = "".join(self._turn_scratch.partial), exc.info.line()
        self._emit(events.TurnFinished(session_id=self.session_id, text=done.text))
        return self._finished(done)

    def _ended_by_cancel(self, done: TurnResult, prompt: dict[str, Any]) -> TurnResult:
        task = asyncio.current_task()
        if task is not None:
            task.uncancel()
        if all(m is not prompt for m in self._history.messages):  # cancelled while getting ready
            self._persist_header()
            self._add(prompt)
        partial = "".join(self._turn_scratch.partial)
        self._transcript.append({"type": "cancelled", "partial": partial})
        last = self._history.last()
        if last is not None and last.get("role") == "assistant" and partial and last.get("content") == partial:
            last["content"] = partial + "\n" + CANCEL_MARK
        self._emit(events.TurnFinished(session_id=self.session_id, text=partial, cancelled=True))
        done.text, done.cancelled = partial, True
        return self._finished(done)
