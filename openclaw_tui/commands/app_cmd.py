"""``openclaw-tui`` with no subcommand: the Textual app on the configured workspace and model."""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
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


def command_word(argv0: str | None = None) -> str:
    """How to type this program again: ``openclaw-tui`` when that name on PATH is this very
    script, else the script's absolute path (``make run`` starts ``.venv/bin/openclaw-tui``,
    which a new shell does not find by name; issue 37)."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    if os.path.basename(argv0) != "openclaw-tui":  # python -m openclaw_tui.cli, a test runner
        return "openclaw-tui"
    found = shutil.which("openclaw-tui")
    here = os.path.realpath(shutil.which(argv0) or argv0) if os.sep not in argv0 else os.path.realpath(argv0)
    if found and os.path.realpath(found) == here:
        return "openclaw-tui"
    return os.path.abspath(argv0) if os.sep in argv0 else here


def breadcrumb(args: argparse.Namespace, session_id: str | None, argv0: str | None = None) -> str | None:
    """The one line printed on quit: the command that continues this session."""
    if not session_id:
        return None
    words = [command_word(argv0)]
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
