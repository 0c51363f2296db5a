"""How many threads the managed llama.cpp server runs with: the machine's, not a constant.

llama.cpp's own rule for math threads is the physical cores (hyper-threads share a core's
units and slow prompt reading down); a process pinned to fewer CPUs (a container, taskset)
gets no more threads than it may run on. ``agents.defaults.localThreads`` in the config pins
the number, and ``OPENCLAW_LOCAL_THREADS`` pins it over the config (one run, one bench).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

ENV = "OPENCLAW_LOCAL_THREADS"
CONFIG_KEY = "agents.defaults.localThreads"
log = logging.getLogger(__name__)


def physical_cores(cpuinfo: str) -> int:
    """Distinct (physical id, core id) pairs of a ``/proc/cpuinfo`` text; 0 when it names none."""
    cores: set[tuple[str, str]] = set()
    physical = core = ""
    for line in cpuinfo.splitlines() + [""]:
        key, _, value = line.partition(":")
        key = key.strip()
        if key == "physical id":
            physical = value.strip()
        elif key == "core id":
            core = value.strip()
        elif not line.strip():
            if core:
                cores.add((physical, core))
            physical = core = ""
    return len(cores)


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def machine_threads(cpuinfo_path: Path = Path("/proc/cpuinfo"), configured: int | None = None) -> int:
    """``OPENCLAW_LOCAL_THREADS`` when set to a positive number, else ``configured`` (the
    config's ``agents.defaults.localThreads``), else the physical cores this process may run
    on (at least 1). A value of the env var that is not a positive whole number is logged,
    naming the variable, and the config's or the machine's number serves."""
    pinned = os.environ.get(ENV, "").strip()
    if pinned:
        if pinned.isdigit() and int(pinned) > 0:
            return int(pinned)
        log.warning("%s=%r is not a positive whole number; ignored (unset it or set e.g. %s=2)", ENV, pinned, ENV)
    if configured is not None and configured > 0:
        return configured
    usable = usable_cpus()
    try:
        physical = physical_cores(cpuinfo_path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        physical = 0
    return max(1, min(usable, physical) if physical else usable)
