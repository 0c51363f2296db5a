"""MCP both ways, on the official ``mcp`` SDK.

Server side (``openclaw-tui mcp serve``): the agent's Markdown memory as a few small tools
for other agents — ``memory_tools.py`` (the tools, no SDK), ``server.py`` (stdio and
loopback streamable HTTP).

Client side (``mcp.servers`` in openclaw.json): ``connection.py`` (one server),
``manager.py`` (every configured server on a background event loop), ``session_tools.py``
(what a session offers the model, namespaced ``server__tool``), ``names.py`` (pure naming
and result shaping).

The SDK is imported only here, and only when MCP is used: a session without
``mcp.servers`` never loads it.
"""
