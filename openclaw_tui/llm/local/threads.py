"""How many threads the managed llama.cpp server runs with: the machine's, not a constant.

llama.cpp's own rule for math threads is the physical cores (hyper-threads share a core's
units and slow prompt reading down); a process pinned to fewer CPUs (a container, taskset)
gets no more threads than it may run on. ``OPENCLAW_LOCAL_THREADS`` pins the number.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV = "OPENCLAW_LOCAL_THREADS"


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


def machine_threads(cpuinfo_path: Path = Path("/proc/cpuinfo")) -> int:
    """``OPENCLAW_LOCAL_THREADS`` when set to a positive number, else the physical cores this
    process may run on (at least 1)."""
    pinned = os.environ.get(ENV, "").strip()
    if pinned.isdigit() and int(pinned) > 0:
        return int(pinned)
    usable = usable_cpus()
    try:
        physical = physical_cores(cpuinfo_path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        physical = 0
    return max(1, min(usable, physical) if physical else usable)
