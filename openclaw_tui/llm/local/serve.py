"""Child-process entry point: ``python -m openclaw_tui.llm.local.serve --model PATH …``.

Runs one xllamacpp (llama.cpp) server on 127.0.0.1 with a free port. Protocol with the
parent (``server.LocalServer``):

* stdout carries exactly one JSON line, ``{"address": "http://127.0.0.1:PORT"}`` or
  ``{"error": "..."}``; everything llama.cpp prints goes to stderr (the log file).
* the parent's per-run random API key comes in the environment (``API_KEY_ENV``, readable
  by the same user only, unlike the command line) and is removed from it at once; every
  request but ``/health`` must carry it.
* stdin is the lifeline: the parent never writes to it, so it reaches EOF only when the
  parent is gone (exit, crash or ``kill -9``); the server then exits at once. No orphans.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from typing import Any

API_KEY_ENV = "OPENCLAW_LOCAL_SERVER_KEY"  # the per-run key, in the environment (never argv: ps shows that)


def _parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="openclaw_tui.llm.local.serve")
    p.add_argument("--model", required=True)
    p.add_argument("--alias", default="")
    p.add_argument("--n-ctx", type=int, default=8192)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--batch", type=int, default=0, help="n_batch (0: llama.cpp's default); prompt progress comes once per batch")
    p.add_argument("--slot-save-path", default="", help="folder for the slot files (POST /slots/0?action=save|restore)")
    return p.parse_args(argv)


def _watch_lifeline() -> None:
    """Exit the whole process when stdin closes (the parent died)."""
    try:
        while os.read(0, 4096):
            pass
    except OSError:
        pass
    os._exit(0)


def _server(args: argparse.Namespace) -> Any:  # xllamacpp.Server
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = args.model
    if args.alias:
        params.model_alias = args.alias
    params.n_ctx = args.n_ctx
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    if args.batch > 0:
        params.n_batch = args.batch
        params.n_ubatch = min(params.n_ubatch, args.batch)
    params.n_parallel = 1  # one slot: every request of the session meets the cache of the one before
    params.cache_prompt = True
    if args.slot_save_path:
        params.slot_save_path = args.slot_save_path
    params.use_jinja = True
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # the OS picks a free port
    key = os.environ.pop(API_KEY_ENV, "")
    if key:  # only the parent knows it: another local user cannot use or inspect the server
        params.api_keys = [key]
    return xllamacpp.Server(params)


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    os.umask(0o077)  # the slot files hold the user's prompts: readable by the user only
    args = _parse(argv)
    handshake = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # llama.cpp's stdout prints join the log, never the handshake
    threading.Thread(target=_watch_lifeline, name="lifeline", daemon=True).start()
    try:
        server = _server(args)
    except Exception as exc:  # noqa: BLE001 - reported to the parent as one line
        handshake.write(json.dumps({"error": f"{type(exc).__name__}: {exc}"}) + "\n")
        handshake.flush()
        return 1
    handshake.write(json.dumps({"address": str(server.listening_address)}) + "\n")
    handshake.flush()
    threading.Event().wait()  # serve until the lifeline or a signal ends the process
    return 0


if __name__ == "__main__":
    sys.exit(main())
