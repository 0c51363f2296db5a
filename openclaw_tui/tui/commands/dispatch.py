"""Running a slash command: parse it, check it may run now, call its handler in a worker.

Every command of the :mod:`openclaw_tui.tui.commands.registry` table has exactly one handler here,
checked when this module loads; the dispatch looks the parsed command up in that table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Awaitable, Callable

from openclaw_tui.tui.commands import files, mcp, memory, registry, session
from openclaw_tui.tui.format import one_line
from openclaw_tui.tui.messages import Settled

if TYPE_CHECKING:
    from openclaw_tui.tui.commands.host import CommandHost

Handler = Callable[["CommandHost", str], Awaitable[None]]

HANDLERS: dict[str, Handler] = {
    "help": session.show_help,
    "new": session.new_session,
    "resume": session.resume,
    "copy": session.copy_reply,
    "compact": session.compact,
    "flush": session.flush,
    "memory search": memory.search,
    "memory status": memory.status,
    "memory index": memory.index,
    "memory open": files.open_in_editor,
    "memory history": files.history,
    "memory restore": files.restore,
    "undo": memory.undo,
    "forget": memory.forget,
    "model": session.switch_model,
    "status": session.show_status,
    "mcp": mcp.show_servers,
    "init": files.init_workspace,
    "quit": session.quit_app,
}
if set(HANDLERS) != set(registry.BY_NAME):  # pragma: no cover - a programming error, caught by any import
    raise ImportError(f"slash handlers out of step with the table: {sorted(set(HANDLERS) ^ set(registry.BY_NAME))}")

BEFORE_ENGINE = ("help", "quit", "status")  # commands that work while the engine starts


async def run_slash(screen: "CommandHost", text: str) -> None:
    try:
        parsed = registry.parse(text)
    except registry.SlashError as exc:
        await screen.chat.add_error(str(exc))
        return
    command = parsed.command
    if screen.engine is None and command.name not in BEFORE_ENGINE:
        if screen.engine_failed:
            await screen.chat.add_error(f"{command.usage} is unavailable: the session did not start", "fix the problem above and restart")
        else:
            screen.notify("the session engine is still starting — try again in a moment", severity="warning")
        return
    if not command.mid_turn and (screen.turn_running or screen.command_running):
        busy = "a reply is streaming" if screen.turn_running else f"/{screen.command_running} is running"
        await screen.chat.add_error(f"{command.usage} cannot run while {busy}", "wait for it, or press Esc to cancel a reply")
        return
    if not command.mid_turn:
        screen.command_running = command.name  # set before the worker starts: nothing overlaps it
    screen.run_worker(_run(screen, HANDLERS[command.name], parsed.arg, exclusive=not command.mid_turn), group="command")


async def _run(screen: "CommandHost", handler: Handler, arg: str, exclusive: bool) -> None:
    try:
        await handler(screen, arg)
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback
        await screen.chat.add_error(f"command failed: {one_line(str(exc), 160)}")
    finally:
        if exclusive:
            screen.command_running = None
        screen.post_message(Settled())
