"""File tools for the model: read, write, edit, append — all inside the workspace.

Every path goes through ``workspace.guard`` (relative, no ``..``, no symlinks, regular
files only). ``FileTools`` enforces the access mode (rw/ro) and the flush restriction
(append to ``memory/<today>.md`` only). Handlers return a result dict and never raise:
refusals come back as ``{"error": ...}`` with ``refused: True``.

Read-before-overwrite rules live in ``tools.write_policy``; every change to a memory file
is kept in ``workspace.history`` *before* the file is written, and listed in ``changes``.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterator

from openclaw_tui.language.secrets import DiskText, redact_for_disk, redact_new_lines, withheld_phrase
from openclaw_tui.owner_only import FILE_MODE, tighten
from openclaw_tui.unicode_clean import clean_surrogates
from openclaw_tui.tools.note_text import dated_note, drop_citation_lines
from openclaw_tui.tools.write_policy import (
    ReadLedger,
    check_edit,
    check_recovered,
    check_shrink,
    check_write,
    is_protected_rel,
    window_baseline,
)
from openclaw_tui.workspace.daily import append_text, daily_rel, is_daily_rel, today
from openclaw_tui.workspace.tiers import daily_log_rel, is_shared_rel
from openclaw_tui.workspace import file_lock, safe_fs, temp_sweep
from openclaw_tui.workspace.guard import PathRefused, is_memory_rel, normalize_rel, printable_path, safe_join
from openclaw_tui.records.history import ChangeOrigin, MemoryChange, MemoryHistory
from openclaw_tui.workspace.tombstones import RESERVED_DIR, Tombstones, added_lines, is_reserved_rel
from openclaw_tui.workspace.privacy import PRIVATE_REFUSAL, hidden_for, is_private_file, is_private_key

_TEXT_ARGS = ("content", "old_text", "new_text")
MAX_READ_CHARS = 100_000
MAX_WRITE_CHARS = 1_000_000
WRITE_TOOLS = ("write", "edit", "append")
USER_FILES = ("USER.md", "user.md")  # the flush may edit these after reading them (issue 28)


def _schema(name: str, description: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": props, "required": required, "additionalProperties": False},
        },
    }


READ_SCHEMA = _schema(
    "read",
    "Read a text file from the workspace. Paths are relative to the workspace.",
    {
        "path": {"type": "string", "description": "workspace-relative path, e.g. USER.md"},
        "from": {"type": "integer", "minimum": 1, "description": "first line (1-based)"},
        "lines": {"type": "integer", "minimum": 1, "description": "number of lines"},
    },
    ["path"],
)
WRITE_SCHEMA = _schema(
    "write",
    "Create a new workspace file, or replace one you have read in full in this session. "
    "To change or add to an existing file (MEMORY.md, daily logs) use edit or append instead.",
    {"path": {"type": "string"}, "content": {"type": "string"}},
    ["path", "content"],
)
EDIT_SCHEMA = _schema(
    "edit",
    "Replace one exact, unique occurrence of old_text with new_text in a workspace file.",
    {"path": {"type": "string"}, "old_text": {"type": "string"}, "new_text": {"type": "string"}},
    ["path", "old_text", "new_text"],
)
APPEND_SCHEMA = _schema(
    "append",
    "Append text to the end of a workspace file (created if missing). Use memory/YYYY-MM-DD.md for daily notes.",
    {"path": {"type": "string"}, "content": {"type": "string"}},
    ["path", "content"],
)
FILE_SCHEMAS = [READ_SCHEMA, WRITE_SCHEMA, EDIT_SCHEMA, APPEND_SCHEMA]


@dataclass
class WriteRecord:
    tool: str
    path: str
    lines: int
    text: str = ""
    withheld: tuple[str, ...] = ()  # the kinds of secret written as markers ("card number", "PIN")


@dataclass
class FileTools:
    workspace: Path
    access: str = "rw"  # rw | ro | none
    session_key: str = "agent:main:main"
    flush_mode: bool = False
    today_rel: Callable[[], str] = daily_rel
    on_refused: Callable[[str, str, str], None] | None = None  # (tool, path, reason)
    on_withheld: Callable[[str, str, tuple[str, ...]], None] | None = None  # (tool, path, kinds of secret)
    writes: list[WriteRecord] = field(default_factory=list)
    ledger: ReadLedger = field(default_factory=ReadLedger)
    history: MemoryHistory | None = None
    origin: Callable[[], ChangeOrigin] = ChangeOrigin
    changes: list[MemoryChange] = field(default_factory=list)
    #: every refusal, in order: (tool, path, reason, kind); kind "forgotten" for a tombstoned fact
    refusals: list[tuple[str, str, str, str]] = field(default_factory=list)
    #: memory files a write to was refused because it brought a forgotten fact back (the turn says so)
    forgotten_refusals: list[str] = field(default_factory=list)
    _writer: str = field(default="", repr=False)  # set by ``writing_as``

    def __post_init__(self) -> None:
        if self.today_rel is daily_rel:  # today's log of this session's tier (workspace/tiers.py)
            self.today_rel = lambda: daily_log_rel(today(), self.session_key)
        if self.access == "rw":  # a crash's leftover temp copies go when a session starts
            temp_sweep.sweep(Path(self.workspace))
        if self.history is not None:  # and those in the history store (ours, whatever the access)
            self.history.sweep_temp()

    # ------------------------------------------------------------------ helpers

    def _refuse(self, tool: str, path: str, reason: str, kind: str = "") -> dict[str, Any]:
        self.refusals.append((tool, printable_path(path), reason, kind))
        if self.on_refused is not None:
            self.on_refused(tool, path, reason)
        return {"path": printable_path(path), "error": f"{tool} refused: {reason}", "refused": True}

    def _resolve(self, tool: str, raw: Any, *, must_exist: bool) -> tuple[str, Path] | dict[str, Any]:
        if self.access == "none":
            return self._refuse(tool, str(raw), "workspace access is none in this session")
        try:
            rel = normalize_rel(raw)
            safe_join(self.workspace, rel, allow_missing=not must_exist)
            # safe_join stops at the first missing component; nothing below it exists,
            # so the full path cannot traverse a symlink.
            path = Path(self.workspace) / rel
        except PathRefused as exc:
            return self._refuse(tool, str(raw), exc.reason)
        if is_reserved_rel(rel):
            return self._refuse(tool, rel, f"{RESERVED_DIR}/ holds what the user made memory forget; no tool reads or writes it")
        if hidden_for(self.session_key) and is_private_key(self.workspace, rel):
            return self._refuse(tool, rel, PRIVATE_REFUSAL)
        return rel, path

    def _write_allowed(self, tool: str, rel: str) -> dict[str, Any] | None:
        if self.access == "ro":
            return self._refuse(tool, rel, "the workspace is read-only (--workspace-access ro)")
        if is_daily_rel(rel) and _day_of(rel) != _day_of(self.today_rel()):  # other days are read-only (issue 36)
            return self._refuse(tool, rel, f"only today's daily log ({self.today_rel()}) may be written; "
                                           "the logs of other days are read-only: append the note to today's log")
        if self.flush_mode:
            today = self.today_rel()
            if tool == "edit" and rel in USER_FILES and self._read_in_full(rel):
                return None  # a durable preference into USER.md, read in this flush first (read-before-write)
            if tool != "append" or rel != today:
                return self._refuse(tool, rel, f"during a memory flush only appending to {today} is allowed")
        return None

    def _read_in_full(self, rel: str) -> bool:
        try:
            data = safe_fs.current_bytes(self.workspace, rel)
        except (PathRefused, OSError):
            return False
        return data is not None and self.ledger.knows(rel, data)

    def _forgotten(self, rel: str, added: str) -> str | None:
        """Why ``added`` may not go into memory file ``rel``: it writes back a fact the user
        made ``memory forget`` (workspace/tombstones.py), else None."""
        if not (added.strip() and is_memory_rel(rel)):
            return None
        hit = Tombstones.for_workspace(self.workspace).match(added)
        if hit is None:
            return None
        self.forgotten_refusals.append(rel)
        return f"the user made memory forget this fact (tombstone {hit.id}); do not store it again"

    def is_forgotten(self, text: str) -> bool:
        """Whether ``text`` (a fact about to be noted, a user's statement) brings back a fact the
        user made ``memory forget`` in this workspace."""
        return bool(text.strip()) and self.access != "none" and Tombstones.for_workspace(self.workspace).match(text) is not None

    def _writable(self, tool: str, raw: Any, content: str) -> tuple[str, Path] | dict[str, Any]:
        """Path checks, access mode and size limit shared by write and append."""
        got = self._resolve(tool, raw, must_exist=False)
        if isinstance(got, dict):
            return got
        rel, _path = got
        refused = self._write_allowed(tool, rel)
        if refused:
            return refused
        if len(content) > MAX_WRITE_CHARS:
            return {"path": rel, "error": f"content is longer than {MAX_WRITE_CHARS} characters"}
        return got

    @contextmanager
    def writing_as(self, writer: str) -> Iterator[None]:
        """The history names ``writer`` ("engine note") for the changes made inside."""
        before, self._writer = self._writer, writer
        try:
            yield
        finally:
            self._writer = before

    def _origin(self) -> ChangeOrigin:
        origin = self.origin()
        writer = self._writer or ("flush" if self.flush_mode and origin.actor == "model" else "")
        return replace(origin, writer=writer) if writer else origin

    def _keep(self, tool: str, rel: str, before: bytes | None, after: bytes) -> MemoryChange | None:
        """Before a file is written: store its previous version in the history (every file the
        tools may change: AGENTS.md and the other bootstrap files are the next system prompt)."""
        try:
            entry = self.history.record(rel, before, after, tool, self._origin()) if self.history else None
        except OSError as exc:
            raise OSError(exc.errno, f"its previous version could not be kept in the memory history ({exc.strerror or exc}), so nothing was changed") from exc
        return MemoryChange(rel, tool, before, after, entry)

    def _shrink_refusal(self, rel: str, current: bytes | None, new: bytes) -> str | None:
        """The cumulative shrink rule (write_policy.check_shrink) for a change of ``rel``."""
        if current is None:
            return None
        self.ledger.met(rel, len(current))
        floor = window_baseline(self.history, rel, time.time())
        return check_shrink(rel, len(current), len(new), [self.ledger.first_size.get(rel), floor])

    def _changed(self, rel: str, change: MemoryChange | None, new: bytes, *, knew: bool, shown: str) -> None:
        self.ledger.wrote(rel, new, knew_before=knew, shown=shown)
        if change is not None:
            self.changes.append(change)

    @staticmethod
    def _for_disk(rel: str, text: str, existing: bytes | str | None = None) -> DiskText:
        """What of ``text`` may reach memory file ``rel``: every secret a marker (language/secrets.py;
        lines ``existing`` holds already stay as the user wrote them). Other files are left alone."""
        if not is_memory_rel(rel):
            return DiskText(text)
        return redact_new_lines(text, existing) if existing else redact_for_disk(text)

    def _withheld(self, tool: str, rel: str, disk: DiskText, result: dict[str, Any]) -> dict[str, Any]:
        """Tell the model and the session what was not kept in plain text (kinds, never values)."""
        if disk.found:
            result["withheld"] = list(disk.kinds)
            result["note"] = (f"stored without {withheld_phrase(disk.kinds)}: a marker stands in its place; "
                              "tell the user it was not kept")
            if self.on_withheld is not None:
                self.on_withheld(tool, rel, disk.kinds)
        if is_memory_rel(rel):
            tighten(Path(self.workspace) / rel, FILE_MODE)  # owner-only, like the index
        return result

    def withheld_before(self, kinds: tuple[str, ...]) -> None:
        """The last write's text was redacted by its writer before it came here (the engine's notes):
        its record and the session are told the kinds all the same."""
        if kinds and self.writes:
            last = self.writes[-1]
            last.withheld = tuple(dict.fromkeys(last.withheld + kinds))
            if self.on_withheld is not None:
                self.on_withheld(last.tool, last.path, kinds)

    # ------------------------------------------------------------------ tools

    def read(self, args: dict[str, Any]) -> dict[str, Any]:
        got = self._resolve("read", args.get("path"), must_exist=False)
        if isinstance(got, dict):
            return got
        rel, _path = got
        try:
            start_i = max(1, int(args["from"])) if args.get("from") is not None else 1
            count_i = max(1, int(args["lines"])) if args.get("lines") is not None else None
        except (TypeError, ValueError):
            return {"path": rel, "error": "from and lines must be integers"}
        try:
            fd, st = safe_fs.open_file(self.workspace, rel)
        except FileNotFoundError:
            # Not a refusal (nothing was denied): just a file that is not there yet, such as
            # today's daily log before the first note.
            return {"path": rel, "error": f"{rel} does not exist", "missing": True}
        except PathRefused as exc:
            return self._refuse("read", rel, exc.reason)
        except OSError as exc:
            return {"path": rel, "error": f"cannot read {rel}: {exc.strerror or exc}"}
        try:
            if hidden_for(self.session_key) and is_private_file(self.workspace, self.workspace / rel, st):
                return self._refuse("read", rel, PRIVATE_REFUSAL)
            if st.st_size > safe_fs.MAX_FILE_BYTES:  # a range of a huge file is read incrementally
                if args.get("from") is None and count_i is None:
                    too = safe_fs.FileTooLarge(rel, st.st_size, safe_fs.MAX_FILE_BYTES).reason
                    return {"path": rel, "error": f"{too}; read a range with from and lines"}
                part = safe_fs.read_lines(fd, start_i, count_i, MAX_READ_CHARS)
                text = part.text()
                self.ledger.read(rel, b"", text, whole=False)
                return {"path": rel, "from": start_i, "lines": len(part.lines), "text": text, "truncated": part.truncated}
            data = safe_fs.read_bytes(fd, st, rel)
        except PathRefused as exc:
            return {"path": rel, "error": f"cannot read {rel}: {exc.reason}"}
        except OSError as exc:
            return {"path": rel, "error": f"cannot read {rel}: {exc.strerror or exc}"}
        finally:
            os.close(fd)
        lines = data.decode("utf-8", errors="replace").splitlines(keepends=True)
        chosen = lines[start_i - 1 : (start_i - 1 + count_i) if count_i else None]
        out = "".join(chosen)
        truncated = len(out) > MAX_READ_CHARS
        if truncated:
            out = out[:MAX_READ_CHARS]
        whole = start_i == 1 and len(chosen) == len(lines) and not truncated
        self.ledger.read(rel, data, out, whole=whole)
        self.ledger.met(rel, len(data))
        return {"path": rel, "from": start_i, "lines": len(chosen), "text": out, "truncated": truncated}

    def write(self, args: dict[str, Any]) -> dict[str, Any]:
        content = args.get("content")
        if not isinstance(content, str):
            return {"error": "write needs a string 'content'"}
        got = self._writable("write", args.get("path"), content)
        if isinstance(got, dict):
            return got
        rel, _path = got
        return file_lock.retrying(rel, lambda: self._write_locked(rel, content), lambda why: self._refuse("write", rel, why))

    def _write_locked(self, rel: str, content: str) -> dict[str, Any]:
        try:
            with file_lock.writing(self.workspace, rel):
                current, seen = safe_fs.current_state(self.workspace, rel)
                disk = self._for_disk(rel, content, current)
                content = disk.text
                new = content.encode("utf-8")
                refused = (check_write(rel, current, content, self.ledger) or self._shrink_refusal(rel, current, new)
                           or self._forgotten(rel, added_lines(current, content)))
                if refused:
                    return self._refuse("write", rel, refused)
                change = self._keep("write", rel, current, new)
                safe_fs.replace_text(self.workspace, rel, new, expect=seen, default_mode=_mode(rel))
        except PathRefused as exc:
            return self._refuse("write", rel, exc.reason)
        except OSError as exc:
            return {"path": rel, "error": f"cannot write {rel}: {exc.strerror or exc}"}
        self._changed(rel, change, new, knew=True, shown=content)
        n = content.count("\n") + (0 if content.endswith("\n") or not content else 1)
        self.writes.append(WriteRecord("write", rel, n, withheld=disk.kinds))
        return self._withheld("write", rel, disk, {"path": rel, "ok": True, "bytes": len(new)})

    def edit(self, args: dict[str, Any]) -> dict[str, Any]:
        old, new = args.get("old_text"), args.get("new_text")
        if not isinstance(old, str) or not isinstance(new, str) or not old:
            return {"error": "edit needs non-empty 'old_text' and a string 'new_text'"}
        got = self._resolve("edit", args.get("path"), must_exist=True)
        if isinstance(got, dict):
            return got
        rel, _path = got
        refused = self._write_allowed("edit", rel)
        if refused:
            return refused
        return file_lock.retrying(rel, lambda: self._edit_locked(rel, old, new), lambda why: self._refuse("edit", rel, why))

    def _edit_locked(self, rel: str, old: str, new: str) -> dict[str, Any]:
        try:
            with file_lock.writing(self.workspace, rel):
                try:
                    data, seen = safe_fs.current_state(self.workspace, rel)
                    if data is None:
                        return {"path": rel, "error": f"{rel} does not exist", "missing": True}
                    text = data.decode("utf-8")
                except UnicodeDecodeError as exc:
                    return {"path": rel, "error": f"cannot read {rel}: {exc}"}
                hits = text.count(old)
                if hits != 1:
                    return {"path": rel, "error": f"old_text must occur exactly once in {rel} (found {hits})"}
                disk = self._for_disk(rel, new, old)
                new = disk.text
                after = text.replace(old, new, 1).encode("utf-8")
                refused = (check_edit(rel, old, self.ledger, text) or self._shrink_refusal(rel, data, after)
                           or self._forgotten(rel, added_lines(data, new)))
                if refused:
                    return self._refuse("edit", rel, refused)
                change = self._keep("edit", rel, data, after)
                safe_fs.replace_text(self.workspace, rel, after, expect=seen, default_mode=_mode(rel))
        except PathRefused as exc:
            return self._refuse("edit", rel, exc.reason)
        except OSError as exc:
            return {"path": rel, "error": f"cannot write {rel}: {exc.strerror or exc}"}
        self._changed(rel, change, after, knew=self.ledger.knows(rel, data), shown=new)
        self.ledger.edited_block(rel, old, new)
        self.writes.append(WriteRecord("edit", rel, new.count("\n") + 1, withheld=disk.kinds))
        return self._withheld("edit", rel, disk, {"path": rel, "ok": True})

    def append(self, args: dict[str, Any]) -> dict[str, Any]:
        content = args.get("content")
        if not isinstance(content, str) or not content.strip():
            return {"error": "append needs non-empty string 'content'"}
        redirected = self._other_day(args.get("path"))
        if redirected is not None:  # a daily log is written on its own day: the note goes to today's, dated
            args, content = {**args, "path": self.today_rel()}, dated_note(content, redirected)
        shared = redirected is None and self._private_daily(args.get("path"))
        if shared:  # a group session's notes go to the shared tier, never to a private log
            args = {**args, "path": self.today_rel()}
        got = self._writable("append", args.get("path"), content)
        if isinstance(got, dict):
            return got
        rel, _path = got
        if is_memory_rel(rel):
            content = drop_citation_lines(content)
            if not content.strip():
                return {"path": rel, "error": "nothing to append: the content is only a Source: line; append the fact itself"}
            forgotten = self._forgotten(rel, content)
            if forgotten:
                return self._refuse("append", rel, forgotten, "forgotten")
        done = file_lock.retrying(rel, lambda: self._append_locked(rel, content), lambda why: self._refuse("append", rel, why))
        if redirected is not None and done.get("ok"):
            done["note"] = (done["note"] + "; " if done.get("note") else "") + f"appended to today's log {rel}, not memory/{redirected}.md: a daily log is only written on its own day; the note keeps the date {redirected}"
        if shared and done.get("ok"):
            done["note"] = f"appended to the shared log {rel}: a group session's notes go to memory/shared/"
        return done

    def _private_daily(self, raw: Any) -> bool:
        """Whether ``raw`` names a private-tier daily log and this is a group or channel session."""
        try:
            rel = normalize_rel(raw)
        except PathRefused:
            return False
        return hidden_for(self.session_key) and is_daily_rel(rel) and not is_shared_rel(rel)

    def _append_locked(self, rel: str, content: str) -> dict[str, Any]:
        disk = self._for_disk(rel, content)
        content = disk.text
        try:
            with file_lock.writing(self.workspace, rel):
                before, seen = safe_fs.current_state(self.workspace, rel)
                self.ledger.met(rel, len(before or b""))
                after = _appended(before, content)
                knew = before is None or self.ledger.knows(rel, before)
                change = self._keep("append", rel, before, after)
                n = append_text(self.workspace, rel, content, expect=seen, mode=_mode(rel))
        except PathRefused as exc:
            return self._refuse("append", rel, exc.reason)
        except OSError as exc:
            return {"path": rel, "error": f"cannot append to {rel}: {exc.strerror or exc}"}
        self._changed(rel, change, after, knew=knew, shown=content)
        self.ledger.appended_block(rel, content if content.endswith("\n") else content + "\n")
        self.writes.append(WriteRecord("append", rel, n, content, withheld=disk.kinds))
        return self._withheld("append", rel, disk, {"path": rel, "ok": True, "linesAppended": n})

    def _other_day(self, raw: Any) -> str | None:
        """The date of the daily log ``raw`` names when it is not today's (None otherwise)."""
        try:
            rel = normalize_rel(raw)
        except PathRefused:
            return None
        if not is_daily_rel(rel) or rel == self.today_rel():
            return None
        day = rel.rsplit("/", 1)[-1].removesuffix(".md")
        return None if day == self.today_rel().rsplit("/", 1)[-1].removesuffix(".md") else day

    def run(self, name: str, args: dict[str, Any], *, recovered: bool = False) -> dict[str, Any]:
        """Run the file tool registered as ``name`` (``tools/registry.py``)."""
        from openclaw_tui.tools.registry import FileRun, spec_for  # the registry imports this module

        spec = spec_for(name)
        if spec is None or not isinstance(spec.run, FileRun):
            return {"error": f"unknown tool {name!r}"}
        return self.run_handler(spec.run.handler, args, recovered=recovered)

    def run_handler(self, handler: Callable[[FileTools, dict[str, Any]], dict[str, Any]], args: dict[str, Any],
                    *, recovered: bool = False) -> dict[str, Any]:
        """One file tool's handler (``FileTools.read`` …) on the model's arguments."""
        name = handler.__name__
        # lone surrogates (a JSON "\udc80" escape) in text become U+FFFD; in paths they are refused
        args = {k: clean_surrogates(v) if k in _TEXT_ARGS and isinstance(v, str) else v for k, v in args.items()}
        if recovered and name in WRITE_TOOLS:
            refused = self._recovered_refusal(name, args)
            if refused:
                return refused
        return handler(self, args)

    def _recovered_refusal(self, tool: str, args: dict[str, Any]) -> dict[str, Any] | None:
        """A call printed as text that changes MEMORY.md or a bootstrap file needs this session
        to have read what it changes (the file in full, or the edited text) first."""
        try:
            rel = normalize_rel(args.get("path"))
        except PathRefused:
            return None  # the handler refuses it with its reason
        if not is_protected_rel(rel):
            return None
        try:
            current = safe_fs.current_bytes(self.workspace, rel)
        except (PathRefused, OSError):
            return None
        reason = check_recovered(rel, current, args.get("old_text") if tool == "edit" else None, self.ledger)
        return self._refuse(tool, rel, reason) if reason else None

    def touched_memory(self, since: int = 0) -> bool:
        return any(is_memory_rel(w.path) for w in self.writes[since:])


def _day_of(rel: str) -> str:
    """``YYYY-MM-DD`` of a daily log path (either tier)."""
    return rel.rsplit("/", 1)[-1].removesuffix(".md")


def _mode(rel: str) -> int:
    """The mode a new file gets: owner-only for memory files (like the index), else the usual."""
    return FILE_MODE if is_memory_rel(rel) else 0o644


def _appended(before: bytes | None, content: str) -> bytes:
    """What ``append_text`` leaves: a newline repaired before, one ending the new text."""
    head = before or b""
    if head and not head.endswith(b"\n"):
        head += b"\n"
    return head + (content if content.endswith("\n") else content + "\n").encode("utf-8")
