"""Threads of the managed server come from the machine (issue 38), not a constant 2."""
from __future__ import annotations

from pathlib import Path

import pytest

from openclaw_tui.llm.local.runtime import runtime_config
from openclaw_tui.llm.local.threads import ENV, machine_threads, physical_cores, usable_cpus


def _cpuinfo(pairs: list[tuple[int, int]]) -> str:
    return "\n".join(f"processor\t: {i}\nphysical id\t: {p}\ncore id\t\t: {c}\n" for i, (p, c) in enumerate(pairs))


@pytest.mark.parametrize("pairs, cores", [
    ([(0, 0), (0, 1)], 2),
    ([(0, 0), (0, 0), (0, 1), (0, 1)], 2),  # hyper-threads share a core
    ([(0, 0), (1, 0), (0, 1), (1, 1)], 4),  # two sockets, same core ids
    ([], 0),
])
def test_physical_cores_counts_distinct_cores(pairs, cores) -> None:
    assert physical_cores(_cpuinfo(pairs)) == cores


def test_machine_threads_follows_the_machine_and_the_pin(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    info = tmp_path / "cpuinfo"
    info.write_text(_cpuinfo([(0, c) for c in range(64)]))
    assert machine_threads(info) == usable_cpus()  # never more than the CPUs this process may use
    info.write_text(_cpuinfo([(0, 0)]))
    assert machine_threads(info) == 1
    assert machine_threads(tmp_path / "missing") == usable_cpus()
    monkeypatch.setenv(ENV, "5")
    assert machine_threads(info) == 5
    monkeypatch.setenv(ENV, "zero")
    assert machine_threads(info) == 1


def test_runtime_config_takes_the_machines_threads(monkeypatch) -> None:
    monkeypatch.setenv(ENV, "7")
    assert runtime_config().threads == 7
