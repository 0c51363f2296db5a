"""Remote embedding providers, all reached through ``litellm.embedding``.

One class, :class:`RemoteProvider`, serves openai, gemini, voyage, mistral and ollama;
a :class:`ProviderSpec` per provider holds what differs: the litellm model prefix, the
default endpoint, how the query/document task type is passed, and input limits.

Wire formats (what litellm sends; the tests' loopback servers speak them):

- openai / mistral: ``POST {base}/embeddings`` ``{"model", "input": [...]}`` with
  ``Authorization: Bearer``; answer ``{"data": [{"index", "embedding"}]}``. We hand
  litellm our own ``openai.OpenAI`` client with ``max_retries=0`` so the SDK does not
  retry behind our back (litellm turns ``max_retries=0`` into its default of 2).
- gemini: ``POST {base}/models/{model}:batchEmbedContents`` with ``x-goog-api-key``,
  one request per text carrying ``taskType`` RETRIEVAL_DOCUMENT / RETRIEVAL_QUERY;
  answer ``{"embeddings": [{"values": [...]}]}``. ``remote.baseUrl`` for gemini is the
  part before ``/models`` (e.g. ``https://generativelanguage.googleapis.com/v1beta``).
- voyage: ``POST {base}/embeddings`` ``{"input", "model", "input_type": "document"|"query"}``.
- ollama: ``POST {base}/api/embed`` ``{"model", "input": [...]}``; answer
  ``{"embeddings": [[...]], "prompt_eval_count"}``. nomic models get their task
  prefixes ``search_document: `` / ``search_query: ``.

Errors: the chat's error table and retry policy (``llm/errors.py``) serve embeddings too.
Every failure becomes an :class:`EmbeddingError` with a one-line message that names the
provider (and, for 401/403, where the key came from) and never holds the key. 429, 5xx,
timeouts and connection errors are retried (3 attempts, exponential backoff with jitter
from ``backoff_base_s`` — 0.5 s by default, capped at 8 s — or the server's ``Retry-After``
when it sends one).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from openclaw_tui._offline import ensure_offline_env, import_litellm
from openclaw_tui.llm.errors import LLMErrorInfo, RetryPolicy, classify, redact, retry_call
from openclaw_tui.memory.embeddings.base import (
    EmbeddingError,
    EmbeddingProvider,
    Endpoint,
    ProviderInfo,
    endpoint_key,
    l2_normalize,
)

if TYPE_CHECKING:
    import tiktoken

log = logging.getLogger("openclaw_tui.memory.embeddings")

RETRY_ATTEMPTS = 3
BACKOFF_START_S = 0.5
BACKOFF_MAX_S = 8.0
#: never wait longer than this for a server's Retry-After
RETRY_AFTER_MAX_S = 60.0
#: tests (and impatient users) can shrink the backoff base with this variable
BACKOFF_ENV = "OPENCLAW_EMBED_BACKOFF_BASE_S"
DEFAULT_BATCH_TOKENS = 8000


@dataclass(frozen=True)
class ProviderSpec:
    id: str
    litellm_prefix: str
    default_model: str
    default_base: str | None
    needs_key: bool = True
    openai_client: bool = False
    doc_params: dict[str, Any] = field(default_factory=dict)
    query_params: dict[str, Any] = field(default_factory=dict)
    max_input_tokens: int = 8000
    max_batch_items: int = 256


SPECS: dict[str, ProviderSpec] = {
    "openai": ProviderSpec(
        "openai", "openai", "text-embedding-3-small", "https://api.openai.com/v1",
        openai_client=True, max_input_tokens=8191, max_batch_items=2048,
    ),
    "mistral": ProviderSpec(
        "mistral", "mistral", "mistral-embed", "https://api.mistral.ai/v1",
        openai_client=True, max_input_tokens=8192, max_batch_items=512,
    ),
    "gemini": ProviderSpec(
        "gemini", "gemini", "gemini-embedding-001", None,
        doc_params={"task_type": "RETRIEVAL_DOCUMENT"},
        query_params={"task_type": "RETRIEVAL_QUERY"},
        max_input_tokens=2048, max_batch_items=100,
    ),
    "voyage": ProviderSpec(
        "voyage", "voyage", "voyage-4-large", None,
        doc_params={"input_type": "document"},
        query_params={"input_type": "query"},
        max_input_tokens=32000, max_batch_items=1000,
    ),
    "ollama": ProviderSpec(
        "ollama", "ollama", "nomic-embed-text", "http://localhost:11434",
        needs_key=False, max_input_tokens=2048, max_batch_items=256,
    ),
}

#: nomic embedding models expect their task as a text prefix
NOMIC_PREFIXES = ("search_document: ", "search_query: ")


# --------------------------------------------------------------------------- tokens and batching

_ENC: tiktoken.Encoding | None = None


def _encoding() -> tiktoken.Encoding:
    global _ENC
    if _ENC is None:
        ensure_offline_env()
        import tiktoken  # noqa: PLC0415

        _ENC = tiktoken.get_encoding("cl100k_base")
    return _ENC


def estimate_tokens(text: str) -> int:
    """Token count used for request sizing (tiktoken cl100k; a cheap bound for very long text)."""
    if len(text) > 200_000:
        return len(text)  # never hand huge text to BPE; chars bound tokens from above
    return len(_encoding().encode(text, disallowed_special=()))


def truncate_tokens(text: str, max_tokens: int) -> str:
    enc = _encoding()
    ids = enc.encode(text[: max_tokens * 8], disallowed_special=())
    if len(ids) <= max_tokens:
        return text if len(text) <= max_tokens * 8 else enc.decode(ids)
    return enc.decode(ids[:max_tokens])


def plan_batches(
    token_counts: list[int], max_batch_tokens: int, max_items: int | None = None
) -> list[tuple[int, int]]:
    """Split a sequence into ``[start, end)`` runs whose token sums stay within the budget.

    A single text above the budget gets a run of its own (it is truncated beforehand).
    """
    runs: list[tuple[int, int]] = []
    start, total = 0, 0
    for i, n in enumerate(token_counts):
        full = (i > start) and (total + n > max_batch_tokens or (max_items is not None and i - start >= max_items))
        if full:
            runs.append((start, i))
            start, total = i, 0
        total += n
    if start < len(token_counts):
        runs.append((start, len(token_counts)))
    return runs


# --------------------------------------------------------------------------- error mapping
#
# The shared table (llm/errors.classify) decides kind, status, retry and Retry-After; this
# only words the result for embeddings and adds what embeddings see that chat does not: a
# 2xx answer with a body that is not an embeddings response (litellm reports it as a 500).

_REFUSED = {"bad_request", "not_found", "unsupported", "overflow", "policy", "budget"}


def _wording(kind: str, provider: str, status: int | None, name: str, key_source: str) -> tuple[str, str]:
    """(message, action) for one kind of failure."""
    src = key_source or "no key configured"
    return {
        "auth": (f"{provider} embeddings rejected the API key (HTTP {status}); key from {src}",
                 f"check the {provider} key ({src}) or set memorySearch.provider"),
        "timeout": (f"{provider} embeddings timed out", "retry later or raise the timeout"),
        "rate": (f"{provider} embeddings rate-limited (HTTP 429)", "wait and retry, or enable remote.batch"),
        "server": (f"{provider} embeddings server error (HTTP {status})", "retry later"),
        "malformed": (f"{provider} embeddings returned a malformed response",
                      "check remote.baseUrl points at a real embeddings endpoint"),
        "connection": (f"{provider} embeddings endpoint unreachable ({name})", "check remote.baseUrl and that the server runs"),
        "refused": (f"{provider} embeddings request refused (HTTP {status})", "check memorySearch.model and the input"),
    }.get(kind, (f"{provider} embeddings failed ({name})", ""))


def _embedding_kind(exc: BaseException, info: LLMErrorInfo) -> tuple[str, int | None, bool]:
    """(kind, status, retryable) for an embeddings failure, from the shared classification."""
    kind, status = info.kind, info.status
    if kind in ("auth", "permission"):
        return "auth", status or 401, False
    if kind == "timeout" or "timed out" in str(exc).lower():
        return "timeout", status or 408, True
    if kind == "rate":
        return "rate", 429, True
    if kind == "malformed" or _bad_body(exc) or isinstance(exc, (KeyError, TypeError, ValueError)):
        return "malformed", status, False
    if kind == "server" and status is not None and status >= 500:
        return "server", status, True
    if kind in ("connection", "server") and status is None or isinstance(exc, OSError):
        return "connection", status, True
    if kind in _REFUSED or (status is not None and 400 <= status < 500):
        return "refused", status, False
    return "other", status, True


def map_exception(exc: BaseException, provider: str, key_source: str, secrets: tuple[str, ...] = ()) -> EmbeddingError:
    """Any failure of an embeddings call as a safe, one-line :class:`EmbeddingError`."""
    if isinstance(exc, EmbeddingError):
        return exc
    info = classify(exc, provider=provider, secrets=secrets)
    kind, status, retry = _embedding_kind(exc, info)
    message, action = _wording(kind, provider, status, type(exc).__name__, key_source)
    return EmbeddingError(provider, redact(message, secrets), status=status, retryable=retry,
                          action=redact(action, secrets), retry_after_s=info.retry_after_s if retry else None)


def _bad_body(exc: BaseException) -> bool:
    """True when the server answered 2xx but the body was not the expected JSON.

    litellm reports that as a generic 500 / connection error; the cause chain tells the truth
    (a JSON decode error, a missing key, or a provider error carrying status 200).
    """
    seen = 0
    cur: BaseException | None = exc
    while cur is not None and seen < 8:
        if isinstance(cur, (KeyError, IndexError)) or type(cur).__name__ == "JSONDecodeError":
            return True
        if cur is not exc and getattr(cur, "status_code", None) == 200:
            return True
        cur = cur.__cause__ or cur.__context__
        seen += 1
    return False


# --------------------------------------------------------------------------- provider

_NO_RETRY_CLASS: Any = None


def _no_retry_openai_class() -> Any:  # type[openai.OpenAI]
    """An ``openai.OpenAI`` whose ``max_retries`` stays 0.

    litellm writes its default (2) onto any client it is given, and the SDK would then retry
    behind our back; we retry ourselves (with Retry-After and events), so pin it to 0.
    """
    global _NO_RETRY_CLASS
    if _NO_RETRY_CLASS is None:
        import openai  # noqa: PLC0415 - installed with litellm

        class _NoRetryOpenAI(openai.OpenAI):
            @property
            def max_retries(self) -> int:
                return 0

            @max_retries.setter
            def max_retries(self, value: int) -> None:
                pass

        _NO_RETRY_CLASS = _NoRetryOpenAI
    return _NO_RETRY_CLASS


class RemoteProvider(EmbeddingProvider):
    """A litellm-backed embedding provider (openai, gemini, voyage, mistral, ollama)."""

    max_input_tokens: int  # always known: the provider spec's limit

    def __init__(
        self,
        provider_id: str = "openai",
        *,
        model: str | None = None,
        api_key: str | None = None,
        base_url: str | None = None,
        headers: dict[str, str] | None = None,
        key_source: str = "",
        timeout_s: float = 60.0,
        backoff_base_s: float | None = None,
        attempts: int = RETRY_ATTEMPTS,
        max_batch_tokens: int = DEFAULT_BATCH_TOKENS,
        on_retry: Callable[[EmbeddingError, int, float], None] | None = None,
        batch: Any = None,
    ):
        if provider_id not in SPECS:
            raise ValueError(f"unknown embedding provider {provider_id!r}")
        self.spec = SPECS[provider_id]
        self.model = model or self.spec.default_model
        self._api_key = api_key
        self.base_url = (base_url or "").rstrip("/") or None
        self.headers = dict(headers or {})
        self.key_source = key_source
        self.timeout_s = timeout_s
        if backoff_base_s is None:
            try:
                backoff_base_s = float(os.environ.get(BACKOFF_ENV, "") or BACKOFF_START_S)
            except ValueError:
                backoff_base_s = BACKOFF_START_S
        self.backoff_base_s = max(0.0, backoff_base_s)
        self.attempts = max(1, attempts)
        self.policy = RetryPolicy(attempts=self.attempts, base_s=self.backoff_base_s, max_s=BACKOFF_MAX_S,
                                  retry_after_cap_s=RETRY_AFTER_MAX_S)
        self.max_batch_tokens = max_batch_tokens
        self.max_input_tokens = self.spec.max_input_tokens
        self.on_retry = on_retry
        #: delays slept between attempts, in order (for events and tests)
        self.retry_log: list[float] = []
        #: number of HTTP requests made (each attempt counts)
        self.requests = 0
        self.fallback = None
        self._client: Any = None
        self.info = ProviderInfo(provider_id, self.model, endpoint_key(self.base_url, self.model, self.headers))
        self.batch = None
        if batch is not None and getattr(batch, "enabled", False) and provider_id in ("openai", "gemini", "voyage"):
            from openclaw_tui.memory.embeddings.batch import BatchRunner  # noqa: PLC0415

            self.batch = BatchRunner(self.endpoint, batch)

    # ----------------------------------------------------------------- helpers

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def endpoint(self) -> Endpoint:
        return Endpoint(self.id, self.model, self.base_url, self._api_key, tuple(self.headers.items()), self.key_source, self.timeout_s)

    def _secrets(self) -> tuple[str, ...]:
        out = [self._api_key or ""]
        out += [v for k, v in self.headers.items() if k.lower() in {"authorization", "x-api-key", "api-key", "x-goog-api-key"}]
        return tuple(x for x in out if x)

    def _openai_client(self) -> Any:  # openai.OpenAI
        if self._client is None:
            self._client = _no_retry_openai_class()(
                api_key=self._api_key or "sk-none",
                base_url=self.base_url or self.spec.default_base,
                max_retries=0,
                timeout=self.timeout_s,
                default_headers=self.headers or None,
            )
        return self._client

    def _prepare(self, texts: list[str], query: bool) -> list[str]:
        out = []
        prefix = ""
        if self.spec.id == "ollama" and "nomic" in self.model.lower():
            prefix = NOMIC_PREFIXES[1] if query else NOMIC_PREFIXES[0]
        for t in texts:
            t = t if t.strip() else " "
            if estimate_tokens(t) > self.max_input_tokens:
                t = truncate_tokens(t, self.max_input_tokens)
            out.append(prefix + t)
        return out

    def _request(self, texts: list[str], query: bool) -> np.ndarray:
        litellm = import_litellm()
        kwargs: dict[str, Any] = {
            "model": f"{self.spec.litellm_prefix}/{self.model}",
            "input": texts,
            "timeout": self.timeout_s,
        }
        kwargs.update(self.spec.query_params if query else self.spec.doc_params)
        if self.spec.needs_key and not self._api_key and not (self.spec.openai_client and self.base_url):
            raise EmbeddingError(self.id, f"{self.id} embeddings need an API key; none configured", status=401,
                                 action=f"set memorySearch.remote.apiKey, models.providers.{self.id}.apiKey or the env key")
        if self.spec.openai_client:
            kwargs["client"] = self._openai_client()
            kwargs["api_key"] = self._api_key or "sk-none"
            kwargs["api_base"] = self.base_url or self.spec.default_base
        else:
            if self._api_key:
                kwargs["api_key"] = self._api_key
            if self.base_url or self.spec.default_base:
                kwargs["api_base"] = self.base_url or self.spec.default_base
            if self.headers:
                kwargs["extra_headers"] = dict(self.headers)
        self.requests += 1
        resp = litellm.embedding(**kwargs)
        data = list(resp.data or [])
        rows = []
        for pos, d in enumerate(data):
            idx = d.get("index", pos) if isinstance(d, dict) else getattr(d, "index", pos)
            vec = d.get("embedding") if isinstance(d, dict) else getattr(d, "embedding", None)
            rows.append((idx if isinstance(idx, int) else pos, vec))
        rows.sort(key=lambda r: r[0])
        vecs: list[Any] = [r[1] for r in rows]
        if len(vecs) != len(texts) or any(not isinstance(v, list) or not v for v in vecs):
            raise EmbeddingError(self.id, f"{self.id} embeddings returned a malformed response "
                                          f"({len(vecs)} vectors for {len(texts)} inputs)",
                                 action="check remote.baseUrl points at a real embeddings endpoint")
        dims = {len(v) for v in vecs}
        if len(dims) != 1:
            raise EmbeddingError(self.id, f"{self.id} embeddings returned vectors of mixed sizes {sorted(dims)}")
        try:
            arr = np.asarray(vecs, dtype=np.float32)
        except (TypeError, ValueError):
            raise EmbeddingError(self.id, f"{self.id} embeddings returned a malformed response (non-numeric values)") from None
        if not np.all(np.isfinite(arr)):
            raise EmbeddingError(self.id, f"{self.id} embeddings returned non-finite values")
        return l2_normalize(arr)

    def _classify(self, exc: Exception) -> EmbeddingError:
        err = map_exception(exc, self.id, self.key_source, self._secrets())
        log.debug("embedding request failed: %s", err.message)
        return err

    def _retrying(self, err: EmbeddingError, attempt: int, delay: float) -> None:
        self.retry_log.append(delay)
        if self.on_retry is not None:
            try:
                self.on_retry(err, attempt, delay)
            except Exception:  # noqa: BLE001 - a listener never breaks embedding
                pass

    def _call(self, texts: list[str], query: bool = False) -> np.ndarray:
        """One embeddings request under the shared retry policy (``llm/errors.py``)."""
        return retry_call(lambda: self._request(texts, query), self._classify, self.policy, on_retry=self._retrying)

    # ----------------------------------------------------------------- interface

    def embed_batches(self, texts: list[str], query: bool = False) -> np.ndarray:
        prepared = self._prepare(texts, query)
        counts = [estimate_tokens(t) for t in prepared]
        parts = [self._call(prepared[a:b], query) for a, b in plan_batches(counts, self.max_batch_tokens, self.spec.max_batch_items)]
        return np.vstack(parts) if parts else np.zeros((0, 0), dtype=np.float32)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        if self.batch is not None and self.batch.active:
            prepared = self._prepare(list(texts), False)
            got = self.batch.try_embed(prepared)
            if got is not None:
                return got
        return self.embed_batches(list(texts), query=False)

    def embed_query(self, text: str) -> np.ndarray:
        row: np.ndarray = self._call(self._prepare([text], True), query=True)[0]
        return row

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            try:
                client.close()
            except Exception:  # noqa: BLE001
                pass


class OpenAICompatibleProvider(RemoteProvider):
    """The first-cut name: an OpenAI-compatible endpoint (``remote.baseUrl`` + ``remote.headers``)."""

    def __init__(
        self,
        *,
        model: str = "text-embedding-3-small",
        api_key: str | None,
        base_url: str | None = None,
        headers: dict[str, str] | None = None,
        key_source: str = "config",
        provider_id: str = "openai",
        timeout_s: float = 60.0,
        **kw: Any,
    ):
        super().__init__(
            provider_id, model=model, api_key=api_key, base_url=base_url, headers=headers,
            key_source=key_source, timeout_s=timeout_s, **kw,
        )
