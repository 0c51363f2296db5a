"""``openclaw-tui scenario FILE [--json]``: run a scripted scenario, check its expectations.

Exit 0 when every expectation holds, 1 with a readable diff when one fails, 2 when the
scenario file or config is invalid.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from openclaw_tui.commands.common import fail, print_json, settings_from_args


def run(args: argparse.Namespace) -> int:
    from openclaw_tui.scenario.runner import ScenarioError, load_scenario, run_scenario

    try:
        data = load_scenario(args.file)
    except ScenarioError as exc:
        return fail(str(exc), 2)
    if data.get("config"):
        from openclaw_tui.config.loader import validate_config

        # name the scenario, not the user's config file, when its own `config:` is wrong
        validate_config(data["config"], f"{args.file} (its config: section)")
    settings = settings_from_args(args, overrides=data.get("config") or None)
    if getattr(args, "workspace_access", None):
        settings._access_from_cli = True  # type: ignore[attr-defined]
    report = asyncio.run(run_scenario(data, settings))
    if args.json:
        print_json(report.to_dict())
    else:
        print(report.text())
        if not report.passed:
            print(f"openclaw-tui: scenario {args.file} failed", file=sys.stderr)
    return 0 if report.passed else 1
