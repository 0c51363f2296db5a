"""Slash commands about the session: help, new, resume, compact, flush, model, status, quit.

``/resume`` and ``/model`` without an argument open a :class:`Picker`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from openclaw_tui.tui.commands import registry
from openclaw_tui.tui.commands.host import live_engine
from openclaw_tui.tui.format import md_kv, n, picker_line
from openclaw_tui.tui.history_view import show_history
from openclaw_tui.tui.screens.picker import Picker

if TYPE_CHECKING:
    from openclaw_tui.tui.commands.host import CommandHost

PICKER_ROWS = 50  # saved sessions offered by the /resume picker and Tab completion


async def show_help(screen: "CommandHost", _arg: str) -> None:
    await screen.say(registry.help_markdown())


async def new_session(screen: "CommandHost", _arg: str) -> None:
    sid = live_engine(screen).new_session()
    await screen.start_over()
    screen.refresh_usage()
    await screen.say(f"New session `{sid}`.")


async def resume(screen: "CommandHost", arg: str) -> None:
    from openclaw_tui.session.scope import in_scope, scoped_sessions

    words = arg.split()
    everything = "--all" in words
    arg = " ".join(w for w in words if w != "--all")
    engine, settings = live_engine(screen), screen.settings
    key, ws = settings.session_key, str(settings.workspace)
    every = scoped_sessions(engine.list_sessions(), ws, key, everything=True)
    sessions = every if everything else [s for s in every if in_scope(s, ws, key)]
    if not arg:
        if not sessions:
            others = len(every) - len(sessions)
            more = f" ({others} in other workspaces or keys: `/resume --all`)" if others else ""
            await screen.say(f"No saved sessions in this workspace yet{more}.")
            return
        options = [(str(s.get("sessionId") or ""), picker_line(s, key, ws)) for s in sessions[:PICKER_ROWS]]
        title = "Resume a session — every workspace (newest first)" if everything else "Resume a session of this workspace (newest first; /resume --all for others)"
        picked = await screen.ask(Picker(title, [o for o in options if o[0]]))
        if not picked:
            return
        arg = picked
    sid = session_id_for(arg, every)
    try:
        engine.resume(sid)
    except ValueError as exc:  # whole, not cut at 160 characters: it names the flag to use
        await screen.chat.add_error(str(exc))
        return
    await screen.start_over()
    await show_history(screen.chat, engine)
    screen.refresh_usage()
    entry = next((s for s in every if s.get("sessionId") == sid), {})
    moved = entry.get("workspace") and not in_scope({"workspace": entry["workspace"]}, ws, key)
    note = f" It was started in `{entry['workspace']}`; it continues here, in `{ws}`." if moved else ""
    await screen.say(f"Resumed session `{engine.session_id}`.{note}")


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


async def copy_reply(screen: "CommandHost", arg: str) -> None:
    """/copy [n]: the n-th reply from the end (1, the last, by default)."""
    from openclaw_tui.tui.widgets.chat import AgentResponse

    try:
        nth = int(arg or "1")
    except ValueError:
        raise ValueError(f"usage: /copy [n] — n is a number (1 = the last reply), not {arg!r}") from None
    replies = [r for r in screen.chat.query(AgentResponse) if r.copy_source.strip()]
    if not replies:
        await screen.chat.add_error("nothing to copy yet: no reply in this chat")
        return
    if not 1 <= nth <= len(replies):
        await screen.chat.add_error(f"/copy {nth}: there {'is' if len(replies) == 1 else 'are'} {len(replies)} repl{'y' if len(replies) == 1 else 'ies'}")
        return
    what = "the last reply" if nth == 1 else f"reply {nth} from the end"
    screen.copy_out(replies[-nth].copy_source, what)


async def compact(screen: "CommandHost", arg: str) -> None:
    screen.busy.set("compacting")
    try:
        await live_engine(screen).compact(arg or None)
    finally:
        screen.busy.set("")
    screen.refresh_usage()


async def flush(screen: "CommandHost", _arg: str) -> None:
    screen.busy.set("flushing")
    try:
        await live_engine(screen).flush()
    finally:
        screen.busy.set("")


async def switch_model(screen: "CommandHost", arg: str | None) -> None:
    bar = screen.status_bar
    if not arg:
        current = bar.model
        names = [current] + [m for m in screen.arg_values("model") if m != current] + ["offline"]
        names = list(dict.fromkeys(m for m in names if m and m != "…"))
        labels = [(m, f"{m}   (current)" if m == current else m) for m in names]
        picked = await screen.ask(Picker("Switch model (configured and installed models)", labels))
        if not picked:
            return
        arg = picked
    engine = live_engine(screen)
    engine.set_model(arg)
    bar.model = engine.model_label
    bar.offline = engine.is_offline
    screen.refresh_usage()
    await screen.say(f"Model set to `{bar.model}`.")
    # a local model loads now, not with the next message (a no-op for the others)
    screen.run_worker(engine.warm_up(), group="model-load", exclusive=True)


async def show_status(screen: "CommandHost", _arg: str) -> None:
    s = screen.settings
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


async def quit_app(screen: "CommandHost", _arg: str) -> None:
    await screen.quit()
