"""Fixtures for the QMD backend tests.

``real_qmd`` resolves the qmd installed by ``make qmd``. When it is missing the tests FAIL
(CI runs ``make test``, which installs it) unless ``OPENCLAW_SKIP_QMD=1`` is set.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from openclaw_tui.memory.qmd.runner import default_command, repo_cache_command


def find_real_qmd() -> list[str]:
    cmd = default_command()
    exe = cmd[0]
    ok = False
    if os.sep in exe and os.access(exe, os.X_OK):
        try:
            ok = subprocess.run([*cmd, "--version"], capture_output=True, timeout=60).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            ok = False
    if not ok:
        if os.environ.get("OPENCLAW_SKIP_QMD") == "1":
            pytest.skip("real qmd not installed and OPENCLAW_SKIP_QMD=1")
        pytest.fail(
            f"the real qmd CLI is not installed (looked for {repo_cache_command()}): run `make qmd` "
            "(or set OPENCLAW_SKIP_QMD=1 to skip the qmd integration tests)",
            pytrace=False,
        )
    return cmd


@pytest.fixture(scope="module")
def real_qmd() -> list[str]:
    return find_real_qmd()
