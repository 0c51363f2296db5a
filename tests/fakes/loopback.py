"""The HTTP server class under the fake providers (127.0.0.1, a thread per request)."""

from __future__ import annotations

import sys
import traceback
from http.server import ThreadingHTTPServer
from typing import Any


class LoopbackServer(ThreadingHTTPServer):
    """A handler's traceback (e.g. the client hung up mid-reply) goes to the process's real
    stderr, not to ``sys.stderr``: a test that runs the CLI in this process
    (``tests/inproc.py``) reads ``sys.stderr`` as the CLI's own output."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        print(f"fake server: error while serving {client_address}", file=sys.__stderr__)
        traceback.print_exc(file=sys.__stderr__)
