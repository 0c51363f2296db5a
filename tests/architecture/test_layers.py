"""The layers of docs/architecture.md, checked on the source tree: no import points up.

Every import counts here, also one inside a function or under ``if TYPE_CHECKING:`` (a lazy
import still makes the lower layer depend on the upper one). Modules at the package root
(``events``, ``owner_only``, ``redaction``…) are leaves every layer may use.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = "openclaw_tui"
ROOT = Path(__file__).resolve().parents[2] / PACKAGE

#: bottom first; a package may import its own layer and those below, never one above
LAYERS: tuple[tuple[str, ...], ...] = (
    ("language",),
    ("workspace",),
    ("config",),
    ("llm",),
    ("records",),
    ("memory",),
    ("tools",),
    ("mcp",),
    ("session",),
    ("scenario", "evals"),
    ("tui", "commands"),
)
LEVEL = {name: i for i, layer in enumerate(LAYERS) for name in layer}
#: the backends' wings: above ``memory/`` they are reached through ``memory.api`` and
#: ``memory.open`` only (``memory index`` of the CLI is the builtin index's own command)
WINGS = (f"{PACKAGE}.memory.builtin", f"{PACKAGE}.memory.qmd")
MAY_REACH_A_WING = ("memory", "commands")


def _imports(path: Path) -> set[str]:
    """Every ``openclaw_tui`` module a file imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return {name for name in found if name.startswith(f"{PACKAGE}.")}


def _package(path: Path) -> str | None:
    parts = path.relative_to(ROOT).parts
    return parts[0] if len(parts) > 1 else None


def _files() -> list[tuple[str, Path]]:
    return [(pkg, p) for p in sorted(ROOT.rglob("*.py")) if (pkg := _package(p)) is not None]


def upward_imports(files: list[tuple[str, Path]], level: dict[str, int], root: Path = ROOT) -> list[str]:
    out = []
    for pkg, path in files:
        for name in sorted(_imports(path)):
            target = name.split(".")[1]
            if pkg in level and target in level and level[target] > level[pkg]:
                out.append(f"{path.relative_to(root.parent)} ({pkg}) imports {name} ({target})")
    return out


def test_every_package_has_a_layer() -> None:
    packages = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages <= set(LEVEL), f"place {sorted(packages - set(LEVEL))} in LAYERS (and docs/architecture.md)"


def test_no_import_points_up_a_layer() -> None:
    offenders = upward_imports(_files(), LEVEL)
    assert not offenders, "\n".join(offenders)


@pytest.mark.parametrize("lower", ["memory", "records", "workspace", "llm", "config"])
def test_below_session_nothing_imports_session_tui_or_commands(lower: str) -> None:
    banned = (f"{PACKAGE}.session", f"{PACKAGE}.tui", f"{PACKAGE}.commands")
    offenders = [f"{path.relative_to(ROOT.parent)}: {name}" for pkg, path in _files() if pkg == lower
                 for name in _imports(path) if name in banned or name.startswith(tuple(b + "." for b in banned))]
    assert not offenders, "\n".join(offenders)


def test_only_the_front_ends_import_tui() -> None:
    offenders = [f"{path.relative_to(ROOT.parent)}: {name}" for pkg, path in _files() if pkg not in ("tui", "commands")
                 for name in _imports(path) if name == f"{PACKAGE}.tui" or name.startswith(f"{PACKAGE}.tui.")]
    offenders += [f"{p.name}: {name}" for p in sorted(ROOT.glob("*.py")) if p.name != "cli.py"
                  for name in _imports(p) if name.startswith(f"{PACKAGE}.tui")]
    assert not offenders, "\n".join(offenders)


def test_the_backends_wings_stay_inside_memory() -> None:
    offenders = [f"{path.relative_to(ROOT.parent)}: {name}" for pkg, path in _files() if pkg not in MAY_REACH_A_WING
                 for name in _imports(path) if name.startswith(WINGS)]
    assert not offenders, "\n".join(offenders)


def test_the_wings_do_not_import_each_other() -> None:
    builtin, qmd = (ROOT / "memory" / "builtin", ROOT / "memory" / "qmd")
    crossing = [f"{p.relative_to(ROOT.parent)}: {n}" for p in sorted(builtin.rglob("*.py")) for n in _imports(p) if n.startswith(WINGS[1])]
    crossing += [f"{p.relative_to(ROOT.parent)}: {n}" for p in sorted(qmd.rglob("*.py")) for n in _imports(p) if n.startswith(WINGS[0])]
    assert not crossing, "\n".join(crossing)


def test_the_layer_check_finds_an_upward_import(tmp_path: Path) -> None:
    low, high = tmp_path / "records" / "a.py", tmp_path / "session" / "b.py"
    for p in (low, high):
        p.parent.mkdir()
    low.write_text(f"def f():\n    from {PACKAGE}.session.b import g\n")
    high.write_text(f"from {PACKAGE}.records.a import f\n")
    found = upward_imports([("records", low), ("session", high)], LEVEL, root=tmp_path)
    # the lazy upward import is found; the downward one is allowed
    assert found and all(f.startswith(f"{tmp_path.name}/records/a.py (records) imports {PACKAGE}.session.b") for f in found)
