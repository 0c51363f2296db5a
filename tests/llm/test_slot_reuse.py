"""Reuse across runs on the real model (issue 38): a second run with the same fixed prompt
start restores the slot file the first one saved, and the server reads only what follows
what they share. Uses the installed GGUF (``local_model``), a small context and prompt."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path

from openclaw_tui.llm.local.runtime import LocalModel, LocalRuntimeConfig
from openclaw_tui.llm.resolve import ModelChoice
from openclaw_tui.session.offline import OfflineModel

SYSTEM = "You are a terse assistant in a terminal. Answer in at most five words. " * 4


def _run(path: Path, slots: Path, log: Path, question: str):
    cfg = LocalRuntimeConfig(n_ctx=2048, log_path=log, slot_dir=slots, max_tokens=4)
    model = LocalModel(ModelChoice("local/test", "local", local_path=str(path)), cfg, fallback=OfflineModel)

    async def go() -> None:
        assert await model.ensure_started() is None, model.problem
        await model.complete([{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}], None,
                             on_delta=lambda _p: None)

    try:
        asyncio.run(go())
    finally:
        model.server.stop()
    return model.requests


def test_a_second_run_reads_only_what_follows_the_saved_start(local_model: Path, tmp_path: Path) -> None:
    slots, log = tmp_path / "slots", tmp_path / "server.log"
    (first,) = _run(local_model, slots, log, "Say hello.")
    assert first.reused == 0 and first.processed == first.prompt_tokens
    (saved,) = list(slots.iterdir())
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600 and stat.S_IMODE(slots.stat().st_mode) == 0o700
    (second,) = _run(local_model, slots, log, "Say goodbye.")
    assert second.reused >= first.prompt_tokens - 10  # the system prompt and the template around it
    assert second.processed <= 10
