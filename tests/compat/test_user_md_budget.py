"""USER.md has its own prompt budget (OpenClaw bounds the user model apart from the other
bootstrap files), counted after its superseded entries are left out."""

from __future__ import annotations

from pathlib import Path

from openclaw_tui.workspace.bootstrap import FILE_CAP, USER_CAP, build_system_prompt

DIRECT = "agent:main:main"


def _section(prompt: str, name: str) -> str:
    start = prompt.index(f"## {name}\n")
    nxt = prompt.find("\n## ", start + 1)
    return prompt[start: nxt if nxt != -1 else len(prompt)]


def test_user_md_is_cut_at_its_own_budget_and_memory_md_is_not(tmp_path: Path) -> None:
    assert USER_CAP < FILE_CAP
    filler = "".join(f"- preference {i}: likes item number {i} a lot\n" for i in range(400))  # ~16,000 chars
    (tmp_path / "USER.md").write_text("# USER\n" + filler + "- LAST-PREF-MARK\n")
    (tmp_path / "MEMORY.md").write_text("# MEMORY\n" + filler + "- LAST-MEMORY-MARK\n")
    prompt = build_system_prompt(tmp_path, session_key=DIRECT).text
    user = _section(prompt, "USER.md")
    assert len(user) <= USER_CAP + 100 and f"truncated at {USER_CAP} characters" in user
    assert "LAST-PREF-MARK" not in user
    assert "LAST-MEMORY-MARK" in _section(prompt, "MEMORY.md")  # 16,000 < FILE_CAP: whole


def test_superseded_entries_do_not_use_up_the_budget(tmp_path: Path) -> None:
    old = "".join(f"- old preference {i}, long gone <!-- observed: 2026-01-02 | status: superseded -->\n" for i in range(300))
    (tmp_path / "USER.md").write_text("# USER\n" + old + "- Prefers green tea CURRENT-PREF <!-- observed: 2026-11-02 | status: active -->\n")
    user = _section(build_system_prompt(tmp_path, session_key=DIRECT).text, "USER.md")
    assert "CURRENT-PREF" in user and "old preference" not in user and "truncated" not in user


def test_memory_get_marks_superseded_lines(tmp_path: Path) -> None:
    from openclaw_tui.memory.reader import read_memory_file

    (tmp_path / "USER.md").write_text(
        "# USER\n- Prefers coffee\n<!-- observed: 2026-01-02 | status: superseded -->\n"
        "- Prefers green tea <!-- observed: 2026-11-02 | status: active -->\n")
    got = read_memory_file(tmp_path, tmp_path, "USER.md", "USER.md", None, None, session_key=DIRECT)
    assert got.superseded == (2, 3) and got.to_dict()["superseded"] == [2, 3]
    ranged = read_memory_file(tmp_path, tmp_path, "USER.md", "USER.md", 4, 1, session_key=DIRECT)
    assert "superseded" not in ranged.to_dict()
