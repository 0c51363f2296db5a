"""``openclaw-tui`` with no subcommand: the Textual app on the configured workspace and model."""

from __future__ import annotations

import argparse

from openclaw_tui.commands.common import settings_from_args


def build_app(args: argparse.Namespace):
    from openclaw_tui.tui.app import OpenClawApp

    settings = settings_from_args(args)
    return OpenClawApp(settings)


def run(args: argparse.Namespace) -> int:
    app = build_app(args)
    result = app.run()
    if app.return_code:
        return int(app.return_code)
    return int(result or 0)
