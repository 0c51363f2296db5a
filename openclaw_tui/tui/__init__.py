"""Textual UI. Imported only by ``openclaw-tui`` with no subcommand (and the TUI tests)."""
