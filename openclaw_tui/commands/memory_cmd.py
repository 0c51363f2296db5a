"""``openclaw-tui memory status|index|search|get``.

    memory status [--deep [--fix]] [--json]      --deep: checks (commands.memory_deep); --fix repairs
    memory index [--force] [--json]              progress bar only when stdout is a terminal
    memory search QUERY [--max-results N] [--min-score X] [--json]
    memory search --batch FILE --json            one query per line in, one JSON result per line out
                                                 (FILE ``-``: queries from standard input)
    memory get PATH [--from N] [--lines M] [--json]
    memory history [PATH] [--json]               kept versions of memory files (commands.memory_history_cmd)
    memory restore PATH [--to ID] [--json]
    memory forget (QUERY | --path P --lines A-B) [--yes] [--json]   (commands.memory_forget_cmd)

Errors are one line on stderr with a non-zero exit code; never a traceback.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import sys
from typing import Any, Iterator

from openclaw_tui.commands.common import fail, print_json, settings_from_args
from openclaw_tui.config import ConfigError
from openclaw_tui.memory.api import MemoryBackend
from openclaw_tui.redaction import redact
from openclaw_tui.terminal_text import for_terminal
from openclaw_tui.workspace.guard import printable_path


class _OneLine(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        msg = printable_path(redact(record.getMessage()).replace("\n", " "))
        return f"openclaw-tui: {record.levelname.lower()}: {msg}"


def _setup_logging() -> None:
    root = logging.getLogger("openclaw_tui")
    if not any(getattr(h, "_openclaw_cli", False) for h in root.handlers):
        h = logging.StreamHandler(sys.stderr)
        h.setFormatter(_OneLine())
        h._openclaw_cli = True  # type: ignore[attr-defined]
        root.addHandler(h)
        root.setLevel(logging.WARNING)
        root.propagate = False


def run(args: argparse.Namespace) -> int:
    _setup_logging()
    try:
        settings = settings_from_args(args)
    except ConfigError:
        raise  # cli.main prints it as one line
    from openclaw_tui.memory.open import open_memory  # noqa: PLC0415

    action = args.memory_command
    if action in ("history", "restore"):
        from openclaw_tui.commands import memory_history_cmd  # noqa: PLC0415

        return memory_history_cmd.run(args, settings)
    if action == "forget":
        from openclaw_tui.commands import memory_forget_cmd  # noqa: PLC0415

        return memory_forget_cmd.run(args, settings)
    memory: MemoryBackend | None = None
    try:
        if action in ("index", "search", "get") and settings.workspace.exists() and not settings.workspace.is_dir():
            return fail(f"workspace {settings.workspace} is a file, not a directory; pass --workspace DIR")
        if action in ("index", "search", "get") and not settings.workspace.is_dir():
            return fail(
                f"workspace {settings.workspace} does not exist; create it with "
                f"`openclaw-tui init --workspace {settings.workspace}` or pass --workspace DIR"
            )
        memory = open_memory(settings)
        if action in ("index", "search"):
            problem = _index_problem(memory)
            if problem:
                return fail(problem)
        if action == "status":
            return _status(memory, args)
        if action == "index":
            return _index(memory, args)
        if action == "search":
            return _search(memory, args, settings.session_key)
        if action == "get":
            return _get(memory, args, settings.session_key)
        return fail(f"unknown memory action {action!r}")
    except ConfigError:
        raise
    except KeyboardInterrupt:
        raise
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - one line, never a traceback
        return fail(f"memory {action} failed: {type(exc).__name__}: {exc}")
    finally:
        if memory is not None:
            try:
                memory.close()
            except Exception:  # noqa: BLE001
                pass


def _index_problem(memory: MemoryBackend) -> str | None:
    """One line when the builtin index cannot be opened at all (bad store.path, read-only dir)."""
    from openclaw_tui.memory.builtin.manager import IndexUnavailable, MemoryManager  # noqa: PLC0415

    if not isinstance(memory, MemoryManager):
        return None  # QMD keeps its own index (its builtin fallback reports its own problems)
    try:
        memory.index.store()
    except IndexUnavailable as exc:
        return f"{exc}; fix memorySearch.store.path or the state dir permissions"
    except Exception:  # noqa: BLE001 - anything else is reported by sync/search themselves
        return None
    return None


# --------------------------------------------------------------------------- status


def _shown(value: Any, missing: str = "-") -> Any:
    return missing if value is None else value


def _status(memory: MemoryBackend, args: argparse.Namespace) -> int:
    if getattr(args, "deep", False) or getattr(args, "fix", False):
        return _deep_status(memory, args)
    st = dict(memory.status())  # the status's JSON object
    if args.json:
        print_json(st)
        return 0
    rows = [
        ("backend", st.get("backend")),
        ("agent", st.get("agentId")),
        ("workspace", f"{st.get('workspace')}" + ("" if st.get("workspaceExists", True) else "  (missing)")),
        ("index", st.get("indexPath")),
        ("files", _shown(st.get("files"))),
        ("chunks", _shown(st.get("chunks"), "n/a (QMD keeps its own index)" if st.get("backend") == "qmd" else "-")),
        ("provider", f"{st.get('provider')}" + (f" / {st.get('model')}" if st.get("model") else "") + f"  ({st.get('searchMode', '')})"),
        ("vector", f"{st.get('vectorBackend') or 'unavailable'}" + (f", {st.get('vectorDims')} dims" if st.get("vectorDims") else "")),
        ("fts", "available" if st.get("ftsAvailable") else "unavailable"),
        ("dirty", "yes" if st.get("dirty") else "no"),
    ]
    if st.get("backend") == "qmd":
        rows.append(("qmd", f"{st.get('version') or 'version unknown'}  ({'available' if st.get('available') else 'unavailable'})"))
        rows.append(("qmd home", st.get("home")))
        for col in st.get("collections") or []:
            files = col.get("files")
            state = f"{files} files" if files is not None else ("registered" if col.get("registered") else "not registered yet")
            rows.append((f"collection {col.get('name')}", f"{col.get('path')}  [{col.get('pattern')}]  {state}"))
        builtin = st.get("builtin") or {}
        if builtin:
            rows.append(("fallback", f"builtin index {builtin.get('indexPath') or '?'}: {builtin.get('files')} files, {builtin.get('chunks')} chunks"))
    for key in ("providerError", "vectorError", "ftsError", "error", "lastError", "lastEmbedError"):
        if st.get(key):
            rows.append((key, st[key]))
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k.ljust(width)}  {v}")
    return 0


def _deep_status(memory: MemoryBackend, args: argparse.Namespace) -> int:
    """``--deep``: the checks of memory/builtin/deep_status.py; ``--fix``: repair, check again.
    Exit 1 when a problem is left (after ``--fix``, one it could not repair)."""
    from openclaw_tui.memory.builtin import deep_status  # noqa: PLC0415
    from openclaw_tui.memory.builtin.manager import MemoryManager  # noqa: PLC0415

    target = memory if isinstance(memory, MemoryManager) else getattr(memory, "builtin", None)
    if not isinstance(target, MemoryManager):
        return fail("memory status --deep checks the builtin index; this backend keeps its own (run `memory status`)")
    checks = deep_status.deep_checks(target)
    fixed: list[str] = []
    if args.fix and any(not c.ok for c in checks):
        fixed = deep_status.fix(target, checks)
        before, checks = checks, deep_status.deep_checks(target)
    else:
        before = checks
    left = [c for c in checks if not c.ok]
    if args.json:
        out = dict(memory.status())
        out["deep"] = {"checks": [c.to_dict() for c in checks], "ok": not left}
        if args.fix:
            out["deep"]["found"] = [c.to_dict() for c in before if not c.ok]
            out["deep"]["fixed"] = fixed
        print_json(out)
        return 1 if left else 0
    width = max(len(c.name) for c in checks)
    for c in checks:
        print(f"{c.name.ljust(width)}  {'ok ' if c.ok else 'BAD'}  {c.detail}"
              + ("" if c.ok or not c.fix or args.fix else "  (--fix repairs it)"))
    for line in fixed:
        print(f"fixed: {line}")
    return 1 if left else 0


# --------------------------------------------------------------------------- index


class _Progress:
    def __init__(self, stream: Any):
        self.stream = stream
        self.last = -1

    def __call__(self, done: int, total: int, path: str) -> None:
        if total <= 0:
            return
        width = 30
        filled = int(width * done / total)
        pct = int(100 * done / total)
        if pct == self.last and done != total:
            return
        self.last = pct
        name = path[-40:] if path else ""
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {name:<40}")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def _index(memory: MemoryBackend, args: argparse.Namespace) -> int:
    progress = _Progress(sys.stdout) if not args.json and sys.stdout.isatty() else None
    report = dict(memory.sync(force=bool(args.force), reason="cli", progress=progress))  # its JSON object
    if args.json:
        print_json(report)
    elif report.get("aborted"):  # nothing was written: the index on disk is the one from before
        print(f"openclaw-tui: error: index not changed: {report['errors'][-1]}", file=sys.stderr)
    else:
        kind = "rebuilt" if report.get("fullRebuild") else "synced"
        print(
            f"{kind}: {report.get('filesIndexed', 0)} indexed, {report.get('filesUnchanged', 0)} unchanged, "
            f"{report.get('filesRemoved', 0)} removed, {report.get('filesSkipped', 0)} skipped; "
            f"{report.get('files', 0)} files, {report.get('chunks', 0)} chunks in {report.get('durationMs', 0)} ms"
        )
        if report.get("chunksEmbedded") or report.get("cacheHits"):
            print(f"embeddings: {report.get('chunksEmbedded', 0)} computed, {report.get('cacheHits', 0)} from cache")
        for e in report.get("errors", []):
            print(f"openclaw-tui: warning: {e}", file=sys.stderr)
    return 0 if report.get("ok", True) else 1


# --------------------------------------------------------------------------- search


def _prepare(memory: MemoryBackend) -> None:
    """Bring the index up to date before a one-shot CLI search (no background thread survives exit)."""
    if memory.is_dirty():
        memory.sync(reason="cli-search")


def _batch_queries(source: str) -> Iterator[str]:
    """Non-empty, stripped lines of ``--batch FILE``; ``-`` reads standard input line by line
    (each answer is printed as soon as its query line arrives). A file that cannot be read
    raises OSError before the first query."""
    if source == "-":
        stream = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace") if hasattr(sys.stdin, "buffer") else sys.stdin
        return (q for q in (line.strip() for line in stream) if q)
    with open(source, encoding="utf-8", errors="replace") as fh:
        lines = [line.strip() for line in fh]
    return (q for q in lines if q)


def _search(memory: MemoryBackend, args: argparse.Namespace, session_key: str) -> int:
    if args.batch and args.query:
        return fail("give either QUERY or --batch FILE, not both")
    if args.max_results is not None and not 1 <= args.max_results <= 100:
        return fail("--max-results must be between 1 and 100")
    if args.min_score is not None and not 0 <= args.min_score <= 1:
        return fail("--min-score must be between 0 and 1")
    if args.batch:
        try:
            queries = _batch_queries(args.batch)
        except OSError as exc:
            return fail(f"cannot read {args.batch}: {exc.strerror or exc}")
        _prepare(memory)
        for q in queries:
            found = memory.search(q, max_results=args.max_results, min_score=args.min_score, session_key=session_key)
            print_json({**found.to_dict(), "query": q})
        return 0
    if not args.query or not args.query.strip():
        return fail("memory search needs a QUERY (or --batch FILE)")
    _prepare(memory)
    res = memory.search(args.query, max_results=args.max_results, min_score=args.min_score, session_key=session_key)
    if args.json:
        print_json(res.to_dict())
        return 1 if res.disabled else 0
    if res.disabled:
        return fail(f"{res.error}" + (f" ({res.action})" if res.action else ""))
    if not res.results:
        print("no results")
        return 0
    for i, hit in enumerate(res.results, 1):
        print(f"{i}. {printable_path(hit.path)}:{hit.start_line}-{hit.end_line}  score {hit.score:.3f}  [{hit.source}]"
              + ("  (stale: the file changed since it was indexed)" if hit.stale else ""))
        for line in hit.cited_snippet.splitlines():
            print(f"   {printable_path(line)}")
        print()
    fb = res.fallback
    print(f"provider {res.provider}{' / ' + res.model if res.model else ''}, {res.search_ms} ms"
          + (f", fallback from {fb.get('from')}: {fb.get('reason')}" if fb is not None else ""))
    return 0


# --------------------------------------------------------------------------- get


def _get(memory: MemoryBackend, args: argparse.Namespace, session_key: str) -> int:
    if args.from_line is not None and args.from_line < 1:
        return fail("--from must be >= 1")
    if args.lines is not None and args.lines < 1:
        return fail("--lines must be >= 1")
    res = dict(memory.get(args.path, from_line=args.from_line, lines=args.lines, session_key=session_key))
    if args.json:
        print_json(res)
        return 1 if res.get("error") else 0
    if res.get("error"):
        return fail(f"{res.get('path')}: {res['error']}")
    text = res.get("text", "")
    sys.stdout.write(for_terminal(text) + ("\n" if text and not text.endswith("\n") else ""))
    return 0
