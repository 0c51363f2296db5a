"""The slash handlers see the screen only through ``CommandHost``, the event view only
through ``EventHost`` (issue 25).

Every module of ``tui/commands/`` and ``tui/event_view.py`` is read for imports anywhere in
it (module level, under ``TYPE_CHECKING``, inside functions): none may name the main screen
or the app module, or they would again reach into the whole screen and close the ring.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "openclaw_tui"
COMMANDS = ROOT / "tui" / "commands"
FORBIDDEN = ("openclaw_tui.tui.screens.main", "openclaw_tui.tui.app")


def _imported(path: Path) -> set[str]:
    """Every module an import statement in ``path`` names (``from a import b`` gives a and a.b)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolved against the commands package
                package = "openclaw_tui.tui.commands".split(".")
                anchor = package[: len(package) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names)
    return names


def _offenders(path: Path) -> list[str]:
    return sorted(n for n in _imported(path) if any(n == f or n.startswith(f + ".") for f in FORBIDDEN))


def test_commands_never_import_the_main_screen_or_the_app() -> None:
    modules = sorted(COMMANDS.glob("*.py")) + [ROOT / "tui" / "event_view.py"]
    assert len(modules) >= 8, modules  # the package is there: the check below is not vacuous
    found = {p.name: _offenders(p) for p in modules}
    assert not {k: v for k, v in found.items() if v}, found


def test_the_check_sees_imports_under_type_checking_and_in_functions(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from openclaw_tui.tui.screens.main import MainScreen\n"
        "def f():\n    from openclaw_tui.tui import app\n"
        "import openclaw_tui.tui.screens.picker\n",
        encoding="utf-8",
    )
    assert _offenders(sample) == ["openclaw_tui.tui.app", "openclaw_tui.tui.screens.main", "openclaw_tui.tui.screens.main.MainScreen"]
