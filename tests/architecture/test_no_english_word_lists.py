"""No English word list outside the language package (issue 35, "Done means").

The words that decide behaviour live in ``openclaw_tui/language/data`` as one table per
language. This scan reads every module of ``openclaw_tui/`` outside ``openclaw_tui/language/``
and fails on a word list written in code:

- a regex (a string given to ``re.compile``/``re.search``/… ) naming 3+ words of
  :data:`VOCABULARY` ("\\b(prefer|always|never)\\b");
- a string split into words (``"a an the of".split()``) holding 3+ of them;
- a set, tuple, list or frozenset of short strings (one to three words each) holding 3+
  of them (``{"yes", "sure", "thanks"}``).

Prose is not a word list: prompt texts, help strings, docstrings and notices are sentences,
not alternatives, and only the few that take one of the forms above are allowed, by exact
``(module, name)`` in :data:`ALLOWED` with the reason. Modules the session-engine
integration replaces wholesale are in :data:`PENDING`; remove each line when its module goes.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "openclaw_tui"
EXEMPT_DIR = "language"  # the one place words live

#: English words typical of behaviour word lists: function words, question words, the words of
#: remembering, preferring, deciding, greeting and agreeing. A word list names several of them.
VOCABULARY = frozenset(
    """
    a an the and or but of to in at for with from by about as into than then
    is are was were be been am do does did have has had will would shall should can could must may might
    i me my mine we us our you your he him his she her they them their it its this that these those
    what when where who whom whose which why how
    not no yes yeah yep nope ok okay sure thanks thank hello hi hey bye please sorry
    remember remind recall note noted save saved store stored keep forget record recorded write written
    prefer like love hate want need needs always never avoid decided decide agreed chose decision settled
    todo later next step follow tomorrow yesterday today tonight now also just really very
    tell told know find search look show give example examples sample template syntax format
    said says mentioned stated asked wants wanted conversation summary goal progress
    correct right true indeed according found private secret actually instead correction
    """.split()
)
MIN_WORDS = 3
MAX_ELEMENT_WORDS = 3  # an element of a collection longer than this is prose, not a list entry
RE_FUNCTIONS = frozenset({"compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split"})
_RE_ESCAPE = re.compile(r"\\[A-Za-z]")  # \b \s \w \d … are not words
#: a word standing alone: an identifier's part ("is_private", "sk2") is not one
_WORD = re.compile(r"(?<![\w])[A-Za-z]+(?:'[a-z]+)?(?![\w])")

#: modules the session-engine integration replaces (turn object, one reading per turn);
#: remove each when its module is gone or reads the language package.
PENDING: frozenset[str] = frozenset()

#: (module, name) → why this literal is not a behaviour word list.
ALLOWED: dict[tuple[str, str], str] = {
    ("memory/qmd/runner.py", "_MODEL_FAIL_RE"): "the qmd program's own error output (a tool's messages, not the user's words)",
    ("session/compaction.py", "SUMMARY_SECTIONS"): "the checkpoint's section headings, a format sent to the model in the prompt",
}


@dataclass(frozen=True)
class Finding:
    module: str
    name: str  # the assignment target, else the enclosing function/class, else "<module>"
    line: int
    words: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.module}:{self.line} {self.name}: {', '.join(self.words)}"


def vocabulary_words(text: str, *, regex: bool = False) -> tuple[str, ...]:
    """The distinct vocabulary words of ``text`` (a regex's escapes such as ``\\b`` dropped)."""
    if regex:
        text = _RE_ESCAPE.sub(" ", text)
    seen: dict[str, None] = {}
    for w in _WORD.findall(text):
        low = w.lower()
        if low in VOCABULARY:
            seen.setdefault(low, None)
    return tuple(seen)


def _string(node: ast.AST) -> str | None:
    """The text of a string literal, an f-string's literal parts, or an implicit concatenation."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return " ".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _string(node.left), _string(node.right)
        if left is not None or right is not None:
            return (left or "") + " " + (right or "")
    return None


def _collection_words(node: ast.AST) -> tuple[str, ...]:
    """Vocabulary words of a set/tuple/list display whose elements are short strings."""
    if not isinstance(node, (ast.Set, ast.Tuple, ast.List)):
        return ()
    seen: dict[str, None] = {}
    for elt in node.elts:
        text = _string(elt)
        if text is None or len(text.split()) > MAX_ELEMENT_WORDS:
            continue
        for w in vocabulary_words(text):
            seen.setdefault(w, None)
    return tuple(seen)


def _is_re_call(node: ast.Call) -> bool:
    f = node.func
    return (isinstance(f, ast.Attribute) and f.attr in RE_FUNCTIONS and isinstance(f.value, ast.Name)
            and f.value.id == "re")


def _is_split_call(node: ast.Call) -> bool:
    return isinstance(node.func, ast.Attribute) and node.func.attr == "split" and _string(node.func.value) is not None


class _Scan(ast.NodeVisitor):
    def __init__(self, module: str):
        self.module = module
        self.scope: list[str] = []
        self.found: list[Finding] = []

    def _add(self, node: ast.AST, words: tuple[str, ...]) -> None:
        if len(words) >= MIN_WORDS:
            name = self.scope[-1] if self.scope else "<module>"
            self.found.append(Finding(self.module, name, getattr(node, "lineno", 0), words))

    def _scoped(self, name: str, node: ast.AST) -> None:
        self.scope.append(name)
        self.generic_visit(node)
        self.scope.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._scoped(node.name, node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._scoped(node.name, node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._scoped(node.name, node)

    def visit_Assign(self, node: ast.Assign) -> None:
        target = node.targets[0]
        name = target.id if isinstance(target, ast.Name) else target.attr if isinstance(target, ast.Attribute) else ""
        self._scoped(name, node) if name else self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        target = node.target
        name = target.id if isinstance(target, ast.Name) else target.attr if isinstance(target, ast.Attribute) else ""
        self._scoped(name, node) if name else self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if _is_re_call(node) and node.args:
            pattern = _string(node.args[0])
            if pattern is not None:
                self._add(node, vocabulary_words(pattern, regex=True))
        elif _is_split_call(node):
            assert isinstance(node.func, ast.Attribute)
            self._add(node, vocabulary_words(_string(node.func.value) or ""))
        self.generic_visit(node)

    def visit_Set(self, node: ast.Set) -> None:
        self._add(node, _collection_words(node))
        self.generic_visit(node)

    def visit_Tuple(self, node: ast.Tuple) -> None:
        self._add(node, _collection_words(node))
        self.generic_visit(node)

    def visit_List(self, node: ast.List) -> None:
        self._add(node, _collection_words(node))
        self.generic_visit(node)


def scan_source(source: str, module: str) -> list[Finding]:
    scan = _Scan(module)
    scan.visit(ast.parse(source))
    return scan.found


def modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.split("/")[0] == EXEMPT_DIR or rel in PENDING:
            continue
        out.append((rel, path))
    return out


def findings() -> list[Finding]:
    out: list[Finding] = []
    for rel, path in modules():
        out.extend(f for f in scan_source(path.read_text(encoding="utf-8"), rel) if (f.module, f.name) not in ALLOWED)
    return out


def test_no_english_word_list_outside_the_language_package() -> None:
    found = findings()
    assert not found, ("English word lists outside openclaw_tui/language/ (move the words to a per-language table "
                       "in language/data/, or allow a prompt/notice in ALLOWED with its reason):\n"
                       + "\n".join(str(f) for f in found))


def test_allowed_and_pending_entries_still_exist() -> None:
    """An allow-list entry whose literal is gone must go too (the list only shrinks)."""
    present = {(f.module, f.name) for rel, path in modules() for f in scan_source(path.read_text(encoding="utf-8"), rel)}
    stale = [key for key in ALLOWED if key not in present]
    assert not stale, f"ALLOWED entries with no such literal any more: {stale}"
    missing = [m for m in PENDING if not (PACKAGE / m).exists()]
    assert not missing, f"PENDING modules that are gone (remove them from PENDING): {missing}"


@pytest.mark.parametrize(
    "source, flagged",
    [
        ('PREF_RE = re.compile(r"\\b(prefer|always|never|must)\\b", re.I)', True),
        ('SKIP = frozenset("a an the and or".split())', True),
        ('FRAME = {"yes", "sure", "thanks", "memory"}', True),
        ('def f(t):\n    return t in ("hello", "hi", "hey")', True),
        ('ALT = re.compile(rf"\\b(?:{X}|what|when|where)\\b")', True),
        ('SOURCE_RE = re.compile(r"(?im)^sources?:[^\\n]*$")', False),  # a format, not words
        ('EXT = ("md", "py", "json", "yaml")', False),
        ('PROMPT = ("You summarise a conversation so the assistant can continue without it.",)', False),
        ('MSG = "the index is stale and will be rebuilt"', False),  # prose, not a list
        ('PAIR = ("none", "n/a", "-")', False),
        ('__all__ = ["is_private", "for_key", "in_tier", "the_log"]', False),  # identifiers
    ],
)
def test_the_scan_finds_word_lists_and_not_prose(source: str, flagged: bool) -> None:
    assert bool(scan_source(source, "x.py")) is flagged
