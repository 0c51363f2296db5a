"""Issue 30, point 7: bootstrap files through the bounded beneath-the-workspace reader,
provider error bodies capped before redaction, QMD get under the same scope as search."""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

from openclaw_tui.config.models import QmdScopeConfig
from openclaw_tui.llm import errors
from openclaw_tui.memory.qmd.scope import qmd_get_denied
from openclaw_tui.records.transcript import TranscriptWriter
from openclaw_tui.workspace.bootstrap import NOTE_CAP, USER_CAP, build_system_prompt, startup_notes
from openclaw_tui.workspace.daily import daily_rel


def test_a_huge_sparse_bootstrap_file_costs_only_its_cap(workspace: Path) -> None:
    with open(workspace / "USER.md", "wb") as fh:
        fh.write("# USER\nName: Ada\n".encode())
        fh.truncate(512 * 1024 * 1024)  # sparse: 512 MiB of zero bytes after the first line
    (workspace / "memory").mkdir(exist_ok=True)
    with open(workspace / daily_rel(), "wb") as fh:
        fh.write(b"- a note\n")
        fh.truncate(256 * 1024 * 1024)
    tracemalloc.start()
    try:
        prompt = build_system_prompt(workspace, session_key="agent:main:main")
        notes = startup_notes(workspace)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "Name: Ada" in prompt.text and f"[… truncated at {USER_CAP} characters]" in prompt.text  # USER.md's own budget
    assert "a note" in notes and f"truncated at {NOTE_CAP} characters" in notes
    assert peak < 16 * 1024 * 1024, peak  # never the whole file in memory


def test_a_bootstrap_file_that_is_a_link_is_never_read(workspace: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside-secret.txt"
    outside.write_text("TOP-SECRET-OUTSIDE")
    (workspace / "TOOLS.md").unlink(missing_ok=True)
    os.symlink(outside, workspace / "TOOLS.md")
    os.symlink(tmp_path, workspace / "memory-link")
    prompt = build_system_prompt(workspace, session_key="agent:main:main")
    assert "TOP-SECRET-OUTSIDE" not in prompt.text and "TOOLS.md" not in prompt.files


def test_a_huge_provider_error_body_is_capped_before_redaction(monkeypatch) -> None:
    seen: list[int] = []
    real = errors.redact
    monkeypatch.setattr(errors, "redact", lambda text, secrets=(): seen.append(len(text)) or real(text, secrets))

    class Boom(Exception):
        status_code = 400

    body = "Bad request: " + ("?k" + "a" * 4000 + "&") * 1300  # ~5 MB on one line, full of URL-ish runs
    info = errors.classify(Boom(body), provider="openai", secrets=["sk-secret-123456"])
    assert seen and max(seen) <= errors.DETAIL_SCAN_CHARS
    assert len(info.detail) <= 200 and info.detail.startswith("Bad request")


def test_qmd_get_of_an_exported_transcript_honours_scope_and_owner(state_dir: Path) -> None:
    sessions = state_dir / "sessions"
    for sid, key in (("priv", "agent:main:main"), ("grp", "agent:main:slack:group:g1")):
        w = TranscriptWriter(sessions / f"{sid}.jsonl")
        w.write_header(sid, agentId="main", sessionKey=key)
        w.close()
    default = QmdScopeConfig()
    assert qmd_get_denied(default, "agent:main:main", "sessions", "priv.md", sessions) is None
    denied = qmd_get_denied(default, "agent:main:slack:group:g1", "sessions", "priv.md", sessions)
    assert denied and "denied" in denied  # the default scope: search and get denied alike for a group
    allow_all = QmdScopeConfig.model_validate({"default": "allow"})
    assert qmd_get_denied(allow_all, "agent:main:slack:group:g1", "sessions", "grp.md", sessions) is None
    assert "another session" in qmd_get_denied(allow_all, "agent:main:slack:group:g1", "sessions", "priv.md", sessions)
    assert qmd_get_denied(allow_all, "agent:main:slack:group:g1", "memory", "notes.md", sessions) is None
