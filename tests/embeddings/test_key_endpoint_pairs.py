"""An endpoint and a key travel together (issue 36, item 3): for every way a key can be
given, the provider resolves to the endpoint configured beside that key, and a configured
key never goes to an endpoint configured somewhere else. Embeddings (primary and fallback)
and the chat model; one case checks the request on a real loopback server."""

from __future__ import annotations

import pytest

from openclaw_tui.config import resolve_agent, validate_config
from openclaw_tui.llm.resolve import resolve_model
from openclaw_tui.memory.embeddings import describe_resolution, make_provider, resolve_provider
from openclaw_tui.memory.embeddings.remote import SPECS
from tests.fakes.embed_server import EmbedServer

KEY = "sk-PAIRED-key-0123456789"
ENV_KEY = "sk-ENV-key-9876543210"
LOOP = "http://127.0.0.1:9/v1"
OTHER = "http://127.0.0.1:8/v1"
PUBLIC = SPECS["openai"].default_base


def settings(ms: dict | None = None, providers: dict | None = None, **kw):
    raw = {"agents": {"defaults": {"memorySearch": ms or {}}}, "models": {"providers": providers or {}}}
    return resolve_agent(validate_config(raw), **kw)


@pytest.fixture(autouse=True)
def _no_env_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OPENAI_API_KEY", "GEMINI_API_KEY", "VOYAGE_API_KEY", "MISTRAL_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(var, raising=False)


@pytest.mark.parametrize("env,ms,providers,base,key", [
    # the environment key: the provider's own endpoint, or remote.baseUrl when one is set
    ({"OPENAI_API_KEY": ENV_KEY}, {}, {}, None, ENV_KEY),
    ({"OPENAI_API_KEY": ENV_KEY}, {"remote": {"baseUrl": LOOP}}, {}, LOOP, ENV_KEY),
    # memorySearch.remote.apiKey goes with memorySearch.remote.baseUrl (or the public endpoint)
    ({}, {"remote": {"apiKey": KEY, "baseUrl": LOOP}}, {}, LOOP, KEY),
    ({}, {"remote": {"apiKey": KEY}}, {}, None, KEY),
    ({}, {"remote": {"apiKey": KEY}}, {"openai": {"baseUrl": OTHER}}, None, KEY),
    # models.providers.openai.apiKey goes with models.providers.openai.baseUrl: the attack's case
    ({}, {}, {"openai": {"apiKey": KEY, "baseUrl": LOOP}}, LOOP, KEY),
    ({}, {"provider": "openai"}, {"openai": {"apiKey": KEY, "baseUrl": LOOP}}, LOOP, KEY),
    ({}, {}, {"openai": {"apiKey": KEY}}, None, KEY),
    # ... and never to remote.baseUrl, which was configured without a key: that endpoint gets none
    ({}, {"remote": {"baseUrl": OTHER}}, {"openai": {"apiKey": KEY, "baseUrl": LOOP}}, OTHER, None),
    ({}, {"remote": {"baseUrl": OTHER}}, {"openai": {"apiKey": KEY}}, OTHER, None),
    # no key anywhere: a keyless OpenAI-compatible endpoint
    ({}, {"remote": {"baseUrl": LOOP}}, {}, LOOP, None),
])
def test_the_embedding_endpoint_is_the_one_beside_the_key(monkeypatch, env, ms, providers, base, key) -> None:
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    s = settings(ms, providers)
    p = make_provider(s, "openai")
    assert (p.base_url, p._api_key) == (base, key)
    assert describe_resolution(s).get("endpoint", None) == (base or PUBLIC)
    assert resolve_provider(s) is not None


@pytest.mark.parametrize("env,providers,base,key", [
    ({"OPENAI_API_KEY": ENV_KEY}, {}, None, ENV_KEY),
    ({}, {"openai": {"apiKey": KEY, "baseUrl": LOOP}}, LOOP, KEY),
    ({}, {"openai": {"apiKey": KEY}}, None, KEY),
])
def test_the_fallback_endpoint_is_the_one_beside_its_key(monkeypatch, env, providers, base, key) -> None:
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    s = settings({"provider": "gemini", "fallback": "openai", "remote": {"apiKey": "gm-other-key-123456", "baseUrl": OTHER}},
                 providers)
    p = make_provider(s, "openai", as_fallback=True)
    assert (p.base_url, p._api_key) == (base, key)


def test_a_provider_key_reaches_its_loopback_server_not_the_public_endpoint() -> None:
    """The attack's repro: models.providers.openai at a loopback server with a key, provider auto."""
    with EmbedServer(require_key=KEY) as srv:
        s = settings({}, {"openai": {"apiKey": KEY, "baseUrl": srv.base_url}})
        p = resolve_provider(s)
        assert p is not None
        vec = p.embed_query("where is the printer")
        assert len(vec) == 64 and srv.requests
        assert srv.requests[-1]["headers"].get("authorization") == f"Bearer {KEY}"


@pytest.mark.parametrize("cli,providers,base,key", [
    ({"api_key": KEY, "api_base": LOOP}, {}, LOOP, KEY),
    ({}, {"openai": {"apiKey": KEY, "baseUrl": LOOP}}, LOOP, KEY),
    ({}, {"openai": {"apiKey": KEY}}, None, KEY),
    ({"api_key": KEY}, {}, None, KEY),
    # --api-base without --api-key: the configured provider key stays with its own endpoint
    ({"api_base": OTHER}, {"openai": {"apiKey": KEY, "baseUrl": LOOP}}, OTHER, None),
    ({"api_base": OTHER}, {"openai": {"apiKey": KEY}}, OTHER, None),
    ({"api_key": ENV_KEY}, {"openai": {"apiKey": KEY, "baseUrl": LOOP}}, LOOP, ENV_KEY),
])
def test_the_chat_endpoint_is_the_one_beside_the_key(cli, providers, base, key) -> None:
    s = settings({}, providers, model="openai/gpt-x", **cli)
    choice = resolve_model(s, probe=False)
    assert (choice.api_base, choice.api_key) == (base, key)


def test_the_chat_provider_headers_stay_with_their_endpoint() -> None:
    s = settings({}, {"openai": {"apiKey": KEY, "baseUrl": LOOP, "headers": {"X-Api-Key": KEY}}}, model="openai/gpt-x",
                 api_base=OTHER)
    choice = resolve_model(s, probe=False)
    assert choice.api_base == OTHER and not choice.headers
