"""The provider error table: every litellm exception class is mapped, once."""

from __future__ import annotations

import inspect

import httpx
import pytest

from openclaw_tui._offline import import_litellm
from openclaw_tui.llm.errors import ERROR_TABLE, classify, redact, rule_for

litellm = import_litellm()


def _litellm_exception_classes() -> list[type]:
    import litellm.exceptions as exc_mod

    out = []
    for _name, cls in inspect.getmembers(exc_mod, inspect.isclass):
        if issubclass(cls, BaseException) and cls.__module__.startswith("litellm"):
            out.append(cls)
    return out


def test_every_litellm_error_class_is_in_the_table() -> None:
    classes = _litellm_exception_classes()
    assert len(classes) > 20
    missing = sorted(c.__name__ for c in classes if c.__name__ not in ERROR_TABLE)
    assert missing == [], f"unmapped litellm exceptions: {missing}"


def test_every_public_litellm_error_resolves_to_its_own_rule() -> None:
    for cls in _litellm_exception_classes():
        rule = ERROR_TABLE[cls.__name__]
        # rule_for walks the MRO: an instance-free check via a bare subclass object
        fake = cls.__new__(cls)
        assert rule_for(fake) is rule, cls.__name__


def _resp(status: int, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, headers=headers or {}, request=httpx.Request("POST", "http://127.0.0.1/v1/chat/completions"))


@pytest.mark.parametrize(
    ("exc", "kind", "retry", "status"),
    [
        (lambda: litellm.AuthenticationError("bad key sk-live-ABCDEFGHIJKL", llm_provider="openai", model="gpt"), "auth", False, 401),
        (lambda: litellm.RateLimitError("slow down", llm_provider="openai", model="gpt", response=_resp(429, {"retry-after": "7"})), "rate", True, 429),
        (lambda: litellm.InternalServerError("boom", llm_provider="openai", model="gpt"), "server", True, 500),
        (lambda: litellm.Timeout("timed out", model="gpt", llm_provider="openai"), "timeout", True, 408),
        (lambda: litellm.ContextWindowExceededError("maximum context length is 8192", model="gpt", llm_provider="openai"), "overflow", False, 400),
        (lambda: litellm.BadRequestError("This model's maximum context length is 4096 tokens", model="gpt", llm_provider="openai"), "overflow", False, 400),
        (lambda: litellm.BadRequestError("unknown parameter foo", model="gpt", llm_provider="openai"), "bad_request", False, 400),
        (lambda: litellm.NotFoundError("no such model", model="gpt", llm_provider="openai"), "not_found", False, 404),
        (lambda: RuntimeError("weird"), "other", False, None),
    ],
)
def test_classify(exc, kind: str, retry: bool, status: int | None) -> None:
    info = classify(exc(), provider="openai", secrets=("sk-live-ABCDEFGHIJKL",))
    assert info.kind == kind
    assert info.retryable is retry
    assert info.status == status
    assert "openai" in info.message or kind == "other" or kind == "overflow"
    assert "ABCDEFGHIJKL" not in info.line()
    assert "\n" not in info.line()


def test_retry_after_is_read_from_the_response() -> None:
    e = litellm.RateLimitError("slow", llm_provider="openai", model="gpt", response=_resp(429, {"retry-after": "7"}))
    assert classify(e, provider="openai").retry_after_s == 7.0
    e = litellm.RateLimitError("slow", llm_provider="openai", model="gpt", response=_resp(429, {"retry-after-ms": "250"}))
    assert classify(e, provider="openai").retry_after_s == 0.25


@pytest.mark.parametrize(
    ("text", "secret", "leak"),
    [
        ("Incorrect API key provided: sk-proj-abcdef123456", "", "abcdef123456"),
        ("Authorization: Bearer tok_abcdefghijkl", "", "tok_abcdefghijkl"),
        ("key=myverysecretvalue", "myverysecretvalue", "myverysecretvalue"),
        ("api_key: 'zz-abcdefghij'", "", "zz-abcdefghij"),
    ],
)
def test_redact(text: str, secret: str, leak: str) -> None:
    out = redact(text, (secret,) if secret else ())
    assert leak not in out
    assert "***" in out


@pytest.mark.parametrize(("status", "kind", "retry"), [(401, "auth", False), (403, "permission", False), (404, "not_found", False), (429, "rate", True), (500, "server", True), (503, "server", True), (418, "server", False)])
def test_generic_api_error_is_classified_by_status(status: int, kind: str, retry: bool) -> None:
    e = litellm.APIError(status_code=status, message="nope", llm_provider="openai", model="gpt")
    info = classify(e, provider="openai")
    assert (info.kind, info.retryable, info.status) == (kind, retry, status)


def test_missing_api_key_is_an_auth_error_not_a_retried_server_error() -> None:
    # what litellm raises for --model openai/x --api-base URL with no key anywhere
    exc = litellm.InternalServerError(
        "OpenAIException - Missing credentials. Please pass an `api_key`, `workload_identity`, `admin_api_key`, "
        "or set the `OPENAI_API_KEY` or `OPENAI_ADMIN_KEY` environment variable.",
        llm_provider="openai", model="x",
    )
    info = classify(exc, provider="openai")
    assert info.kind == "auth" and info.retryable is False and info.status is None
    assert "no API key for openai" in info.line() and "--api-key" in info.action
    assert "internal error" not in info.line()


# ------------------------------------------------------------------ the one retry stack (chat and embeddings)


class _Flaky(Exception):
    pass


@pytest.mark.parametrize(
    ("failures", "retryable", "attempts", "calls", "ok"),
    [
        (0, True, 3, 1, True),
        (2, True, 3, 3, True),  # two retries, then the answer
        (5, True, 3, 3, False),  # gives up after `attempts` calls
        (5, False, 3, 1, False),  # a non-retryable error is raised at once
    ],
)
def test_retry_call(failures, retryable, attempts, calls, ok) -> None:
    from openclaw_tui.llm.errors import RetryPolicy, Retryable, retry_call

    class Err(Retryable):
        pass

    seen: list[tuple[int, float]] = []
    slept: list[float] = []
    n = 0

    def call() -> str:
        nonlocal n
        n += 1
        if n <= failures:
            raise _Flaky("boom")
        return "done"

    def classify_error(exc: Exception) -> Err:
        err = Err(str(exc))
        err.retryable, err.retry_after_s = retryable, (2.0 if n == 1 else None)
        return err

    policy = RetryPolicy(attempts=attempts, base_s=0.01, max_s=0.02)
    if ok:
        assert retry_call(call, classify_error, policy, on_retry=lambda e, a, w: seen.append((a, w)), sleep=slept.append) == "done"
    else:
        with pytest.raises(Err):
            retry_call(call, classify_error, policy, on_retry=lambda e, a, w: seen.append((a, w)), sleep=slept.append)
    assert n == calls
    assert [a for a, _ in seen] == list(range(1, calls if ok else calls))[: len(seen)] and len(seen) == len(slept)
    if seen:
        assert slept[0] == 2.0  # the server's Retry-After wins over the backoff
        assert all(0 < w <= 0.025 for w in slept[1:])


def test_embeddings_classify_through_the_chat_table() -> None:
    from openclaw_tui.memory.embeddings.remote import map_exception

    rate = litellm.RateLimitError("slow", llm_provider="openai", model="m", response=_resp(429, {"retry-after": "3"}))
    err = map_exception(rate, "openai", "OPENAI_API_KEY")
    assert (err.status, err.retryable, err.retry_after_s) == (429, True, 3.0)
    assert err.retry_after_s == classify(rate, provider="openai").retry_after_s
    auth = litellm.AuthenticationError("bad key sk-live-ABCDEFGHIJKL", llm_provider="openai", model="m")
    err = map_exception(auth, "openai", "OPENAI_API_KEY", ("sk-live-ABCDEFGHIJKL",))
    assert (err.status, err.retryable) == (401, False) and "OPENAI_API_KEY" in err.message
    assert "ABCDEFGHIJKL" not in err.message
    err = map_exception(litellm.NotFoundError("no model", llm_provider="openai", model="m"), "openai", "")
    assert (err.status, err.retryable, "refused" in err.message) == (404, False, True)
    err = map_exception(ConnectionRefusedError("refused"), "ollama", "")
    assert err.retryable and "unreachable" in err.message


def test_connection_and_missing_key_errors_name_the_endpoint() -> None:
    # issue 27: with --api-base unreachable and no key the line named the key, never the URL
    exc = litellm.InternalServerError(
        "OpenAIException - Missing credentials. Please pass an `api_key`.", llm_provider="openai", model="x",
    )
    info = classify(exc, provider="openai", endpoint="http://127.0.0.1:9/v1")
    assert info.line().startswith("no API key for openai at http://127.0.0.1:9/v1")
    down = classify(litellm.APIConnectionError("Connection error.", llm_provider="openai", model="x"), provider="openai",
                    endpoint="http://127.0.0.1:9/v1")
    assert down.kind == "connection" and "cannot reach openai at http://127.0.0.1:9/v1" in down.line()
    assert "at http" not in classify(exc, provider="openai").line()
