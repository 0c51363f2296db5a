"""``openclaw-tui mcp serve [--allow-append] [--http HOST:PORT]``: serve the agent's memory
to other agents over MCP (``openclaw_tui.mcp.server``).

The global options choose what is served: ``--workspace``, ``--agent``, ``--session-key``
(a group key keeps MEMORY.md out of every tool) and ``--workspace-access`` (``ro`` refuses
``memory_append``; ``none`` serves nothing). Logs and errors go to stderr, never stdout:
on stdio, stdout is the protocol.
"""

from __future__ import annotations

import argparse
import logging
import sys

from openclaw_tui.commands.common import fail, settings_from_args
from openclaw_tui.commands.memory_cmd import _setup_logging


def run(args: argparse.Namespace) -> int:
    _setup_logging()
    logging.getLogger("openclaw_tui.mcp").setLevel(logging.INFO)
    settings = settings_from_args(args)
    from openclaw_tui.mcp.memory_tools import MemoryService  # noqa: PLC0415
    from openclaw_tui.mcp.server import AddressError, parse_address, serve_http, serve_stdio  # noqa: PLC0415

    if settings.workspace_access == "none":
        return fail("--workspace-access none: there is no memory to serve")
    if not settings.workspace.is_dir():
        return fail(f"workspace {settings.workspace} is not a folder; create it with `openclaw-tui init` or pass --workspace DIR")
    if args.http:
        try:
            parse_address(args.http)
        except AddressError as exc:
            return fail(str(exc), 2)
    service = MemoryService(settings, allow_append=bool(args.allow_append))
    if args.allow_append and not service.appends:
        print(f"openclaw-tui: warning: --allow-append ignored: the workspace is {settings.workspace_access} (--workspace-access)", file=sys.stderr)
    service.open()
    try:
        if args.http:
            serve_http(service, args.http)
        else:
            serve_stdio(service)
    except KeyboardInterrupt:
        return 0
    except OSError as exc:
        return fail(f"mcp serve: {exc.strerror or exc}")
    finally:
        service.close()
    return 0
