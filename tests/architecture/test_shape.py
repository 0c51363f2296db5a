"""The shape rules of issue 13, checked on the source tree itself.

- no function or method longer than 80 lines, no class longer than 500 lines;
- no import cycle among modules at import time (imports under ``if TYPE_CHECKING:`` and
  imports inside functions do not run at import time, so they do not count);
- the core (memory, records, session, scenario, tools, mcp, evals, llm, config, workspace) never imports Textual.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = "openclaw_tui"
ROOT = Path(__file__).resolve().parents[2] / PACKAGE
MAX_FUNCTION_LINES = 80
MAX_CLASS_LINES = 500
#: no class sits at its cap: a class near it is split at a seam, not trimmed to fit (issue 25)
CLASS_HEADROOM = 50
CORE = ("memory", "records", "session", "scenario", "tools", "mcp", "evals", "llm", "config", "workspace")


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _sizes(tree: ast.AST) -> list[tuple[str, str, int]]:
    over = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        length = (node.end_lineno or node.lineno) - node.lineno + 1
        if not isinstance(node, ast.ClassDef) and length > MAX_FUNCTION_LINES:
            over.append(("function", node.name, length))
        elif isinstance(node, ast.ClassDef) and length > MAX_CLASS_LINES:
            over.append(("class", node.name, length))
    return over


def test_no_function_or_class_over_the_limits() -> None:
    over = [f"{MODULES[m].relative_to(ROOT.parent)}: {kind} {name} has {n} lines"
            for m in MODULES for kind, name, n in _sizes(ast.parse(MODULES[m].read_text()))]
    assert not over, "\n".join(over)


def test_no_class_sits_at_its_cap() -> None:
    near = []
    for m in MODULES:
        for node in ast.walk(ast.parse(MODULES[m].read_text())):
            if isinstance(node, ast.ClassDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_CLASS_LINES - CLASS_HEADROOM:
                    near.append(f"{MODULES[m].relative_to(ROOT.parent)}: class {node.name} has {length} lines")
    assert not near, "\n".join(near)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_time_imports(body: list[ast.stmt]):
    """Import statements that run when the module is imported (module level, try/if bodies)."""
    for stmt in body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            yield stmt
        elif isinstance(stmt, ast.If):
            if not _is_type_checking(stmt.test):
                yield from _import_time_imports(stmt.body)
            yield from _import_time_imports(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            for block in (stmt.body, stmt.orelse, stmt.finalbody, *[h.body for h in stmt.handlers]):
                yield from _import_time_imports(block)


def _resolve(module: str, stmt: ast.Import | ast.ImportFrom) -> set[str]:
    if isinstance(stmt, ast.Import):
        return {a.name for a in stmt.names}
    base = stmt.module or ""
    if stmt.level:
        is_package = MODULES[module].name == "__init__.py"
        anchor = module.split(".")[: len(module.split(".")) - stmt.level + (1 if is_package else 0)]
        base = ".".join(anchor + ([base] if base else []))
    targets = {base}
    targets.update(f"{base}.{a.name}" for a in stmt.names)
    return targets


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        edges: set[str] = set()
        for stmt in _import_time_imports(ast.parse(path.read_text()).body):
            for target in _resolve(module, stmt):
                # importing a.b.c runs a/__init__, a/b/__init__ and a/b/c; a module's own
                # ancestor packages are already initialising when it runs, so they add no edge
                parts = target.split(".")
                for i in range(1, len(parts) + 1):
                    name = ".".join(parts[:i])
                    if name in MODULES and name != module and not module.startswith(name + "."):
                        edges.add(name)
        graph[module] = edges
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_time_cycles() -> None:
    cycles = _cycles(_graph())
    assert not cycles, "\n".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("layer", CORE)
def test_core_never_imports_textual(layer: str) -> None:
    offenders = []
    for module, path in MODULES.items():
        if not module.startswith(f"{PACKAGE}.{layer}"):
            continue
        for stmt in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in stmt.names] if isinstance(stmt, ast.Import)
                     else [stmt.module or ""] if isinstance(stmt, ast.ImportFrom) else [])
            if any(n == "textual" or n.startswith("textual.") or n.startswith(f"{PACKAGE}.tui") for n in names):
                offenders.append(module)
    assert not offenders, offenders
