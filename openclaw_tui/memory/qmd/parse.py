"""Parse qmd's ``--json`` search output (DESIGN §8).

qmd prints a JSON array of hits: ``docid``, ``score``, ``file`` (``qmd://<collection>/<path>``),
``line``, ``title`` and ``snippet`` whose first line is a ``@@ -start,count @@`` header. Stdout
may carry noise around the array (progress lines, warnings, ANSI codes). Without an array,
only a line that *is* qmd's "no results" marker ("No results found.", optionally tagged like
``[qmd] warn: no results found``) means an empty list — on stdout, or on stderr when stdout
is empty. Anything else, empty output included, is unparsable and raises ``QmdParseError``
(the backend then answers from the builtin index), as OpenClaw does.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from urllib.parse import unquote

_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_HEADER_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))?(?: \+\d+(?:,\d+)?)? @@[^\n]*(?:\n|$)")
#: a whole line saying there is nothing: qmd's own texts, optionally after a "[tag]" and
#: "warn:" / "info:" / "qmd:" labels
_NO_RESULTS_LINE_RE = re.compile(
    r"^(?:\[[^\]]+\]\s*)?(?:(?:warn(?:ing)?|info|error|qmd)\s*:\s*)*"
    r"no results found(?: above minimum score threshold)?\.?$"
)


class QmdParseError(ValueError):
    pass


@dataclass(frozen=True)
class QmdHit:
    collection: str
    path: str  # path inside the collection, '/'-separated
    start_line: int
    end_line: int
    score: float
    snippet: str  # snippet text without the @@ header
    docid: str = ""
    title: str = ""


def strip_ansi(text: str) -> str:
    return _ANSI_RE.sub("", text)


def extract_json_array(stdout: str) -> list | None:
    """Find the first JSON array in noisy text whose items are objects (or which is empty)."""
    text = strip_ansi(stdout)
    decoder = json.JSONDecoder()
    pos = text.find("[")
    while pos != -1:
        try:
            value, _end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError:
            value = None
        if isinstance(value, list) and all(isinstance(v, dict) for v in value):
            return value
        pos = text.find("[", pos + 1)
    return None


def parse_snippet(snippet: str, fallback_line: int | None = None) -> tuple[int, int, str]:
    """Return (start_line, end_line, body) from a snippet with an optional ``@@ -s,c @@`` header."""
    text = (snippet or "").replace("\r\n", "\n")
    m = _HEADER_RE.match(text)
    if m:
        start = max(1, int(m.group(1)))
        count = int(m.group(2)) if m.group(2) is not None else 1
        body = text[m.end():]
        return start, start + max(count, 1) - 1, body
    start = max(1, int(fallback_line or 1))
    n = max(1, len(text.rstrip("\n").split("\n"))) if text else 1
    return start, start + n - 1, text


def trim_blank_edges(start: int, end: int, body: str) -> tuple[int, int, str]:
    """Drop blank first/last lines of a snippet, moving the line range with them."""
    lines = body.split("\n")
    while len(lines) > 1 and not lines[0].strip():
        lines.pop(0)
        start += 1
    while len(lines) > 1 and not lines[-1].strip():
        lines.pop()
        end -= 1
    return start, max(start, end), "\n".join(lines)


def parse_qmd_uri(uri: str) -> tuple[str, str]:
    """``qmd://<collection>/<path>`` → (collection, path). Raises QmdParseError otherwise."""
    if not isinstance(uri, str) or not uri.startswith("qmd://"):
        raise QmdParseError(f"result file is not a qmd:// URI: {str(uri)[:80]!r}")
    rest = uri[len("qmd://"):]
    collection, sep, path = rest.partition("/")
    path = unquote(path).lstrip("/")
    if not collection or not sep or not path:
        raise QmdParseError(f"qmd URI names no file: {uri[:80]!r}")
    return collection, path


def _to_hit(item: dict) -> QmdHit:
    collection, path = parse_qmd_uri(item.get("file") or item.get("path") or "")
    fallback_line = item.get("line") if isinstance(item.get("line"), int) else None
    start, end, body = parse_snippet(str(item.get("snippet") or ""), fallback_line)
    try:
        score = float(item.get("score") or 0.0)
    except (TypeError, ValueError):
        score = 0.0
    return QmdHit(
        collection=collection,
        path=path,
        start_line=start,
        end_line=end,
        score=score,
        snippet=body,
        docid=str(item.get("docid") or ""),
        title=str(item.get("title") or ""),
    )


def is_no_results_marker(text: str) -> bool:
    """True when some line of ``text`` is exactly a "no results" marker (case and inner
    whitespace ignored). Text that merely mentions "no results" is not one."""
    for line in strip_ansi(text).splitlines():
        if _NO_RESULTS_LINE_RE.match(" ".join(line.lower().split())):
            return True
    return False


def parse_search_output(stdout: str, stderr: str = "") -> list[QmdHit]:
    """Parse ``qmd search|vsearch|query --json`` output into hits (see module doc)."""
    array = extract_json_array(stdout)
    if array is None:
        cleaned = strip_ansi(stdout).strip()
        if is_no_results_marker(cleaned) or (not cleaned and is_no_results_marker(stderr)):
            return []
        if not cleaned:
            raise QmdParseError("qmd printed nothing on stdout (expected a JSON array)")
        raise QmdParseError(f"unparsable qmd output: {cleaned.splitlines()[0][:120]!r}")
    return [_to_hit(item) for item in array]
