"""`config show` and `config migrate` (issue 36, smaller cases): an MCP server's env values
and the tokens in its args are masked in both, and `migrate --write` keeps a symlinked
openclaw.json a link (the file it points at is rewritten)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from openclaw_tui.cli import main

ENV_TOKEN = "ghp_ENVTOKEN0123456789abcdef"
ARG_TOKEN = "ARGTOKEN-0123456789abcdef"
EQ_TOKEN = "EQTOKEN-0123456789abcdef"
CONFIG = {
    "agents": {"defaults": {"memorySearch": {"query": {"maxResults": 7}}}},  # an older key generation: migrate moves it
    "mcp": {"servers": {"gh": {"command": "github-mcp-server",
                               "args": ["stdio", "--token", ARG_TOKEN, f"--api-key={EQ_TOKEN}", "--verbose"],
                               "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": ENV_TOKEN, "LOG_LEVEL": "debug"}}}},
}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def write_config(path: Path) -> Path:
    path.write_text(json.dumps(CONFIG, indent=2) + "\n", encoding="utf-8")
    return path


def test_config_show_masks_mcp_env_and_arg_tokens(capsys, tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "openclaw.json")
    code, out, err = run(capsys, "--config", str(cfg), "config", "show")
    assert code == 0, err
    for token in (ENV_TOKEN, ARG_TOKEN, EQ_TOKEN):
        assert token not in out
    args = json.loads(out)["mcp"]["servers"]["gh"]["args"]
    assert args == ["stdio", "--token", "***", "--api-key=***", "--verbose"]


def test_config_migrate_prints_what_config_show_masks(capsys, tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "openclaw.json")
    code, out, err = run(capsys, "--config", str(cfg), "config", "migrate")
    assert code == 0, err
    for token in (ENV_TOKEN, ARG_TOKEN, EQ_TOKEN):
        assert token not in out
    printed = json.loads(out)
    assert printed["mcp"]["servers"]["gh"]["env"]["GITHUB_PERSONAL_ACCESS_TOKEN"] == "***"
    assert printed["memory"]["search"]["query"]["maxResults"] == 7


def test_config_migrate_write_keeps_a_symlinked_config_a_link(capsys, tmp_path: Path) -> None:
    real = write_config(tmp_path / "dotfiles" / "openclaw.json") if (tmp_path / "dotfiles").mkdir() is None else None
    assert real is not None
    link = tmp_path / "state" / "openclaw.json"
    link.parent.mkdir()
    link.symlink_to(real)
    code, out, err = run(capsys, "--config", str(link), "config", "migrate", "--write")
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(real)
    written = json.loads(real.read_text(encoding="utf-8"))
    assert written["memory"]["search"]["query"]["maxResults"] == 7
    assert written["mcp"]["servers"]["gh"]["env"]["GITHUB_PERSONAL_ACCESS_TOKEN"] == ENV_TOKEN  # --write keeps them
    assert list((tmp_path / "dotfiles").glob("openclaw.json.bak-*"))  # the backup sits beside the real file
