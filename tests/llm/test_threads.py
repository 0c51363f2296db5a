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


def test_the_config_pins_threads_and_the_env_var_pins_them_over_it(tmp_path: Path, monkeypatch, caplog) -> None:
    from openclaw_tui.config import resolve_agent, validate_config

    monkeypatch.delenv(ENV, raising=False)
    settings = resolve_agent(validate_config({"agents": {"defaults": {"localThreads": 3}}}))
    assert runtime_config(settings).threads == 3
    assert runtime_config(resolve_agent(validate_config({}))).threads == machine_threads()  # unset: the machine's
    monkeypatch.setenv(ENV, "6")
    assert runtime_config(settings).threads == 6
    monkeypatch.setenv(ENV, "many")
    with caplog.at_level("WARNING"):
        assert runtime_config(settings).threads == 3  # a bad pin is named, and the config's number serves
    assert ENV in caplog.text and "'many'" in caplog.text


@pytest.mark.parametrize("value", [0, -1, "four"])
def test_a_bad_local_threads_value_names_the_key(value) -> None:
    from openclaw_tui.config import ConfigError, validate_config

    with pytest.raises(ConfigError) as info:
        validate_config({"agents": {"defaults": {"localThreads": value}}}, "openclaw.json")
    assert "agents.defaults.localThreads" in str(info.value)
