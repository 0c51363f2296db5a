"""``openclaw-tui`` with no subcommand: the Textual app on the configured workspace and model."""

from __future__ import annotations

import argparse

from openclaw_tui.commands.common import settings_from_args


def build_app(args: argparse.Namespace):
    from openclaw_tui.tui.app import OpenClawApp

    # the config is read by the app after its first frame (pydantic is most of the startup)
    return OpenClawApp(
        lambda: settings_from_args(args),
        continue_latest=bool(getattr(args, "continue_session", False)),
    )


def run(args: argparse.Namespace) -> int:
    app = build_app(args)
    result = app.run()
    if app.startup_error is not None:
        raise app.startup_error  # a config error: the CLI prints its one line, exit 2
    if app.return_code:
        return int(app.return_code)
    return int(result or 0)
