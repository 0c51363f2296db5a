"""Reading llama.cpp's prompt_progress, and the batch size that makes it move (issue 27)."""

from __future__ import annotations

import pytest

from openclaw_tui.llm.local import serve
from openclaw_tui.llm.prompt_progress import PromptProgress, read_progress


def test_progress_is_read_from_dicts_and_bad_values_are_ignored() -> None:
    assert read_progress({"prompt_progress": {"total": 1535, "cache": 256, "processed": 768, "time_ms": 9}}) == PromptProgress(768, 1535, 256, 9)
    assert read_progress({"prompt_progress": {"total": 10, "processed": 99}}) == PromptProgress(10, 10)  # clamped
    for bad in ({}, {"prompt_progress": None}, {"prompt_progress": {"total": 0, "processed": 0}},
                {"prompt_progress": {"total": "x", "processed": 1}}, {"prompt_progress": [1, 2]}):
        assert read_progress(bad) is None, bad


def test_serve_sets_the_prompt_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    import xllamacpp

    seen = {}
    monkeypatch.setattr(xllamacpp, "Server", lambda params: seen.update(batch=params.n_batch, ubatch=params.n_ubatch))
    serve._server(serve._parse(["--model", "/nonexistent.gguf", "--batch", "256"]))
    assert seen == {"batch": 256, "ubatch": 256}
    serve._server(serve._parse(["--model", "/nonexistent.gguf"]))
    assert seen["batch"] == xllamacpp.CommonParams().n_batch  # 0: llama.cpp's own default
