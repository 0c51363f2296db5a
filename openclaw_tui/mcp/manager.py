"""Every configured MCP server of a session, on one background event loop.

The SDK's connections live on a loop of their own in a daemon thread, so whoever drives
the session (the TUI's loop, ``asyncio.run`` in ``chat -p``, a test's loop) can call into
them: ``start`` and ``call`` return awaitables for the caller's loop. A server that does
not come up within its ``startupTimeoutSeconds`` (else ``timeoutSeconds``) is cancelled
and marked failed; the others go on.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any, Awaitable, Coroutine

from openclaw_tui.config.models import McpServerConfig
from openclaw_tui.mcp.connection import ServerConnection, ServerState

STOP_WAIT_S = 5.0  # closing: how long the servers get to shut down


class McpManager:
    def __init__(self, servers: dict[str, McpServerConfig], log_dir: Path):
        self.connections = {name: ServerConnection(name, cfg, log_dir) for name, cfg in servers.items()}
        for conn in self.connections.values():
            if not conn.config.enabled:
                conn.status.state = "disabled"
            elif conn.config.transport == "sse":  # reported as not honoured (config/honoured.py)
                conn.status.set("failed", "transport sse is not run here: use streamable-http or stdio")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._started = False

    # ------------------------------------------------------------------ the loop

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            loop = asyncio.new_event_loop()
            self._thread = threading.Thread(target=loop.run_forever, name="mcp-client", daemon=True)
            self._thread.start()
            self._loop = loop
        return self._loop

    def _submit(self, coro: Coroutine[Any, Any, Any]) -> Awaitable[Any]:
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self._ensure_loop()))

    # ------------------------------------------------------------------ start and stop

    @property
    def started(self) -> bool:
        return self._started

    async def start(self) -> None:
        """Start every enabled server and wait until each is ready or has failed (once)."""
        if self._started:
            return
        self._started = True
        await self._submit(self._start_all())

    async def _start_all(self) -> None:
        conns = [c for c in self.connections.values() if c.config.enabled and c.config.transport != "sse"]
        await asyncio.gather(*(self._start_one(c) for c in conns))

    async def _start_one(self, conn: ServerConnection) -> None:
        conn.prepare()
        assert conn.ready is not None
        task = asyncio.get_running_loop().create_task(conn.run(), name=f"mcp:{conn.name}")
        self._tasks[conn.name] = task
        try:
            await asyncio.wait_for(conn.ready.wait(), conn.start_timeout)
        except asyncio.TimeoutError:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    def close(self) -> None:
        loop = self._loop
        if loop is None:
            return
        try:
            asyncio.run_coroutine_threadsafe(self._stop_all(), loop).result(STOP_WAIT_S + 1)
        except Exception:  # noqa: BLE001 - closing must not raise
            pass
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(2)
        self._loop = None

    async def _stop_all(self) -> None:
        for conn in self.connections.values():
            conn.stop()
        tasks = list(self._tasks.values())
        if not tasks:
            return
        _done, pending = await asyncio.wait(tasks, timeout=STOP_WAIT_S)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    # ------------------------------------------------------------------ calls and state

    async def call(self, server: str, tool: str, args: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """Run ``tool`` on ``server`` within its timeout; (result object, server gone)."""
        conn = self.connections[server]
        call = self._submit(conn.call(tool, args, conn.timeout))
        try:
            return await asyncio.wait_for(call, conn.timeout + 5)
        except asyncio.TimeoutError:
            return {"server": server, "tool": tool, "error": f"{tool} timed out after {conn.timeout:g}s"}, False

    def states(self) -> list[ServerState]:
        return [c.status for c in self.connections.values()]
