"""Stopping the llama.cpp child without making the user wait for it (issue 27).

Quitting used to wait for the server to end (terminate, then up to 5 s, then kill) before
the app could close and print its resume line. ``stop_in_background`` asks the child to end
in every way it listens to — its stdin lifeline closes (``serve.py`` exits at once on EOF)
and it gets SIGTERM — and returns. A daemon thread then waits ``grace_s`` for it, sends
SIGKILL if it is still there, and collects its exit status. A daemon thread does not outlive
the interpreter, so an ``atexit`` hook sends SIGKILL to every child still alive at exit: no
server survives the app, whatever it was doing.
"""

from __future__ import annotations

import atexit
import subprocess
import threading

_pending: set[subprocess.Popen[bytes]] = set()
_lock = threading.Lock()


def _close_pipes(proc: subprocess.Popen[bytes]) -> None:
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None:
            try:
                pipe.close()
            except OSError:
                pass


def _reap(proc: subprocess.Popen[bytes], grace_s: float) -> None:
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    finally:
        with _lock:
            _pending.discard(proc)
    _close_pipes(proc)


def stop_in_background(proc: subprocess.Popen[bytes], grace_s: float) -> threading.Thread:
    """Ask ``proc`` to end and return at once; the returned daemon thread reaps it."""
    with _lock:
        _pending.add(proc)
    if proc.stdin is not None:  # the lifeline: the server exits when it reads EOF
        try:
            proc.stdin.close()
        except OSError:
            pass
    if proc.poll() is None:
        try:
            proc.terminate()
        except OSError:  # already gone
            pass
    thread = threading.Thread(target=_reap, args=(proc, grace_s), name=f"reap-server-{proc.pid}", daemon=True)
    thread.start()
    return thread


def pending() -> list[subprocess.Popen[bytes]]:
    """Children asked to stop and not collected yet."""
    with _lock:
        return list(_pending)


def kill_pending() -> None:
    """At interpreter exit: SIGKILL what has not ended yet (no wait: the kernel ends it)."""
    for proc in pending():
        if proc.poll() is None:
            try:
                proc.kill()
            except OSError:
                pass


atexit.register(kill_pending)
