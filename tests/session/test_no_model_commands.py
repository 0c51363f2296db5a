"""Commands that need no model never start one (issue 38): ``/flush`` in engine mode (the
engine writes its own notes) and ``/memory search`` with a local model leave its server
unstarted; ``chat -p /flush`` printed "nothing to store" after 14 s of loading the model."""

from __future__ import annotations

from pathlib import Path

from openclaw_tui import events
from openclaw_tui.session.engine import SessionEngine


def _engine(make_settings, recorder, tmp_path: Path) -> SessionEngine:
    gguf = tmp_path / "never-loaded.gguf"
    gguf.write_bytes(b"GGUF" + b"\0" * 64)  # starting a server on it would fail, and say so
    return SessionEngine(make_settings(model=f"local/{gguf}"), sink=recorder)


async def test_an_engine_mode_flush_and_a_memory_search_start_no_model(make_settings, recorder, tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("OPENCLAW_NO_LOCAL_MODEL", raising=False)
    eng = _engine(make_settings, recorder, tmp_path)
    model = eng._slot.model  # noqa: SLF001 - the LocalModel the settings named
    assert model.provider == "local"
    await eng.flush()
    await eng.memory_search("vpn host")
    assert model.server.pid is None and not model.is_offline  # never spawned, so never failed over
    assert not [n for n in recorder.of(events.Notice) if n.level == "error"]
    assert eng.profile.name == "local"  # the profile is settled without the server
    eng.close()
