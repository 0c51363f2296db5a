"""Every option of ``eval survival`` and ``eval questions`` says what it does (issue 37: the
options had no help text)."""

from __future__ import annotations

import argparse

from openclaw_tui.cli import build_parser


def _sub(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices[name]


def test_every_eval_option_has_help_text() -> None:
    ev = _sub(build_parser(), "eval")
    for name in ("survival", "questions"):
        sub = _sub(ev, name)
        bare = [a.option_strings for a in sub._actions if a.option_strings and a.help in (None, "")]
        assert not bare, (name, bare)
