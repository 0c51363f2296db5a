"""The slash commands: the registry (pure data), the dispatch and one module of handlers per area.

Handlers take a :class:`~openclaw_tui.tui.commands.host.CommandHost`, never the screen class.
"""
