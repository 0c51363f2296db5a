"""Slash commands about the session: help, new, resume, compact, flush, model, status, quit.

``/resume`` and ``/model`` without an argument open a :class:`Picker`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from openclaw_tui.tui import slash
from openclaw_tui.tui.format import md_kv, n, session_line
from openclaw_tui.tui.history_view import show_history
from openclaw_tui.tui.screens.picker import Picker

if TYPE_CHECKING:
    from openclaw_tui.tui.screens.main import MainScreen

PICKER_ROWS = 50  # saved sessions offered by the /resume picker and Tab completion


async def show_help(screen: "MainScreen", _arg: str) -> None:
    await screen.say(slash.help_markdown())


async def new_session(screen: "MainScreen", _arg: str) -> None:
    sid = screen.engine.new_session()
    await screen.chat.clear()
    screen.events.response = None
    screen.refresh_usage()
    await screen.say(f"New session `{sid}`.")


async def resume(screen: "MainScreen", arg: str | None) -> None:
    sessions = screen.engine.list_sessions()
    if not arg:
        if not sessions:
            await screen.say("No saved sessions yet.")
            return
        key = screen.oc_app.settings.session_key
        options = [(str(s.get("sessionId") or ""), session_line(s, key, plain=True)) for s in sessions[:PICKER_ROWS]]
        arg = await screen.app.push_screen_wait(Picker("Resume a session (newest first)", [o for o in options if o[0]]))
        if not arg:
            return
    screen.engine.resume(session_id_for(arg, sessions))
    await screen.chat.clear()
    await show_history(screen.chat, screen.engine)  # type: ignore[arg-type]  # None only before the first frame
    screen.refresh_usage()
    await screen.say(f"Resumed session `{screen.engine.session_id}`.")


def session_id_for(arg: str, sessions: list[dict[str, Any]]) -> str:
    """A full id, or the one id that starts with ``arg`` (``/resume 75cf``)."""
    ids = [str(s.get("sessionId") or "") for s in sessions]
    if arg in ids:
        return arg
    hits = [i for i in ids if i and i.startswith(arg)]
    if len(hits) > 1:
        shown = ", ".join(h[:13] + "…" for h in hits[:4])
        raise ValueError(f"{arg!r} starts {len(hits)} session ids ({shown}): type more of the id")
    return hits[0] if hits else arg  # no match: the engine says what is wrong


async def compact(screen: "MainScreen", arg: str) -> None:
    screen.busy.set("compacting")
    try:
        await screen.engine.compact(arg or None)
    finally:
        screen.busy.set("")
    screen.refresh_usage()


async def flush(screen: "MainScreen", _arg: str) -> None:
    screen.busy.set("flushing")
    try:
        await screen.engine.flush()
    finally:
        screen.busy.set("")


async def switch_model(screen: "MainScreen", arg: str | None) -> None:
    bar = screen.status_bar
    if not arg:
        current = bar.model
        names = [current] + [m for m in screen.arg_values("model") if m != current] + ["offline"]
        names = list(dict.fromkeys(m for m in names if m and m != "…"))
        labels = [(m, f"{m}   (current)" if m == current else m) for m in names]
        arg = await screen.app.push_screen_wait(Picker("Switch model (configured models)", labels))
        if not arg:
            return
    engine = screen.engine
    engine.set_model(arg)
    bar.model = engine.model_label
    bar.offline = engine.is_offline
    screen.refresh_usage()
    await screen.say(f"Model set to `{bar.model}`.")
    # a local model loads now, not with the next message (a no-op for the others)
    screen.run_worker(engine.warm_up(), group="model-load", exclusive=True)


async def show_status(screen: "MainScreen", _arg: str) -> None:
    s = screen.oc_app.settings
    bar = screen.status_bar
    usage = screen.meter.usage
    data: dict[str, Any] = {
        "model": bar.model + (" (offline agent)" if bar.offline else ""),
        "session": screen.engine.session_id if screen.engine is not None else "starting…",
        "session key": s.session_key,
        "agent": s.agent_id,
        "workspace": str(s.workspace),
        "workspace access": s.workspace_access,
    }
    if usage is not None:
        data["tokens"] = (
            f"{n(usage.used)} / {n(usage.context_window)} (flush at {n(usage.flush_threshold)}, "
            f"compaction at {n(usage.compaction_threshold)}, {'estimate' if usage.estimated else 'provider-reported'})"
        )
    await screen.say(md_kv("Status", data))


async def quit_app(screen: "MainScreen", _arg: str) -> None:
    await screen.oc_app.action_quit()
