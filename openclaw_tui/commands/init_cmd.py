"""``openclaw-tui init [--workspace DIR]``."""

from __future__ import annotations

import argparse
from pathlib import Path

from openclaw_tui.commands.common import fail, settings_from_args
from openclaw_tui.workspace.template import init_workspace


def run(args: argparse.Namespace) -> int:
    if getattr(args, "init_workspace", None):
        args.workspace = args.init_workspace
    settings = settings_from_args(args)
    dest = Path(settings.workspace)
    try:
        created, kept = init_workspace(dest)
    except OSError as exc:
        return fail(f"cannot create workspace {dest}: {exc.strerror or exc}")
    print(f"workspace: {dest}")
    for rel in created:
        print(f"  created {rel}")
    for rel in kept:
        print(f"  kept    {rel} (exists)")
    return 0
