"""Batch indexing for openai, voyage and gemini against loopback batch APIs."""

from __future__ import annotations

import json

import numpy as np
import pytest

from openclaw_tui.config.models import RemoteBatchConfig
from openclaw_tui.memory.embeddings import EmbeddingError
from openclaw_tui.memory.embeddings.remote import RemoteProvider

from .conftest import Reply, word_vector

KEY = "sk-SENTINEL-batch-42424242"
SUFFIX = {"openai": "/v1", "voyage": "/v1", "gemini": "/v1beta"}


def make(provider, server, **batch):
    cfg = RemoteBatchConfig(enabled=True, poll_interval_ms=batch.pop("poll_interval_ms", 5), **batch)
    return RemoteProvider(provider, base_url=server.base + SUFFIX[provider], api_key=KEY,
                          key_source="memorySearch.remote.apiKey", batch=cfg)


def expected(texts):
    arr = np.asarray([word_vector(t) for t in texts], dtype=np.float32)
    return arr / np.linalg.norm(arr, axis=1, keepdims=True)


@pytest.mark.parametrize("provider", ["openai", "voyage", "gemini"])
def test_batch_submit_poll_collect(embed_server, provider):
    embed_server.batch_polls_needed = 3
    p = make(provider, embed_server)
    texts = [f"note {i} about the garden and tomatoes" for i in range(7)]
    vecs = p.embed_documents(texts)
    assert np.allclose(vecs, expected(texts), atol=1e-5)
    assert embed_server.embed_requests() == []  # no plain calls
    assert p.batch.jobs_submitted == 1 and p.batch.failures == 0
    paths = embed_server.paths()
    if provider == "gemini":
        assert paths[0] == "/v1beta/models/gemini-embedding-001:asyncBatchEmbedContent"
        body = embed_server.requests[0].body
        reqs = body["batch"]["inputConfig"]["requests"]["requests"]
        assert [r["request"]["content"]["parts"][0]["text"] for r in reqs] == texts
        assert {r["request"]["taskType"] for r in reqs} == {"RETRIEVAL_DOCUMENT"}
        assert embed_server.requests[0].headers["x-goog-api-key"] == KEY
        assert paths.count("/v1beta/batches/g1") == 3
    else:
        assert paths[0] == "/v1/files" and paths[1] == "/v1/batches"
        assert paths.count("/v1/batches/batch_1") == 3
        assert paths[-1] == "/v1/files/file-out-batch_1/content"
        assert all(r.headers["authorization"] == f"Bearer {KEY}" for r in embed_server.requests)
        lines = [json.loads(x) for x in embed_server.files["file-1"].decode().splitlines()]
        assert [x["custom_id"] for x in lines] == [str(i) for i in range(7)]
        create = embed_server.requests[1].body
        assert create["endpoint"] == "/v1/embeddings" and create["input_file_id"] == "file-1"
        if provider == "voyage":
            assert create["request_params"] == {"model": "voyage-4-large", "input_type": "document"}
            assert lines[0]["body"] == {"input": [texts[0]]}
        else:
            assert lines[0]["body"] == {"model": "text-embedding-3-small", "input": texts[0]}
            assert lines[0]["url"] == "/v1/embeddings"
    # queries never go through batch mode
    q = p.embed_query("garden")
    assert q.shape == (16,) and len(embed_server.embed_requests()) == 1


def test_batch_concurrency_splits_jobs(embed_server):
    p = make("openai", embed_server, concurrency=2)
    p.batch.job_size = 3
    texts = [f"t{i} words" for i in range(8)]
    vecs = p.embed_documents(texts)
    assert np.allclose(vecs, expected(texts), atol=1e-5)
    assert p.batch.jobs_submitted == 3
    assert 1 <= embed_server.max_in_flight <= 2


@pytest.mark.parametrize("final", ["failed", "expired"])
def test_two_batch_failures_disable_batch_mode(embed_server, final):
    embed_server.batch_final = final
    p = make("voyage", embed_server)
    texts = ["alpha", "beta"]
    for round_ in range(3):
        vecs = p.embed_documents(texts)  # every round still returns vectors (plain calls)
        assert np.allclose(vecs, expected(texts), atol=1e-5)
    assert p.batch.failures == 2 and not p.batch.active
    assert p.batch.jobs_submitted == 2  # the third round did not try batch mode
    assert len(embed_server.embed_requests()) == 3
    assert final in p.batch.last_error


def test_batch_timeout_falls_back_to_plain_calls(embed_server):
    embed_server.batch_hang = True
    p = make("gemini", embed_server, timeout_minutes=0.002)  # 0.12 s
    vecs = p.embed_documents(["slow one"])
    assert np.allclose(vecs, expected(["slow one"]), atol=1e-5)
    assert p.batch.failures == 1 and "timed out" in p.batch.last_error
    assert len(embed_server.embed_requests()) == 1


def test_batch_http_error_and_malformed_output(embed_server):
    p = make("openai", embed_server)
    embed_server.queue(Reply(500))  # the upload fails
    p.embed_documents(["x"])
    assert p.batch.failures == 1 and "HTTP 500" in p.batch.last_error
    embed_server.queue(Reply(200, body=b"not json"))  # the upload answers garbage
    p.embed_documents(["y"])
    assert p.batch.failures == 2 and "malformed" in p.batch.last_error


def test_batch_401_names_key_source(embed_server):
    p = make("openai", embed_server)
    embed_server.queue(Reply(401))
    with pytest.raises(EmbeddingError) as info:
        p.embed_documents(["x"])
    assert "memorySearch.remote.apiKey" in info.value.message and KEY not in info.value.message
