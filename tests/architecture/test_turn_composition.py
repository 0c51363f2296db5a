"""The session is composed, not inherited (issue 35, item 8): no class in ``session/`` declares
another's members as ``NotImplementedError`` stand-ins, and ``SessionEngine`` with the bases it
has in this package stays within a size a reader can hold. Checked on the source tree (AST)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "openclaw_tui"
SESSION = PACKAGE / "session"
#: SessionEngine and its in-package bases, counted as the modules that define them
ENGINE_LINES_CAP = 450


def _raises_not_implemented(stmt: ast.stmt) -> bool:
    if not isinstance(stmt, ast.Raise) or stmt.exc is None:
        return False
    exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
    return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"


def _is_protocol(cls: ast.ClassDef) -> bool:
    names = {b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else "" for b in cls.bases}
    return "Protocol" in names or "ABC" in names


def stand_ins(source: str) -> list[str]:
    """``Class.method`` for every method of a concrete class whose body (a docstring aside)
    is only ``raise NotImplementedError``."""
    found: list[str] = []
    for cls in (n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef)):
        if _is_protocol(cls):
            continue
        for fn in cls.body:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
            if len(body) == 1 and _raises_not_implemented(body[0]):
                found.append(f"{cls.name}.{fn.name}")
    return found


def _classes() -> dict[str, tuple[Path, ast.ClassDef]]:
    """Every class defined in the package, by name (the engine's bases are looked up here)."""
    out: dict[str, tuple[Path, ast.ClassDef]] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                out.setdefault(node.name, (path, node))
    return out


def engine_modules(classes: dict[str, tuple[Path, ast.ClassDef]], name: str = "SessionEngine") -> set[Path]:
    """The modules defining ``name`` and each of its bases defined in the package."""
    seen: set[Path] = set()
    todo = [name]
    while todo:
        entry = classes.get(todo.pop())
        if entry is None:
            continue
        path, cls = entry
        seen.add(path)
        todo.extend(b.id for b in cls.bases if isinstance(b, ast.Name))
    return seen


@pytest.mark.parametrize("path", sorted(SESSION.glob("*.py")), ids=lambda p: p.name)
def test_no_not_implemented_stand_ins_in_session(path: Path) -> None:
    assert stand_ins(path.read_text(encoding="utf-8")) == []


def test_the_engine_with_its_bases_stays_small() -> None:
    modules = engine_modules(_classes())
    assert SESSION / "engine.py" in modules
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in modules)
    assert lines <= ENGINE_LINES_CAP, f"SessionEngine and its bases: {lines} lines in {sorted(p.name for p in modules)}"


# ---------------------------------------------------------------- the checks themselves can fail

MIXIN = '''
class Part:
    def _emit(self, event):
        """Declared for the base."""
        raise NotImplementedError

    def real(self):
        return 1


class Contract(Protocol):
    def read(self):
        raise NotImplementedError
'''


def test_a_stand_in_is_found_and_a_protocol_is_not() -> None:
    assert stand_ins(MIXIN) == ["Part._emit"]


def test_bases_in_the_package_are_counted(tmp_path: Path) -> None:
    engine, base = tmp_path / "engine.py", tmp_path / "flow.py"
    engine.write_text("class SessionEngine(Flow, object):\n    pass\n")
    base.write_text("class Flow:\n    pass\n")
    classes = {c.name: (p, c) for p in (engine, base) for c in ast.walk(ast.parse(p.read_text())) if isinstance(c, ast.ClassDef)}
    assert engine_modules(classes) == {engine, base}
