"""``/mcp``: the session's MCP servers (``mcp.servers``), their state and the tools offered."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from openclaw_tui.mcp.names import tool_name
from openclaw_tui.tui.commands.host import live_engine
from openclaw_tui.tui.format import one_line

if TYPE_CHECKING:
    from openclaw_tui.tui.commands.host import CommandHost

MAX_TOOLS_SHOWN = 30


def mcp_markdown(rows: list[dict[str, Any]], why_off: str | None) -> str:
    if not rows:
        return "**MCP servers**\n\nNone configured: add one under `mcp.servers` in openclaw.json (docs/mcp.md)."
    lines = ["**MCP servers**", ""]
    for row in rows:
        tools = row["tools"]
        count = f" · {len(tools)} tool{'s' if len(tools) != 1 else ''}" if row["state"] == "ready" else ""
        why = f" — {one_line(row['message'], 140)}" if row["message"] else ""
        names = ", ".join(f"`{tool_name(row['name'], t)}`" for t in tools[:MAX_TOOLS_SHOWN])
        more = f" and {len(tools) - MAX_TOOLS_SHOWN} more" if len(tools) > MAX_TOOLS_SHOWN else ""
        listed = f": {names}{more}" if names else ""
        lines.append(f"- `{row['name']}` ({row['transport']}): **{row['state']}**{count}{listed}{why}")
    if why_off:
        lines += ["", f"Not offered to the model now: {why_off}."]
    return "\n".join(lines)


async def show_servers(screen: "CommandHost", _arg: str) -> None:
    tools = live_engine(screen).mcp
    await tools.ensure()  # starts them now when this session offers their tools
    await screen.say(mcp_markdown(tools.status(), tools.why_off() if tools.configured else None))
