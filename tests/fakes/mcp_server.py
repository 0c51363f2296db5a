"""A real MCP server for tests, written with the official SDK, served on stdio.

    python tests/fakes/mcp_server.py [--exit-at-start | --hang-at-start] [--many-tools N]
                                     [--stderr-bytes N]

Tools: ``echo(text)`` answers ``echo: <text>``; ``add(a, b)`` the sum; ``fail(why)`` a tool
error; ``big(chars)`` answers no text and ``chars`` characters of structured content;
``peek(path)`` (marked read-only) reads a file and ``scribble(path, text)`` writes one;
``crash()`` ends the process in the middle of the call; ``hang(seconds)`` sleeps
before answering. ``--exit-at-start`` prints a reason on stderr and exits before the
handshake; ``--hang-at-start`` never answers it. ``FAKE_MCP_TAG`` (environment) is
appended to every echo, so a test can see the configured ``env`` arrive.
``--many-tools N`` adds N tools ``bulk_<i>`` whose input schema is about 30,000 characters
each; ``--stderr-bytes N`` writes ``FAKE_TOKEN`` and then N bytes of noise on stderr at start.
"""

from __future__ import annotations

import os
import sys
import time

from pathlib import Path
from typing import Annotated

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

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
def big(chars: int) -> CallToolResult:
    """Answer no text and a large structured content."""
    return CallToolResult(content=[], structured_content={"blob": "x" * chars})


@app.tool(annotations=ToolAnnotations(read_only_hint=True))
def peek(path: str) -> str:
    """Read a file."""
    return Path(path).read_text(encoding="utf-8")


@app.tool()
def scribble(path: str, text: str) -> str:
    """Write a file."""
    Path(path).write_text(text, encoding="utf-8")
    return "written"


def _bulk(query: Annotated[str, Field(description="q" * 30_000)]) -> str:
    return query


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
    if "--many-tools" in sys.argv:
        for i in range(int(sys.argv[sys.argv.index("--many-tools") + 1])):
            app.add_tool(_bulk, name=f"bulk_{i:03d}", description=f"Bulk tool {i}.")
    if "--stderr-bytes" in sys.argv:
        noise = int(sys.argv[sys.argv.index("--stderr-bytes") + 1])
        sys.stderr.write(f"fake server: using token {os.environ.get('FAKE_TOKEN', '')}\n")
        line = "n" * 99 + "\n"
        for _ in range(noise // 100):
            sys.stderr.write(line)
        sys.stderr.write(f"fake server: still using token {os.environ.get('FAKE_TOKEN', '')}\n")
        sys.stderr.flush()
    app.run()
