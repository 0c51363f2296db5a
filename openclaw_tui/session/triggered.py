"""Trigger recall in a turn: the annotated MEMORY.md/USER.md entries a message triggers
(memory/triggers.py) are read in before the model answers.

Each triggered entry becomes a ``memory_get`` of its lines, made by the engine like the
automatic lookup of ``recall.py``: the call and its result go into the conversation (the
transcript marks them ``autoRecall``), so the model, the transcript and a replay all see the
same text, and the read goes through the backend's own route (path rules, the private-file
rule). A ``MemoryTriggered`` event tells the front end (the side panel shows "triggered").
Group and channel sessions get nothing: ``triggered_for`` returns [] for them. When the
memory backend has an embedding provider, a phrase also matches by meaning
(``memory/trigger_vectors.py``).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Awaitable, Callable

from openclaw_tui import events
from openclaw_tui.llm.client import Completion, ToolCall
from openclaw_tui.memory.trigger_vectors import TriggerVectorSource
from openclaw_tui.memory.triggers import MAX_TRIGGERED, triggered_for
from openclaw_tui.session.offline import call_id
from openclaw_tui.tools.registry import ToolBox, read_tool

RunCall = Callable[[ToolCall, ToolBox, Callable[..., None]], Awaitable[None]]


async def inject_triggered(run_call: RunCall, toolbox: ToolBox, add: Callable[..., None], emit: events.EventSink,
                           workspace: Path, session_key: str, text: str) -> list[ToolCall]:
    """Read in what ``text`` triggers (at most 3 entries) with ``run_call`` (the loop's
    ``run_tool_call``); returns the calls made (the loop counts them as this turn's automatic
    calls, so the model asking for the same lines again is a repeat)."""
    if not toolbox.memory_available or read_tool().name not in toolbox.names():
        return []
    memory = toolbox.memory
    similarity = memory.trigger_similarity() if isinstance(memory, TriggerVectorSource) else None
    if similarity is None:
        found = triggered_for(workspace, session_key, text, MAX_TRIGGERED)
    else:  # the message is embedded: off the event loop
        found = await asyncio.to_thread(triggered_for, workspace, session_key, text, MAX_TRIGGERED, similarity)
    if not found:
        return []
    emit(events.MemoryTriggered(message=text, entries=[t.to_dict() for t in found]))
    calls = []
    for t in found:
        args = {"path": t.entry.path, "from": t.entry.start, "lines": t.entry.end - t.entry.start + 1}
        calls.append(ToolCall(call_id("trigger"), read_tool().name, json.dumps(args, ensure_ascii=False)))
    add(Completion(tool_calls=calls).assistant_message(), autoRecall=True)
    for tc in calls:
        await run_call(tc, toolbox, add)
    return calls
