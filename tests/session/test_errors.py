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
