"""The real local model for end-to-end memory tests (marker ``real_llm``).

By default the app's own model order picks the installed local GGUF (``local_model`` from
tests/conftest.py: assembled by ``make test``, skipped with the reason when it is not
installed). ``OPENCLAW_E2E_API_BASE=http://127.0.0.1:PORT/v1`` points the tests at a
llama.cpp server that is already running instead (for experiments).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
# LoCoMo (CC BY-NC 4.0) is not part of the repository: the shared data folder next to it
LOCOMO_DIRS = [os.environ.get("OPENCLAW_LOCOMO_DIR", ""), str(REPO.parent / "shared" / "data" / "locomo"), "/work/shared/data/locomo"]
# without it, a small stand-in with the facts the tests ask about (our own wording)
STAND_IN = {
    "MEMORY.md": "# MEMORY\n\nLong-running chat between Caroline and Melanie.\n",
    "memory/2023-05-08.md": (
        "# 2023-05-08\n\n## Session 1 (Caroline & Melanie)\n\n"
        "- **Caroline**: I went to a support group for transgender people yesterday; as a trans woman it meant a lot.\n"
        "- **Melanie**: That sounds powerful! I painted a lake at sunrise last weekend.\n"
        "- **Caroline**: I'm researching adoption agencies; I want to give kids a loving home.\n"
    ),
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.real_llm)


@pytest.fixture
def real_llm(request: pytest.FixtureRequest) -> list[str]:
    """Global CLI options that select the real local model ([] = the default model order)."""
    base = os.environ.get("OPENCLAW_E2E_API_BASE")
    if base:
        return ["--model", "openai/local", "--api-base", base, "--api-key", "local"]
    try:
        request.getfixturevalue("local_model")
    except pytest.FixtureLookupError:
        pytest.skip("this build has no local model runtime (openclaw_tui.llm.local); set OPENCLAW_E2E_API_BASE to a llama.cpp server")
    return []


@pytest.fixture
def conv26(tmp_path: Path) -> Path:
    """A writable copy of the LoCoMo conversation 26 workspace (MEMORY.md + memory/*.md)."""
    ws = tmp_path / "conv-26"
    src = next((Path(d) / "conv-26" for d in LOCOMO_DIRS if d and (Path(d) / "conv-26" / "MEMORY.md").is_file()), None)
    if src is not None:
        shutil.copytree(src, ws)
        for p in [ws, *ws.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)
        return ws
    for rel, text in STAND_IN.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text)
    return ws


def chat(workspace: Path, cli: list[str], prompt: str, *extra: str) -> dict[str, Any]:
    """``openclaw-tui --workspace W chat -p PROMPT --json`` as a user runs it."""
    proc = subprocess.run(
        [sys.executable, "-m", "openclaw_tui.cli", "--workspace", str(workspace), *cli, *extra, "chat", "-p", prompt, "--json"],
        capture_output=True, text=True, timeout=600, env={**os.environ, "OPENCLAW_NO_OLLAMA_PROBE": "1"},
    )  # fmt: skip
    assert proc.stdout.strip(), proc.stderr
    data = json.loads(proc.stdout)
    assert data["error"] is None, data["error"]
    return data


def leaked_call_json(text: str) -> bool:
    return '"arguments"' in text or '"name":' in text or "<tool_call>" in text
