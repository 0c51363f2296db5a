"""One BLAS thread for the calling thread (the search's vector worker).

numpy's OpenBLAS splits a large matrix-vector product over every core, and its helper
threads then spin for a while before they sleep. A hybrid search runs its vector scan on a
worker thread beside FTS5 on the caller's: with the scan on two cores and the helpers
spinning after it, FTS5 and the scoring that follows got a third of a core (issue 38, item 7:
at 100k chunks FTS5 took 4× as long beside the scan as alone). OpenBLAS 0.3.27+ can limit
the threads of calls made from one thread (``openblas_set_num_threads_local``); the scan
then uses one core and FTS5 the other. Each output of ``mat @ q`` is one row's dot product
whichever thread computes it, so the similarities are the same to the bit
(``tests/memory/test_blas_threads.py``), with one exception: OpenBLAS computes the last
``rows mod 4`` rows of each thread's slice with its one-row kernel, so where numpy's split
over the cores ends a slice mid-group, up to three rows at that boundary differed in the
last bit from the one-thread product (which rows depended on the machine's core count; at
the bench's 100,000 rows the slices end on whole groups).

Where numpy uses another BLAS (Accelerate, MKL) or an older OpenBLAS, nothing changes.
"""

from __future__ import annotations

import ctypes
import logging
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator

log = logging.getLogger("openclaw_tui.memory.blas_threads")

_SYMBOL = "openblas_set_num_threads_local"
#: the loaded OpenBLAS's thread-local setter, looked up once (False: there is none)
_SETTER: list[Any] = []


def _loaded_openblas() -> list[str]:
    """Paths of the OpenBLAS libraries this process mapped (numpy's wheel bundles one)."""
    if not sys.platform.startswith("linux"):
        return []
    import numpy  # noqa: F401, PLC0415 - maps numpy's BLAS before the lookup

    paths: dict[str, None] = {}
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                path = line.split(maxsplit=5)[-1].strip()
                if path.startswith("/") and "openblas" in path.rsplit("/", 1)[-1].lower():
                    paths.setdefault(path, None)
    except OSError:
        return []
    return list(paths)


def _setter() -> Callable[[int], int] | None:
    if not _SETTER:
        found: Any = False
        for path in _loaded_openblas():
            try:
                fn = getattr(ctypes.CDLL(path), _SYMBOL)
            except (OSError, AttributeError):
                continue
            fn.argtypes, fn.restype = [ctypes.c_int], ctypes.c_int
            found = fn
            break
        _SETTER.append(found)
    return _SETTER[0] or None


def limit_to_one() -> bool:
    """Make BLAS calls from this thread use one thread; False when numpy's BLAS cannot be
    told (the calls then run as before)."""
    fn = _setter()
    if fn is None:
        return False
    try:
        fn(1)
    except Exception as exc:  # noqa: BLE001 - only speed is at stake
        log.debug("cannot limit BLAS threads: %s", exc)
        return False
    return True


@contextmanager
def one_thread() -> Iterator[None]:
    """BLAS calls from this thread use one thread inside the block; the count before is
    restored after it."""
    fn = _setter()
    prev = None
    if fn is not None:
        try:
            prev = fn(1)
        except Exception as exc:  # noqa: BLE001 - only speed is at stake
            log.debug("cannot limit BLAS threads: %s", exc)
    try:
        yield
    finally:
        if fn is not None and prev is not None and prev > 0:
            fn(prev)


def thread_count_setter() -> Callable[[int], int] | None:
    """The thread-local setter itself (it returns the previous count), for tests."""
    return _setter()
