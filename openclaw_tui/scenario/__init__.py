"""Scenarios: a scripted conversation run headless against the engine, and the expectations
checked on its turns (``runner``: load and run a YAML scenario; ``expectations``: the one
registry of checks). Above ``session/``; the CLI's ``scenario`` command runs them."""
