"""Pure text formatting for the TUI: timeline lines, meter geometry, result labels.

No Textual imports: these are small functions over events and numbers, tested with tables.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from typing import Any, Callable

from openclaw_tui import events as ev
from openclaw_tui.memory.api import SearchResult

Clock = Callable[[float], str]


def local_clock(ts: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(ts))


def n(value: int | float | None) -> str:
    """Thousands separators: 12345 -> '12,345'."""
    if value is None:
        return "?"
    return f"{int(value):,}"


def compact_n(value: int | float | None) -> str:
    """Short token counts for narrow places: 950 -> '950', 12345 -> '12.3k'."""
    if value is None:
        return "?"
    v = int(value)
    if abs(v) < 1000:
        return str(v)
    if abs(v) < 100_000:
        return f"{v / 1000:.1f}k"
    return f"{v // 1000}k"


# --------------------------------------------------------------------------- sessions


def _md_escape(text: str) -> str:
    return "".join("\\" + c if c in "\\`*_[]<>#|~" else c for c in text)


def session_line(entry: dict[str, Any], session_key: str = "", *, plain: bool = False) -> str:
    """One ``/resume`` row (Markdown, or ``plain`` text for the picker): id, title, last
    activity, model, compactions.

    ``sessions.json`` entries carry epoch-ms stamps, ``None`` fields and transcript paths;
    only what helps to pick a session is shown.
    """
    esc = (lambda t: t) if plain else _md_escape
    sid = entry.get("sessionId") or entry.get("id") or "?"
    parts = [str(sid) if plain else f"`{sid}`"]
    if entry.get("title"):
        parts.append("“" + esc(one_line(str(entry["title"]), 50)) + "”")
    stamp = entry.get("lastActivity") or entry.get("updatedAt") or entry.get("createdAt")
    if isinstance(stamp, (int, float)) and stamp > 0:
        parts.append(time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp / 1000)))
    if entry.get("model"):
        parts.append(esc(str(entry["model"])))
    count = entry.get("compactionCount")
    if isinstance(count, int) and count > 0:
        parts.append(f"{count} compaction{'s' if count != 1 else ''}")
    key = entry.get("sessionKey")
    if key and key != session_key:
        parts.append(esc(str(key)))
    if entry.get("current"):
        parts.append("current" if plain else "**current**")
    return " · ".join(parts)


def picker_line(entry: dict[str, Any], session_key: str = "", workspace: str = "") -> str:
    """One row of the ``/resume`` picker: when, the first thing the user said, the
    workspace (a column: ``·`` when it is this one), then a short id; another session key last."""
    stamp = entry.get("lastActivity") or entry.get("updatedAt") or entry.get("createdAt")
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp / 1000)) if isinstance(stamp, (int, float)) and stamp > 0 else "—".ljust(16)
    title = ("“" + one_line(str(entry["title"]), 36) + "”" if entry.get("title") else "(no message yet)").ljust(38)
    ws = str(entry.get("workspace") or "")
    here = not ws or (workspace and os.path.normpath(ws) == os.path.normpath(workspace))
    ws_col = one_line("(this workspace)" if here else os.path.basename(os.path.normpath(ws)) or ws, 18).ljust(18)
    sid = str(entry.get("sessionId") or entry.get("id") or "?")
    parts = [when, title, ws_col, sid[:8]]
    if entry.get("model"):
        parts.append(str(entry["model"]))
    key = entry.get("sessionKey")
    if key and key != session_key:
        parts.append(str(key))
    if entry.get("current"):
        parts.append("(current)")
    return "  ".join(parts)


# --------------------------------------------------------------------------- citations


def cancel_suffix(text: str) -> str:
    """The mark appended to a cancelled reply; a code fence the reply left open is closed
    first, or the mark showed as literal ``*— cancelled*`` inside the code block."""
    fences = sum(1 for line in text.splitlines() if line.lstrip().startswith(("```", "~~~")))
    close = "\n```" if fences % 2 else ""
    return f"{close}\n\n*— cancelled*"


def line_range(start: int | None, end: int | None) -> str:
    if start is None:
        return ""
    if end is None or end == start:
        return f"L{start}"
    return f"L{start}-L{end}"


def one_line(text: str, limit: int) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: max(0, limit - 1)] + "…"


# --------------------------------------------------------------------------- timeline

# Events that go to the timeline; everything else is chat or panel material.
TIMELINE_TYPES = (
    ev.IndexSynced,
    ev.FlushStarted,
    ev.FlushFinished,
    ev.CompactionStarted,
    ev.CompactionFinished,
    ev.ProviderRetry,
    ev.ProviderError,
    ev.QmdFallback,
    ev.AccessRefused,
)


def timeline_text(event: ev.Event, *, timings: bool = True) -> tuple[str, str] | None:
    """(kind, text) for a timeline entry, or None when the event is not a timeline event.

    ``kind`` is a CSS-ish class: sync, flush, compaction, retry, error, fallback, notice, memory.
    """
    if isinstance(event, ev.IndexSynced):
        parts = [
            f"{event.files_indexed} file{'s' if event.files_indexed != 1 else ''} indexed",
            f"{n(event.chunks)} chunk{'s' if event.chunks != 1 else ''}",
        ]
        if event.files_removed:
            parts.append(f"{event.files_removed} removed")
        head = "index rebuilt" if event.full_rebuild else "index synced"
        tail = f" · {event.duration_ms:.0f} ms" if event.duration_ms and timings else ""
        reason = f" ({event.reason})" if event.reason else ""
        return "sync", f"{head}{reason}: " + ", ".join(parts) + tail
    if isinstance(event, ev.FlushStarted):
        if event.reason == "manual":
            return "flush", f"flush started (manual) at {n(event.tokens)} tokens"
        if event.reason in ev.ENGINE_NOTE_REASONS:  # the engine's notes, no model turn (session/flush.py)
            return "flush", f"notes before {'compaction' if event.reason == 'compaction' else '/new' if event.reason == 'new' else 'quitting'}"
        return "flush", f"flush started: {n(event.tokens)} ≥ {n(event.threshold)} tokens"
    if isinstance(event, ev.FlushFinished):
        if event.skipped_reason:
            return "flush", f"flush skipped: {event.skipped_reason}"
        if event.stored and event.path:
            lines = event.lines_appended
            return "flush", f"flush stored → {event.path} (+{lines} line{'s' if lines != 1 else ''})"
        return "flush", "flush finished: nothing to store"
    if isinstance(event, ev.CompactionStarted):
        why = {"threshold": "threshold", "overflow": "context overflow", "manual": "manual"}.get(event.reason, event.reason)
        return "compaction", f"compaction started ({why}) at {n(event.tokens_before)} tokens"
    if isinstance(event, ev.CompactionFinished):
        return (
            "compaction",
            f"compaction #{event.compaction_count}: {n(event.tokens_before)} → {n(event.tokens_after)} tokens",
        )
    if isinstance(event, ev.ProviderRetry):
        return "retry", f"retry {event.attempt} in {event.delay_s:.1f}s ({event.provider}): {one_line(event.message, 80)}"
    if isinstance(event, ev.ProviderError):
        status = f" {event.status}" if event.status else ""
        return "error", f"provider error{status} ({event.provider}): {one_line(event.message, 80)}"
    if isinstance(event, ev.QmdFallback):
        q = f" for “{one_line(event.query, 30)}”" if event.query else ""
        return "fallback", f"QMD fallback to builtin{q}: {one_line(event.reason, 80)}"
    if isinstance(event, ev.MemoryChanged):
        ref = f" [{event.entry_id}]" if event.entry_id else ""
        return "memory", f"{event.tool} {event.path} {one_line(event.summary, 70)}{ref}"
    if isinstance(event, ev.AccessRefused):
        return "error", f"refused {event.tool} {event.path}: {one_line(event.reason, 60)}"
    if isinstance(event, ev.Notice) and event.level in ("warning", "error"):
        return "notice", f"{event.level}: {one_line(event.message, 90)}"
    if isinstance(event, ev.McpServerChanged):
        if event.state == "ready":
            return "info", f"MCP {event.server}: ready, {event.tools} tool{'s' if event.tools != 1 else ''}"
        if event.state == "trimmed":
            return "notice", f"MCP {event.server}: {one_line(event.message, 240)}"
        return "error", f"MCP {event.server} {event.state}: {one_line(event.message, 90)}"
    return None


def chat_mark(event: ev.Event) -> str | None:
    """The short dimmed chat line left where maintenance happened, or None for events that
    leave none (index runs that changed nothing are timeline-only)."""
    if isinstance(event, ev.FlushFinished):
        if event.skipped_reason:
            return f"memory flush skipped: {one_line(event.skipped_reason, 100)}"
        if event.stored and event.path:
            lines = event.lines_appended
            return f"memory flush: {lines} line{'s' if lines != 1 else ''} → {event.path}"
        return "memory flush: nothing to store"
    if isinstance(event, ev.CompactionFinished):
        return f"compacted: {n(event.tokens_before)} → {n(event.tokens_after)} tokens (older turns are summarised)"
    if isinstance(event, ev.IndexSynced):
        manual = event.reason in ("", "manual")
        if not (event.files_indexed or event.files_removed or manual):
            return None
        head = "memory index rebuilt" if event.full_rebuild else "memory index"
        why = f" ({event.reason})" if event.reason else ""
        removed = f", {event.files_removed} removed" if event.files_removed else ""
        files = f"{event.files_indexed} file{'s' if event.files_indexed != 1 else ''}"
        return f"{head}{why}: {files} indexed{removed}, {n(event.chunks)} chunk{'s' if event.chunks != 1 else ''}"
    return None


def mark_details(event: ev.Event) -> tuple[str, str] | None:
    """(title, Markdown body) of what a flush stored or what a compaction's summary says,
    shown collapsed under its chat mark; None when there is nothing to read."""
    if isinstance(event, ev.FlushFinished) and event.stored and event.written.strip():
        return f"what the flush stored in {event.path}", event.written.strip()
    if isinstance(event, ev.CompactionFinished) and event.summary.strip():
        return f"the summary of compaction #{event.compaction_count}", event.summary.strip()
    return None


def short_path(path: str, limit: int = 48) -> str:
    """``~`` for the home folder; a long path keeps its last two parts (``…/proj/workspace``)."""
    home = os.path.expanduser("~")
    text = "~" + path[len(home):] if home not in ("", "/") and (path == home or path.startswith(home + os.sep)) else path
    if len(text) <= limit:
        return text
    parts = [p for p in text.split(os.sep) if p]
    return "…" + os.sep + os.sep.join(parts[-2:])


# the passing state a local model's label ends with (llm/local/runtime.py): the status bar
# shows it live, the welcome line stays in the chat and names the model only
_LABEL_STATUS = re.compile(r" · (?:loading model…|\d+ tok/s)$")


def memory_explained(workspace: str, today: str, *, group: bool, access: str) -> list[str]:
    """How memory works, in three lines a newcomer can act on (the welcome shows them)."""
    if access == "none":
        return []
    ws = short_path(workspace)
    if access == "ro":
        lines = [f"Memory is read-only here: the agent searches `MEMORY.md` and `memory/*.md` in `{ws}` but saves nothing."]
    else:
        lines = [f"Say “remember …” → saved to today's note `memory/{today}.md` · `MEMORY.md` is long-term memory · files in `{ws}`."]
    if group:
        lines.append("🔒 **Group session**: `MEMORY.md` was excluded (private to direct chats); daily notes are shared.")
    else:
        lines.append("`/memory open [file]` edits a note in $EDITOR · `/memory history` shows kept versions.")
    return lines


def welcome_markdown(model: str, offline: bool, workspace: str, state: str, access: str,
                     *, today: str = "", group: bool = False) -> str:
    """The first lines of a new session: who answers, where notes go, how memory works,
    what to type.

    ``state`` is ``dir`` (the workspace exists), ``missing`` or ``file`` (not a folder);
    ``today`` the daily note's date (``YYYY-MM-DD``; "" leaves memory unexplained);
    ``group`` a group or channel session (MEMORY.md excluded).
    """
    steady = _LABEL_STATUS.sub("", model)
    who = "the **offline agent** (rule-based, not an LLM: pass `--model` for a real one)" if offline else f"`{steady}`"
    full, ws = workspace, short_path(workspace)
    lines = [f"**openclaw-tui** · answering: {who}"]
    if access == "none":
        lines.append(f"Workspace `{ws}` is not accessible (`--workspace-access none`): no memory.")
    elif state == "missing":
        lines.append(
            f"Workspace `{ws}` does not exist yet: `openclaw-tui init --workspace {full}` sets it up, "
            "or your first saved note creates it."
        )
    elif state == "file":
        lines.append(f"Workspace `{ws}` is a file, not a folder: restart with `--workspace DIR`.")
    else:
        lines.append(f"Workspace `{ws}` ({'read-only' if access == 'ro' else 'notes are saved here'}).")
    if today and state != "file":
        lines += memory_explained(full, today, group=group, access=access)
    lines.append("Try `/help` (commands and keys) · `/memory search <query>` · `/resume` (earlier sessions).")
    return "  \n".join(lines)


# --------------------------------------------------------------------------- token meter


@dataclass(frozen=True)
class MeterGeometry:
    filled: int  # cells filled
    flush_pos: int | None  # cell index of the flush mark
    compact_pos: int | None  # cell index of the compaction mark
    level: str  # ok | near | critical


def meter_level(used: int, flush_threshold: int, compaction_threshold: int) -> str:
    """ok below 90 % of the flush threshold; near from there; critical from 95 % of compaction."""
    if compaction_threshold > 0 and used >= compaction_threshold * 0.95:
        return "critical"
    if flush_threshold > 0 and used >= flush_threshold * 0.9:
        return "near"
    return "ok"


def meter_geometry(used: int, window: int, flush_threshold: int, compaction_threshold: int, width: int) -> MeterGeometry:
    width = max(1, width)
    if window <= 0:
        return MeterGeometry(0, None, None, "ok")

    def pos(value: int) -> int | None:
        if value <= 0 or value > window:
            return None
        return min(width - 1, int(value / window * width))

    filled = min(width, round(max(0, used) / window * width))
    fp, cp = pos(flush_threshold), pos(compaction_threshold)
    if fp is not None and cp is not None and fp == cp and cp < width - 1:
        cp += 1  # keep both marks visible when they fall in one cell
    return MeterGeometry(filled, fp, cp, meter_level(used, flush_threshold, compaction_threshold))


def meter_label(usage: ev.TokenUsage | None, *, short: bool = False) -> str:
    """``tokens 2,798 / 4,000 (70%)``; ``short`` drops the word for narrow terminals."""
    if usage is None:
        return "tokens — / —"
    pct = (usage.used / usage.context_window * 100) if usage.context_window else 0.0
    label = f"{n(usage.used)} / {n(usage.context_window)} ({pct:.0f}%)"
    return label if short else "tokens " + label


def meter_suffix(usage: ev.TokenUsage | None, *, flush: bool = True, short: bool = False) -> str:
    """Thresholds and how the count was made. ``flush=False`` (read-only or no workspace:
    nothing can be flushed) leaves the flush figure out."""
    if usage is None:
        return ""
    parts = [f"flush {compact_n(usage.flush_threshold)}"] if flush else []
    parts.append(f"compact {compact_n(usage.compaction_threshold)}")
    if short:
        parts.append("est." if usage.estimated else "rep.")
    else:
        parts.append("estimate" if usage.estimated else "reported")
    return " · ".join(parts)


def meter_parts(usage: ev.TokenUsage | None, width: int, *, flush: bool = True, min_bar: int = 20) -> tuple[str, str]:
    """(label, suffix) for a meter ``width`` cells wide: the longest pair that leaves the
    bar ``min_bar`` cells (80 columns used to get an 8-cell bar with overlapping marks)."""
    variants = [(False, False), (False, True), (True, True)]
    for short_label, short_suffix in variants:
        label = meter_label(usage, short=short_label)
        suffix = meter_suffix(usage, flush=flush, short=short_suffix)
        if width - len(label) - len(suffix) - 4 >= min_bar:
            return label, suffix
    return meter_label(usage, short=True), ""


# --------------------------------------------------------------------------- /memory status and index


def md_kv(title: str, data: dict[str, Any]) -> str:
    """A titled Markdown list of ``key: `value` `` lines (``/status``, ``/memory status --all``)."""
    lines = [f"**{title}**", ""]
    for key, value in data.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k}={v}" for k, v in value.items())
        elif isinstance(value, (list, tuple)):
            value = ", ".join(str(v) for v in value)
        if value is None or value == "":
            lines.append(f"- {key}: —")  # an empty code span would show as two backticks
            continue
        lines.append(f"- {key}: `{value}`")
    return "\n".join(lines)


def _cell(text: Any) -> str:
    return _md_escape(one_line(str(text), 110))


def _table(rows: list[tuple[str, str]]) -> list[str]:
    """Label/value rows as a Markdown table whose first row is the header (an empty
    ``| | |`` header showed as a blank row on top)."""
    lines = [f"| {k} | {v} |" for k, v in rows]
    return [lines[0], "|---|---|", *lines[1:]]


def memory_problems(data: dict[str, Any]) -> list[str]:
    """What is wrong, from a status or sync report: errors first, then warnings."""
    out = [str(data[k]) for k in ("error", "providerError", "vectorError", "ftsError") if data.get(k)]
    found = data.get("lastSync")
    last: dict[str, Any] = found if isinstance(found, dict) else {}
    out += [str(e) for e in (data.get("errors") or last.get("errors") or [])]
    out += [str(w) for w in data.get("warnings") or []]
    if data.get("workspaceExists") is False:
        out.append("the workspace folder does not exist yet")
    return out


def memory_status_markdown(status: dict[str, Any]) -> str:
    """``/memory status``: files, chunks, search mode and provider, last sync, problems."""
    files, chunks = status.get("files", 0), status.get("chunks", 0)
    index = f"{n(files)} file{'s' if files != 1 else ''} · {n(chunks)} chunk{'s' if chunks != 1 else ''}"
    if status.get("dirty"):
        index += " · changed since the last sync"
    provider = status.get("provider") or "none"
    search = f"{status.get('searchMode', '?')} · provider {provider}"
    if status.get("model"):
        search += f" ({status['model']})"
    last = status.get("lastSync") if isinstance(status.get("lastSync"), dict) else None
    synced = "not yet in this run"
    if last:
        synced = " · ".join(str(x) for x in (last.get("at"), last.get("reason"), f"{last.get('filesIndexed', 0)} files indexed") if x)
    problems = memory_problems(status)
    rows = [
        ("index", _cell(index)),
        ("search", _cell(search)),
        ("last sync", _cell(synced)),
        ("problems", "; ".join(_cell(p) for p in problems[:3]) if problems else "none"),
    ]
    title = f"**Memory index** · {_cell(status.get('backend') or 'builtin')}"
    return "\n".join([title, "", *_table(rows), "", "`/memory status --all` shows every field."])


def index_report_markdown(report: dict[str, Any], force: bool) -> str:
    """``/memory index``: what the sync did, and what went wrong."""
    done = [
        f"{n(report.get('filesIndexed', 0))} indexed",
        f"{n(report.get('filesUnchanged', 0))} unchanged",
        f"{n(report.get('filesRemoved', 0))} removed",
    ]
    if report.get("filesSkipped"):
        done.append(f"{n(report['filesSkipped'])} skipped")
    problems = memory_problems(report)
    rows = [
        ("files", _cell(", ".join(done))),
        ("chunks", _cell(n(report.get("chunks", 0)))),
        ("problems", "; ".join(_cell(p) for p in problems[:3]) if problems else "none"),
    ]
    if report.get("aborted"):
        rows.insert(0, ("result", "aborted: nothing was written, the index is the one from before"))
    title = "**Index rebuilt**" if force else "**Index synced**"
    return "\n".join([title, "", *_table(rows)])


# --------------------------------------------------------------------------- memory results


def result_summary(result: SearchResult, *, timings: bool = True) -> str:
    """One line above the side panel's hits: how many, which backend and provider, the time."""
    if result.disabled:
        msg = result.error or result.warning or "memory search is off"
        return one_line(f"{msg}" + (f" — {result.action}" if result.action else ""), 120)
    count = len(result.results)
    bits = [f"{count} result{'s' if count != 1 else ''}"]
    bits += [str(v) for v in (result.backend, result.provider) if v]
    if timings and result.search_ms is not None:
        bits.append(f"{result.search_ms:.0f} ms")
    if result.fallback:
        bits.append(f"fallback from {result.fallback.get('from', '?')}")
    return " · ".join(bits)
