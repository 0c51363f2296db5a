"""What each request to the managed server cost: llama.cpp's ``timings`` read from the real
stream (issue 38), and the owner-only request log a headless run is measured with."""

from __future__ import annotations

import asyncio
import stat
from types import SimpleNamespace

from openclaw_tui.llm.client import LiteLLMModel
from openclaw_tui.llm.local.request_stats import RequestStats, ServerTimings, append_log, read_log, read_timings
from openclaw_tui.llm.resolve import ModelChoice
from tests.fakes.chat_server import ChatServer

TIMINGS = {"cache_n": 1180, "prompt_n": 42, "prompt_ms": 910.5, "predicted_n": 7, "predicted_ms": 650.0}


def test_timings_are_read_from_a_dict_or_an_sdk_chunk_and_nothing_else() -> None:
    want = ServerTimings(42, 1180, 910.5, 7, 650.0)
    assert read_timings({"timings": TIMINGS}) == want
    assert read_timings(SimpleNamespace(model_extra={"timings": TIMINGS})) == want
    for bad in ({}, {"timings": "x"}, {"timings": {"prompt_n": "many"}}, SimpleNamespace(model_extra=None)):
        assert read_timings(bad) is None, bad


def test_the_last_chunks_timings_reach_the_model_through_real_http() -> None:
    with ChatServer() as srv:
        srv.push({"text": "Hello there.", "timings": TIMINGS})
        model = LiteLLMModel(ModelChoice("openai/local", "local", api_base=srv.base_url, api_key="k"))
        seen: list[ServerTimings] = []
        model.on_chunk = lambda chunk: seen.append(t) if (t := read_timings(chunk)) else None
        out = asyncio.run(model.complete([{"role": "user", "content": "hi"}], None, on_delta=lambda _p: None))
        (req,) = srv.chat_requests()
    assert out.text == "Hello there." and seen == [ServerTimings(42, 1180, 910.5, 7, 650.0)]
    assert req.get("cache_prompt") is True  # the server keeps the prompt for the next request


def test_the_request_log_is_owner_only_and_reads_back(tmp_path, monkeypatch) -> None:
    path = tmp_path / "logs" / "requests.jsonl"
    monkeypatch.setenv("OPENCLAW_LOCAL_REQUEST_LOG", str(path))
    a = RequestStats("turn", 1222, 42, 1180, 910.5, 7, 650.0, 1.2, 2.0, 1.0)
    append_log(a)
    append_log(RequestStats("compaction", 900, 900, 0, 20_000.0, 80, 9000.0, None, 31.0, 2.0))
    path.open("a").write("not json\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    got = read_log(path)
    assert got[0] == a and [r.purpose for r in got] == ["turn", "compaction"]
    monkeypatch.delenv("OPENCLAW_LOCAL_REQUEST_LOG")
    append_log(a)  # no file named: nothing written
    assert len(read_log(path)) == 2


def test_a_purposes_answer_cap_reaches_the_server_below_the_models_own() -> None:
    # the local runtime caps a compaction's summary below its 1,024 (runtime.LOCAL_ANSWER_CAPS):
    # a turn keeps the model's cap, a compaction gets the lower one, a higher one never raises it
    from openclaw_tui.llm.local.runtime import LOCAL_ANSWER_CAPS

    with ChatServer() as srv:
        srv.push({"text": "a"}, {"text": "b"}, {"text": "c"})
        model = LiteLLMModel(ModelChoice("openai/local", "local", api_base=srv.base_url, api_key="k", max_tokens=1024))
        model.answer_caps = LOCAL_ANSWER_CAPS
        for purpose in ("turn", "compaction"):
            asyncio.run(model.complete([{"role": "user", "content": "hi"}], None, on_delta=lambda _p: None, purpose=purpose))
        model.answer_caps = {"turn": 4096}
        asyncio.run(model.complete([{"role": "user", "content": "hi"}], None, on_delta=lambda _p: None))
        caps = [r.get("max_tokens") for r in srv.chat_requests()]
    assert caps == [1024, LOCAL_ANSWER_CAPS["compaction"], 1024] and LOCAL_ANSWER_CAPS["compaction"] < 1024
