"""A real MCP server for tests, written with the official SDK, served on stdio.

    python tests/fakes/mcp_server.py [--exit-at-start | --hang-at-start]

Tools: ``echo(text)`` answers ``echo: <text>``; ``add(a, b)`` the sum; ``fail(why)`` a tool
error; ``crash()`` ends the process in the middle of the call; ``hang(seconds)`` sleeps
before answering. ``--exit-at-start`` prints a reason on stderr and exits before the
handshake; ``--hang-at-start`` never answers it. ``FAKE_MCP_TAG`` (environment) is
appended to every echo, so a test can see the configured ``env`` arrive.
"""

from __future__ import annotations

import os
import sys
import time

import anyio
from mcp.server.mcpserver import MCPServer

app = MCPServer("fake")


@app.tool()
def echo(text: str) -> str:
    """Echo the text back."""
    return f"echo: {text}{os.environ.get('FAKE_MCP_TAG', '')}"


@app.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@app.tool()
def fail(why: str) -> str:
    """Always fails with the given reason."""
    raise ValueError(why)


@app.tool()
def crash() -> str:
    """End the server process in the middle of the call."""
    sys.stderr.write("fake server: crashing on purpose\n")
    sys.stderr.flush()
    os._exit(3)


@app.tool()
async def hang(seconds: float = 60) -> str:
    """Sleep, then answer."""
    await anyio.sleep(seconds)
    return "woke up"


if __name__ == "__main__":
    if "--exit-at-start" in sys.argv:
        sys.stderr.write("fake server: missing FAKE_TOKEN, cannot start\n")
        sys.exit(2)
    if "--hang-at-start" in sys.argv:
        time.sleep(600)
    app.run()
