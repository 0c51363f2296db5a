"""One configured MCP server, held open by the official SDK's ``Client``.

Everything here runs on the manager's event loop (``manager.py``). ``run`` is the one task
that opens the connection, lists the tools, waits until told to stop and closes it (the
SDK's task groups must be entered and left by the same task); ``call`` runs a tool from
any other task of that loop. A stdio server's stderr goes to a log file (never onto the
terminal; redacted, owner-only, capped: ``stderr_log.py``), whose last line explains a
failed start.
"""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from openclaw_tui import __version__
from openclaw_tui.config.models import McpServerConfig
from openclaw_tui.config.secrets import secret_headers, secret_value
from openclaw_tui.mcp.names import describe, first_error, result_payload
from openclaw_tui.mcp.stderr_log import StderrLog, tail_line
from openclaw_tui.redaction import redact, secret_args

MAX_PAGES = 20  # tools/list pages read from one server


@dataclass
class ServerState:
    """What ``/mcp`` shows of a server; ``changes`` queues the states the session has not reported yet."""

    name: str
    transport: str  # stdio | http
    state: str = "idle"  # idle | starting | ready | failed | stopped | disabled
    message: str = ""
    tools: list[Any] = field(default_factory=list)  # the SDK's Tool objects
    changes: list[tuple[str, str]] = field(default_factory=list)

    def set(self, state: str, message: str = "") -> None:
        self.state, self.message = state, message
        self.changes.append((state, message))


class ServerConnection:
    def __init__(self, name: str, config: McpServerConfig, log_dir: Path):
        self.name = name
        self.config = config
        self.log_path = log_dir / f"{name}.stderr.log"
        self.status = ServerState(name, "http" if config.url else "stdio")
        self.client: Any = None
        self._stop: asyncio.Event | None = None
        self.ready: asyncio.Event | None = None  # set once run() is ready or has failed
        self._log: StderrLog | None = None

    @property
    def timeout(self) -> float:
        return float(self.config.timeout_seconds)

    @property
    def start_timeout(self) -> float:
        return float(self.config.startup_timeout_seconds or self.config.timeout_seconds)

    # ------------------------------------------------------------------ lifetime

    def prepare(self) -> None:
        """Fresh start/stop signals, before ``run`` is scheduled."""
        self._stop, self.ready = asyncio.Event(), asyncio.Event()

    async def run(self) -> None:
        """Open, list tools, stay open until ``stop``; a failure becomes the state ``failed``."""
        assert self._stop is not None and self.ready is not None, "prepare() first"
        self.status.set("starting")
        try:
            async with AsyncExitStack() as stack:
                client = await stack.enter_async_context(self._client(stack))
                self.status.tools = await self._list_tools(client)
                self.client = client
                self.status.set("ready")
                self.ready.set()
                await self._stop.wait()
        except asyncio.CancelledError:
            if self.status.state == "starting":
                self.status.set("failed", f"did not start within {self.start_timeout:g}s")
            raise
        except BaseException as exc:  # noqa: BLE001 - the session goes on without this server
            if self.status.state == "starting":
                self.status.set("failed", self._why(exc))
            elif self.status.state == "ready":  # it went away after it was up
                self.status.set("stopped", self._why(exc))
        finally:
            self.client = None
            self.ready.set()

    def stop(self) -> None:
        if self._stop is not None:
            self._stop.set()

    def _client(self, stack: AsyncExitStack) -> Any:
        from mcp import Client, Implementation  # noqa: PLC0415 - the SDK loads only when MCP is used

        return Client(self._transport(stack), read_timeout_seconds=self.timeout,
                      client_info=Implementation(name="openclaw-tui", version=__version__))

    def _transport(self, stack: AsyncExitStack) -> Any:
        where = f"mcp.servers.{self.name}"
        if self.config.url:
            from mcp.client.streamable_http import streamable_http_client  # noqa: PLC0415
            from mcp.shared._httpx_utils import create_mcp_http_client  # noqa: PLC0415

            http = create_mcp_http_client(headers=secret_headers(self.config.headers, f"{where}.headers"))
            stack.push_async_callback(http.aclose)
            return streamable_http_client(self.config.url, http_client=http)
        from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: PLC0415

        env = {k: secret_value(v, f"{where}.env.{k}") or "" for k, v in self.config.env.items()}
        params = StdioServerParameters(command=str(self.config.command), args=list(self.config.args), env=env or None,
                                       cwd=self.config.cwd)
        secrets = [v for v in env.values() if len(v) >= 4] + secret_args(self.config.args)
        return stdio_client(params, errlog=self._errlog(stack, secrets))

    def _errlog(self, stack: AsyncExitStack, secrets: list[str]) -> TextIO:
        log = StderrLog(self.log_path, secrets)
        self._log = log
        writer = log.open()
        stack.callback(log.close)  # after the client's exit has ended the child: the rest is written
        return writer

    async def _list_tools(self, client: Any) -> list[Any]:
        tools: list[Any] = []
        cursor = None
        for _ in range(MAX_PAGES):
            page = await client.list_tools(cursor=cursor)
            tools.extend(page.tools)
            cursor = page.next_cursor
            if not cursor:
                break
        return tools

    def _why(self, exc: BaseException) -> str:
        from mcp import MCPError  # noqa: PLC0415
        from mcp.types import CONNECTION_CLOSED  # noqa: PLC0415

        leaf = first_error(exc)
        closed = isinstance(leaf, MCPError) and leaf.code == CONNECTION_CLOSED
        text = "closed before it was ready" if closed else describe(exc)
        tail = self._stderr_tail()
        return redact(f"{text}" + (f" (stderr: {tail})" if tail else ""))

    def _stderr_tail(self) -> str:
        if self._log is not None:
            self._log.settle()
        return tail_line(self.log_path)

    # ------------------------------------------------------------------ calls

    async def call(self, tool: str, args: dict[str, Any], timeout: float) -> tuple[dict[str, Any], bool]:
        """Run ``tool``; (the model's result object, whether the server is gone)."""
        from mcp import MCPError  # noqa: PLC0415
        from mcp.types import CONNECTION_CLOSED  # noqa: PLC0415

        client = self.client
        if client is None or self.status.state != "ready":
            return {"server": self.name, "tool": tool, "error": f"MCP server {self.name} is not running ({self.status.state})"}, False
        try:
            res = await client.call_tool(tool, args, read_timeout_seconds=timeout)
        except MCPError as exc:
            if exc.code == CONNECTION_CLOSED:
                self.status.set("stopped", f"connection closed during {tool}" + self._tail_note())
                return {"server": self.name, "tool": tool, "error": f"MCP server {self.name} stopped during the call"}, True
            message = f"{tool} timed out after {timeout:g}s" if "timed out" in exc.message else f"{tool}: {exc.message}"
            return {"server": self.name, "tool": tool, "error": redact(message)}, False
        except Exception as exc:  # noqa: BLE001 - a bad answer is this call's error, not the session's
            return {"server": self.name, "tool": tool, "error": redact(f"{tool} failed: {describe(exc)}")}, False
        return result_payload(self.name, tool, res.content, res.structured_content, bool(res.is_error)), False

    def _tail_note(self) -> str:
        tail = self._stderr_tail() if not self.config.url else ""
        return f" (stderr: {redact(tail)})" if tail else ""
