"""``openclaw-tui mcp serve``: the memory tools of ``memory_tools.py`` over MCP (official SDK).

stdio by default (stdout is the protocol; logs go to stderr). ``--http HOST:PORT`` serves
streamable HTTP at ``/mcp`` on a loopback address only, and the SDK's DNS-rebinding guard
answers any request whose ``Host`` is not that address and port, or whose ``Origin`` is
another site, with an error (421 / 403). Port 0 picks a free port; the address served is
printed on stderr.
"""

from __future__ import annotations

import json
import socket
import sys
from typing import Any

import anyio

from openclaw_tui import __version__
from openclaw_tui.mcp.memory_tools import MemoryService, tool_definitions

LOOPBACK = {"127.0.0.1": socket.AF_INET, "localhost": socket.AF_INET, "::1": socket.AF_INET6}
INSTRUCTIONS = "The user's long-term Markdown memory. Search it before answering about prior work, decisions or preferences."


class AddressError(ValueError):
    """An --http address that cannot be served (not HOST:PORT, or not loopback)."""


def parse_address(text: str) -> tuple[str, int]:
    """``127.0.0.1:8765`` / ``localhost:0`` / ``[::1]:8765`` -> (host, port); loopback only."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise AddressError(f"--http {text!r}: give HOST:PORT, e.g. 127.0.0.1:8765")
    if host not in LOOPBACK:
        raise AddressError(f"--http {text!r}: only a loopback address is served (127.0.0.1, localhost or [::1]); "
                           "put a reverse proxy with authentication in front to reach it from elsewhere")
    return host, int(port)


def build_server(service: MemoryService) -> Any:
    import mcp.types as types  # noqa: PLC0415
    from mcp.server.lowlevel import Server  # noqa: PLC0415

    tools = [types.Tool(name=d["name"], description=d["description"], input_schema=d["inputSchema"])
             for d in tool_definitions(service.tool_names())]

    async def list_tools(_ctx: Any, _params: Any) -> Any:
        return types.ListToolsResult(tools=tools)

    async def call_tool(_ctx: Any, params: Any) -> Any:
        payload, is_error = await anyio.to_thread.run_sync(service.call, params.name, params.arguments)
        text = json.dumps(payload, ensure_ascii=False, default=str)
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=payload, is_error=is_error)

    return Server("openclaw-tui-memory", version=__version__, instructions=INSTRUCTIONS,
                  on_list_tools=list_tools, on_call_tool=call_tool)


def serve_stdio(service: MemoryService) -> None:
    from mcp.server.stdio import stdio_server  # noqa: PLC0415

    server = build_server(service)

    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)


def _security(host: str, port: int) -> Any:
    from mcp.server.transport_security import TransportSecuritySettings  # noqa: PLC0415

    names = ["127.0.0.1", "localhost", "[::1]"] if host != "::1" else ["[::1]", "localhost"]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{n}:{port}" for n in names],
        allowed_origins=[f"http://{n}:{port}" for n in names],
    )


def serve_http(service: MemoryService, address: str) -> None:
    import uvicorn  # noqa: PLC0415

    host, port = parse_address(address)
    sock = socket.socket(LOOPBACK[host], socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1" if host == "localhost" else host, port))
    port = sock.getsockname()[1]
    # listening before the "serving" line: a client that connects as soon as it reads the line
    # waits in the backlog until uvicorn accepts, instead of being refused (seen on a busy CI box)
    sock.listen(128)
    shown = f"[{host}]" if host == "::1" else host
    app = build_server(service).streamable_http_app(transport_security=_security(host, port), host=host)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    print(f"openclaw-tui mcp: serving http://{shown}:{port}/mcp", file=sys.stderr, flush=True)
    uvicorn.Server(config).run(sockets=[sock])
