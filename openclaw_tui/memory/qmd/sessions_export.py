"""Export session transcripts (JSONL, DESIGN §6) as Markdown for the qmd ``sessions`` collection.

One ``<sessionId>.md`` per transcript: a title line, then one line per user/assistant
message (``User: …`` / ``Assistant: …``, whitespace collapsed). Silent turns (flush,
compaction) and tool traffic are left out. An export is rewritten only when its transcript
changed; transcripts older than ``retentionDays`` are not exported and their exports removed.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from openclaw_tui.session.transcript import read_transcript

_ROLES = {"user": "User", "assistant": "Assistant"}


@dataclass
class ExportReport:
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)


def _text_of(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and part.get("type", "text") in ("text", "output_text", "input_text"):
                parts.append(str(part.get("text") or ""))
        return " ".join(p for p in parts if p)
    return ""


def transcript_messages(path: Path) -> list[tuple[str, str]]:
    """(role, text) for user/assistant messages of one transcript; a torn last line is skipped."""
    out: list[tuple[str, str]] = []
    try:
        entries = read_transcript(path)
    except OSError:
        return out
    for entry in entries:
        if not isinstance(entry, dict) or entry.get("silent"):
            continue
        if entry.get("type") not in (None, "message"):
            continue
        msg = entry.get("message") if isinstance(entry.get("message"), dict) else entry
        role = str(msg.get("role") or "").lower()
        if role not in _ROLES or msg.get("silent"):
            continue
        text = " ".join(_text_of(msg.get("content", msg.get("text"))).split())
        if text:
            out.append((role, text))
    return out


def render_markdown(session_id: str, messages: list[tuple[str, str]]) -> str:
    lines = [f"# Session {session_id}", ""]
    lines += [f"{_ROLES[role]}: {text}" for role, text in messages]
    return "\n".join(lines) + "\n"


def export_sessions(sessions_dir: Path, export_dir: Path, *, retention_days: int | None = None,
                    now: float | None = None) -> ExportReport:
    report = ExportReport()
    export_dir.mkdir(parents=True, exist_ok=True)
    now = time.time() if now is None else now
    cutoff = now - retention_days * 86400 if retention_days else None
    keep: set[str] = set()
    transcripts = sorted(sessions_dir.glob("*.jsonl")) if sessions_dir.is_dir() else []
    for src in transcripts:
        if src.is_symlink():
            continue
        try:
            st = src.stat()
        except OSError:
            continue
        if cutoff is not None and st.st_mtime < cutoff:
            continue
        name = f"{src.stem}.md"
        keep.add(name)
        dst = export_dir / name
        try:
            if dst.is_file() and dst.stat().st_mtime >= st.st_mtime:
                report.unchanged += 1
                continue
        except OSError:
            pass
        msgs = transcript_messages(src)
        tmp = dst.with_suffix(".md.tmp")
        tmp.write_text(render_markdown(src.stem, msgs), encoding="utf-8")
        os.replace(tmp, dst)
        os.utime(dst, (st.st_mtime, st.st_mtime))
        report.written.append(name)
    for old in export_dir.glob("*.md"):
        if old.name not in keep:
            try:
                old.unlink()
                report.removed.append(old.name)
            except OSError:
                pass
    return report
