"""``openclaw-tui ARGS`` run in this process through ``cli.main(argv)``.

A child Python pays ~0.3-4 s of imports (litellm) per call; the CLI's behaviour is all in
``main``, which returns the exit code. ``run_cli`` gives back what ``subprocess.run`` would:
the code, stdout and stderr as text. The few tests about the process itself (a terminal,
standard input, the installed script) still start a real one.
"""

from __future__ import annotations

import io
import logging
import os
import subprocess
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Mapping

from openclaw_tui.cli import main


def run_cli(*args: str, env: Mapping[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the CLI with ``env`` as the whole environment (default: this one) and ``cwd``;
    both, and the package logger the ``memory`` commands point at stderr, are put back."""
    out, err = io.StringIO(), io.StringIO()
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    logger = logging.getLogger("openclaw_tui")
    saved_log = (list(logger.handlers), logger.level, logger.propagate)
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse: --help, usage errors
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        logger.handlers[:] = saved_log[0]
        logger.setLevel(saved_log[1])
        logger.propagate = saved_log[2]
    return subprocess.CompletedProcess(["openclaw-tui", *args], code, out.getvalue(), err.getvalue())
