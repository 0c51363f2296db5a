"""Leaving the process without the interpreter's final teardown, once the app is done.

After the TUI has closed (the engine and memory closed, transcripts written, the resume
line printed), a normal interpreter exit still spends seconds in its last garbage collection
and module teardown over the loaded libraries (measured in tmux with the local model: Ctrl+Q
→ shell prompt 3.2 s, the main thread in ``gc_collect_main`` after the app had returned).
``finish`` flushes the standard streams, runs the ``atexit`` handlers (the logging flush, the
local server's last-resort SIGKILL) and ends the process with the exit code. Only the
installed command's app run asks for it (``request``); ``cli.main`` called in process (tests,
scripts) returns as before.
"""

from __future__ import annotations

import atexit
import os
import sys

_requested = False


def request() -> None:
    global _requested
    _requested = True


def requested() -> bool:
    return _requested


def finish(code: int) -> None:
    """End the process now with ``code`` if a fast exit was requested; otherwise return."""
    if not _requested:
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    atexit._run_exitfuncs()
    os._exit(code)
