"""Batch indexing (``memorySearch.remote.batch``) for openai, voyage and gemini.

Big re-indexes go through the providers' asynchronous batch APIs (half price, higher
limits): submit, poll every ``pollIntervalMs``, give up after ``timeoutMinutes``, at most
``concurrency`` jobs in flight. Queries never use batch mode. After two batch failures the
provider stops trying and embeds with plain calls (the caller does that on any failure, so
indexing never fails only because the batch API did).

Wire formats (the tests' loopback servers speak them):

- openai / voyage (the same shape): ``POST {base}/files`` (multipart, ``purpose=batch``,
  a JSONL file, one request a line with a ``custom_id``) → ``{"id"}``; ``POST {base}/batches``
  ``{"input_file_id", "endpoint": "/v1/embeddings", "completion_window"}`` (voyage adds
  ``request_params`` with model and ``input_type``) → ``{"id", "status"}``;
  ``GET {base}/batches/{id}`` until ``status`` is ``completed`` (or failed / expired /
  cancelled); ``GET {base}/files/{output_file_id}/content`` → JSONL of
  ``{"custom_id", "response": {"status_code", "body": {"data": [{"embedding"}]}}}``.
- gemini: ``POST {base}/models/{model}:asyncBatchEmbedContent`` with inline requests
  (``{"batch": {"displayName", "inputConfig": {"requests": {"requests": [{"request",
  "metadata": {"key"}}]}}}}``) → ``{"name": "batches/…"}``; ``GET {base}/{name}`` until
  ``done``/``BATCH_STATE_SUCCEEDED``; vectors in ``…output.inlinedResponses.inlinedResponses
  [].response.embedding.values``.

These are plain HTTP calls (httpx, which litellm already brings): litellm's batch helpers
cover neither voyage's nor gemini's embedding batches.
"""

from __future__ import annotations

import json
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import numpy as np

from openclaw_tui.memory.embeddings.base import EmbeddingError, Endpoint, l2_normalize

if TYPE_CHECKING:
    import httpx

log = logging.getLogger("openclaw_tui.memory.embeddings.batch")

MAX_BATCH_FAILURES = 2
#: texts per batch job (each job is one file / one inline request list)
JOB_SIZE = 1000
DEFAULT_BASES = {
    "openai": "https://api.openai.com/v1",
    "voyage": "https://api.voyageai.com/v1",
    "gemini": "https://generativelanguage.googleapis.com/v1beta",
}
DONE_OK = {"completed", "batch_state_succeeded", "job_state_succeeded", "succeeded"}
DONE_BAD = {"failed", "expired", "cancelled", "cancelling", "batch_state_failed", "batch_state_cancelled",
            "batch_state_expired", "job_state_failed", "job_state_cancelled"}


class BatchFailed(Exception):
    """A batch job failed; ``message`` is one safe line."""


class BatchRunner:
    def __init__(self, endpoint: Endpoint, config: Any):
        self.ep = endpoint
        self.enabled = bool(getattr(config, "enabled", False))
        self.poll_s = max(0.001, getattr(config, "poll_interval_ms", 2000) / 1000.0)
        self.timeout_s = max(0.01, float(getattr(config, "timeout_minutes", 60)) * 60.0)
        self.concurrency = max(1, int(getattr(config, "concurrency", 2)))
        self.job_size = JOB_SIZE
        self.failures = 0
        self.jobs_submitted = 0
        self.last_error: str | None = None

    @property
    def active(self) -> bool:
        return self.enabled and self.failures < MAX_BATCH_FAILURES

    # ----------------------------------------------------------------- http

    def _base(self) -> str:
        return (self.ep.base_url or DEFAULT_BASES[self.ep.id]).rstrip("/")

    def _headers(self) -> dict[str, str]:
        h = dict(self.ep.headers)
        key = self.ep.api_key or ""
        if self.ep.id == "gemini":
            h["x-goog-api-key"] = key
        elif key:
            h["Authorization"] = f"Bearer {key}"
        return h

    def _http(self, method: str, url: str, **kw: Any) -> httpx.Response:
        import httpx  # noqa: PLC0415 - comes with litellm

        try:
            with httpx.Client(timeout=self.ep.timeout_s) as client:
                resp = client.request(method, url, headers=self._headers(), **kw)
        except httpx.HTTPError as exc:
            raise BatchFailed(f"{self.ep.id} batch request failed ({type(exc).__name__})") from None
        if resp.status_code in (401, 403):
            raise EmbeddingError(self.ep.id, f"{self.ep.id} batch API rejected the API key (HTTP {resp.status_code}); "
                                            f"key from {self.ep.key_source or 'no key configured'}",
                                 status=resp.status_code, action=f"check the {self.ep.id} key")
        if resp.status_code >= 400:
            raise BatchFailed(f"{self.ep.id} batch API answered HTTP {resp.status_code}")
        return resp

    def _json(self, resp: httpx.Response) -> dict[str, Any]:
        try:
            data = resp.json()
        except ValueError:
            raise BatchFailed(f"{self.ep.id} batch API returned a malformed body") from None
        if not isinstance(data, dict):
            raise BatchFailed(f"{self.ep.id} batch API returned a malformed body")
        return data

    # ----------------------------------------------------------------- openai / voyage

    def _run_files_job(self, texts: list[str]) -> np.ndarray:
        base = self._base()
        lines = []
        for i, t in enumerate(texts):
            if self.ep.id == "voyage":
                lines.append({"custom_id": str(i), "body": {"input": [t]}})
            else:
                lines.append({"custom_id": str(i), "method": "POST", "url": "/v1/embeddings",
                              "body": {"model": self.ep.model, "input": t}})
        payload = "\n".join(json.dumps(x, ensure_ascii=False) for x in lines).encode()
        up = self._json(self._http("POST", f"{base}/files", data={"purpose": "batch"},
                                   files={"file": ("embeddings.jsonl", payload, "application/jsonl")}))
        file_id = up.get("id")
        if not isinstance(file_id, str):
            raise BatchFailed(f"{self.ep.id} batch upload returned no file id")
        body: dict[str, Any] = {"input_file_id": file_id, "endpoint": "/v1/embeddings", "completion_window": "24h"}
        if self.ep.id == "voyage":
            body["completion_window"] = "12h"
            body["request_params"] = {"model": self.ep.model, "input_type": "document"}
        job = self._json(self._http("POST", f"{base}/batches", json=body))
        self.jobs_submitted += 1
        job_id = job.get("id")
        if not isinstance(job_id, str):
            raise BatchFailed(f"{self.ep.id} batch create returned no batch id")
        deadline = time.monotonic() + self.timeout_s
        while True:
            status = str(job.get("status", "")).lower()
            if status in DONE_OK:
                break
            if status in DONE_BAD:
                raise BatchFailed(f"{self.ep.id} batch {status}")
            if time.monotonic() >= deadline:
                raise BatchFailed(f"{self.ep.id} batch timed out after {self.timeout_s / 60:g} min")
            time.sleep(self.poll_s)
            job = self._json(self._http("GET", f"{base}/batches/{job_id}"))
        out_id = job.get("output_file_id")
        if not isinstance(out_id, str):
            raise BatchFailed(f"{self.ep.id} batch completed without an output file")
        content = self._http("GET", f"{base}/files/{out_id}/content").text
        vecs: dict[int, list[float]] = {}
        for raw in content.splitlines():
            if not raw.strip():
                continue
            try:
                row = json.loads(raw)
                idx = int(row["custom_id"])
                resp = row.get("response") or {}
                if int(resp.get("status_code", 200)) != 200:
                    raise BatchFailed(f"{self.ep.id} batch item failed (HTTP {resp.get('status_code')})")
                vecs[idx] = resp["body"]["data"][0]["embedding"]
            except BatchFailed:
                raise
            except (ValueError, KeyError, IndexError, TypeError):
                raise BatchFailed(f"{self.ep.id} batch output is malformed") from None
        return self._assemble(vecs, len(texts))

    # ----------------------------------------------------------------- gemini

    def _run_gemini_job(self, texts: list[str]) -> np.ndarray:
        base = self._base()
        model = f"models/{self.ep.model}"
        reqs = [{"request": {"model": model, "content": {"parts": [{"text": t}]}, "taskType": "RETRIEVAL_DOCUMENT"},
                 "metadata": {"key": str(i)}} for i, t in enumerate(texts)]
        body = {"batch": {"displayName": "openclaw-memory-index", "inputConfig": {"requests": {"requests": reqs}}}}
        op = self._json(self._http("POST", f"{base}/{model}:asyncBatchEmbedContent", json=body))
        self.jobs_submitted += 1
        name = op.get("name")
        if not isinstance(name, str) or not name:
            raise BatchFailed("gemini batch create returned no batch name")
        deadline = time.monotonic() + self.timeout_s
        while True:
            found = op.get("metadata")
            meta: dict[str, Any] = found if isinstance(found, dict) else {}
            state = str(meta.get("state") or op.get("state") or "").lower()
            if op.get("error"):
                raise BatchFailed("gemini batch failed")
            if state in DONE_BAD:
                raise BatchFailed(f"gemini batch {state.replace('batch_state_', '')}")
            if op.get("done") or state in DONE_OK:
                break
            if time.monotonic() >= deadline:
                raise BatchFailed(f"gemini batch timed out after {self.timeout_s / 60:g} min")
            time.sleep(self.poll_s)
            op = self._json(self._http("GET", f"{base}/{name}"))
        response = op.get("response")
        holder: dict[str, Any] = response if isinstance(response, dict) else op.get("metadata") or {}
        try:
            out = holder.get("output", holder)
            items = out["inlinedResponses"]["inlinedResponses"]
            vecs: dict[int, list[float]] = {}
            for pos, item in enumerate(items):
                key = (item.get("metadata") or {}).get("key", pos)
                if item.get("error"):
                    raise BatchFailed("gemini batch item failed")
                vecs[int(key)] = item["response"]["embedding"]["values"]
        except BatchFailed:
            raise
        except (ValueError, KeyError, TypeError, AttributeError):
            raise BatchFailed("gemini batch output is malformed") from None
        return self._assemble(vecs, len(texts))

    # ----------------------------------------------------------------- shared

    def _assemble(self, vecs: dict[int, list[float]], n: int) -> np.ndarray:
        if sorted(vecs) != list(range(n)):
            raise BatchFailed(f"{self.ep.id} batch returned {len(vecs)} of {n} vectors")
        try:
            arr = np.asarray([vecs[i] for i in range(n)], dtype=np.float32)
        except (TypeError, ValueError):
            raise BatchFailed(f"{self.ep.id} batch returned non-numeric vectors") from None
        if arr.ndim != 2 or not np.all(np.isfinite(arr)):
            raise BatchFailed(f"{self.ep.id} batch returned malformed vectors")
        return l2_normalize(arr)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed ``texts`` with batch jobs; raises BatchFailed/EmbeddingError on failure."""
        run = self._run_gemini_job if self.ep.id == "gemini" else self._run_files_job
        groups = [texts[i:i + self.job_size] for i in range(0, len(texts), self.job_size)]
        if len(groups) == 1 or self.concurrency == 1:
            parts = [run(g) for g in groups]
        else:
            with ThreadPoolExecutor(max_workers=min(self.concurrency, len(groups))) as pool:
                parts = list(pool.map(run, groups))
        return np.vstack(parts)

    def try_embed(self, texts: list[str]) -> np.ndarray | None:
        """Batch-embed, or None after recording a failure (the caller then uses plain calls)."""
        if not self.active:
            return None
        try:
            return self.embed(texts)
        except EmbeddingError:
            raise
        except BatchFailed as exc:
            self.failures += 1
            self.last_error = str(exc)
            state = "batch mode disabled, using plain calls" if not self.active else "using plain calls this time"
            log.warning("%s (%d/%d failures); %s", exc, self.failures, MAX_BATCH_FAILURES, state)
            return None
