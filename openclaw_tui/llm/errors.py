"""One table for provider errors: every litellm exception class -> friendly line + retry rule,
and one retry policy. Chat completions and embeddings both use them.

``classify(exc, provider=...)`` turns any exception raised by a provider call into an
``LLMErrorInfo``: a one-line message with no secrets, what the user can do, the HTTP status,
whether a retry makes sense, the server's ``Retry-After``, and whether the prompt overflowed
the context window. :class:`RetryPolicy` says how long to wait before each retry and
``retry_call`` runs a blocking call under it (the chat's streaming loop is
``llm/client.complete_with_retries``).
"""

from __future__ import annotations

import os
import random
import re
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Callable, TypeVar

from openclaw_tui import events
from openclaw_tui.redaction import redact  # noqa: F401 - re-exported for the engine and CLI

# kind: auth | permission | rate | server | timeout | connection | overflow | bad_request |
#       not_found | policy | budget | malformed | unsupported | other


@dataclass(frozen=True)
class ErrorRule:
    kind: str
    retry: bool
    message: str  # "{provider}" is filled in
    action: str = ""


ERROR_TABLE: dict[str, ErrorRule] = {
    # authentication / permission: never retried
    "AuthenticationError": ErrorRule("auth", False, "{provider} rejected the API key (401)", "check the key (--api-key or the provider's env var)"),
    "CallerCredentialAuthenticationError": ErrorRule("auth", False, "{provider} rejected the caller credentials", "check the key (--api-key or the provider's env var)"),
    "PermissionDeniedError": ErrorRule("permission", False, "{provider} refused access to this model (403)", "check the key's permissions or pick another model with /model"),
    "PaymentRequiredError": ErrorRule("budget", False, "{provider} requires payment or more credit (402)", "check the account's billing"),
    "BudgetExceededError": ErrorRule("budget", False, "the configured budget for {provider} is exhausted", "raise the budget or wait"),
    # rate limits and server trouble: retried with backoff
    "RateLimitError": ErrorRule("rate", True, "{provider} rate limit reached (429)", "wait a moment and try again"),
    "CallerCredentialRateLimitError": ErrorRule("rate", True, "{provider} rate limit reached for these credentials (429)", "wait a moment and try again"),
    "InternalServerError": ErrorRule("server", True, "{provider} had an internal error (5xx)", "try again in a moment"),
    "ServiceUnavailableError": ErrorRule("server", True, "{provider} is unavailable (503)", "try again in a moment"),
    "BadGatewayError": ErrorRule("server", True, "{provider} returned a bad gateway error (502)", "try again in a moment"),
    "MidStreamFallbackError": ErrorRule("server", True, "the {provider} stream broke off mid-answer", "try again"),
    "APIConnectionError": ErrorRule("connection", True, "cannot reach {provider}", "check the network or --api-base"),
    "Timeout": ErrorRule("timeout", True, "{provider} timed out", "try again, or raise the timeout"),
    "APIError": ErrorRule("server", True, "{provider} returned an error", "try again"),
    "APIResponseValidationError": ErrorRule("malformed", True, "{provider} sent a response that could not be parsed", "try again"),
    # the prompt is too long: compact, then retry once (handled by the session engine)
    "ContextWindowExceededError": ErrorRule("overflow", False, "the conversation is longer than {provider}'s context window", "run /compact or start a /new session"),
    # request problems: retrying cannot help
    "BadRequestError": ErrorRule("bad_request", False, "{provider} rejected the request (400)", "check the model name and options"),
    "InvalidRequestError": ErrorRule("bad_request", False, "{provider} rejected the request as invalid", "check the model name and options"),
    "MalformedRequestFieldError": ErrorRule("bad_request", False, "{provider} rejected a malformed request field", "check the model options"),
    "UnprocessableEntityError": ErrorRule("bad_request", False, "{provider} could not process the request (422)", "check the model name and options"),
    "UnsupportedParamsError": ErrorRule("unsupported", False, "{provider} does not support a parameter we sent", "pick another model with /model"),
    "UnsupportedEndpointError": ErrorRule("unsupported", False, "{provider} does not support this endpoint", "pick another model with /model"),
    "EndpointNotSupportedByModelError": ErrorRule("unsupported", False, "this {provider} model does not support chat completions", "pick another model with /model"),
    "NotFoundError": ErrorRule("not_found", False, "{provider} does not know this model (404)", "check the model name with /model"),
    "LiteLLMUnknownProvider": ErrorRule("not_found", False, "unknown provider in the model string", "use provider/model, e.g. openai/gpt-4o-mini"),
    "ModelNotMappedError": ErrorRule("not_found", False, "the model is not known to litellm", "use provider/model, e.g. openai/gpt-4o-mini"),
    "ImageFetchError": ErrorRule("bad_request", False, "{provider} could not fetch an image in the request", ""),
    "JSONSchemaValidationError": ErrorRule("malformed", False, "{provider}'s answer did not match the expected schema", "try again"),
    "ContentPolicyViolationError": ErrorRule("policy", False, "{provider} refused the request under its content policy", "rephrase the request"),
    "RejectedRequestError": ErrorRule("policy", False, "{provider} rejected the request", "rephrase the request"),
    "GuardrailRaisedException": ErrorRule("policy", False, "a guardrail blocked the request", "rephrase the request"),
    "BlockedPiiEntityError": ErrorRule("policy", False, "the request was blocked for containing personal data", "remove the personal data"),
    "SensitiveDataRouteException": ErrorRule("policy", False, "the request was blocked by a sensitive-data route", ""),
    "ModifyResponseException": ErrorRule("policy", False, "a guardrail replaced the response", ""),
    "VectorStoreSearchError": ErrorRule("other", False, "a vector store search inside {provider} failed", ""),
    "MockException": ErrorRule("other", False, "{provider} raised a mock error", ""),
    "OpenAIError": ErrorRule("other", False, "{provider} returned an error", ""),
}

# Non-litellm exceptions that can escape a streaming call.
_BUILTIN_RULES: dict[str, ErrorRule] = {
    # ours (llm/client.py): timeoutSeconds or the response size cap ended the call; not retried
    "CallCapped": ErrorRule("timeout", False, "the call to {provider} was stopped", "raise agents.defaults.timeoutSeconds or ask for a shorter answer"),
    "TimeoutError": ERROR_TABLE["Timeout"],
    "ConnectionError": ERROR_TABLE["APIConnectionError"],
    "ConnectError": ERROR_TABLE["APIConnectionError"],
    "ReadTimeout": ERROR_TABLE["Timeout"],
    "ConnectTimeout": ERROR_TABLE["Timeout"],
    "RemoteProtocolError": ERROR_TABLE["MidStreamFallbackError"],
    "ReadError": ERROR_TABLE["MidStreamFallbackError"],
}

_FALLBACK = ErrorRule("other", False, "the call to {provider} failed unexpectedly", "try again; if it persists, check the model settings")

_OVERFLOW_RE = re.compile(
    r"context[_ ]length|maximum context|context window|too many tokens|prompt is too long|input is too long|reduce the length",
    re.I,
)
# litellm reports a refused/unreachable endpoint as InternalServerError (500) "Connection error."
_CONNECTION_RE = re.compile(r"^connection error\.?$|connection refused|cannot connect|failed to establish a new connection", re.I)
# the OpenAI SDK refuses to send a request without a key; litellm wraps that as InternalServerError (500)
_MISSING_KEY_RE = re.compile(r"missing credentials|api_key client option must be set", re.I)
_MISSING_KEY = ErrorRule("auth", False, "no API key for {provider}", "pass --api-key or set the provider's env var (any value for a local server without auth)")
MAX_RETRY_AFTER_S = 60.0


@dataclass
class LLMErrorInfo:
    kind: str
    retryable: bool
    message: str
    action: str
    provider: str
    status: int | None = None
    retry_after_s: float | None = None
    detail: str = ""  # provider's own message, redacted and shortened

    @property
    def is_overflow(self) -> bool:
        return self.kind == "overflow"

    def line(self) -> str:
        text = self.message
        if self.detail and self.detail.lower() not in text.lower():
            text += f": {self.detail}"
        return text

    def event(self) -> events.ProviderError:
        """The error as the UI is told of it."""
        return events.ProviderError(provider=self.provider, message=self.line(), action=self.action, status=self.status, retryable=self.retryable)

    def retry_event(self, attempt: int, wait: float) -> events.ProviderRetry:
        """Retry number ``attempt`` after ``wait`` seconds, as the UI is told of it."""
        note = self.line()
        if self.retry_after_s is not None:
            note += f" (server asked to wait {self.retry_after_s:g}s)"
        return events.ProviderRetry(provider=self.provider, attempt=attempt, delay_s=round(wait, 3), message=note)


class LLMError(Exception):
    """Raised by the completion wrapper after retries; carries the classified info."""

    def __init__(self, info: LLMErrorInfo):
        super().__init__(info.line())
        self.info = info


def rule_for(exc: BaseException) -> ErrorRule:
    for cls in type(exc).__mro__:
        if cls.__module__.startswith("litellm") and cls.__name__ in ERROR_TABLE:
            return ERROR_TABLE[cls.__name__]
        if cls.__name__ in _BUILTIN_RULES:
            return _BUILTIN_RULES[cls.__name__]
    for cls in type(exc).__mro__:  # openai SDK classes share litellm's names
        if cls.__name__ in ERROR_TABLE and cls.__name__ not in {"OpenAIError"}:
            return ERROR_TABLE[cls.__name__]
    return _FALLBACK


def _header(headers: object, name: str) -> str | None:
    try:
        value = headers.get(name)  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - odd header containers
        return None
    return value if isinstance(value, str) and value else None


def _header_sources(exc: BaseException) -> list[object]:
    """Where a provider error may carry the response headers: litellm's copy, the
    exception's, its response's, and those of the exception it was raised from."""
    out = [getattr(exc, "litellm_response_headers", None), getattr(exc, "headers", None),
           getattr(getattr(exc, "response", None), "headers", None)]
    cause = exc.__cause__ or exc.__context__
    if cause is not None:
        out += [getattr(cause, "headers", None), getattr(getattr(cause, "response", None), "headers", None)]
    return [h for h in out if h]


def _seconds(ms: str | None, raw: str | None) -> float | None:
    if ms:
        try:
            return float(ms) / 1000.0
        except ValueError:
            pass
    if not raw:
        return None
    try:
        return float(raw)
    except ValueError:
        pass
    try:
        return parsedate_to_datetime(raw).timestamp() - time.time()
    except (TypeError, ValueError):
        return None


def retry_after_seconds(exc: BaseException) -> float | None:
    """Seconds the server asked to wait (``retry-after-ms`` or ``Retry-After``: seconds or an
    HTTP date), at most ``MAX_RETRY_AFTER_S``; None when it did not say."""
    for headers in _header_sources(exc):
        secs = _seconds(_header(headers, "retry-after-ms"), _header(headers, "retry-after"))
        if secs is not None:
            return min(MAX_RETRY_AFTER_S, max(0.0, secs))
    return None


DETAIL_SCAN_CHARS = 8192  # of a provider's error body, only this much is ever processed


def _detail(exc: BaseException, secrets: list[str] | tuple[str, ...]) -> str:
    raw = str(getattr(exc, "message", "") or exc) or type(exc).__name__
    # cap first: a 5 MB error body costs what 8 KB costs (only 200 characters are shown, so a
    # secret cut at the cap is never shown either)
    raw = raw[:DETAIL_SCAN_CHARS].split("\n", 1)[0]
    # litellm prefixes: "litellm.RateLimitError: RateLimitError: OpenAIException - real text"
    if " - " in raw:
        raw = raw.split(" - ", 1)[1]
    raw = re.sub(r"^litellm\.\w+:\s*", "", raw)
    raw = redact(raw, secrets).strip()
    return raw if len(raw) <= 200 else raw[:197] + "..."


# litellm sometimes raises its generic APIError with the real status: map by status then.
_STATUS_RULES: dict[int, str] = {
    400: "BadRequestError",
    401: "AuthenticationError",
    402: "PaymentRequiredError",
    403: "PermissionDeniedError",
    404: "NotFoundError",
    408: "Timeout",
    422: "UnprocessableEntityError",
    429: "RateLimitError",
    500: "InternalServerError",
    502: "BadGatewayError",
    503: "ServiceUnavailableError",
    504: "Timeout",
}
_GENERIC = {"APIError", "OpenAIError", "APIConnectionError"}


def classify(exc: BaseException, *, provider: str, secrets: list[str] | tuple[str, ...] = (), endpoint: str | None = None) -> LLMErrorInfo:
    """``endpoint``: the --api-base / baseUrl the request went to (credentials masked), named in
    connection and missing-key errors so the line says which server (issue 27)."""
    rule = rule_for(exc)
    status = getattr(exc, "status_code", None)
    if not isinstance(status, int):
        status = None
    if status in _STATUS_RULES and (rule is _FALLBACK or rule in [ERROR_TABLE[n] for n in _GENERIC]):
        rule = ERROR_TABLE[_STATUS_RULES[status]]
    kind, retry = rule.kind, rule.retry
    detail = _detail(exc, secrets)
    if kind == "server" and _CONNECTION_RE.search(detail):
        rule = ERROR_TABLE["APIConnectionError"]
        kind, retry, status = rule.kind, rule.retry, None
    elif kind in {"server", "other"} and _MISSING_KEY_RE.search(detail):
        rule = _MISSING_KEY
        kind, retry, status = rule.kind, rule.retry, None
    if kind in {"bad_request", "other", "server"} and _OVERFLOW_RE.search(detail):
        rule = ERROR_TABLE["ContextWindowExceededError"]
        kind, retry = rule.kind, rule.retry
    if kind == "server" and status is not None and 400 <= status < 500 and status not in (408, 409, 429):
        retry = False
    message = rule.message.format(provider=provider or "the provider")
    if endpoint and (rule is ERROR_TABLE["APIConnectionError"] or rule is _MISSING_KEY):
        message += f" at {endpoint}"
    return LLMErrorInfo(
        kind=kind,
        retryable=retry,
        message=message,
        action=rule.action,
        provider=provider,
        status=status,
        retry_after_s=retry_after_seconds(exc) if retry else None,
        detail=detail,
    )


@dataclass
class RetryPolicy:
    """How often and how long to retry a retryable provider error: up to ``attempts`` calls,
    the server's Retry-After when it sends one (capped), else exponential backoff with jitter."""

    attempts: int = 3
    base_s: float = 0.5
    max_s: float = 8.0
    retry_after_cap_s: float = 60.0

    @classmethod
    def from_env(cls, prefix: str = "OPENCLAW_LLM_RETRY") -> "RetryPolicy":
        def num(name: str, default: float) -> float:
            try:
                return float(os.environ.get(f"{prefix}_{name}", default))
            except ValueError:
                return default

        return cls(
            attempts=max(1, int(num("ATTEMPTS", 3))),
            base_s=max(0.0, num("BASE_S", 0.5)),
            max_s=max(0.0, num("MAX_S", 8.0)),
            retry_after_cap_s=max(0.0, num("AFTER_CAP_S", 60.0)),
        )

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Delay before retry number ``attempt`` (1-based): retry-after wins, else backoff with jitter."""
        if retry_after is not None:
            return min(retry_after, self.retry_after_cap_s)
        raw: float = min(self.max_s, self.base_s * (2 ** (attempt - 1)))
        return raw * (0.75 + 0.5 * random.random())

    def retries(self, retryable: bool, attempt: int) -> bool:
        """Whether a failure of call number ``attempt`` (1-based) is tried again."""
        return retryable and attempt < self.attempts


class Retryable(Exception):
    """An error ``retry_call`` understands: whether to retry and what the server asked for."""

    retryable: bool = False
    retry_after_s: float | None = None


E = TypeVar("E", bound=Retryable)
T = TypeVar("T")


def retry_call(
    call: Callable[[], T],
    classify_error: Callable[[Exception], E],
    policy: RetryPolicy,
    *,
    on_retry: Callable[[E, int, float], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """Run a blocking provider call under ``policy``; raise the classified error at the end."""
    attempt = 0
    while True:
        attempt += 1
        try:
            return call()
        except Exception as exc:  # noqa: BLE001 - classified below
            err = classify_error(exc)
            if not policy.retries(err.retryable, attempt):
                raise err from None
            wait = policy.delay(attempt, err.retry_after_s)
            if on_retry is not None:
                on_retry(err, attempt, wait)
            sleep(wait)
