"""The MCP tools a session offers its model (a ``ToolSource`` of ``tools/registry.py``).

Configured servers (``mcp.servers``) start with the session's first turn (or the TUI's
warm-up) when their tools may be offered: a hosted-profile model, or the local profile with
``agents.defaults.mcp.local: true``; never with ``--workspace-access none`` nor in a group
or channel session (another program's tools cannot be kept from the private MEMORY.md).
With ``--workspace-access ro`` only the tools a server marks read-only
(``annotations.readOnlyHint``) are offered, as our own write tools refuse there. Their tools
are named ``server__tool``; their schemas are offered within a budget per server and in all
(``names.SchemaBudget``), and the tools left out are named in one timeline line per server.
A server that fails to start or stops is reported once as an
:class:`~openclaw_tui.events.McpServerChanged` event and the session goes on without it.
"""

from __future__ import annotations

from typing import Any, Callable

from openclaw_tui import events
from openclaw_tui.config import AgentSettings
from openclaw_tui.events import EventSink
from openclaw_tui.llm.profiles import ModelProfile
from openclaw_tui.mcp.names import SEP, SchemaBudget, function_schema, tool_name
from openclaw_tui.tools.registry import ToolBox, ToolFlags, ToolOutput, ToolRun, ToolSpec
from openclaw_tui.workspace.privacy import hidden_for


class McpTools:
    def __init__(self, settings: AgentSettings, emit: EventSink, profile: Callable[[], ModelProfile], *,
                 offline: Callable[[], bool] = lambda: False):
        self.settings = settings
        self._emit = emit
        self._profile = profile
        self._offline = offline
        self._servers = {name: cfg for name, cfg in settings.config.mcp.servers.items()}
        self._manager: Any = None  # McpManager, made on first use (it imports the SDK)
        self._reported: dict[str, int] = {}
        self._routes: dict[str, tuple[str, str]] = {}  # model-facing name -> (server, tool)
        self._specs: list[ToolSpec] = []
        self._trimmed: dict[str, str] = {}  # server -> the line naming the tools left out, not reported yet

    @property
    def configured(self) -> bool:
        return bool(self._servers)

    def why_off(self) -> str | None:
        """Why this session offers no MCP tools now, or None when it does."""
        if not self._servers:
            return "no servers in mcp.servers"
        if self.settings.workspace_access == "none":
            return "--workspace-access none offers no MCP tools"
        if hidden_for(self.settings.session_key):
            return "a group or channel session offers no MCP tools: they could read the private MEMORY.md"
        if self._offline():
            return "the offline agent calls no MCP tools: choose a model (--model)"
        if self._profile().name == "local" and not self.settings.config.agents.defaults.mcp.local:
            return "the local model profile: set agents.defaults.mcp.local to true to offer them"
        return None

    # ------------------------------------------------------------------ lifecycle

    async def ensure(self) -> None:
        """Start the servers (once) when this session may offer their tools."""
        if self.why_off() is not None:
            return
        if self._manager is None:
            from openclaw_tui.mcp.manager import McpManager  # noqa: PLC0415 - loads the SDK

            self._manager = McpManager(self._servers, self.settings.state_dir / "mcp")
        if not self._manager.started:
            await self._manager.start()
            self._index()
        self.report()

    def close(self) -> None:
        if self._manager is not None:
            self._manager.close()

    def _index(self) -> None:
        self._routes.clear()
        specs = []
        budget = SchemaBudget()
        for state in self._manager.states():
            if state.state != "ready":
                continue
            for tool in state.tools:
                if not self._may_offer(tool):
                    continue
                name = tool_name(state.name, tool.name)
                if name in self._routes:
                    continue  # two tools that differ only in characters a function name cannot hold
                schema = function_schema(name, tool.description, tool.input_schema, state.name)
                if not budget.admit(state.name, tool.name, schema):
                    continue
                self._routes[name] = (state.name, tool.name)
                specs.append(ToolSpec(name, schema, self._runner(name), ToolFlags(server=state.name)))
            if budget.why(state.name):
                self._trimmed[state.name] = budget.why(state.name)
        self._specs = specs

    def _may_offer(self, tool: Any) -> bool:
        """Every tool in a writable workspace; in a read-only one, those the server marks read-only."""
        if self.settings.workspace_access == "rw":
            return True
        annotations = getattr(tool, "annotations", None)
        return bool(getattr(annotations, "read_only_hint", False))

    def report(self) -> None:
        """One event per state change not reported yet (started, failed, stopped)."""
        if self._manager is None:
            return
        for state in self._manager.states():
            seen = self._reported.get(state.name, 0)
            changes = state.changes[seen:]
            self._reported[state.name] = seen + len(changes)
            for kind, message in changes:
                if kind in ("ready", "failed", "stopped"):
                    tools = len(state.tools) if kind == "ready" else 0
                    self._emit(events.McpServerChanged(server=state.name, state=kind, message=message, tools=tools))
        for server, line in self._trimmed.items():
            self._emit(events.McpServerChanged(server=server, state="trimmed", message=line))
        self._trimmed.clear()

    # ------------------------------------------------------------------ the ToolSource

    def specs(self) -> list[ToolSpec]:
        if self.why_off() is not None or self._manager is None:
            return []
        live = {s.name for s in self._manager.states() if s.state == "ready"}
        return [spec for spec in self._specs if spec.server in live]

    def _runner(self, name: str) -> ToolRun:
        async def run(_box: ToolBox, args: dict[str, Any], _recovered: bool, /) -> ToolOutput:
            return await self.call(name, args)

        return run

    async def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        route = self._routes.get(name)
        if route is None or self._manager is None:
            server = name.split(SEP, 1)[0]
            return {"server": server, "error": f"no MCP tool {name!r} in this session"}
        result, gone = await self._manager.call(route[0], route[1], args)
        if gone:
            self.report()
        return result

    # ------------------------------------------------------------------ /mcp

    def status(self) -> list[dict[str, Any]]:
        """One row per configured server: name, transport, state, message, tool names."""
        off = self.why_off()
        rows = []
        states = {s.name: s for s in self._manager.states()} if self._manager is not None else {}
        for name, cfg in self._servers.items():
            st = states.get(name)
            state = st.state if st is not None else ("disabled" if not cfg.enabled else "not started")
            message = st.message if st is not None else (off or "")
            tools = [t.name for t in st.tools] if st is not None and st.state == "ready" else []
            rows.append({"name": name, "transport": "http" if cfg.url else "stdio", "state": state,
                         "message": message, "tools": tools, "offered": off is None and state == "ready"})
        return rows
