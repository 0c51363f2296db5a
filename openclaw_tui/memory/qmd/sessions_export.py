"""Export session transcripts (JSONL, DESIGN §6) as Markdown for the qmd ``sessions`` collection.

One ``<sessionId>.md`` per transcript: a title line, then one line per user/assistant
message (``User: …`` / ``Assistant: …``, whitespace collapsed). What is silent (flush,
compaction, tool traffic, ``NO_REPLY``) is left out, by the rule of ``records/transcript.py``.
An export is rewritten only when its transcript changed; transcripts older than
``retentionDays`` are not exported and their exports removed.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from openclaw_tui.owner_only import private_dir, tighten
from openclaw_tui.records.transcript import ROLE_LABEL, read_transcript, searchable, spoken


@dataclass
class ExportReport:
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)


def transcript_messages(path: Path) -> list[tuple[str, str]]:
    """(role, text) for the spoken messages of one transcript (the transcript module's rule);
    a torn last line is skipped."""
    try:
        entries = read_transcript(path)
    except OSError:
        return []
    return [searchable(said) for said in map(spoken, entries) if said is not None]


def render_markdown(session_id: str, messages: list[tuple[str, str]]) -> str:
    lines = [f"# Session {session_id}", ""]
    lines += [f"{ROLE_LABEL[role]}: {text}" for role, text in messages]
    return "\n".join(lines) + "\n"


def export_sessions(sessions_dir: Path, export_dir: Path, *, retention_days: int | None = None,
                    now: float | None = None) -> ExportReport:
    report = ExportReport()
    private_dir(export_dir)
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
        with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600), "w", encoding="utf-8") as fh:
            fh.write(render_markdown(src.stem, msgs))
        tighten(tmp, 0o600)
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
