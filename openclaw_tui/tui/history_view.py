"""A resumed conversation shown again as it was: prompts, replies, tool calls with their
results, provider errors and cancelled replies (read from the transcript)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from textual.widget import MountError

from openclaw_tui.tui.event_view import DEFAULT_ERROR_ACTION
from openclaw_tui.tui.widgets.chat import ChatView, ToolBlock

if TYPE_CHECKING:
    from openclaw_tui.session.surface import EngineSurface
    from openclaw_tui.tui.replay import ReplayItem  # imports the engine: loaded once it is up

SHOWN_ITEMS = 200  # the most recent items replayed into the chat


async def show_history(chat: ChatView, engine: "EngineSurface", limit: int = SHOWN_ITEMS) -> None:
    from openclaw_tui.records.transcript import read_transcript
    from openclaw_tui.tui.replay import replay

    entries = await asyncio.to_thread(read_transcript, engine.transcript_path)
    if not entries:  # no transcript (yet): what the engine holds
        entries = [{"type": "message", "message": m} for m in engine.history]
    shown = replay(entries)
    summary = (shown.summary or engine.summary).strip()
    if summary:
        # after a compaction the older turns live only in the summary: without it a
        # resumed session looked empty
        await chat.add_notice("**Earlier conversation (compacted)**\n\n" + summary)
    try:
        for item in shown.items[-limit:]:
            await _show_item(chat, item)
    except MountError:
        return  # the app closed while the conversation was being shown again
    settings = getattr(chat.app, "settings", None)
    if settings is not None:
        blocks = list(chat.query(ToolBlock))
        calls = [(b.tool_name, dict(b.arguments or {}), b.error) for b in blocks]
        for i, diff, summary in await asyncio.to_thread(_diffs, calls, settings.agent_dir, engine.session_id):
            blocks[i].show_diff(diff, summary)


def _diffs(calls: list[tuple[str, dict, str | None]], agent_dir, session_id: str) -> list[tuple[int, str, str]]:
    """The ✎ diffs of a resumed session's memory writes, as (block index, diff, summary):
    the transcript keeps only the tool result (``{"ok": true}``), the memory history both
    versions; matched in order, by path, to the calls that wrote."""
    from openclaw_tui.tools.registry import spec_for
    from openclaw_tui.records.change_diff import change_event
    from openclaw_tui.records.history import HistoryError, MemoryChange, MemoryHistory

    history = MemoryHistory.for_agent(agent_dir)
    entries = [e for e in history.entries() if e.session_id == session_id and e.actor == "model"]
    out, pos = [], 0
    for i, (name, arguments, error) in enumerate(calls):
        spec = spec_for(name)
        if spec is None or not spec.writes or error:
            continue
        path = str(arguments.get("path") or "")
        j = next((k for k in range(pos, len(entries)) if entries[k].path == path), None)
        if j is None:
            continue
        entry, pos = entries[j], j + 1
        try:
            change = MemoryChange(entry.path, entry.tool, history.content(entry.before), history.content(entry.after), entry)
        except HistoryError:
            continue  # that version was pruned: the block keeps its result
        event = change_event(change)
        out.append((i, event.diff, event.summary))
    return out


async def _show_item(chat: ChatView, item: "ReplayItem") -> None:
    if item.kind == "user":
        await chat.add_user(item.text)
    elif item.kind in ("assistant", "cancelled"):
        last = chat.children[-1] if chat.children else None
        if item.kind == "cancelled" and last is not None and last.has_class("-cancelled"):
            return  # the reply already carries its cancelled mark
        response = await chat.add_response()
        await response.finish(item.text, cancelled=item.cancelled or item.kind == "cancelled")
    elif item.kind == "tool":
        await chat.add_tool(item.call_id, item.name, item.arguments)
    elif item.kind == "result":
        block = chat.find_tool(item.call_id)
        if block is not None:
            block.set_result(item.result, item.error)
    elif item.kind == "error":
        await chat.add_error(item.text, item.action or DEFAULT_ERROR_ACTION)
