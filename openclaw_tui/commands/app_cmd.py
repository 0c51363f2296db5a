"""``openclaw-tui`` with no subcommand: the Textual app on the configured workspace and model."""

from __future__ import annotations

import argparse
import shlex
import sys

from openclaw_tui import fast_exit
from openclaw_tui.commands.common import settings_from_args


def build_app(args: argparse.Namespace):
    from openclaw_tui.tui.app import OpenClawApp

    # the config is read by the app after its first frame (pydantic is most of the startup)
    return OpenClawApp(
        lambda: settings_from_args(args),
        continue_latest=bool(getattr(args, "continue_session", False)),
        session_id=getattr(args, "resume_session", None),
    )


def breadcrumb(args: argparse.Namespace, session_id: str | None) -> str | None:
    """The one line printed on quit: the command that continues this session."""
    if not session_id:
        return None
    words = ["openclaw-tui"]
    for flag, dest in (("--config", "config"), ("--workspace", "workspace"), ("--agent", "agent"),
                       ("--session-key", "session_key"), ("--model", "model")):
        value = getattr(args, dest, None)
        if value:
            words += [flag, str(value)]
    words += ["--resume", session_id]
    return "resume this session: " + " ".join(shlex.quote(w) for w in words)


def run(args: argparse.Namespace) -> int:
    app = build_app(args)

    def closed() -> None:  # the terminal is back: the resume line now, not after the cleanup
        line = breadcrumb(args, app.saved_session_id) if app.startup_error is None else None
        if line:
            print(line, file=sys.stderr, flush=True)

    app.on_closed = closed
    result = app.run()
    fast_exit.request()  # the app has closed everything it opened: skip the interpreter's teardown
    if app.startup_error is not None:
        raise app.startup_error  # a config error: the CLI prints its one line, exit 2
    if app.return_code:
        return int(app.return_code)
    return int(result or 0)
