"""Each remote provider against a loopback server speaking its real wire format, through litellm."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from openclaw_tui.memory.embeddings import EmbeddingError
from openclaw_tui.memory.embeddings.remote import RemoteProvider, estimate_tokens, plan_batches

from .conftest import Reply, word_vector

KEY = "sk-SENTINEL-0123456789abcdef"

# provider id, base-url suffix, expected path, auth header (name, value) or None
PROVIDERS = [
    ("openai", "/v1", "/v1/embeddings", ("authorization", f"Bearer {KEY}")),
    ("mistral", "/v1", "/v1/embeddings", ("authorization", f"Bearer {KEY}")),
    ("voyage", "/v1", "/v1/embeddings", ("authorization", f"Bearer {KEY}")),
    ("gemini", "/v1beta", "/v1beta/models/gemini-embedding-001:batchEmbedContents", ("x-goog-api-key", KEY)),
    ("ollama", "", "/api/embed", ("authorization", f"Bearer {KEY}")),
]
IDS = [p[0] for p in PROVIDERS]


def make(provider: str, server, suffix: str, **kw) -> RemoteProvider:
    kw.setdefault("api_key", KEY)
    kw.setdefault("key_source", "OPENAI_API_KEY" if provider == "openai" else f"models.providers.{provider}.apiKey")
    return RemoteProvider(provider, base_url=server.base + suffix, **kw)


def _texts_of(provider: str, req) -> list[str]:
    if provider == "gemini":
        return [r["content"]["parts"][0]["text"] for r in req.body["requests"]]
    inp = req.body["input"]
    return inp if isinstance(inp, list) else [inp]


@pytest.mark.parametrize("provider,suffix,path,auth", PROVIDERS, ids=IDS)
def test_request_shape_and_vectors(embed_server, provider, suffix, path, auth):
    p = make(provider, embed_server, suffix)
    docs = ["alpha beta gamma", "delta epsilon", "zeta"]
    vecs = p.embed_documents(docs)
    q = p.embed_query("alpha beta")

    assert vecs.shape == (3, 16) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert q.shape == (16,) and abs(float(np.linalg.norm(q)) - 1.0) < 1e-5
    # order preserved: each row matches the server's vector for that text
    for row, text in zip(vecs, docs):
        want = np.asarray(word_vector(text if provider != "ollama" else "search_document: " + text), dtype=np.float32)
        assert np.allclose(row, want / np.linalg.norm(want), atol=1e-5)

    doc_req, query_req = embed_server.embed_requests()
    for req in (doc_req, query_req):
        assert req.path == path
        assert req.headers.get(auth[0]) == auth[1]
    model = {"openai": "text-embedding-3-small", "mistral": "mistral-embed", "voyage": "voyage-4-large",
             "gemini": "gemini-embedding-001", "ollama": "nomic-embed-text"}[provider]
    if provider == "gemini":
        assert all(r["model"] == f"models/{model}" for r in doc_req.body["requests"])
        assert {r["taskType"] for r in doc_req.body["requests"]} == {"RETRIEVAL_DOCUMENT"}
        assert {r["taskType"] for r in query_req.body["requests"]} == {"RETRIEVAL_QUERY"}
    else:
        assert doc_req.body["model"] == model
    if provider == "voyage":
        assert doc_req.body["input_type"] == "document"
        assert query_req.body["input_type"] == "query"
    if provider == "ollama":  # nomic's task prefixes
        assert _texts_of(provider, doc_req) == [f"search_document: {t}" for t in docs]
        assert _texts_of(provider, query_req) == ["search_query: alpha beta"]
    else:
        assert _texts_of(provider, doc_req) == docs
        assert _texts_of(provider, query_req) == ["alpha beta"]
    if provider in ("openai", "mistral"):
        assert "input_type" not in doc_req.body and "task_type" not in doc_req.body


def test_custom_headers_reach_openai_compatible_endpoint(embed_server):
    p = make("openai", embed_server, "/v1", headers={"X-Tenant": "acme"})
    p.embed_query("hello")
    assert embed_server.requests[0].headers["x-tenant"] == "acme"


def test_ollama_without_key_sends_no_auth(embed_server):
    p = RemoteProvider("ollama", base_url=embed_server.base, api_key=None, key_source="none needed")
    p.embed_query("hi")
    assert "authorization" not in embed_server.requests[0].headers


@pytest.mark.parametrize("provider,suffix,path,auth", PROVIDERS, ids=IDS)
def test_401_fails_at_once_naming_provider_and_key_source(embed_server, provider, suffix, path, auth, caplog):
    caplog.set_level(logging.DEBUG)
    embed_server.queue(Reply(401), Reply(401), Reply(401))
    p = make(provider, embed_server, suffix)
    with pytest.raises(EmbeddingError) as info:
        p.embed_documents(["x"])
    err = info.value
    assert len(embed_server.requests) == 1  # no retry on 401
    assert err.status == 401 and not err.retryable
    assert provider in err.message and p.key_source in err.message
    assert "\n" not in err.message
    assert KEY not in err.message and KEY not in err.action
    assert KEY not in caplog.text


@pytest.mark.parametrize("provider,suffix,path,auth", PROVIDERS, ids=IDS)
def test_429_honours_retry_after_then_succeeds(embed_server, provider, suffix, path, auth):
    embed_server.queue(Reply(429, headers={"Retry-After": "1"}))
    p = make(provider, embed_server, suffix)
    vecs = p.embed_documents(["a b", "c"])
    assert vecs.shape == (2, 16)
    reqs = embed_server.embed_requests()
    assert len(reqs) == 2
    assert p.retry_log == [1.0]  # the server's Retry-After, not the (tiny) backoff
    assert reqs[1].t - reqs[0].t >= 0.9


@pytest.mark.parametrize("provider,suffix,path,auth", PROVIDERS, ids=IDS)
def test_500_retried_three_times_then_error(embed_server, provider, suffix, path, auth):
    embed_server.queue(*[Reply(500) for _ in range(5)])
    seen = []
    p = make(provider, embed_server, suffix, on_retry=lambda e, n, d: seen.append((e.status, n)))
    with pytest.raises(EmbeddingError) as info:
        p.embed_query("q")
    assert len(embed_server.embed_requests()) == 3
    assert info.value.retryable and info.value.status == 500
    assert provider in info.value.message
    assert seen == [(500, 1), (500, 2)]
    assert all(d < 0.1 for d in p.retry_log)  # backoff base from OPENCLAW_EMBED_BACKOFF_BASE_S


@pytest.mark.parametrize("provider,suffix,path,auth", PROVIDERS, ids=IDS)
def test_500_then_success(embed_server, provider, suffix, path, auth):
    embed_server.queue(Reply(503))
    p = make(provider, embed_server, suffix)
    assert p.embed_query("q").shape == (16,)
    assert len(embed_server.embed_requests()) == 2


@pytest.mark.parametrize("provider,suffix,path,auth", PROVIDERS, ids=IDS)
def test_timeout_is_retried_and_reported(embed_server, provider, suffix, path, auth):
    embed_server.queue(*[Reply(200, delay=1.5) for _ in range(3)])
    p = make(provider, embed_server, suffix, timeout_s=0.3, attempts=2)
    with pytest.raises(EmbeddingError) as info:
        p.embed_query("slow")
    assert "timed out" in info.value.message and info.value.retryable
    assert len(embed_server.embed_requests()) == 2


@pytest.mark.parametrize("provider,suffix,path,auth", PROVIDERS, ids=IDS)
@pytest.mark.parametrize("body", [b"this is not json", b'{"unexpected": true}'], ids=["not-json", "wrong-shape"])
def test_malformed_body(embed_server, provider, suffix, path, auth, body):
    embed_server.queue(*[Reply(200, body=body) for _ in range(3)])
    p = make(provider, embed_server, suffix)
    with pytest.raises(EmbeddingError) as info:
        p.embed_query("q")
    err = info.value
    assert err.provider == provider
    assert "malformed" in err.message, err.message
    assert not err.retryable
    assert len(embed_server.embed_requests()) == 1
    assert KEY not in err.message


def test_wrong_vector_count_is_malformed(embed_server):
    embed_server.queue(Reply(200, body=b'{"object":"list","data":[{"index":0,"embedding":[1,0]}],"model":"m"}'))
    p = make("openai", embed_server, "/v1")
    with pytest.raises(EmbeddingError) as info:
        p.embed_documents(["a", "b"])
    assert "malformed" in info.value.message


def test_missing_key_is_a_clear_error_without_request(embed_server):
    p = RemoteProvider("gemini", base_url=embed_server.base + "/v1beta", api_key=None, key_source="no key configured")
    with pytest.raises(EmbeddingError) as info:
        p.embed_query("q")
    assert "gemini" in info.value.message and "key" in info.value.message
    assert embed_server.requests == []


def test_requests_are_batched_under_the_token_budget(embed_server):
    texts = [f"doc{i} " + " ".join(f"word{j}" for j in range(300)) for i in range(40)]
    p = make("openai", embed_server, "/v1")
    vecs = p.embed_documents(texts)
    assert vecs.shape == (40, 16)
    reqs = embed_server.embed_requests()
    assert len(reqs) > 1
    sent = [t for r in reqs for t in r.body["input"]]
    assert sent == texts  # order kept across requests
    for r in reqs:
        assert sum(estimate_tokens(t) for t in r.body["input"]) <= 8000


def test_gemini_batches_at_most_100_texts(embed_server):
    p = make("gemini", embed_server, "/v1beta")
    p.embed_documents([f"t{i}" for i in range(230)])
    assert [len(r.body["requests"]) for r in embed_server.embed_requests()] == [100, 100, 30]


def test_overlong_input_is_truncated_to_the_model_limit(embed_server):
    p = make("gemini", embed_server, "/v1beta")
    p.embed_documents(["word " * 5000])
    sent = embed_server.embed_requests()[0].body["requests"][0]["content"]["parts"][0]["text"]
    assert estimate_tokens(sent) <= p.max_input_tokens


@pytest.mark.parametrize(
    "counts,budget,max_items,expected",
    [
        ([], 10, None, []),
        ([3, 3, 3], 10, None, [(0, 3)]),
        ([6, 6, 6], 10, None, [(0, 1), (1, 2), (2, 3)]),
        ([20, 1, 1], 10, None, [(0, 1), (1, 3)]),
        ([1, 1, 1, 1, 1], 100, 2, [(0, 2), (2, 4), (4, 5)]),
        ([5, 5, 5, 5], 10, None, [(0, 2), (2, 4)]),
    ],
)
def test_plan_batches(counts, budget, max_items, expected):
    assert plan_batches(counts, budget, max_items) == expected


def test_batch_runner_gets_an_endpoint_value_not_the_provider(embed_server):
    from types import SimpleNamespace

    from openclaw_tui.memory.embeddings.base import Endpoint

    p = make("openai", embed_server, "/v1", headers={"X-Team": "t1"}, batch=SimpleNamespace(enabled=True))
    ep = p.batch.ep
    assert isinstance(ep, Endpoint) and ep == p.endpoint
    assert (ep.id, ep.model, ep.base_url, ep.api_key, dict(ep.headers)) == ("openai", p.model, embed_server.base + "/v1", KEY, {"X-Team": "t1"})
    assert KEY not in repr(ep)
    assert not any(v is p for v in vars(p.batch).values())  # no way back to the provider's private fields
    assert p.batch._headers()["Authorization"] == f"Bearer {KEY}"
